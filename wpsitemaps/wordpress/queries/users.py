"""SQL for the author sitemap."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import Connection
from sqlalchemy import and_
from sqlalchemy import exists
from sqlalchemy import func
from sqlalchemy import select

from wpsitemaps.wordpress.queries.posts import chunks
from wpsitemaps.wordpress.schema import WPTables


def authors(conn: Connection, t: WPTables) -> list[Any]:
    """(ID, user_nicename, MAX(post_modified_gmt)) of users with published posts of type post.

    count_user_posts($id, 'post', true) counts password-protected posts too, so they count
    here; users with Yoast's `wpseo_noindex_author` = 'on' are left out.
    """
    u, um, p = t.users, t.usermeta, t.posts
    noindex = exists().where(um.c.user_id == u.c.ID, um.c.meta_key == "wpseo_noindex_author",
                             um.c.meta_value == "on")
    stmt = (select(u.c.ID, u.c.user_nicename, func.max(p.c.post_modified_gmt))
            .join(p, and_(p.c.post_author == u.c.ID, p.c.post_type == "post",
                          p.c.post_status == "publish"))
            .where(~noindex)
            .group_by(u.c.ID, u.c.user_nicename).order_by(u.c.ID))
    return list(conn.execute(stmt))


def nicenames(conn: Connection, t: WPTables, ids: Iterable[int]) -> dict[int, str]:
    """{user ID: user_nicename} (for %author% permalinks)."""
    u = t.users
    out: dict[int, str] = {}
    for chunk in chunks(ids):
        for uid, nicename in conn.execute(select(u.c.ID, u.c.user_nicename)
                                          .where(u.c.ID.in_(chunk))):
            out[int(uid)] = str(nicename or "")
    return out
