"""SQL for WPML's tables, as WPML documents them (https://wpml.org/documentation/support/wpml-tables/).

`{prefix}icl_translations`: one row per translatable element: `element_type` (`post_<post
type>` or `tax_<taxonomy>`), `element_id` (the post ID, or the term's term_taxonomy_id), `trid`
(the translation group), `language_code`, `source_language_code`. `{prefix}icl_languages`:
`code`, `english_name`, `default_locale`, `tag` (the hreflang tag), `active`.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import ColumnElement
from sqlalchemy import Connection
from sqlalchemy import exists
from sqlalchemy import func
from sqlalchemy import select

from wpsitemaps.wordpress.plugintables import wpml_string_tables
from wpsitemaps.wordpress.plugintables import wpml_tables
from wpsitemaps.wordpress.queries.posts import chunks
from wpsitemaps.wordpress.queries.rows import WPMLLanguageRow
from wpsitemaps.wordpress.schema import WPTables


def languages(conn: Connection, prefix: str) -> list[WPMLLanguageRow]:
    """(code, english_name, default_locale, tag, active) of every language WPML knows."""
    lang = wpml_tables(prefix).languages
    return list(map(WPMLLanguageRow._make, conn.execute(
        select(lang.c.code, lang.c.english_name, lang.c.default_locale, lang.c.tag,
               lang.c.active).order_by(lang.c.id))))


def posts_not_in_languages(t: WPTables, prefix: str, post_type: str,
                           codes: Iterable[str]) -> ColumnElement[bool]:
    """Posts of a type whose icl_translations row is in none of these languages (WPML's
    hidden languages: WPML_WPSEO_XML_Sitemaps_Filter::exclude_hidden_language_posts())."""
    tr = wpml_tables(prefix).translations
    return ~exists().where(tr.c.element_id == t.posts.c.ID,
                           tr.c.element_type == f"post_{post_type}",
                           tr.c.language_code.in_(sorted(codes)))


def posts_in_language(t: WPTables, prefix: str, post_type: str,
                      code: str) -> ColumnElement[bool]:
    """Posts of a type whose icl_translations row is in this language (WPML_Query_Filter::
    filter_single_type_where(), which WPML adds to Yoast's queries on a language's domain)."""
    tr = wpml_tables(prefix).translations
    return exists().where(tr.c.element_id == t.posts.c.ID,
                          tr.c.element_type == f"post_{post_type}", tr.c.language_code == code)


SLUG_CONTEXTS = ("default", "WordPress")  # WPML_Slug_Translation_Records::CONTEXT_*


def slug_strings(conn: Connection, prefix: str, names: Iterable[str],
                 ) -> list[tuple[str, str, str, str | None, str | None, int | None]]:
    """(name, original language, original value, translation language, value, status) of
    the post type base slugs String Translation keeps (`URL slug: <type>`), one row per
    translation (None columns for a string without any), as
    WPML_Slug_Translation_Records::get_slug() reads them."""
    strings, trs = wpml_string_tables(prefix)
    stmt = (select(strings.c.name, strings.c.language, strings.c.value, trs.c.language,
                   trs.c.value, trs.c.status)
            .select_from(strings.outerjoin(trs, (trs.c.string_id == strings.c.id)
                                           & (trs.c.value != "")
                                           & (trs.c.language != strings.c.language)))
            .where(strings.c.name.in_(sorted(names)), strings.c.context.in_(SLUG_CONTEXTS))
            .order_by(strings.c.id))
    return [(str(r[0]), str(r[1] or ""), str(r[2] or ""), r[3], r[4],
             None if r[5] is None else int(r[5])) for r in conn.execute(stmt)]


def element_languages(conn: Connection, prefix: str, element_type: str,
                      ids: Iterable[int]) -> dict[int, str]:
    """{element_id: language_code} of elements of one type."""
    tr = wpml_tables(prefix).translations
    out: dict[int, str] = {}
    for chunk in chunks(ids):
        stmt = select(tr.c.element_id, tr.c.language_code).where(
            tr.c.element_type == element_type, tr.c.element_id.in_(chunk))
        out.update({int(eid): str(code) for eid, code in conn.execute(stmt)})
    return out


def element_groups(conn: Connection, prefix: str, element_type: str,
                   ids: Iterable[int]) -> dict[int, dict[str, int]]:
    """{element_id: {language_code: element_id}}: each element's translation group (trid)."""
    tr = wpml_tables(prefix).translations
    trids: dict[int, int] = {}
    for chunk in chunks(ids):
        stmt = select(tr.c.element_id, tr.c.trid).where(tr.c.element_type == element_type,
                                                        tr.c.element_id.in_(chunk))
        trids.update({int(eid): int(trid) for eid, trid in conn.execute(stmt) if trid})
    members: dict[int, dict[str, int]] = {}
    for chunk in chunks(trids.values()):
        stmt = select(tr.c.trid, tr.c.language_code, tr.c.element_id).where(
            tr.c.element_type == element_type, tr.c.trid.in_(chunk))
        for row in conn.execute(stmt):
            members.setdefault(int(row[0]), {})[str(row[1])] = int(row[2])
    return {eid: members.get(trid, {}) for eid, trid in trids.items()}


def published_counts(conn: Connection, t: WPTables, prefix: str, post_type: str,
                     by_author: bool = False) -> dict[tuple[str, int], int]:
    """{(language_code, author or 0): published posts of a type}."""
    tr = wpml_tables(prefix).translations
    p = t.posts
    author = p.c.post_author if by_author else func.min(0)
    stmt = (select(tr.c.language_code, author, func.count())
            .join(tr, (tr.c.element_id == p.c.ID) & (tr.c.element_type == f"post_{post_type}"))
            .where(p.c.post_type == post_type, p.c.post_status == "publish")
            .group_by(tr.c.language_code, *([p.c.post_author] if by_author else [])))
    return {(str(code), int(who or 0)): int(n) for code, who, n in conn.execute(stmt)}
