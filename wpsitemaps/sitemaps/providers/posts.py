"""Post type sitemaps (post, page, custom types), as Yoast's WPSEO_Post_Type_Sitemap_Provider.

Selection lives in SQL (wordpress.queries.posts.listable), with one rule SQL cannot
express: "a canonical override equal to the post's own permalink keeps it". A page settles
it on the rows it reads (their permalinks are built anyway), so no request pays for the
whole site's overrides. The page bounds leave that rule out: a page's range holds
`entries_per_page` published, indexable rows, and the ones whose canonical points elsewhere
are dropped when the page is built, as Yoast drops them from its pages (its get_url()
returns false for them). Settling it for the bounds took a pass over every override of the
type: 27 s and 200 MB per worker and refresh at 1,000,000 posts (issue #13). The news
window computes its keep-list over the window, explain over its one post.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from sqlalchemy import ColumnElement
from sqlalchemy import Connection

from wpsitemaps.cache.values import Values
from wpsitemaps.changes.ledger import value_deps_of_type
from wpsitemaps.content.urls import encode_url
from wpsitemaps.content.urls import is_listable
from wpsitemaps.entries import PageBound
from wpsitemaps.entries import UrlEntry
from wpsitemaps.memo import memoized
from wpsitemaps.sitemaps import tails
from wpsitemaps.sitemaps.images import page_images
from wpsitemaps.sitemaps.links import PRIMARY_CATEGORY_KEY
from wpsitemaps.sitemaps.links import links_by_type
from wpsitemaps.sitemaps.links import post_links
from wpsitemaps.sitemaps.providers.base import TypeProvider
from wpsitemaps.sitemaps.translations import archive_links
from wpsitemaps.sitemaps.translations import home_links
from wpsitemaps.sitemaps.translations import post_alternates
from wpsitemaps.sitemaps.translations import post_language_clause
from wpsitemaps.wordpress import permalinks
from wpsitemaps.wordpress.contenttypes import ContentType
from wpsitemaps.wordpress.dates import latest
from wpsitemaps.wordpress.dates import utc
from wpsitemaps.wordpress.queries import posts as qp
from wpsitemaps.wordpress.queries.rows import PostRow
from wpsitemaps.wordpress.site import SiteContext

log = logging.getLogger(__name__)
NEXTPAGE = "<!--nextpage-->"
META_KEYS = ("_thumbnail_id", PRIMARY_CATEGORY_KEY)


def page_count(content: str) -> int:
    """How many pages <!--nextpage--> splits a post into (setup_postdata())."""
    if NEXTPAGE not in content:
        return 1
    text = content.replace("\n" + NEXTPAGE, NEXTPAGE).replace(NEXTPAGE + "\n", NEXTPAGE)
    if text.startswith(NEXTPAGE):
        text = text[len(NEXTPAGE):]
    return text.count(NEXTPAGE) + 1


def post_lastmod(row: PostRow) -> Any:
    """max(post_modified_gmt, post_date_gmt); None when both are zero dates."""
    return latest(utc(row.post_modified_gmt), utc(row.post_date_gmt))


def post_entries(conn: Connection, site: SiteContext, ctype: ContentType,
                 rows: list[PostRow], meta: dict[int, dict[str, str]] | None = None,
                 links: dict[int, str] | None = None,
                 alternates: bool = False) -> dict[int, UrlEntry]:
    """{ID: UrlEntry with loc, lastmod and images} for rows of one type, in batched queries
    (meta and links when the caller has them); rows whose URL cannot be listed are left out.
    `alternates` adds hreflang links."""
    if meta is None:
        meta = qp.meta_values(conn, site.tables, [int(r.ID) for r in rows], META_KEYS)
    known = links or {}
    missing = [r for r in rows if int(r.ID) not in known]
    links = {**known, **(post_links(conn, site, ctype, missing, meta) if missing else {})}
    images = page_images(conn, site, rows, meta) if site.seo_images else {}
    alts = post_alternates(conn, site, ctype, rows, links) if alternates else {}
    out: dict[int, UrlEntry] = {}
    for r in rows:
        pid = int(r.ID)
        link = links.get(pid)
        if link is None:
            continue  # no URL reaches it (permalinks.post_problem())
        loc = encode_url(link)
        if not is_listable(loc):
            log.debug("post %s left out: URL not listable (%d chars)", pid, len(loc))
            continue
        out[pid] = UrlEntry(loc, post_lastmod(r), images.get(pid, ()),
                            alternates=alts.get(pid, ()))
    return out


def build_entries(conn: Connection, site: SiteContext, ctype: ContentType,
                  rows: list[PostRow], meta: dict[int, dict[str, str]] | None = None,
                  links: dict[int, str] | None = None) -> list[UrlEntry]:
    """post_entries() in row order, each followed by its <!--nextpage--> states."""
    built = post_entries(conn, site, ctype, rows, meta, links, alternates=True)
    out: list[UrlEntry] = []
    for r in rows:
        entry = built.get(int(r.ID))
        if entry is None:
            continue
        out.append(entry)
        link = _link_input(r)
        for n in range(2, page_count(str(r.post_content or "")) + 1):
            out.append(UrlEntry(permalinks.paged_url(site.links, link, entry.loc, n),
                                entry.lastmod))
    return out


def canonical_sets(lists: dict[int, dict[str, list[str]]],
                   counted: tuple[str, ...] = qp.canonical_keys()) -> dict[int, set[str]]:
    """{ID: stripped canonical override values} of the posts that have a non-empty one, of
    the meta keys that count (qp.canonical_keys(site.seo))."""
    out: dict[int, set[str]] = {}
    for pid, keys in lists.items():
        values = {v.strip() for k in counted for v in keys.get(k, []) if v != ""}
        if values:
            out[pid] = values
    return out


def plugin_canonicals(conn: Connection, site: SiteContext, ids: list[int],
                      overrides: dict[int, set[str]]) -> dict[int, set[str]]:
    """`overrides` (canonical_sets()) plus AIOSEO 4's `canonical_url` of those posts, where
    AIOSEO runs (its table, not post meta)."""
    if not ids or not qp.reads_aioseo(site.seo):
        return overrides
    out = {pid: set(values) for pid, values in overrides.items()}
    for pid, value in qp.aioseo_canonicals(conn, site.tables, ids).items():
        out.setdefault(pid, set()).add(value.strip())
    return out


def without_foreign_canonicals(rows: list[PostRow], overrides: dict[int, set[str]],
                               links: dict[int, str]) -> list[PostRow]:
    """The rows that stay listed under the canonical rule: no canonical override in
    `overrides` (canonical_sets()), or one equal to their own permalink in `links`."""
    return [r for r in rows if int(r.ID) not in overrides
            or overrides[int(r.ID)] == {links.get(int(r.ID))}]


def settle_canonicals(conn: Connection, site: SiteContext, rows: list[PostRow],
                      ) -> tuple[list[PostRow], dict[int, str]]:
    """Rows of several post types without those whose canonical points elsewhere, and the
    permalinks of all of them (Yoast's primary category applied, as the post pages do): the
    canonical rule settled on the rows a page or feed reads (issue #13)."""
    counted = qp.canonical_keys(site.seo)
    lists = qp.meta_lists(conn, site.tables, [int(r.ID) for r in rows],
                          (PRIMARY_CATEGORY_KEY, *counted))
    links = links_by_type(conn, site, rows, qp.first_values(lists))
    overrides = plugin_canonicals(conn, site, [int(r.ID) for r in rows],
                                  canonical_sets(lists, counted))
    return without_foreign_canonicals(rows, overrides, links), links


def _link_input(row: PostRow) -> permalinks.PostLink:
    return permalinks.PostLink(int(row.ID), str(row.post_type), str(row.post_name or ""))


class PostTypeProvider(TypeProvider):
    """One post type's sitemap (name = post type name: post-sitemap.xml, page-sitemap.xml...)."""

    def __init__(self, conn: Connection, site: SiteContext, values: Values,
                 ctype: ContentType) -> None:
        super().__init__(conn, site, values, ctype)
        self._tail: list[PostRow] | None = None  # per request, as every value here
        self._live: list[PageBound] | None = None

    def _exclude(self) -> list[int]:
        if self.name != "page":
            return []
        # Yoast lists the front page and the posts page as first links instead; on a
        # language host Polylang translates both options (their translations are left out).
        options, langs = self.site.options, self.site.languages
        ids = [i for i in (options.page_on_front, options.page_for_posts) if i > 0]
        if langs is not None and langs.current:
            ids += [*langs.front_pages.values(), *langs.posts_pages.values()]
        return sorted(set(ids))

    def listable_within(self, within: ColumnElement[bool]) -> ColumnElement[bool]:
        """The SQL condition for listed rows with the canonical keep-list computed over
        `within` only (the news window: a query whose cost depends on the window, not on the
        site); exact for rows within."""
        keep = self._self_canonical(within)
        return qp.listable(self.site.tables, [self.name], keep, self._exclude(),
                           **self._seo_rules())

    def _seo_rules(self) -> dict[str, Any]:
        """The SEO plugins' part of the listing rules: whose markers count, the posts and
        terms their sitemap settings leave out (issue #24), and on a language host the
        language of its posts."""
        site = self.site
        return {"seo": site.seo, "excluded": site.excluded_posts,
                "excluded_terms": site.excluding_terms, "language": self._language(),
                "type_noindex": site.type_noindexed_by(self.name)}

    def _language(self) -> ColumnElement[bool] | None:
        """On a language host, which of the type's posts are served there (else None)."""
        return post_language_clause(self.site, self.name)

    def value_deps(self) -> tuple[str, ...]:
        """Bounds and newest lastmod follow every post of the type."""
        return value_deps_of_type(self.name)

    @memoized
    def bounds_condition(self) -> ColumnElement[bool]:
        """The listing rules without the canonical rule, for the page bounds (see the
        module doc), the video candidates, the feeds and the headless API."""
        return qp.listable(self.site.tables, [self.name], (), self._exclude(), canonical=False,
                           **self._seo_rules())

    @memoized
    def page_condition(self) -> ColumnElement[bool]:
        """condition for page queries walking IDs from a bound, without the canonical rule
        (pages settle it on their rows: _read_page)."""
        return qp.listable(self.site.tables, [self.name], (), self._exclude(), keyset=True,
                           canonical=False, **self._seo_rules())

    def listable_clauses(self, post_id: int) -> qp.Clauses:
        """The named clauses of the listing rules for one post (what `wpsitemaps explain`
        evaluates), its canonical override settled for that post alone."""
        keep = self._self_canonical(self.site.tables.posts.c.ID == post_id)
        return qp.listable_clauses(self.site.tables, [self.name], keep, self._exclude(),
                                   **self._seo_rules())

    def _self_canonical(self, within: ColumnElement[bool]) -> list[int]:
        """IDs matching `within` whose canonical override equals their own permalink (they
        stay listed), the permalink built as a page builds it (primary category too)."""
        conn, site = self.conn, self.site
        candidates: dict[int, set[str]] = {}
        for row in qp.canonical_candidates(conn, site.tables, self.name, within, site.seo):
            candidates.setdefault(int(row[0]), set()).add(str(row[1]).strip())
        if not candidates:
            return []
        rows = qp.rows_by_id(conn, site.tables, candidates, with_content=False)
        meta = qp.meta_values(conn, site.tables, candidates, (PRIMARY_CATEGORY_KEY,))
        links = post_links(conn, site, self.ctype, rows, meta)
        return sorted(pid for pid, values in candidates.items() if values == {links.get(pid)})

    def compute_bounds(self) -> list[PageBound]:
        """Page bounds from one ID-ordered pass; page 1 also covers the first links, the
        last page says up to which ID, when and with how many rows the pass looked (the
        watermark read before it, so a row inserted or published during the pass is read
        again in the tail)."""
        seen_to, seen_at = qp.max_id(self.conn, self.site.tables), self.site.now
        rows = qp.page_bounds(self.conn, self.site.tables, self.bounds_condition,
                              self.site.settings.entries_per_page)
        out = [span.bound for span in rows]
        if out:
            first_mod = latest(*(e.lastmod for e in self.first_links))
            out[0] = PageBound(out[0].first_key, latest(out[0].lastmod, first_mod))
            out[-1] = replace(out[-1], last_key=rows[-1].last_id, seen_to=seen_to,
                              seen_at=seen_at, row_count=rows[-1].row_count)
        return out

    def live_bounds(self) -> list[PageBound]:
        """The pages as served now: the cached bounds with the tail on them (tails.py: the
        last page filled up, new pages after it), each dated by the listed rows it gains."""
        if self._live is None:
            bounds, tail, walked = self.bounds, self.tail(), tails.walked_to(self.bounds)
            fresh = [int(r.ID) for r in tail if walked is not None and int(r.ID) > walked]
            pages = tails.extended(bounds, fresh, self.site.settings.entries_per_page)
            first = None
            if pages and not bounds:  # page 1 is new: dated by its first links too
                first = latest(*(e.lastmod for e in self.first_links))
            listed = [(int(r.ID), post_lastmod(r)) for r in self.listed(tail)]
            self._live = tails.dated(pages, listed, first)
        return self._live

    def tail(self) -> list[PostRow]:
        """The listed rows the bounds pass could not see (tails.read_tail(), canonical rule
        not settled), read once per request."""
        if self._tail is None:
            self._tail = tails.read_tail(self.conn, self.site, self.page_condition,
                                         self.bounds)
        return self._tail

    def range_end(self, page: int) -> int | None:
        """Where page `page`'s ID range ends (tails.range_end())."""
        return tails.range_end(self.live_bounds(), page)

    def walk_end(self, page: int) -> int | None:
        """Where the walk of page `page`'s ID range stops (tails.walk_end())."""
        return tails.walk_end(self.live_bounds(), page, tails.walked_to(self.bounds))

    def tail_rows(self, page: int) -> list[PostRow]:
        """The tail's rows of page `page` that its walk does not read (tails.off_walk())."""
        return tails.off_walk(self.tail(), self.live_bounds(), page,
                              tails.walked_to(self.bounds))

    def entries(self, page: int, bound: PageBound) -> list[UrlEntry]:
        """One page of entries: the rows of its ID range (live_bounds()) its walk reads plus
        its rows of the tail; first links on page 1."""
        size, stop = self.site.settings.entries_per_page, self.walk_end(page)
        rows: list[PostRow] = []
        meta: dict[int, dict[str, str]] = {}
        links: dict[int, str] = {}
        if stop is None or bound.first_key < stop:
            rows, meta, links = self._read_page(bound.first_key, stop, size)
        extra = [int(r.ID) for r in self.tail_rows(page)]
        if extra:
            more = qp.rows_by_id(self.conn, self.site.tables, extra, marked_only=True)
            rows = sorted(rows + self._settle(more, meta, links), key=lambda r: int(r.ID))
        entries = build_entries(self.conn, self.site, self.ctype, rows, meta, links)
        return (self.first_links + entries) if page == 1 else entries

    def _read_page(self, first: int, before: int | None, size: int,
                   ) -> tuple[list[PostRow], dict[int, dict[str, str]], dict[int, str]]:
        """The listed rows from `first` below `before` (every one: a range holds its page's
        rows plus those published in it since the pass; without `before`, up to `size`),
        their meta and the links of those with a canonical override: rows whose override is
        not their own permalink are dropped here."""
        cap = 2 * size  # a page's range holds its rows plus its few foreign canonicals
        rows: list[PostRow] = []
        meta: dict[int, dict[str, str]] = {}
        links: dict[int, str] = {}
        while True:
            batch = qp.page_rows(self.conn, self.site.tables, self.page_condition, first, cap,
                                 before_id=before, marked_only=True)
            rows.extend(self._settle(batch, meta, links))
            if len(batch) < cap or (before is None and len(rows) >= size):
                return (rows if before is not None else rows[:size]), meta, links
            first = int(batch[-1].ID) + 1

    def listed(self, rows: list[PostRow]) -> list[PostRow]:
        """The rows that stay listed under the canonical rule (see _settle)."""
        return self._settle(rows, {}, {})

    def _settle(self, batch: list[PostRow], meta: dict[int, dict[str, str]],
                links: dict[int, str]) -> list[PostRow]:
        """The rows of batch that stay listed: no canonical override, or one equal to their
        own permalink. Their meta and the links computed go into `meta` and `links`."""
        counted = qp.canonical_keys(self.site.seo)
        lists = qp.meta_lists(self.conn, self.site.tables, [int(r.ID) for r in batch],
                              (*META_KEYS, *counted))
        meta.update(qp.first_values(lists))
        overrides = plugin_canonicals(  # once: per row it made a page quadratic
            self.conn, self.site, [int(r.ID) for r in batch], canonical_sets(lists, counted))
        overridden = [r for r in batch if int(r.ID) in overrides]
        if overridden:  # only their links are needed here; the others are built with entries
            links.update(post_links(self.conn, self.site, self.ctype, overridden, meta))
        return without_foreign_canonicals(batch, overrides, links)

    @memoized
    def first_links(self) -> list[UrlEntry]:
        """Yoast's get_first_links(): home / front page, posts page, or type archive."""
        conn, site = self.conn, self.site
        opts, links = site.options, site.links
        home = encode_url(permalinks.home_url(links, "/"))
        if self.name == "page":
            front = self._front_page() if opts.static_front else []
            # Yoast's home link is the default language's home on a Polylang site.
            return front or home_links(site, None)[:1] or [UrlEntry(home)]
        # MAX over every published row of the type: cached like page bounds (it is a pass
        # over the type; 2.5 s on a million posts).
        type_mod = utc(self.cached("max_modified",
                                   lambda: qp.max_modified(conn, site.tables, self.name)))
        if self.name == "post":
            if not opts.static_front:
                return home_links(site, type_mod) or [UrlEntry(home, type_mod)]
            return self._posts_page(type_mod)
        if site.yoast_on(f"noindex-ptarchive-{self.name}"):
            return []
        archive = permalinks.archive_url(links, self.ctype)
        if archive and site.languages is not None:
            return archive_links(conn, site, self.ctype, archive, type_mod)
        return [UrlEntry(encode_url(archive), type_mod)] if archive else []

    def _posts_page(self, type_mod: Any) -> list[UrlEntry]:
        """The posts page as the post sitemap's first link (with its translations' hreflang)."""
        conn, site = self.conn, self.site
        page_id = _translated(site, site.options.page_for_posts, "posts")
        page_type = site.types.post_type("page")
        rows = qp.rows_by_id(conn, site.tables, [page_id]) if page_id > 0 else []
        if not rows or page_type is None:
            return []
        urls = post_links(conn, site, page_type, rows)
        if page_id not in urls:
            return []
        alts = post_alternates(conn, site, page_type, rows, urls)
        return [UrlEntry(encode_url(urls[page_id]), type_mod, alternates=alts.get(page_id, ()))]

    def _front_page(self) -> list[UrlEntry]:
        """The static front page's entries (home URL, then /page/N/ parts) if it is listable."""
        conn, site = self.conn, self.site
        front_id = _translated(site, site.options.page_on_front, "front")
        cond = qp.listable(site.tables, ["page"], self._self_canonical(
            site.tables.posts.c.ID == front_id), seo=site.seo)
        rows = [r for r in qp.page_rows(conn, site.tables, cond, front_id, 1)
                if int(r.ID) == front_id]
        return build_entries(conn, site, self.ctype, rows) if rows else []


def _translated(site: SiteContext, page_id: int, which: str) -> int:
    """page_on_front / page_for_posts as read on this request's host: on a language's own
    host Polylang's option filters answer that language's translation of the page
    (PLL_Static_Pages::translate_page_on_front()), else the option itself."""
    langs = site.languages
    if langs is None or not langs.current:
        return page_id
    pages = langs.front_pages if which == "front" else langs.posts_pages
    return pages.get(langs.current, page_id)
