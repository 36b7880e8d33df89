"""`wpsitemaps check`: connect, read options and types, report what would be served."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.exc import SQLAlchemyError

from wpsitemaps.config import Settings
from wpsitemaps.wordpress.db import make_engine
from wpsitemaps.wordpress.site import build_site
from wpsitemaps.wordpress.typereport import type_report


def run_check(settings: Settings, echo: Callable[[str], None]) -> int:
    """Print the site facts; 0 when the database is readable, 2 otherwise."""
    engine = make_engine(settings)
    try:
        with engine.connect() as conn:
            site = build_site(conn, settings)
            report = type_report(conn, site)
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
    for line in report:
        echo(line)
    return 0
