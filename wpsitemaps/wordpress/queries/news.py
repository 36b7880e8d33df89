"""SQL for the news sitemap: the 48-hour window, newest first, and its exclusions.

Dates are compared as 'YYYY-MM-DD HH:MM:SS' strings against `post_date_gmt` (dates.sql_utc),
which orders correctly on MySQL DATETIME and SQLite TEXT alike. The local `post_date` is
never the filter (on a site with daylight saving time it is 1-2 hours off UTC), but a wider,
redundant range on it lets WordPress's own `type_status_date` index (post_type, post_status,
post_date, ID) serve the window instead of a scan of every post: post_date is post_date_gmt
plus the site's offset at publication, and WordPress offers offsets from UTC-12 to UTC+14.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from datetime import timedelta
from typing import NamedTuple

from sqlalchemy import ColumnElement
from sqlalchemy import Connection
from sqlalchemy import and_
from sqlalchemy import exists
from sqlalchemy import false
from sqlalchemy import or_
from sqlalchemy import select

from wpsitemaps.wordpress.dates import sql_utc
from wpsitemaps.wordpress.dates import utc
from wpsitemaps.wordpress.queries.posts import post_columns
from wpsitemaps.wordpress.queries.rows import PostRow
from wpsitemaps.wordpress.schema import WPTables

# Yoast News SEO's per-post switches (WPSEO_News::is_excluded_through_sitemap() and
# WPSEO_News_Sitemap_Item::skip_build_item()): the "Exclude from News Sitemap" checkbox
# stores 'on'; the older "Googlebot-News: noindex" setting stores '1'.
# The farthest a local post_date can be from post_date_gmt (UTC-12 .. UTC+14).
LOCAL_BEHIND = timedelta(hours=12)
LOCAL_AHEAD = timedelta(hours=14)
NEWS_EXCLUDE_META = (("_yoast_wpseo_newssitemap-exclude", "on"),
                     ("_yoast_wpseo_newssitemap-robots-index", "1"))


def in_window(t: WPTables, start: datetime, end: datetime) -> ColumnElement[bool]:
    """start <= post_date_gmt <= end (both inclusive; zero dates fall before any start),
    with the redundant local-time bound for the index (see the module docstring)."""
    p = t.posts
    return and_(p.c.post_date_gmt >= sql_utc(start), p.c.post_date_gmt <= sql_utc(end),
                p.c.post_date >= sql_utc(start - LOCAL_BEHIND),
                p.c.post_date <= sql_utc(end + LOCAL_AHEAD))


def news_excluded(t: WPTables) -> ColumnElement[bool]:
    """EXISTS a Yoast News SEO meta row that takes the post out of the news sitemap."""
    p, m = t.posts, t.postmeta
    return exists().where(m.c.post_id == p.c.ID, or_(
        *(and_(m.c.meta_key == key, m.c.meta_value == value)
          for key, value in NEWS_EXCLUDE_META)))


def in_categories(t: WPTables, term_ids: Sequence[int],
                  slugs: Sequence[str]) -> ColumnElement[bool]:
    """EXISTS a category of the post whose term_id or slug is listed (no descendants)."""
    if not term_ids and not slugs:
        return false()
    p, tr, tt, terms = t.posts, t.term_relationships, t.term_taxonomy, t.terms
    match = []
    if term_ids:
        match.append(terms.c.term_id.in_(list(term_ids)))
    if slugs:
        match.append(terms.c.slug.in_(list(slugs)))
    return exists().where(
        tr.c.object_id == p.c.ID,
        tt.c.term_taxonomy_id == tr.c.term_taxonomy_id,
        tt.c.taxonomy == "category",
        terms.c.term_id == tt.c.term_id,
        or_(*match))


class NewsKey(NamedTuple):
    """One news row's ID and its dates (UTC or None)."""

    id: int
    date: datetime | None
    modified: datetime | None


def window_keys(conn: Connection, t: WPTables, where: ColumnElement[bool]) -> list[NewsKey]:
    """NewsKey of every news row, newest first.

    Only the IDs and dates: the window holds at most a few thousand posts even for a large
    publisher, so reading all of them to cut pages is cheaper than a window function.
    """
    p = t.posts
    stmt = (select(p.c.ID, p.c.post_date_gmt, p.c.post_modified_gmt).where(where)
            .order_by(p.c.post_date_gmt.desc(), p.c.ID.desc()))
    return [NewsKey(int(pid), utc(date), utc(modified)) for pid, date, modified in
            conn.execute(stmt)]


def newest_from(conn: Connection, t: WPTables, where: ColumnElement[bool], anchor_id: int,
                limit: int) -> list[PostRow]:
    """The rows of one news page: keyset (post_date_gmt, ID) <= the anchor's, newest first."""
    p = t.posts
    # A separate alias, so the anchor lookup is not correlated with the outer posts table.
    anchor_table = p.alias("news_anchor")
    anchor = (select(anchor_table.c.post_date_gmt)
              .where(anchor_table.c.ID == anchor_id).scalar_subquery())
    after = or_(p.c.post_date_gmt < anchor,
                and_(p.c.post_date_gmt == anchor, p.c.ID <= anchor_id))
    stmt = (select(*post_columns(t)).where(where, after)
            .order_by(p.c.post_date_gmt.desc(), p.c.ID.desc()).limit(limit))
    return list(conn.execute(stmt))
