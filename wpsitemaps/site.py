"""Per-request site context: settings, tables, options, types and link facts."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC
from datetime import datetime

from flask import current_app
from flask import g

from wpsitemaps.config import Settings
from wpsitemaps.contenttypes import ContentType
from wpsitemaps.contenttypes import SiteTypes
from wpsitemaps.contenttypes import builtin_types
from wpsitemaps.contenttypes import discover
from wpsitemaps.db import get_conn
from wpsitemaps.options import SiteOptions
from wpsitemaps.options import load_options
from wpsitemaps.permalinks import LinkSite
from wpsitemaps.schema import WPTables
from wpsitemaps.schema import build_tables


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


def load_site() -> SiteContext:
    """Build (once per request) the site context from the database."""
    if "wp_site" in g:
        cached: SiteContext = g.wp_site
        return cached
    settings: Settings = current_app.extensions["wpsitemaps.settings"]
    tables = build_tables(settings.table_prefix, settings.base_prefix)
    options = load_options(get_conn(), tables, settings)
    links = LinkSite(options.home, options.permalink_structure, options.show_on_front,
                     options.page_on_front)
    author = builtin_types(options, settings.author_base)[-1]
    site = SiteContext(settings, tables, options, discover(options, settings), links, author,
                       resolve_now(settings, options))
    g.wp_site = site
    return site
