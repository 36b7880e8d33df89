"""`wpsitemaps check`: connect, read options and types, report what would be served."""

from __future__ import annotations

from collections.abc import Callable

from flask import current_app
from sqlalchemy.exc import SQLAlchemyError

from wpsitemaps.site import load_site


def run_check(echo: Callable[[str], None]) -> int:
    """Print the site facts; 0 when the database is readable, 2 otherwise."""
    try:
        site = load_site()
    except SQLAlchemyError as exc:
        echo(f"cannot read the database: {exc.__class__.__name__}: {exc}")
        return 2
    settings = current_app.extensions["wpsitemaps.settings"]
    echo(f"database      {settings.database_url.split('@')[-1]}")
    echo(f"table prefix  {settings.table_prefix}")
    echo(f"home          {site.options.home}")
    echo(f"permalinks    {site.options.permalink_structure or '(plain)'}")
    echo(f"blog_public   {int(site.options.blog_public)}")
    echo("post types    " + ", ".join(t.name for t in site.types.post_types))
    echo("taxonomies    " + ", ".join(t.name for t in site.types.taxonomies))
    return 0
