"""Post type sitemaps (post, page, custom types), as Yoast's WPSEO_Post_Type_Sitemap_Provider.

Selection lives in SQL (wordpress.queries.posts.listable), so every page but the last is
full. The one rule SQL cannot express, "a canonical override equal to the post's own
permalink keeps it", is settled first: the few posts with a canonical override are checked
in Python and the self-canonical ones are passed to SQL as an explicit keep-list.
"""

from __future__ import annotations

import logging
from functools import cached_property
from typing import Any

from sqlalchemy import ColumnElement
from sqlalchemy import Connection
from sqlalchemy import Row

from wpsitemaps.content.urls import encode_url
from wpsitemaps.content.urls import is_listable
from wpsitemaps.entries import PageBound
from wpsitemaps.entries import UrlEntry
from wpsitemaps.sitemaps.images import page_images
from wpsitemaps.sitemaps.links import PRIMARY_CATEGORY_KEY
from wpsitemaps.sitemaps.links import post_links
from wpsitemaps.sitemaps.providers.base import TypeProvider
from wpsitemaps.wordpress import permalinks
from wpsitemaps.wordpress.contenttypes import ContentType
from wpsitemaps.wordpress.dates import latest
from wpsitemaps.wordpress.dates import utc
from wpsitemaps.wordpress.queries import posts as qp
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


def post_lastmod(row: Row[Any]) -> Any:
    """max(post_modified_gmt, post_date_gmt); None when both are zero dates."""
    return latest(utc(row.post_modified_gmt), utc(row.post_date_gmt))


def post_entries(conn: Connection, site: SiteContext, ctype: ContentType,
                 rows: list[Row[Any]]) -> dict[int, UrlEntry]:
    """{ID: UrlEntry with loc, lastmod and images} for rows of one type, in batched queries;
    rows whose URL cannot be listed are left out."""
    ids = [int(r.ID) for r in rows]
    meta = qp.meta_values(conn, site.tables, ids, META_KEYS)
    links = post_links(conn, site, ctype, rows, meta)
    images = page_images(conn, site, rows, meta)
    out: dict[int, UrlEntry] = {}
    for r in rows:
        pid = int(r.ID)
        loc = encode_url(links[pid])
        if not is_listable(loc):
            log.debug("post %s left out: URL not listable (%d chars)", pid, len(loc))
            continue
        out[pid] = UrlEntry(loc, post_lastmod(r), images.get(pid, ()))
    return out


def build_entries(conn: Connection, site: SiteContext, ctype: ContentType,
                  rows: list[Row[Any]]) -> list[UrlEntry]:
    """post_entries() in row order, each followed by its <!--nextpage--> states."""
    built = post_entries(conn, site, ctype, rows)
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


def _link_input(row: Row[Any]) -> permalinks.PostLink:
    return permalinks.PostLink(int(row.ID), str(row.post_type), str(row.post_name or ""))


class PostTypeProvider(TypeProvider):
    """One post type's sitemap (name = post type name: post-sitemap.xml, page-sitemap.xml...)."""

    def _exclude_ids(self) -> list[int]:
        if self.name != "page":
            return []
        # Yoast lists the front page and the posts page as first links instead.
        options = self.site.options
        return [i for i in (options.page_on_front, options.page_for_posts) if i > 0]

    def listable_clauses(self, keyset: bool = False) -> qp.Clauses:
        """The named clauses of `condition` (what `wpsitemaps explain` evaluates)."""
        return qp.listable_clauses(self.site.tables, [self.name], self.self_canonical,
                                   self._exclude_ids(), keyset)

    @cached_property
    def condition(self) -> ColumnElement[bool]:
        """The SQL condition for listed rows (also used by the news and video sitemaps)."""
        return qp.listable(self.site.tables, [self.name], self.self_canonical,
                           self._exclude_ids())

    @cached_property
    def keyset_condition(self) -> ColumnElement[bool]:
        """condition, for page queries that walk IDs from a bound."""
        return qp.listable(self.site.tables, [self.name], self.self_canonical,
                           self._exclude_ids(), keyset=True)

    @cached_property
    def self_canonical(self) -> list[int]:
        """IDs whose canonical override equals their own permalink (they stay listed)."""
        conn, site = self.conn, self.site
        candidates: dict[int, set[str]] = {}
        for row in qp.canonical_candidates(conn, site.tables, self.name):
            candidates.setdefault(int(row[0]), set()).add(str(row[1]).strip())
        if not candidates:
            return []
        rows = qp.rows_by_id(conn, site.tables, candidates)
        links = post_links(conn, site, self.ctype, rows)
        return [pid for pid, values in candidates.items() if values == {links.get(pid)}]

    def compute_bounds(self) -> list[PageBound]:
        """Page bounds from one ID-ordered pass; page 1 also covers the first links."""
        rows = qp.page_bounds(self.conn, self.site.tables, self.condition,
                              self.site.settings.entries_per_page)
        out = [span.bound for span in rows]
        if out:
            first_mod = latest(*(e.lastmod for e in self.first_links))
            out[0] = PageBound(out[0].first_key, latest(out[0].lastmod, first_mod))
        return out

    def entries(self, page: int, bound: PageBound) -> list[UrlEntry]:
        """One page of entries, first links on page 1."""
        rows = qp.page_rows(self.conn, self.site.tables, self.keyset_condition,
                            bound.first_key, self.site.settings.entries_per_page)
        entries = build_entries(self.conn, self.site, self.ctype, rows)
        return (self.first_links + entries) if page == 1 else entries

    @cached_property
    def first_links(self) -> list[UrlEntry]:
        """Yoast's get_first_links(): home / front page, posts page, or type archive."""
        conn, site = self.conn, self.site
        opts, links = site.options, site.links
        home = encode_url(permalinks.home_url(links, "/"))
        if self.name == "page":
            front = self._front_page() if opts.static_front else []
            return front or [UrlEntry(home)]
        # MAX over every published row of the type: cached like page bounds (it is a pass
        # over the type; 2.5 s on a million posts).
        type_mod = utc(self.cached("max_modified",
                                   lambda: qp.max_modified(conn, site.tables, self.name)))
        if self.name == "post":
            if not opts.static_front:
                return [UrlEntry(home, type_mod)]
            if opts.page_for_posts > 0:
                rows = qp.rows_by_id(conn, site.tables, [opts.page_for_posts])
                page_type = site.types.post_type("page")
                if rows and page_type is not None:
                    url = post_links(conn, site, page_type, rows)[opts.page_for_posts]
                    return [UrlEntry(encode_url(url), type_mod)]
            return []
        if opts.yoast_on(f"noindex-ptarchive-{self.name}"):
            return []
        archive = permalinks.archive_url(links, self.ctype)
        return [UrlEntry(encode_url(archive), type_mod)] if archive else []

    def _front_page(self) -> list[UrlEntry]:
        """The static front page's entries (home URL, then /page/N/ parts) if it is listable."""
        conn, site = self.conn, self.site
        front_id = site.options.page_on_front
        cond = qp.listable(site.tables, ["page"], self.self_canonical)
        rows = [r for r in qp.page_rows(conn, site.tables, cond, front_id, 1)
                if int(r.ID) == front_id]
        return build_entries(conn, site, self.ctype, rows) if rows else []
