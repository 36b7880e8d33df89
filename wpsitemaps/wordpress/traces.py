"""Public post types and taxonomies named in SEO plugins' settings.

Each of these plugins keeps per-type settings only for the types WordPress reports as public
and viewable when its settings are written, so a name in them is evidence that the type is
public. A plugin that was deactivated leaves its settings behind; the caller checks that
WordPress still knows the type (rewrite rules), see contenttypes.py.

Shapes, as each plugin stores them:
* Yoast SEO, option `wpseo_titles` (serialized): `title-{type}`, `noindex-{type}`,
  `title-tax-{taxonomy}`, `noindex-tax-{taxonomy}`; `title-ptarchive-{type}` only for types
  with an archive (Yoast-dist/wordpress-seo `inc/options/class-wpseo-option-titles.php`).
* Rank Math, option `rank-math-options-titles` (serialized): `pt_{type}_title` and
  `pt_{type}_robots` for Helper::get_accessible_post_types() (public, is_post_type_viewable),
  `pt_{type}_archive_title` when the type has an archive, `tax_{taxonomy}_title` and
  `tax_{taxonomy}_robots` for get_accessible_taxonomies() (public)
  (rankmath/seo-by-rank-math `includes/class-installer.php`, `includes/helpers/class-post-type.php`,
  `includes/helpers/class-taxonomy.php`).
* All in One SEO 4, option `aioseo_options_dynamic` (JSON): `searchAppearance.postTypes.{type}`
  for getPublicPostTypes() (is_post_type_viewable), `searchAppearance.archives.{type}` for those
  with an archive, `searchAppearance.taxonomies.{taxonomy}` for getPublicTaxonomies()
  (is_taxonomy_viewable; it leaves out WooCommerce attributes and `product_shipping_class`)
  (awesomemotive/all-in-one-seo-pack `app/Common/Options/DynamicOptions.php`,
  `app/Common/Traits/Helpers/Wp.php`).
* SEOPress, option `seopress_titles_option_name` (serialized):
  `seopress_titles_single_titles.{type}` and `seopress_titles_tax_titles.{taxonomy}` for
  WordPressData::getPostTypes() / getTaxonomies() (public, viewable)
  (wp-seopress/wp-seopress-public `src/Services/WordPressData.php`,
  `inc/admin/wizard/admin-wizard.php`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from wpsitemaps.wordpress.phpdata import as_dict
from wpsitemaps.wordpress.phpdata import unserialize

OPTION_NAMES = ("rank-math-options-titles", "aioseo_options_dynamic",
                "seopress_titles_option_name")
RANK_MATH_PT_RE = re.compile(r"^pt_(?P<name>.+)_(?P<key>title|robots)$")
RANK_MATH_TAX_RE = re.compile(r"^tax_(?P<name>.+)_(?P<key>title|robots)$")


@dataclass(frozen=True)
class SeoTraces:
    """{name: [plugin, ...]} of public post types and taxonomies, and types with archives."""

    post_types: dict[str, list[str]] = field(default_factory=dict)
    taxonomies: dict[str, list[str]] = field(default_factory=dict)
    archives: dict[str, list[str]] = field(default_factory=dict)

    def add(self, kind: str, names: Any, plugin: str) -> None:
        """Record names (keys of a settings array) as seen by a plugin."""
        target: dict[str, list[str]] = getattr(self, kind)
        for name in names:
            if isinstance(name, str) and name and plugin not in target.get(name, []):
                target.setdefault(name, []).append(plugin)


def _yoast(titles: Mapping[Any, Any], out: SeoTraces) -> None:
    """Yoast SEO's `wpseo_titles` keys."""
    for key in titles:
        text = str(key)
        for prefix in ("title-tax-", "noindex-tax-"):
            if text.startswith(prefix):
                out.add("taxonomies", [text[len(prefix):]], "Yoast SEO")
        if text.startswith("title-ptarchive-"):
            out.add("archives", [text[len("title-ptarchive-"):]], "Yoast SEO")
        elif text.startswith(("title-", "noindex-")) and not text.endswith("-wpseo") and \
                not text.startswith(("title-tax-", "noindex-tax-", "noindex-ptarchive-")):
            # Site-wide switches end in '-wpseo' (title-home-wpseo, noindex-author-wpseo).
            out.add("post_types", [text.split("-", 1)[1]], "Yoast SEO")


def _paired(keys: Any, pattern: re.Pattern[str]) -> set[str]:
    """Names that have both a `_title` and a `_robots` key (so `pt_x_archive_title` alone,
    or `pt_x_custom_robots` alone, name no type)."""
    seen: dict[str, set[str]] = {}
    for key in keys:
        if m := pattern.match(str(key)):
            seen.setdefault(m["name"], set()).add(m["key"])
    return {name for name, found in seen.items() if found == {"title", "robots"}}


def _rank_math(titles: Mapping[Any, Any], out: SeoTraces) -> None:
    """Rank Math's `rank-math-options-titles` keys."""
    types = _paired(titles, RANK_MATH_PT_RE)
    out.add("post_types", sorted(types), "Rank Math")
    out.add("taxonomies", sorted(_paired(titles, RANK_MATH_TAX_RE)), "Rank Math")
    out.add("archives", sorted(t for t in types if f"pt_{t}_archive_title" in titles),
            "Rank Math")


def _aioseo(text: str | None, out: SeoTraces) -> None:
    """All in One SEO's JSON `aioseo_options_dynamic`."""
    try:
        data = json.loads(text or "{}")
    except ValueError:
        return
    appearance = data.get("searchAppearance") if isinstance(data, dict) else None
    if not isinstance(appearance, dict):
        return
    for kind, key in (("post_types", "postTypes"), ("taxonomies", "taxonomies"),
                      ("archives", "archives")):
        value = appearance.get(key)
        if isinstance(value, dict):
            out.add(kind, value, "All in One SEO")


def _seopress(titles: Mapping[Any, Any], out: SeoTraces) -> None:
    """SEOPress's `seopress_titles_option_name`."""
    out.add("post_types", as_dict(titles.get("seopress_titles_single_titles")), "SEOPress")
    out.add("taxonomies", as_dict(titles.get("seopress_titles_tax_titles")), "SEOPress")


def seo_traces(raw: Mapping[str, str], wpseo_titles: Mapping[Any, Any]) -> SeoTraces:
    """Every public type and taxonomy the SEO plugins' stored settings name."""
    out = SeoTraces()
    _yoast(wpseo_titles, out)
    _rank_math(as_dict(unserialize(raw.get("rank-math-options-titles"), "Rank Math titles")),
               out)
    _aioseo(raw.get("aioseo_options_dynamic"), out)
    _seopress(as_dict(unserialize(raw.get("seopress_titles_option_name"), "SEOPress titles")),
              out)
    return out
