"""`wpsitemaps check`: connect, read options and types, report what would be served."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.exc import SQLAlchemyError

from wpsitemaps.compare import compare
from wpsitemaps.compare import report
from wpsitemaps.config import Settings
from wpsitemaps.network_check import run_network_check
from wpsitemaps.serving.changecheck import describe as describe_changes
from wpsitemaps.serving.changefeed import describe as describe_sources
from wpsitemaps.serving.sites import Sites
from wpsitemaps.wordpress.db import make_engine
from wpsitemaps.wordpress.site import build_site
from wpsitemaps.wordpress.typereport import type_report


def run_check(settings: Settings, echo: Callable[[str], None],
              compare_yoast: bool = False) -> int:
    """Print the site facts; 0 when the database is readable (and, with compare_yoast, no URL
    differs from Yoast's indexables), 1 when URLs differ, 2 when a table cannot be read."""
    engine = make_engine(settings)
    comparison = None
    try:
        with engine.connect() as conn:
            # A network served as a whole: one line per site (network_check).
            if run_network_check(Sites(settings), conn, echo):
                for line in describe_sources(settings):
                    echo(line)
                return 0
            site = build_site(conn, settings)
            types_report = type_report(conn, site)
            changes = describe_changes(settings, conn)
            if compare_yoast:
                comparison = compare(conn, site)
    except SQLAlchemyError as exc:
        echo(f"cannot read the database: {exc.__class__.__name__}: {exc}")
        return 2
    finally:
        engine.dispose()
    echo(f"database      {settings.database_url.split('@')[-1]}")
    echo(f"table prefix  {settings.table_prefix}")
    echo(f"home          {site.options.home}")
    echo(f"permalinks    {site.options.permalink_structure or '(plain)'}")
    echo(f"blog_public   {int(site.options.blog_public)}")
    echo("post types    " + ", ".join(t.name for t in site.types.post_types))
    echo("taxonomies    " + ", ".join(t.name for t in site.types.taxonomies))
    for line in types_report:
        echo(line)
    for line in changes:
        echo(line)
    for line in describe_sources(settings):
        echo(line)
    if site.languages is not None:
        langs = site.languages
        echo(f"languages     {', '.join(lang.slug for lang in langs.languages)} "
             f"({langs.plugin}, default {langs.default}, force_lang {langs.force_lang}, "
             f"hide_default {int(langs.hide_default)})")
    if comparison is not None:
        report(comparison, echo)
        return 1 if comparison.differences else 0
    return 0
