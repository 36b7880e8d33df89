"""SQL for the feeds: the newest rows under a condition, by publication date."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement
from sqlalchemy import Connection
from sqlalchemy import select

from wpsitemaps.wordpress.queries.posts import post_columns
from wpsitemaps.wordpress.schema import WPTables


def newest_local(conn: Connection, t: WPTables, where: ColumnElement[bool],
                 limit: int) -> list[Any]:
    """The `limit` newest rows of ONE post type's condition by the local post_date (then ID),
    with page_rows()' columns: WordPress's type_status_date index serves this order, where
    ordering by post_date_gmt would sort every listed post (a cost that grows with the site).
    The caller restores the order by post_date_gmt (sitemaps/feeds.py)."""
    p = t.posts
    stmt = (select(*post_columns(t))
            .where(where).order_by(p.c.post_date.desc(), p.c.ID.desc()).limit(limit)
            .execution_options(paged=True))  # see wordpress.db._paged
    return list(conn.execute(stmt))
