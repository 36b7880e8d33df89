"""SQL of the SEO plugins' own tables and meta, beyond the listing rules in posts.py: whether
a plugin table can be read, what leftovers of plugins that do not count carry (`check`),
and Yoast's author stamps."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Connection
from sqlalchemy import Table
from sqlalchemy import func
from sqlalchemy import literal
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError

from wpsitemaps.wordpress.limits import transient
from wpsitemaps.wordpress.queries.posts import chunks
from wpsitemaps.wordpress.schema import WPTables

YOAST_PROFILE_UPDATED = "_yoast_wpseo_profile_updated"


def readable(conn: Connection, table: Table) -> bool:
    """Whether a plugin's table can be read (exists, and SELECT on it is granted): one
    SELECT of at most one row. A timeout is raised, not taken for a missing table."""
    try:
        conn.execute(select(literal(1)).select_from(table).limit(1)).all()
    except SQLAlchemyError as exc:
        if transient(exc):
            raise
        return False
    return True


def postmeta_count(conn: Connection, t: WPTables, key: str, value: str | None = None,
                   like: str | None = None) -> int:
    """How many published posts carry a post meta row `key` (= value, or LIKE pattern)."""
    p, m = t.posts, t.postmeta
    stmt = (select(func.count(func.distinct(m.c.post_id))).join(p, p.c.ID == m.c.post_id)
            .where(m.c.meta_key == key, p.c.post_status == "publish"))
    if value is not None:
        stmt = stmt.where(m.c.meta_value == value)
    if like is not None:
        stmt = stmt.where(m.c.meta_value.like(like))
    return int(conn.execute(stmt).scalar() or 0)


def termmeta_count(conn: Connection, t: WPTables, key: str, value: str | None = None,
                   like: str | None = None) -> int:
    """How many terms carry a term meta row `key` (= value, or LIKE pattern)."""
    tm = t.termmeta
    stmt = select(func.count(func.distinct(tm.c.term_id))).where(tm.c.meta_key == key)
    if value is not None:
        stmt = stmt.where(tm.c.meta_value == value)
    if like is not None:
        stmt = stmt.where(tm.c.meta_value.like(like))
    return int(conn.execute(stmt).scalar() or 0)


def usermeta_count(conn: Connection, t: WPTables, key: str, value: str | None = None,
                   like: str | None = None) -> int:
    """How many users carry a user meta row `key` (= value, or LIKE pattern)."""
    um = t.usermeta
    stmt = select(func.count(func.distinct(um.c.user_id))).where(um.c.meta_key == key)
    if value is not None:
        stmt = stmt.where(um.c.meta_value == value)
    if like is not None:
        stmt = stmt.where(um.c.meta_value.like(like))
    return int(conn.execute(stmt).scalar() or 0)


def aioseo_noindex_count(conn: Connection, table: Table) -> int:
    """How many AIOSEO 4 rows noindex their post (robots_default 0, robots_noindex 1)."""
    return int(conn.execute(select(func.count()).select_from(table).where(
        table.c.robots_default == 0, table.c.robots_noindex == 1)).scalar() or 0)


def user_meta_values(conn: Connection, t: WPTables, ids: Iterable[int],
                     key: str) -> dict[int, str]:
    """{user ID: value} of one user meta key (the first row per user)."""
    um = t.usermeta
    out: dict[int, str] = {}
    for chunk in chunks(ids):
        for uid, value in conn.execute(select(um.c.user_id, um.c.meta_value).where(
                um.c.user_id.in_(chunk), um.c.meta_key == key).order_by(um.c.umeta_id)):
            out.setdefault(int(uid), str(value or ""))
    return out
