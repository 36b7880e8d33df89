"""SQL for the author sitemap."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import ColumnElement
from sqlalchemy import Connection
from sqlalchemy import and_
from sqlalchemy import exists
from sqlalchemy import false
from sqlalchemy import func
from sqlalchemy import or_
from sqlalchemy import select

from wpsitemaps.wordpress.queries.posts import chunks
from wpsitemaps.wordpress.queries.rows import AuthorRow
from wpsitemaps.wordpress.schema import WPTables
from wpsitemaps.wordpress.seoplugins import EVERY
from wpsitemaps.wordpress.seoplugins import RANK_MATH
from wpsitemaps.wordpress.seoplugins import YOAST
from wpsitemaps.wordpress.seoplugins import SeoChoice


def published_by(t: WPTables) -> ColumnElement[bool]:
    """A published post of type post written by the user (count_user_posts(id, 'post', true)
    counts password-protected posts too, so they count here)."""
    u, p = t.users, t.posts
    return and_(p.c.post_author == u.c.ID, p.c.post_type == "post",
                p.c.post_status == "publish")


def author_noindexed(t: WPTables, seo: SeoChoice = EVERY) -> ColumnElement[bool]:
    """EXISTS a user meta row by which a counting SEO plugin noindexes the user: Yoast's
    `wpseo_noindex_author` = 'on'; Rank Math's `rank_math_robots` containing noindex where
    Rank Math runs (`includes/modules/sitemap/providers/class-author.php`)."""
    u, um = t.users, t.usermeta
    rules = []
    if seo.counts(YOAST):
        rules.append(and_(um.c.meta_key == "wpseo_noindex_author", um.c.meta_value == "on"))
    if seo.runs(RANK_MATH):
        rules.append(and_(um.c.meta_key == "rank_math_robots",
                          um.c.meta_value.like("%noindex%")))
    if not rules:
        return false()
    return exists().where(um.c.user_id == u.c.ID, or_(*rules))


def author_clauses(t: WPTables, seo: SeoChoice = EVERY) -> list[tuple[str, ColumnElement[bool]]]:
    """The author sitemap's rules as named clauses, for one user (`wpsitemaps explain`)."""
    p = t.posts
    return [("posts", exists().where(published_by(t)).correlate(t.users)
             .select_from(p)), ("noindex", ~author_noindexed(t, seo))]


def authors(conn: Connection, t: WPTables, member_of: str | None = None,
            seo: SeoChoice = EVERY, level_of: str | None = None,
            roles_of: tuple[str, tuple[str, ...]] | None = None,
            exclude_users: tuple[int, ...] = ()) -> list[AuthorRow]:
    """(ID, user_nicename, MAX(post_modified_gmt)) of users with published posts of type post,
    less those noindexed (author_clauses names the same two rules).

    On a network, `member_of` is the site's table prefix: only members of the site are
    listed, as WP_User_Query does for the current blog (`{prefix}capabilities` exists) and
    Yoast adds (`{prefix}user_level` != '0'). `level_of` applies that user level rule alone
    (a single site where Yoast runs: subscribers are not listed). `roles_of`: (table
    prefix, role slugs) whose users are left out, `exclude_users` IDs left out (Rank Math's
    author settings).
    """
    u, um, p = t.users, t.usermeta, t.posts
    stmt = (select(u.c.ID, u.c.user_nicename, func.max(p.c.post_modified_gmt))
            .join(p, published_by(t))
            .where(~author_noindexed(t, seo)))
    if member_of is not None:
        member = um.alias("member")
        stmt = stmt.where(exists().where(member.c.user_id == u.c.ID,
                                         member.c.meta_key == member_of + "capabilities"))
    level_prefix = member_of or level_of
    if level_prefix is not None:
        level = um.alias("level")
        stmt = stmt.where(
            exists().where(level.c.user_id == u.c.ID,
                           level.c.meta_key == level_prefix + "user_level",
                           level.c.meta_value != "0"))
    if roles_of is not None and roles_of[1]:
        caps = um.alias("caps")
        stmt = stmt.where(~exists().where(
            caps.c.user_id == u.c.ID, caps.c.meta_key == roles_of[0] + "capabilities",
            or_(*(caps.c.meta_value.like(f'%"{role}"%') for role in roles_of[1]))))
    if exclude_users:
        stmt = stmt.where(u.c.ID.not_in(list(exclude_users)))
    stmt = stmt.group_by(u.c.ID, u.c.user_nicename).order_by(u.c.ID)
    return list(map(AuthorRow._make, conn.execute(stmt)))


def evaluate_author(conn: Connection, t: WPTables, user_id: int,
                    seo: SeoChoice = EVERY) -> dict[str, bool] | None:
    """{clause name: whether it holds} for one user; None when there is no such user."""
    u = t.users
    clauses = author_clauses(t, seo)
    stmt = select(u.c.ID, *(cond.label(name) for name, cond in clauses)).where(u.c.ID == user_id)
    row = conn.execute(stmt).first()
    if row is None:
        return None
    return {name: bool(row[i + 1]) for i, (name, _) in enumerate(clauses)}


def nicenames(conn: Connection, t: WPTables, ids: Iterable[int]) -> dict[int, str]:
    """{user ID: user_nicename} (for %author% permalinks)."""
    u = t.users
    out: dict[int, str] = {}
    for chunk in chunks(ids):
        for uid, nicename in conn.execute(select(u.c.ID, u.c.user_nicename)
                                          .where(u.c.ID.in_(chunk))):
            out[int(uid)] = str(nicename or "")
    return out
