"""The running SEO plugins' own sitemap settings: which post types and taxonomies they list,
whether they list authors, which posts and terms they leave out (issue #24).

Read only for the plugins that run (SeoChoice.active); where none runs, Yoast's `wpseo_titles`
switches keep applying as before. Sources, at the versions tests/oracle/seoplugins/README.md
names: All in One SEO 4.9.9 `app/Common/Options/Options.php` and `app/Common/Sitemap/`
(`aioseo_options`, JSON), Rank Math 1.0.217 `includes/class-installer.php` and
`includes/modules/sitemap/` (`rank-math-options-sitemap`, serialized), SEOPress 9.4.1
`src/Actions/Options/Init.php` (`seopress_xml_sitemap_option_name`, serialized), The SEO
Framework 5.1.4 `inc/classes/data/plugin/setup.class.php` (`autodescription-site-settings`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from wpsitemaps.wordpress.ids import parse_id
from wpsitemaps.wordpress.phpdata import as_dict
from wpsitemaps.wordpress.phpdata import unserialize
from wpsitemaps.wordpress.seoplugins import AIOSEO
from wpsitemaps.wordpress.seoplugins import RANK_MATH
from wpsitemaps.wordpress.seoplugins import SEOPRESS
from wpsitemaps.wordpress.seoplugins import TSF

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PluginSitemap:
    """One plugin's sitemap settings. `only_*`: the names it lists (None: every public one);
    `off_*`: the names it leaves out; `authors`: None when it has no say."""

    plugin: str
    only_post_types: frozenset[str] | None = None
    only_taxonomies: frozenset[str] | None = None
    off_post_types: frozenset[str] = frozenset()
    off_taxonomies: frozenset[str] = frozenset()
    authors: bool | None = None
    exclude_posts: tuple[int, ...] = ()
    exclude_terms: tuple[int, ...] = ()
    # AIOSEO: a post in an excluded term is left out too (Sitemap/Query.php posts()).
    terms_take_posts: bool = False
    # Rank Math: authors left out by role slug and by ID.
    exclude_roles: tuple[str, ...] = ()
    exclude_users: tuple[int, ...] = ()

    def lists_type(self, name: str, taxonomy: bool = False) -> bool:
        """Whether this plugin lists the post type (or taxonomy) `name`."""
        only = self.only_taxonomies if taxonomy else self.only_post_types
        off = self.off_taxonomies if taxonomy else self.off_post_types
        return (only is None or name in only) and name not in off


def _json(text: str | None, name: str) -> dict[str, Any]:
    """A JSON option as a dict ({} when absent or unreadable, logged)."""
    if not text:
        return {}
    try:
        value = json.loads(text)
    except ValueError:
        log.warning("option %s is not valid JSON: ignored", name)
        return {}
    return value if isinstance(value, dict) else {}


def _ids(entries: Any) -> tuple[int, ...]:
    """IDs from AIOSEO's excludePosts/excludeTerms: numbers, or JSON strings with an integer
    `value` (as its settings screen saves them); anything else is skipped."""
    out: list[int] = []
    for entry in entries if isinstance(entries, list) else []:
        value: Any = entry
        if isinstance(entry, str) and entry.strip().startswith("{"):
            try:
                value = json.loads(entry).get("value")
            except (ValueError, AttributeError):
                continue
        if isinstance(value, bool):
            continue
        found = parse_id(str(value)) if isinstance(value, int | str) else None
        if found:
            out.append(found)
    return tuple(out)


def _names(block: Mapping[str, Any]) -> frozenset[str] | None:
    """`{all, included}` as the names listed (None when all)."""
    if block.get("all") is True or not isinstance(block.get("included"), list):
        return None
    return frozenset(str(n) for n in block["included"])


def _aioseo_noindexed(block: Mapping[str, Any], global_robots: Mapping[str, Any]) -> bool:
    """AIOSEO's search appearance of a type, taxonomy or archive says noindex: hidden
    (`show` false), its own robots meta (`default` false, `noindex` true), or, left on
    defaults, the global robots meta (`app/Common/Traits/Helpers/Wp.php`
    `getNoindexedObjects()`)."""
    if block.get("show") is False:
        return True
    robots = as_dict(as_dict(block.get("advanced")).get("robotsMeta"))
    if robots.get("default") is False:
        return robots.get("noindex") is True
    return global_robots.get("default") is False and global_robots.get("noindex") is True


def aioseo(raw: Mapping[str, str]) -> PluginSitemap:
    """All in One SEO 4: `aioseo_options` → sitemap.general (defaults: all types and
    taxonomies, no author sitemap); types, taxonomies and author archives noindexed in its
    search appearance (`aioseo_options_dynamic`, `aioseo_options`) have no sitemap."""
    options = _json(raw.get("aioseo_options"), "aioseo_options")
    general = as_dict(as_dict(options.get("sitemap")).get("general"))
    advanced = as_dict(general.get("advancedSettings"))
    appearance = as_dict(options.get("searchAppearance"))
    global_robots = as_dict(as_dict(appearance.get("advanced")).get("globalRobotsMeta"))
    dynamic = as_dict(_json(raw.get("aioseo_options_dynamic"), "aioseo_options_dynamic")
                      .get("searchAppearance"))

    def noindexed(section: str) -> frozenset[str]:
        return frozenset(str(name) for name, block in as_dict(dynamic.get(section)).items()
                         if _aioseo_noindexed(as_dict(block), global_robots))

    author = as_dict(as_dict(appearance.get("archives")).get("author"))
    return PluginSitemap(AIOSEO, _names(as_dict(general.get("postTypes"))),
                         _names(as_dict(general.get("taxonomies"))),
                         off_post_types=noindexed("postTypes"),
                         off_taxonomies=noindexed("taxonomies"),
                         authors=general.get("author") is True
                         and not _aioseo_noindexed(author, global_robots),
                         exclude_posts=_ids(advanced.get("excludePosts")),
                         exclude_terms=_ids(advanced.get("excludeTerms")),
                         terms_take_posts=True)


def _comma_ids(value: Any) -> tuple[int, ...]:
    return tuple(i for i in (parse_id(p.strip()) for p in str(value or "").split(",")) if i)


def rank_math(raw: Mapping[str, str]) -> PluginSitemap:
    """Rank Math: `pt_{type}_sitemap` 'off' leaves a type out; `tax_{tax}_sitemap` lists a
    taxonomy only when 'on' (the installer sets it for category alone); exclusions by ID."""
    opts = as_dict(unserialize(raw.get("rank-math-options-sitemap"), "Rank Math sitemap"))
    if not opts:
        return PluginSitemap(RANK_MATH)
    keys = {str(k): v for k, v in opts.items()}
    off_types = frozenset(k[3:-8] for k, v in keys.items()
                          if k.startswith("pt_") and k.endswith("_sitemap") and v != "on")
    taxes = {k[4:-8]: v for k, v in keys.items() if k.startswith("tax_") and k.endswith("_sitemap")}
    return PluginSitemap(RANK_MATH, off_post_types=off_types,
                         off_taxonomies=frozenset(n for n, v in taxes.items() if v != "on"),
                         authors=keys.get("authors_sitemap") == "on",
                         exclude_posts=_comma_ids(keys.get("exclude_posts")),
                         exclude_terms=_comma_ids(keys.get("exclude_terms")),
                         exclude_roles=_roles(keys.get("exclude_roles")),
                         exclude_users=_comma_ids(keys.get("exclude_users")))


def _roles(value: Any) -> tuple[str, ...]:
    """Rank Math's `exclude_roles`: a list of role slugs as its settings screen saves it
    (its installer stores a role => name map; the keys are the slugs then)."""
    if isinstance(value, dict):
        items = [k if not str(k).isdigit() else v for k, v in value.items()]
    else:
        items = value if isinstance(value, list) else []
    return tuple(str(r) for r in items if str(r).strip())


def seopress(raw: Mapping[str, str]) -> PluginSitemap:
    """SEOPress: the types and taxonomies checked ('include' = '1') and the author switch."""
    opts = as_dict(unserialize(raw.get("seopress_xml_sitemap_option_name"), "SEOPress sitemap"))
    if not opts:
        return PluginSitemap(SEOPRESS)

    def included(key: str) -> frozenset[str]:
        return frozenset(str(n) for n, v in as_dict(opts.get(key)).items()
                         if str(as_dict(v).get("include", "")) == "1")

    return PluginSitemap(SEOPRESS, included("seopress_xml_sitemap_post_types_list"),
                         included("seopress_xml_sitemap_taxonomies_list"),
                         authors=str(opts.get("seopress_xml_sitemap_author_enable", "")) == "1")


def tsf(raw: Mapping[str, str]) -> PluginSitemap:
    """The SEO Framework: the types and taxonomies it noindexes or disables (`[name => 1]`);
    `author_noindex` noindexes every author archive."""
    opts = as_dict(unserialize(raw.get("autodescription-site-settings"), "TSF settings"))

    def on(key: str) -> frozenset[str]:
        return frozenset(str(n) for n, v in as_dict(opts.get(key)).items() if str(v) == "1")

    return PluginSitemap(TSF, off_post_types=on("noindex_post_types") | on("disabled_post_types"),
                         off_taxonomies=on("noindex_taxonomies") | on("disabled_taxonomies"),
                         authors=False if str(opts.get("author_noindex", "")) == "1" else None)


READERS = {AIOSEO: aioseo, RANK_MATH: rank_math, SEOPRESS: seopress, TSF: tsf}


def plugin_sitemaps(active: tuple[str, ...], raw: Mapping[str, str],
                    ) -> tuple[PluginSitemap, ...]:
    """The sitemap settings of the running plugins that have them (Yoast's stay in
    `wpseo_titles`, read through SiteOptions.yoast_on)."""
    return tuple(READERS[name](raw) for name in active if name in READERS)
