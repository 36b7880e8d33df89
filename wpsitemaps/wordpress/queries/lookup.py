"""SQL that finds one object for `wpsitemaps explain`: by ID, by slug, by old slug, by name.

Unlike the sitemap queries these read rows whatever their status: explaining why a draft is
not listed needs the draft.
"""

from __future__ import annotations

from sqlalchemy import Connection
from sqlalchemy import select

from wpsitemaps.wordpress.queries.rows import MetaRow
from wpsitemaps.wordpress.queries.rows import PostRow
from wpsitemaps.wordpress.queries.rows import TermTaxonomyRow
from wpsitemaps.wordpress.queries.rows import UserRow
from wpsitemaps.wordpress.schema import WPTables


def post(conn: Connection, t: WPTables, post_id: int) -> PostRow | None:
    """The post row (every status) with the columns page_rows() gives plus status and
    password, or None."""
    p = t.posts
    stmt = select(p.c.ID, p.c.post_type, p.c.post_name, p.c.post_date, p.c.post_date_gmt,
                  p.c.post_modified_gmt, p.c.post_parent, p.c.post_author, p.c.post_title,
                  p.c.post_excerpt, p.c.post_content, p.c.post_status,
                  p.c.post_password).where(p.c.ID == post_id)
    return conn.execute(stmt).first()


def posts_named(conn: Connection, t: WPTables, slug: str) -> list[int]:
    """IDs of posts (not revisions) whose post_name is `slug`, by ID."""
    p = t.posts
    stmt = (select(p.c.ID).where(p.c.post_name == slug, p.c.post_type != "revision")
            .order_by(p.c.ID))
    return [int(r[0]) for r in conn.execute(stmt)]


def posts_by_old_slug(conn: Connection, t: WPTables, slug: str) -> list[int]:
    """IDs of posts that WordPress redirects from `slug` (`_wp_old_slug` post meta)."""
    m = t.postmeta
    stmt = (select(m.c.post_id).where(m.c.meta_key == "_wp_old_slug", m.c.meta_value == slug)
            .order_by(m.c.post_id))
    return sorted({int(r[0]) for r in conn.execute(stmt)})


def term_taxonomies(conn: Connection, t: WPTables, term_id: int) -> list[TermTaxonomyRow]:
    """(taxonomy, slug, name) rows of a term_id (one per taxonomy it belongs to)."""
    tt, terms = t.term_taxonomy, t.terms
    stmt = (select(tt.c.taxonomy, terms.c.slug, terms.c.name)
            .join(terms, terms.c.term_id == tt.c.term_id)
            .where(tt.c.term_id == term_id).order_by(tt.c.term_taxonomy_id))
    return list(map(TermTaxonomyRow._make, conn.execute(stmt)))


def terms_named(conn: Connection, t: WPTables, slug: str) -> list[tuple[int, str]]:
    """(term_id, taxonomy) of the terms whose slug is `slug`."""
    tt, terms = t.term_taxonomy, t.terms
    stmt = (select(terms.c.term_id, tt.c.taxonomy)
            .join(tt, tt.c.term_id == terms.c.term_id)
            .where(terms.c.slug == slug).order_by(terms.c.term_id))
    return [(int(r[0]), str(r[1])) for r in conn.execute(stmt)]


def user(conn: Connection, t: WPTables, user_id: int) -> UserRow | None:
    """(ID, user_login, user_nicename, display_name) of a user, or None."""
    u = t.users
    row = conn.execute(select(u.c.ID, u.c.user_login, u.c.user_nicename, u.c.display_name)
                       .where(u.c.ID == user_id)).first()
    return None if row is None else UserRow._make(row)


def user_named(conn: Connection, t: WPTables, nicename: str) -> int | None:
    """The ID of the user with this user_nicename, or None."""
    u = t.users
    row = conn.execute(select(u.c.ID).where(u.c.user_nicename == nicename)).first()
    return int(row[0]) if row is not None else None


def meta(conn: Connection, t: WPTables, post_id: int, keys: tuple[str, ...]) -> list[MetaRow]:
    """(meta_key, meta_value) rows of one post for the given keys, in meta_id order."""
    m = t.postmeta
    stmt = (select(m.c.meta_key, m.c.meta_value)
            .where(m.c.post_id == post_id, m.c.meta_key.in_(list(keys)))
            .order_by(m.c.meta_id))
    return list(map(MetaRow._make, conn.execute(stmt)))
