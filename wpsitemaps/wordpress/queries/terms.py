"""SQL for taxonomies: term rows, post-term relations, term lastmods, noindex term meta."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from sqlalchemy import Connection
from sqlalchemy import and_
from sqlalchemy import func
from sqlalchemy import select

from wpsitemaps.wordpress.queries.posts import chunks
from wpsitemaps.wordpress.queries.rows import TermRow
from wpsitemaps.wordpress.schema import WPTables


def taxonomy_terms(conn: Connection, t: WPTables, taxonomy: str) -> list[TermRow]:
    """(term_id, term_taxonomy_id, slug, parent, count) of every term, by term_id."""
    tt, terms = t.term_taxonomy, t.terms
    stmt = (select(terms.c.term_id, tt.c.term_taxonomy_id, terms.c.slug, tt.c.parent,
                   tt.c.count)
            .join(tt, tt.c.term_id == terms.c.term_id)
            .where(tt.c.taxonomy == taxonomy).order_by(terms.c.term_id))
    return list(map(TermRow._make, conn.execute(stmt)))


def rank_math_noindex_terms(conn: Connection, t: WPTables, term_ids: Iterable[int]) -> set[int]:
    """Term IDs whose term meta `rank_math_robots` contains noindex."""
    tm = t.termmeta
    out: set[int] = set()
    for chunk in chunks(term_ids):
        out.update(int(r[0]) for r in conn.execute(
            select(tm.c.term_id).where(tm.c.term_id.in_(chunk),
                                       tm.c.meta_key == "rank_math_robots",
                                       tm.c.meta_value.like("%noindex%"))))
    return out


def term_lastmods(conn: Connection, t: WPTables, tt_ids: Iterable[int]) -> dict[int, Any]:
    """{term_taxonomy_id: MAX(post_modified_gmt)} over published, unprotected posts of any type."""
    p, tr = t.posts, t.term_relationships
    out: dict[int, Any] = {}
    for chunk in chunks(tt_ids):
        stmt = (select(tr.c.term_taxonomy_id, func.max(p.c.post_modified_gmt))
                .join(p, p.c.ID == tr.c.object_id)
                .where(tr.c.term_taxonomy_id.in_(chunk), p.c.post_status == "publish",
                       p.c.post_password == "")
                .group_by(tr.c.term_taxonomy_id))
        for tt_id, value in conn.execute(stmt):
            out[int(tt_id)] = value
    return out


def post_terms(conn: Connection, t: WPTables, post_ids: Iterable[int],
               taxonomy: str) -> dict[int, list[tuple[int, str, int]]]:
    """{post ID: [(term_id, slug, parent)]} of one taxonomy, by term_id."""
    tr, tt, terms = t.term_relationships, t.term_taxonomy, t.terms
    out: dict[int, list[tuple[int, str, int]]] = defaultdict(list)
    for chunk in chunks(post_ids):
        stmt = (select(tr.c.object_id, terms.c.term_id, terms.c.slug, tt.c.parent)
                .join(tt, tt.c.term_taxonomy_id == tr.c.term_taxonomy_id)
                .join(terms, terms.c.term_id == tt.c.term_id)
                .where(tr.c.object_id.in_(chunk), tt.c.taxonomy == taxonomy)
                .order_by(tr.c.object_id, terms.c.term_id))
        for obj, term_id, slug, parent in conn.execute(stmt):
            out[int(obj)].append((int(term_id), str(slug), int(parent or 0)))
    return out


def terms_by_id(conn: Connection, t: WPTables, term_ids: Iterable[int],
                taxonomy: str) -> dict[int, tuple[str, int]]:
    """{term_id: (slug, parent)} of one taxonomy."""
    tt, terms = t.term_taxonomy, t.terms
    out: dict[int, tuple[str, int]] = {}
    for chunk in chunks(term_ids):
        stmt = (select(terms.c.term_id, terms.c.slug, tt.c.parent)
                .join(tt, and_(tt.c.term_id == terms.c.term_id, tt.c.taxonomy == taxonomy))
                .where(terms.c.term_id.in_(chunk)))
        for term_id, slug, parent in conn.execute(stmt):
            out[int(term_id)] = (str(slug), int(parent or 0))
    return out


def term_meta(conn: Connection, t: WPTables, term_ids: Iterable[int],
              keys: Iterable[str]) -> dict[int, dict[str, str]]:
    """{term_id: {meta_key: first value}} of the given keys (SEO plugins' term settings)."""
    tm = t.termmeta
    wanted = list(keys)
    out: dict[int, dict[str, str]] = defaultdict(dict)
    for chunk in chunks(term_ids):
        stmt = (select(tm.c.term_id, tm.c.meta_key, tm.c.meta_value)
                .where(tm.c.term_id.in_(chunk), tm.c.meta_key.in_(wanted))
                .order_by(tm.c.meta_id))
        for term_id, key, value in conn.execute(stmt):
            out[int(term_id)].setdefault(str(key), str(value or ""))
    return dict(out)
