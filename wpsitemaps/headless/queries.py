"""SQL of the headless sitemap API: languages (Polylang, WPML), events window, categories.

WPML's `{prefix}icl_translations` (wordpress/plugintables.py) exists only where WPML is (or
was) installed, so its presence is checked first.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import ColumnElement
from sqlalchemy import Connection
from sqlalchemy import exists
from sqlalchemy import inspect
from sqlalchemy import or_
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError

from wpsitemaps.wordpress.causes import denied
from wpsitemaps.wordpress.limits import transient
from wpsitemaps.wordpress.plugintables import wpml_tables
from wpsitemaps.wordpress.schema import WPTables

POLYLANG_TAXONOMY = "language"


def polylang_languages(conn: Connection, t: WPTables) -> list[tuple[int, str]]:
    """(term_taxonomy_id, slug) of Polylang's `language` terms; empty without Polylang."""
    tt, terms = t.term_taxonomy, t.terms
    rows = conn.execute(select(tt.c.term_taxonomy_id, terms.c.slug)
                        .join(terms, terms.c.term_id == tt.c.term_id)
                        .where(tt.c.taxonomy == POLYLANG_TAXONOMY)
                        .order_by(tt.c.term_taxonomy_id))
    return [(int(tt_id), str(slug or "")) for tt_id, slug in rows]


def in_polylang_language(t: WPTables, tt_ids: Sequence[int]) -> ColumnElement[bool]:
    """EXISTS a relation of the post to one of the given language terms."""
    p, tr = t.posts, t.term_relationships
    return exists().where(tr.c.object_id == p.c.ID, tr.c.term_taxonomy_id.in_(list(tt_ids)))


def polylang_translates(conn: Connection, t: WPTables, post_type: str) -> bool:
    """Whether any post of the type has a language (Polylang translates the type)."""
    p, tr, tt = t.posts, t.term_relationships, t.term_taxonomy
    stmt = (select(p.c.ID).join(tr, tr.c.object_id == p.c.ID)
            .join(tt, tt.c.term_taxonomy_id == tr.c.term_taxonomy_id)
            .where(p.c.post_type == post_type, tt.c.taxonomy == POLYLANG_TAXONOMY).limit(1))
    return conn.execute(stmt).first() is not None


def wpml_present(conn: Connection, prefix: str) -> bool:
    """Whether `{prefix}icl_translations` exists and holds rows. A user granted table by
    table (`wpsitemaps grants` on a site without WPML) is denied even the question whether a
    table it has no grant on exists: that answers no, as on a site without WPML."""
    table = wpml_tables(prefix).translations
    try:
        if not inspect(conn).has_table(table.name):
            return False
        return conn.execute(select(table.c.translation_id).limit(1)).first() is not None
    except SQLAlchemyError as exc:
        if transient(exc) or not denied(exc):
            raise
        return False


def wpml_languages(conn: Connection, prefix: str) -> list[str]:
    """The language codes WPML has content in."""
    table = wpml_tables(prefix).translations
    rows = conn.execute(select(table.c.language_code).distinct()
                        .order_by(table.c.language_code))
    return [str(code) for (code,) in rows if code]


def wpml_translates(conn: Connection, prefix: str, post_type: str) -> bool:
    """Whether WPML has elements of the post type (it translates the type)."""
    table = wpml_tables(prefix).translations
    stmt = select(table.c.element_id).where(table.c.element_type == "post_" + post_type)
    return conn.execute(stmt.limit(1)).first() is not None


def in_wpml_language(t: WPTables, prefix: str, post_type: str,
                     codes: Sequence[str]) -> ColumnElement[bool]:
    """EXISTS a WPML translation row putting the post in one of the languages."""
    table, p = wpml_tables(prefix).translations, t.posts
    return exists().where(table.c.element_id == p.c.ID,
                          table.c.element_type == "post_" + post_type,
                          table.c.language_code.in_(list(codes)))


def starts_between(t: WPTables, meta_key: str, low: str, high: str) -> ColumnElement[bool]:
    """EXISTS a start-date meta value in [low, high] ('YYYY-MM-DD HH:MM:SS' compares as text)."""
    p, m = t.posts, t.postmeta
    return exists().where(m.c.post_id == p.c.ID, m.c.meta_key == meta_key,
                          m.c.meta_value >= low, m.c.meta_value <= high)


def in_terms(t: WPTables, taxonomy: str, values: Sequence[str]) -> ColumnElement[bool]:
    """EXISTS a term of the taxonomy, matched by slug or name, attached to the post."""
    p, tr, tt, terms = t.posts, t.term_relationships, t.term_taxonomy, t.terms
    return exists().where(
        tr.c.object_id == p.c.ID, tt.c.term_taxonomy_id == tr.c.term_taxonomy_id,
        terms.c.term_id == tt.c.term_id, tt.c.taxonomy == taxonomy,
        or_(terms.c.slug.in_(list(values)), terms.c.name.in_(list(values))))
