"""SQL for multilingual sites: Polylang's language terms, object languages, translation groups.

Polylang (include/model.php, translated-object.php) keeps everything in the core term tables:
languages are terms of `language` (posts) and `term_language` (terms), an object's language is
its term_relationships row to one of them (for terms: object_id = term_id), and a translation
group is a term of `post_translations` / `term_translations` whose description is a
serialized `lang => object id` array. Every function takes a batch of IDs (one query per chunk).
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import ColumnElement
from sqlalchemy import Connection
from sqlalchemy import exists
from sqlalchemy import false
from sqlalchemy import func
from sqlalchemy import select

from wpsitemaps.wordpress.queries.posts import chunks
from wpsitemaps.wordpress.queries.rows import LanguageTermRow
from wpsitemaps.wordpress.schema import WPTables

LANGUAGE_TAXONOMIES = ("language", "term_language")


def language_terms(conn: Connection, t: WPTables) -> list[LanguageTermRow]:
    """(taxonomy, term_id, term_taxonomy_id, slug, name, term_group, description) of every
    language term, in Polylang's order (term_group, then term_id)."""
    tt, terms = t.term_taxonomy, t.terms
    stmt = (select(tt.c.taxonomy, terms.c.term_id, tt.c.term_taxonomy_id, terms.c.slug,
                   terms.c.name, terms.c.term_group, tt.c.description)
            .join(tt, tt.c.term_id == terms.c.term_id)
            .where(tt.c.taxonomy.in_(LANGUAGE_TAXONOMIES))
            .order_by(terms.c.term_group, terms.c.term_id))
    return list(map(LanguageTermRow._make, conn.execute(stmt)))


def posts_in_language(t: WPTables, language_tt_id: int | None) -> ColumnElement[bool]:
    """Posts tagged with this language term (PLL_Translated_Post::where_clause(): its
    term_relationships row); None: no post at all (a language host lists none of them)."""
    if language_tt_id is None:
        return false()
    tr = t.term_relationships
    return exists().where(tr.c.object_id == t.posts.c.ID,
                          tr.c.term_taxonomy_id == language_tt_id)


def object_languages(conn: Connection, t: WPTables, ids: Iterable[int],
                     language_tt_ids: Iterable[int]) -> dict[int, int]:
    """{object_id: term_taxonomy_id of its language} for posts (or term IDs with the
    term_language tt ids)."""
    tr = t.term_relationships
    wanted = list(language_tt_ids)
    out: dict[int, int] = {}
    if not wanted:
        return out
    for chunk in chunks(ids):
        stmt = select(tr.c.object_id, tr.c.term_taxonomy_id).where(
            tr.c.object_id.in_(chunk), tr.c.term_taxonomy_id.in_(wanted))
        for object_id, tt_id in conn.execute(stmt):
            out.setdefault(int(object_id), int(tt_id))
    return out


def translation_groups(conn: Connection, t: WPTables, ids: Iterable[int],
                       taxonomy: str) -> dict[int, str]:
    """{object_id: serialized description of its `post_translations` / `term_translations`
    group} for the objects that belong to one."""
    tr, tt = t.term_relationships, t.term_taxonomy
    out: dict[int, str] = {}
    for chunk in chunks(ids):
        stmt = (select(tr.c.object_id, tt.c.description)
                .join(tt, tt.c.term_taxonomy_id == tr.c.term_taxonomy_id)
                .where(tr.c.object_id.in_(chunk), tt.c.taxonomy == taxonomy))
        for object_id, description in conn.execute(stmt):
            out.setdefault(int(object_id), str(description or ""))
    return out


def post_statuses(conn: Connection, t: WPTables, ids: Iterable[int]) -> dict[int, str]:
    """{ID: post_status} (Polylang links only translations a visitor can read)."""
    p = t.posts
    out: dict[int, str] = {}
    for chunk in chunks(ids):
        for pid, status in conn.execute(select(p.c.ID, p.c.post_status)
                                        .where(p.c.ID.in_(chunk))):
            out[int(pid)] = str(status or "")
    return out


def published_counts(conn: Connection, t: WPTables, post_type: str,
                     language_tt_ids: Iterable[int],
                     by_author: bool = False) -> dict[tuple[int, int], int]:
    """PLL_Model::count_posts(): published posts of a type per language, as
    {(language tt id, author or 0): count} (password-protected ones count, as there)."""
    p, tr = t.posts, t.term_relationships
    author = p.c.post_author if by_author else func.min(0)
    cols = [tr.c.term_taxonomy_id, author, func.count()]
    stmt = (select(*cols).join(tr, tr.c.object_id == p.c.ID)
            .where(p.c.post_type == post_type, p.c.post_status == "publish",
                   tr.c.term_taxonomy_id.in_(list(language_tt_ids)))
            .group_by(tr.c.term_taxonomy_id, *([p.c.post_author] if by_author else [])))
    return {(int(tt_id), int(who or 0)): int(n) for tt_id, who, n in conn.execute(stmt)}
