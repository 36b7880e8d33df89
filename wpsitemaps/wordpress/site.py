"""The site context: settings, tables, options, types and link facts, built from one connection."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC
from datetime import datetime

from sqlalchemy import Connection

from wpsitemaps.config import Settings
from wpsitemaps.wordpress.contenttypes import ContentType
from wpsitemaps.wordpress.contenttypes import SiteTypes
from wpsitemaps.wordpress.contenttypes import builtin_types
from wpsitemaps.wordpress.contenttypes import discover
from wpsitemaps.wordpress.langload import load_languages
from wpsitemaps.wordpress.languages import Languages
from wpsitemaps.wordpress.options import SiteOptions
from wpsitemaps.wordpress.options import load_options
from wpsitemaps.wordpress.permalinks import LinkSite
from wpsitemaps.wordpress.schema import WPTables
from wpsitemaps.wordpress.schema import build_tables


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

    @property
    def key(self) -> str:
        """The site's name in shared caches and stores: 'blog1', 'blog2'... (issue #13/#17)."""
        return f"blog{self.blog_id}"


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


def build_site(conn: Connection, settings: Settings) -> SiteContext:
    """Read the options and derive types and link facts: the context every provider needs."""
    tables = build_tables(settings.table_prefix, settings.base_prefix)
    options = load_options(conn, tables, settings)
    links = LinkSite(options.home, options.permalink_structure, options.show_on_front,
                     options.page_on_front)
    author = builtin_types(options, settings.author_base)[-1]
    return SiteContext(settings, tables, options, discover(options, settings), links, author,
                       resolve_now(settings, options),
                       languages=load_languages(conn, tables, options, settings.table_prefix))
