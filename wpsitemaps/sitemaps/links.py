"""Permalinks for a batch of post rows: gather what the URL needs in batched queries, then
call the pure builders in permalinks.py."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Connection

from wpsitemaps.wordpress import langlinks
from wpsitemaps.wordpress import objectlangs
from wpsitemaps.wordpress import permalinks
from wpsitemaps.wordpress.contenttypes import ContentType
from wpsitemaps.wordpress.ids import parse_id
from wpsitemaps.wordpress.languages import Language
from wpsitemaps.wordpress.permalinks import PostLink
from wpsitemaps.wordpress.queries import posts as qp
from wpsitemaps.wordpress.queries import terms as qt
from wpsitemaps.wordpress.queries import users as qu
from wpsitemaps.wordpress.queries.rows import PostRow
from wpsitemaps.wordpress.site import SiteContext

MAX_DEPTH = 100
PRIMARY_CATEGORY_KEY = "_yoast_wpseo_primary_category"


def ancestor_uris(conn: Connection, site: SiteContext, rows: Sequence[PostRow]) -> dict[int, str]:
    """get_page_uri() for each row: ancestor slugs (skipping empty ones) joined with '/'."""
    known: dict[int, tuple[str, int]] = {
        int(r.ID): (str(r.post_name or ""), int(r.post_parent or 0)) for r in rows}
    missing = {parent for _, parent in known.values() if parent and parent not in known}
    for _ in range(MAX_DEPTH):
        if not missing:
            break
        found = qp.parents(conn, site.tables, missing)
        known.update(found)
        # A parent that does not exist ends the chain, as get_post_ancestors() does.
        missing = {parent for _, parent in found.values() if parent and parent not in known}
    uris: dict[int, str] = {}
    for r in rows:
        parts: list[str] = []
        seen: set[int] = set()
        current = int(r.ID)
        while current and current in known and current not in seen and len(seen) < MAX_DEPTH:
            seen.add(current)
            name, parent = known[current]
            if name or current == int(r.ID):
                parts.append(name)
            current = parent
        uris[int(r.ID)] = "/".join(reversed(parts))
    return uris


def with_ancestors(conn: Connection, site: SiteContext, known: dict[int, tuple[str, int]],
                   taxonomy: str) -> dict[int, tuple[str, int]]:
    """known ({term_id: (slug, parent)}) plus every ancestor, one query per level."""
    missing = {parent for _, parent in known.values() if parent and parent not in known}
    for _ in range(MAX_DEPTH):
        if not missing:
            break
        found = qt.terms_by_id(conn, site.tables, missing, taxonomy)
        known.update(found)
        missing = {parent for _, parent in found.values() if parent and parent not in known}
    return known


def term_path(term_id: int, known: dict[int, tuple[str, int]]) -> str:
    """'parent/child' slugs from the root down to term_id (get_term_parents_list() order)."""
    parts: list[str] = []
    seen: set[int] = set()
    while term_id in known and term_id not in seen:
        seen.add(term_id)
        slug, parent = known[term_id]
        parts.append(slug)
        term_id = parent
    return "/".join(reversed(parts))


def category_paths(conn: Connection, site: SiteContext, rows: Sequence[PostRow],
                   primary: dict[int, int]) -> dict[int, str]:
    """%category% for each post: the lowest-ID category (or Yoast's primary one) with parents."""
    t = site.tables
    ids = [int(r.ID) for r in rows]
    cats = qt.post_terms(conn, t, ids, "category")
    chosen: dict[int, int] = {}
    for pid in ids:
        mine = cats.get(pid, [])
        if pid in primary:
            chosen[pid] = primary[pid]
        elif mine:
            chosen[pid] = min(term_id for term_id, _, _ in mine)
        else:
            chosen[pid] = site.options.default_category
    known = with_ancestors(conn, site, qt.terms_by_id(conn, t, set(chosen.values()),
                                                      "category"), "category")
    paths: dict[int, str] = {}
    for pid, term_id in chosen.items():
        if term_id not in known and pid in primary:
            # A primary category that no longer exists: WordPress falls back to the first.
            mine = cats.get(pid, [])
            term_id = min((tid for tid, _, _ in mine), default=site.options.default_category)
        paths[pid] = term_path(term_id, known)
    return paths


def product_category_paths(conn: Connection, site: SiteContext,
                           rows: Sequence[PostRow]) -> dict[int, str]:
    """%product_cat% per product as wc_product_post_type_link() (WooCommerce 7.9) fills it:
    the product's categories sorted by parent DESC then term_id ASC, the first one with its
    ancestors from the root; 'uncategorized' when it has none."""
    t = site.tables
    ids = [int(r.ID) for r in rows]
    cats = qt.post_terms(conn, t, ids, "product_cat")
    chosen = {pid: sorted(mine, key=lambda c: (-c[2], c[0]))[0][0]
              for pid, mine in cats.items() if mine}
    known = with_ancestors(conn, site, {c[0]: (c[1], c[2]) for m in cats.values() for c in m},
                           "product_cat")
    paths: dict[int, str] = {}
    for pid in ids:
        term_id = chosen.get(pid)
        path = term_path(term_id, known) if term_id is not None else ""
        paths[pid] = path or "uncategorized"
    return paths


@dataclass(frozen=True)
class Lookups:
    """What get_permalink() of a post type reads besides the post row and the options."""

    ancestors: bool  # the parents' slugs (hierarchical types)
    categories: bool  # %category% of posts
    product_categories: bool  # %product_cat% of WooCommerce products
    authors: bool  # %author%
    languages: bool  # a language plugin's directory or domain

    def any(self) -> bool:
        """Whether the links depend on rows other than the posts' own."""
        return (self.ancestors or self.categories or self.product_categories or self.authors
                or self.languages)


def link_lookups(site: SiteContext, ctype: ContentType) -> Lookups:
    """The lookups post_links() makes for a type (page fingerprints include the links of
    the types that need any: a renamed parent, category or author changes them)."""
    structure = site.options.permalink_structure
    pretty = bool(structure)
    post = pretty and ctype.name == "post"
    # get_post_permalink() uses get_page_uri() for hierarchical custom types even with plain
    # links ('?book=parent/child'); plain pages are ?page_id= and need no URI.
    return Lookups(ancestors=ctype.hierarchical and (pretty or not ctype.builtin),
                   categories=post and "%category%" in structure,
                   product_categories=(ctype.name == "product" and ctype.base is not None
                                       and "%" in ctype.base),
                   authors=post and "%author%" in structure,
                   languages=site.languages is not None)


def post_links(conn: Connection, site: SiteContext, ctype: ContentType,
               rows: Sequence[PostRow],
               meta: dict[int, dict[str, str]] | None = None) -> dict[int, str]:
    """{ID: get_permalink()} for rows of one post type, with batched lookups; a post no URL
    reaches (permalinks.post_problem()) has none."""
    needs = link_lookups(site, ctype)
    uris = ancestor_uris(conn, site, rows) if needs.ancestors else {}
    categories: dict[int, str] = {}
    authors: dict[int, str] = {}
    if needs.categories:
        primary = _primary_categories(site, meta or {})
        categories = category_paths(conn, site, rows, primary)
    if needs.product_categories:
        categories = product_category_paths(conn, site, rows)
    if needs.authors:
        authors = qu.nicenames(conn, site.tables, {int(r.post_author or 0) for r in rows})
    out: dict[int, str] = {}
    for r in rows:
        pid = int(r.ID)
        link = PostLink(pid, str(r.post_type), str(r.post_name or ""), _local(r.post_date),
                        uris.get(pid, ""), categories.get(pid, ""),
                        authors.get(int(r.post_author or 0), ""))
        if permalinks.post_problem(site.links, ctype, link) is not None:
            continue  # no URL reaches it: left out, named by `wpsitemaps check`
        out[pid] = permalinks.post_url(site.links, ctype, link)
    if needs.languages:
        out = _with_languages(conn, site, ctype, rows, out, uris)
    return out


def links_by_type(conn: Connection, site: SiteContext, rows: Sequence[PostRow],
                  meta: dict[int, dict[str, str]] | None = None) -> dict[int, str]:
    """post_links() for rows of several post types (rows of a type the site does not
    register get none)."""
    by_type: dict[str, list[PostRow]] = defaultdict(list)
    for row in rows:
        by_type[str(row.post_type)].append(row)
    links: dict[int, str] = {}
    for name, typed in by_type.items():
        ctype = site.types.post_type(name)
        if ctype is not None:
            links.update(post_links(conn, site, ctype, typed, meta))
    return links


def post_languages(conn: Connection, site: SiteContext, post_type: str,
                   ids: Sequence[int]) -> dict[int, Language]:
    """{post ID: its language} for posts of one type (posts without one are absent)."""
    langs = site.languages
    if langs is None or not ids:
        return {}
    found = objectlangs.post_languages(conn, site.tables, langs, post_type, ids)
    return {pid: lang for pid, slug in found.items() if (lang := langs.by_slug(slug))}


def _with_languages(conn: Connection, site: SiteContext, ctype: ContentType,
                    rows: Sequence[PostRow], urls: dict[int, str],
                    uris: dict[int, str]) -> dict[int, str]:
    """Polylang's post_link / post_type_link / _get_page_link filters (the language put
    into the URL when `force_lang` is set) and its page_link filter (a language's static
    front page is that language's home: include/static-pages.php)."""
    langs = site.languages
    if langs is None or ctype.name not in langs.post_types:
        return urls
    found = post_languages(conn, site, ctype.name, [int(r.ID) for r in rows])
    out: dict[int, str] = {}
    for pid, url in urls.items():
        lang = found.get(pid)
        front = langs.front_pages.get(lang.slug) if lang is not None else None
        if lang is not None and ctype.name == "page" and front == pid:
            out[pid] = langlinks.front_page_home(site.links, langs, lang.slug, uris.get(pid, ""))
        elif lang is not None and langs.force_lang:
            out[pid] = langlinks.add_language(site.links, langs, url, lang.slug)
        else:
            out[pid] = url
    return out


def _primary_categories(site: SiteContext, meta: dict[int, dict[str, str]]) -> dict[int, int]:
    """Yoast's primary category per post, honoured only while Yoast is active, as its
    post_link_category filter only runs then."""
    if not site.options.yoast_active:
        return {}
    out: dict[int, int] = {}
    for pid, values in meta.items():
        category = parse_id(values.get(PRIMARY_CATEGORY_KEY))
        if category is not None:
            out[pid] = category
    return out


def _local(value: object) -> str:
    """post_date as 'YYYY-MM-DD HH:MM:SS' whatever the driver returned."""
    if value is None:
        return ""
    text = value.isoformat(sep=" ") if hasattr(value, "isoformat") else str(value)
    return text[:19]
