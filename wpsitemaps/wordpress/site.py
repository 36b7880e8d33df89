"""The site context: settings, tables, options, types and link facts, built from one connection."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import replace
from datetime import UTC
from datetime import datetime

from sqlalchemy import Connection

from wpsitemaps.config import Settings
from wpsitemaps.wordpress import companion
from wpsitemaps.wordpress import plugintypes
from wpsitemaps.wordpress.contenttypes import ContentType
from wpsitemaps.wordpress.contenttypes import Evidence
from wpsitemaps.wordpress.contenttypes import SiteTypes
from wpsitemaps.wordpress.contenttypes import builtin_types
from wpsitemaps.wordpress.discovery import discover
from wpsitemaps.wordpress.langload import load_languages
from wpsitemaps.wordpress.languages import Languages
from wpsitemaps.wordpress.network import Blog
from wpsitemaps.wordpress.network import Network
from wpsitemaps.wordpress.network import blog_id_of
from wpsitemaps.wordpress.network import upload_suffix
from wpsitemaps.wordpress.options import SiteOptions
from wpsitemaps.wordpress.options import load_options
from wpsitemaps.wordpress.permalinks import LinkSite
from wpsitemaps.wordpress.plugintables import aioseo_posts
from wpsitemaps.wordpress.queries import seo as qseo
from wpsitemaps.wordpress.queries import types as qtypes
from wpsitemaps.wordpress.registration import Registration
from wpsitemaps.wordpress.rewrite import index_root
from wpsitemaps.wordpress.schema import WPTables
from wpsitemaps.wordpress.schema import build_tables
from wpsitemaps.wordpress.seoplugins import AIOSEO
from wpsitemaps.wordpress.seoplugins import EVERY
from wpsitemaps.wordpress.seoplugins import YOAST
from wpsitemaps.wordpress.seoplugins import SeoChoice
from wpsitemaps.wordpress.seoplugins import choose
from wpsitemaps.wordpress.seosettings import PluginSitemap
from wpsitemaps.wordpress.seosettings import plugin_sitemaps

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SiteContext:
    """Everything a provider needs besides the connection."""

    settings: Settings
    tables: WPTables
    options: SiteOptions
    types: SiteTypes
    links: LinkSite
    author_type: ContentType
    now: datetime
    # The blog this context serves: 1 on a single site; a network's blog_id otherwise.
    blog_id: int = 1
    # Polylang's languages and URL settings; None on a site in one language.
    languages: Languages | None = None
    # Multisite only: this site's `{base}blogs` row and its network (None on a single site).
    blog: Blog | None = None
    network: Network | None = None
    # Which SEO plugins' markers count (issue #24): every known one unless some run.
    seo: SeoChoice = EVERY
    # The running SEO plugins' own sitemap settings (wordpress/seosettings.py).
    seo_sitemaps: tuple[PluginSitemap, ...] = ()

    @property
    def multisite(self) -> bool:
        """Whether the site belongs to a network (then authors must be members, ...)."""
        return self.network is not None

    def yoast_on(self, key: str) -> bool:
        """A Yoast `wpseo_titles` switch, where Yoast's settings count (it runs, or no known
        SEO plugin does)."""
        return self.seo.counts(YOAST) and self.options.yoast_on(key)

    def seo_lists_type(self, name: str, taxonomy: bool = False) -> bool:
        """Whether the SEO plugins that count list this post type (taxonomy) at all."""
        key = f"noindex-tax-{name}" if taxonomy else f"noindex-{name}"
        return not self.yoast_on(key) and all(
            ps.lists_type(name, taxonomy) for ps in self.seo_sitemaps)

    def seo_off_by(self, name: str, taxonomy: bool = False) -> str | None:
        """The running plugin whose sitemap settings leave this type (taxonomy) out."""
        return next((ps.plugin for ps in self.seo_sitemaps
                     if not ps.lists_type(name, taxonomy)), None)

    @property
    def excluded_posts(self) -> tuple[int, ...]:
        """Post IDs the running plugins' sitemap settings leave out."""
        return tuple(sorted({i for ps in self.seo_sitemaps for i in ps.exclude_posts}))

    @property
    def excluded_terms(self) -> tuple[int, ...]:
        """Term IDs the running plugins' sitemap settings leave out."""
        return tuple(sorted({i for ps in self.seo_sitemaps for i in ps.exclude_terms}))

    @property
    def excluding_terms(self) -> tuple[int, ...]:
        """Excluded term IDs whose posts are left out too (AIOSEO)."""
        return tuple(sorted({i for ps in self.seo_sitemaps if ps.terms_take_posts
                             for i in ps.exclude_terms}))

    @property
    def key(self) -> str:
        """The site's name in shared caches and stores: 'blog1', 'blog2'... (issue #13/#17)."""
        return site_key(self.blog_id)


def resolve_now(settings: Settings, options: SiteOptions) -> datetime:
    """The clock: wall time, a fixed Unix time, or 'option:NAME' (a Unix time in wp_options)."""
    value = settings.now
    if value and value.startswith("option:"):
        value = options.raw.get(value[len("option:"):])
    if value:
        try:
            return datetime.fromtimestamp(int(float(value)), tz=UTC)
        except (ValueError, OverflowError, OSError):
            pass
    return datetime.now(tz=UTC)


def gather_evidence(conn: Connection, tables: WPTables, options: SiteOptions) -> Evidence:
    """Registrations from the companion's record and from plugins' options and tables."""
    attrs: list[tuple[str, bool]] | None = None
    if plugintypes.woocommerce_present(options.raw):
        attrs = qtypes.attribute_taxonomies(conn, tables)
    return evidence_from(options, attrs)


def evidence_from(options: SiteOptions, attributes: list[tuple[str, bool]] | None = None,
                  ) -> Evidence:
    """Evidence from options alone; WooCommerce attributes from the table when read (else
    from WooCommerce's cached copy of it, `_transient_wc_attribute_taxonomies`)."""
    raw, root = options.raw, index_root(options.permalink_structure)
    regs: list[Registration] = []
    recorded = companion.read_companion(raw.get(companion.OPTION))
    if recorded is not None:
        regs += list(recorded.post_types.values())
        regs += [replace(r, taxonomy=True) for r in recorded.taxonomies.values()]
    if attributes is None:
        attributes = plugintypes.parse_attribute_transient(
            raw.get("_transient_wc_attribute_taxonomies"))
    regs += plugintypes.woocommerce(raw, root, attributes)
    regs += plugintypes.events_calendar(raw, root)
    post_types: dict[str, list[Registration]] = {}
    taxonomies: dict[str, list[Registration]] = {}
    for reg in regs:
        (taxonomies if reg.taxonomy else post_types).setdefault(reg.name, []).append(reg)
    return Evidence(post_types, taxonomies, companion=recorded is not None)


def discover_types(conn: Connection, tables: WPTables, options: SiteOptions,
                   settings: Settings) -> SiteTypes:
    """discover() with this database's evidence and its probe for ambiguous taxonomies."""
    def probe(taxonomies: Sequence[str], post_types: Sequence[str]) -> set[str]:
        return qtypes.taxonomies_on_published(conn, tables, taxonomies, post_types)

    return discover(options, settings, gather_evidence(conn, tables, options), probe)


def build_site(conn: Connection, settings: Settings, blog: Blog | None = None,
               network: Network | None = None, options: SiteOptions | None = None,
               ) -> SiteContext:
    """Read the options and derive types and link facts: the context every provider needs.

    On a network, `blog` and `network` say which site it is: its uploads get their own
    directory and `public = 0` in `{base}blogs` lists nothing, as blog_public = 0 does.
    """
    tables = build_tables(settings.table_prefix, settings.base_prefix)
    if options is None:
        options = load_options(conn, tables, settings)
    if blog is not None and network is not None:
        options = replace(options, upload_suffix=upload_suffix(network, blog.blog_id),
                          blog_public=options.blog_public and blog.public)
    links = LinkSite(options.home, options.permalink_structure, options.show_on_front,
                     options.page_on_front)
    author = builtin_types(options, settings.author_base)[-1]
    types = discover_types(conn, tables, options, settings)
    seo = seo_choice(conn, options, settings, network)
    return SiteContext(settings, tables, options, types, links, author,
                       resolve_now(settings, options), blog_id_of_site(settings, blog),
                       languages=load_languages(conn, tables, options, settings.table_prefix),
                       blog=blog, network=network,
                       seo=seo, seo_sitemaps=plugin_sitemaps(seo.active, options.raw))


def seo_choice(conn: Connection, options: SiteOptions, settings: Settings,
               network: Network | None = None) -> SeoChoice:
    """The SEO plugins whose markers count: the setting `seo_plugins`, else the active ones
    (the site's and the network's). AIOSEO 4's table is probed once here: a site whose
    table is missing or not readable keeps serving, without AIOSEO's per-post noindex, and
    says so in the log and in `check`."""
    seo = choose(options.active_plugins, network.sitewide_plugins if network else (),
                 settings.seo_plugins)
    if seo.runs(AIOSEO) and not qseo.readable(conn, aioseo_posts(settings.table_prefix)):
        log.warning("All in One SEO is active but %saioseo_posts cannot be read: its "
                    "per-post noindex is not applied", settings.table_prefix)
        seo = replace(seo, unreadable=(AIOSEO,))
    return seo


def site_key(blog_id: int) -> str:
    """SiteContext.key of the site with this blog_id."""
    return f"blog{blog_id}"


def blog_id_of_site(settings: Settings, blog: Blog | None) -> int:
    """The site's blog_id: its network row's, else what its table prefix says (`wp_2_`)."""
    if blog is not None:
        return blog.blog_id
    base = settings.base_prefix or settings.table_prefix
    return blog_id_of(base, settings.table_prefix) or 1
