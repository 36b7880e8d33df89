"""SQL for page fingerprints (issue #13): narrow rows of one page, never of the whole site.

A stored page is served again only while these rows are unchanged, so each function reads
what the page's bytes depend on, bounded by the page: the page's own rows (keyset from its
first ID, as the page query walks them) and the attachments hanging off them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement
from sqlalchemy import Connection
from sqlalchemy import Select
from sqlalchemy import func
from sqlalchemy import select

from wpsitemaps.wordpress.dates import sql_utc
from wpsitemaps.wordpress.queries.posts import NoIndex
from wpsitemaps.wordpress.queries.rows import PostRow
from wpsitemaps.wordpress.schema import WPTables


def _columns(t: WPTables) -> list[ColumnElement[Any]]:
    """What a permalink and a lastmod need; post_content and titles only change with
    post_modified_gmt (wp_update_post sets it on every save)."""
    p = t.posts
    return [p.c.ID, p.c.post_type, p.c.post_name, p.c.post_date, p.c.post_date_gmt,
            p.c.post_modified_gmt, p.c.post_parent, p.c.post_author]


def page_keys(conn: Connection, t: WPTables, where: ColumnElement[bool], first_id: int,
              limit: int | None, before_id: int | None = None) -> list[PostRow]:
    """The key columns of one ID-ordered page: the page query's rows without their text
    (limit=None: every row of the range).

    No FORCE INDEX (PRIMARY) here: for a type whose rows are few and spread over the whole
    ID range (pages, whose one page starts at ID 2), walking the primary key reads every
    row of the site (76,632 rows for 52 pages at 20,000 posts); MariaDB picks
    type_status_date for those (321 rows) and the primary key range for dense types.
    """
    p = t.posts
    keys = [p.c.ID >= first_id] + ([p.c.ID < before_id] if before_id is not None else [])
    stmt = (select(*_columns(t)).where(where, *keys).order_by(p.c.ID)
            .limit(limit)
            .execution_options(paged=True))  # see wordpress.db._paged
    return list(conn.execute(stmt))


def published_since(conn: Connection, t: WPTables, where: ColumnElement[bool], start: datetime,
                    local_from: datetime) -> list[PostRow]:
    """The key columns of every row dated from `start` on (post_date_gmt), whatever its ID,
    through the type_status_date index by the redundant bound `post_date >= local_from`
    (dates.local_floor(): the site's zone, not the ±14 h any zone could be, so the range
    holds the posts of about two hours, not of thirteen)."""
    p = t.posts
    stmt = (select(*_columns(t))
            .where(where, p.c.post_date_gmt >= sql_utc(start),
                   p.c.post_date >= sql_utc(local_from))
            .order_by(p.c.ID)
            .execution_options(paged=True))  # see wordpress.db._paged
    return list(conn.execute(stmt))


def newest_keys(conn: Connection, t: WPTables, where: ColumnElement[bool]) -> list[PostRow]:
    """The key columns of every row of a dated window, newest first (the news sitemap)."""
    p = t.posts
    stmt = (select(*_columns(t)).where(where)
            .order_by(p.c.post_date_gmt.desc(), p.c.ID.desc()))
    return list(conn.execute(stmt))


def meta_range(conn: Connection, t: WPTables, first_id: int, last_id: int,
               keys: Sequence[str]) -> list[tuple[Any, ...]]:
    """(post_id, meta_key, meta_value) of the given keys for post IDs first_id..last_id.

    A range on the post_id index, not IN (...) over the page's IDs: the same rows plus those
    of unlisted posts in between, which only makes the fingerprint stricter.
    """
    m = t.postmeta
    stmt = (select(m.c.post_id, m.c.meta_key, m.c.meta_value)
            .where(m.c.post_id >= first_id, m.c.post_id <= last_id,
                   NoIndex(m.c.meta_key).in_(list(keys)))
            .order_by(m.c.meta_id)
            .execution_options(paged=True))  # see wordpress.db._paged
    return [tuple(r) for r in conn.execute(stmt)]


def attachment_marks(conn: Connection, t: WPTables, first_id: int,
                     last_id: int) -> tuple[Any, ...]:
    """(count, max ID, max post_modified_gmt, sum of parents) of the attachments whose parent
    is in first_id..last_id: an image uploaded to a post changes its gallery without
    touching the post."""
    p = t.posts
    row = conn.execute(
        select(func.count(), func.max(p.c.ID), func.max(p.c.post_modified_gmt),
               func.sum(p.c.post_parent))
        .where(p.c.post_parent >= first_id, p.c.post_parent <= last_id,
               p.c.post_type == "attachment")
        .execution_options(paged=True)).one()  # see wordpress.db._paged
    return tuple(row)


# Aggregate digests (issue #26): the database hashes a page's rows and hands back one row
# per component, instead of the rows themselves. Each row's fields are joined with a
# separator no WordPress field holds (CONCAT_WS) and hashed (CRC32); the hashes are summed,
# with the row count beside them. A SUM, not a BIT_XOR: two equal rows do not cancel out.
# MariaDB/MySQL have both functions; SQLite gets deterministic ones on its connection
# (wordpress.db.sqlite_functions), so the same statement runs on both.
SEPARATOR = "\x1f"
# An attachment's meta: its file (its URL), its sizes and alt text (what an image entry
# may carry). Only images outside a page's ID range are looked up one by one (their file,
# and a featured image's sizes and alt text): joining all three for every attachment of a
# page's range took 40 ms at 100k posts, its file alone 16, none 7.
ATTACHMENT_KEYS = ("_wp_attached_file", "_wp_attachment_metadata", "_wp_attachment_image_alt")
FILE_KEY = "_wp_attached_file"


def _row_hash(*columns: ColumnElement[Any]) -> ColumnElement[Any]:
    """SUM(CRC32(CONCAT_WS(sep, columns...))) with COALESCE, so NULL and '' differ from a
    missing field only where WordPress itself tells them apart (never, for these)."""
    fields = [func.coalesce(c, "") for c in columns]
    return func.coalesce(func.sum(func.crc32(func.concat_ws(SEPARATOR, *fields))), 0)


def page_digest(conn: Connection, t: WPTables, where: ColumnElement[bool], first_id: int,
                limit: int | None, before_id: int | None = None) -> tuple[Any, ...]:
    """(row count, min ID, max ID, hash sum) of the rows page_keys() would return, plus
    their titles: one row instead of a page's worth."""
    p = t.posts
    keys = [p.c.ID >= first_id] + ([p.c.ID < before_id] if before_id is not None else [])
    rows = (select(*_columns(t), p.c.post_title).where(where, *keys).order_by(p.c.ID)
            .limit(limit).subquery())
    stmt = (select(func.count(), func.min(rows.c.ID), func.max(rows.c.ID),
                   _row_hash(*rows.c))
            .execution_options(paged=True))  # see wordpress.db._paged
    return tuple(conn.execute(stmt).one())


def _meta_parts(t: WPTables, first_id: int, last_id: int,
                keys: Sequence[str]) -> Select[Any]:
    """(row count, hash sum) of meta_range()'s rows, with their meta_id: which of two
    values of one key is read first (the lowest meta_id) is in the hash too."""
    m = t.postmeta
    stmt = (select(func.count(), _row_hash(m.c.meta_id, m.c.post_id, m.c.meta_key,
                                           m.c.meta_value))
            .where(m.c.post_id >= first_id, m.c.post_id <= last_id,
                   NoIndex(m.c.meta_key).in_(list(keys))))
    return stmt


def _attachment_parts(t: WPTables, first_id: int, last_id: int) -> Select[Any]:
    """(count, hash sum) of the attachments whose parent is in first_id..last_id (a
    gallery's images) with their status, type and order, and the file (FILE_KEY) of those
    whose own ID is outside the range (meta_digest() over the range has the others': an
    upload's ID follows its post's, so most need no lookup)."""
    p, m = t.posts, t.postmeta
    outside = (p.c.ID < first_id) | (p.c.ID > last_id)
    stmt = (select(func.count(), _row_hash(p.c.ID, p.c.post_parent, p.c.post_status,
                                           p.c.post_mime_type, p.c.menu_order,
                                           p.c.post_modified_gmt, p.c.post_title,
                                           m.c.meta_id, m.c.meta_value))
            .select_from(p.outerjoin(m, (m.c.post_id == p.c.ID) & outside
                                     & (NoIndex(m.c.meta_key) == FILE_KEY)))
            .where(p.c.post_parent >= first_id, p.c.post_parent <= last_id,
                   p.c.post_type == "attachment"))
    return stmt


def _thumbnail_parts(t: WPTables, first_id: int, last_id: int) -> Select[Any]:
    """(count, hash sum) of the featured images of posts first_id..last_id whose ID is
    outside the range (a library image used again; meta_digest() over the range has the
    others' meta): the attachment's type, status and meta (ATTACHMENT_KEYS)."""
    p, m, f = t.posts, t.postmeta, t.postmeta.alias("file")
    thumb = m.alias("thumb")
    stmt = (select(func.count(), _row_hash(thumb.c.post_id, p.c.ID, p.c.post_type,
                                           p.c.post_status, p.c.post_title, f.c.meta_id,
                                           f.c.meta_key, f.c.meta_value))
            .select_from(thumb.join(p, (p.c.ID == thumb.c.meta_value)
                                    & ((p.c.ID < first_id) | (p.c.ID > last_id)))
                         .outerjoin(f, (f.c.post_id == p.c.ID)
                                    & NoIndex(f.c.meta_key).in_(ATTACHMENT_KEYS)))
            .where(thumb.c.post_id >= first_id, thumb.c.post_id <= last_id,
                   NoIndex(thumb.c.meta_key) == "_thumbnail_id"))
    return stmt


def range_digest(conn: Connection, t: WPTables, first_id: int, last_id: int,
                 keys: Sequence[str]) -> tuple[Any, ...]:
    """The parts hanging off an ID range, in one statement (one round trip, one row):
    its meta of `keys`, the attachments whose parent is in it, the featured images
    outside it; each "count<sep>hash sum"."""
    parts = [_meta_parts(t, first_id, last_id, keys), _attachment_parts(t, first_id, last_id),
             _thumbnail_parts(t, first_id, last_id)]
    packed = [part.with_only_columns(func.concat_ws(SEPARATOR, *part.selected_columns),
                                     maintain_column_froms=True).scalar_subquery()
              for part in parts]
    stmt = select(*packed).execution_options(paged=True)  # see wordpress.db._paged
    return tuple(conn.execute(stmt).one())
