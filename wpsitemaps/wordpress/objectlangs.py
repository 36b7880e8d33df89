"""Which language an object has and which objects translate it, whichever plugin stores it.

Polylang keeps both in the core term tables (wordpress/queries/languages.py), WPML in its
`icl_translations` table (wordpress/queries/wpml.py; terms by term_taxonomy_id). Callers get
language slugs (Polylang's slug, WPML's code) and `{slug: object id}` groups; every function
takes a batch of IDs.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence

from sqlalchemy import Connection

from wpsitemaps.wordpress.languages import Languages
from wpsitemaps.wordpress.languages import translation_group
from wpsitemaps.wordpress.queries import languages as ql
from wpsitemaps.wordpress.queries import wpml as qw
from wpsitemaps.wordpress.schema import WPTables


def post_languages(conn: Connection, t: WPTables, langs: Languages, post_type: str,
                   ids: Sequence[int]) -> dict[int, str]:
    """{post ID: language slug}."""
    if not ids:
        return {}
    if langs.plugin == "wpml":
        return qw.element_languages(conn, langs.prefix, f"post_{post_type}", ids)
    by_tt = {lang.tt_id: lang.slug for lang in langs.languages}
    found = ql.object_languages(conn, t, ids, list(by_tt))
    return {pid: by_tt[tt] for pid, tt in found.items() if tt in by_tt}


def post_groups(conn: Connection, t: WPTables, langs: Languages, post_type: str,
                ids: Sequence[int]) -> dict[int, dict[str, int]]:
    """{post ID: {slug: post ID}} for posts in a translation group."""
    if not ids:
        return {}
    if langs.plugin == "wpml":
        return qw.element_groups(conn, langs.prefix, f"post_{post_type}", ids)
    return {pid: translation_group(text) for pid, text in
            ql.translation_groups(conn, t, ids, "post_translations").items()}


def term_languages(conn: Connection, t: WPTables, langs: Languages, taxonomy: str,
                   tt_ids: Mapping[int, int]) -> dict[int, str]:
    """{term_id: language slug}; `tt_ids` maps term_id -> term_taxonomy_id."""
    if not tt_ids:
        return {}
    if langs.plugin == "wpml":
        by_tt = {tt: tid for tid, tt in tt_ids.items()}
        found = qw.element_languages(conn, langs.prefix, f"tax_{taxonomy}", list(by_tt))
        return {by_tt[tt]: code for tt, code in found.items() if tt in by_tt}
    by_term_tt = {lang.term_tt_id: lang.slug for lang in langs.languages}
    found_pll = ql.object_languages(conn, t, list(tt_ids), list(by_term_tt))
    return {tid: by_term_tt[tt] for tid, tt in found_pll.items() if tt in by_term_tt}


def term_groups(conn: Connection, t: WPTables, langs: Languages, taxonomy: str,
                tt_ids: Mapping[int, int]) -> dict[int, dict[str, int]]:
    """{term_id: {slug: term_id}} for terms in a translation group."""
    if not tt_ids:
        return {}
    if langs.plugin == "wpml":
        by_tt = {tt: tid for tid, tt in tt_ids.items()}
        groups = qw.element_groups(conn, langs.prefix, f"tax_{taxonomy}", list(by_tt))
        return {by_tt[tt]: {code: by_tt[m] for code, m in g.items() if m in by_tt}
                for tt, g in groups.items() if tt in by_tt}
    return {tid: translation_group(text) for tid, text in
            ql.translation_groups(conn, t, list(tt_ids), "term_translations").items()}


def published_counts(conn: Connection, t: WPTables, langs: Languages, post_type: str,
                     by_author: bool = False) -> dict[tuple[str, int], int]:
    """{(language slug, author or 0): published posts of a type} (PLL_Model::count_posts())."""
    if langs.plugin == "wpml":
        return qw.published_counts(conn, t, langs.prefix, post_type, by_author)
    slugs = {lang.tt_id: lang.slug for lang in langs.languages}
    counts = ql.published_counts(conn, t, post_type, list(slugs), by_author)
    return {(slugs[tt], who): n for (tt, who), n in counts.items() if tt in slugs}
