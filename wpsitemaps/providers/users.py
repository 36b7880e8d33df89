"""The author sitemap (author-sitemap.xml), as Yoast's WPSEO_Author_Sitemap_Provider."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection

from wpsitemaps import permalinks
from wpsitemaps import queries_users as qu
from wpsitemaps.boundscache import cached
from wpsitemaps.dates import latest
from wpsitemaps.dates import utc
from wpsitemaps.entries import PageBound
from wpsitemaps.entries import UrlEntry
from wpsitemaps.site import SiteContext
from wpsitemaps.urls import encode_url
from wpsitemaps.urls import is_listable


def authors_disabled(site: SiteContext) -> bool:
    """Yoast's switches that take author archives out of the sitemaps."""
    return any(site.options.yoast_on(key) for key in ("disable-author", "noindex-author-wpseo"))


@dataclass(frozen=True)
class AuthorProvider:
    """Users with published posts of type post, not noindexed."""

    name: str = "author"
    stylesheet: str = "main"

    def _entries(self, conn: Connection, site: SiteContext) -> list[tuple[int, UrlEntry]]:
        def compute() -> list[tuple[int, UrlEntry]]:
            out: list[tuple[int, UrlEntry]] = []
            for uid, nicename, modified in qu.authors(conn, site.tables):
                url = permalinks.author_url(site.links, site.author_type, int(uid),
                                            str(nicename or ""))
                loc = encode_url(url)
                if is_listable(loc):
                    out.append((int(uid), UrlEntry(loc, utc(modified))))
            return out

        # Cached like page bounds: each author's newest post is an aggregate over all posts.
        rows: list[tuple[int, UrlEntry]] = cached(site, ("authors", self), compute)
        return rows

    def bounds(self, conn: Connection, site: SiteContext) -> list[PageBound]:
        """Pages of `entries_per_page` authors."""
        rows = self._entries(conn, site)
        size = site.settings.entries_per_page
        return [PageBound(rows[i][0], latest(*(e.lastmod for _, e in rows[i:i + size])))
                for i in range(0, len(rows), size)]

    def entries(self, conn: Connection, site: SiteContext, page: int,
                bound: PageBound) -> list[UrlEntry]:
        """The authors of one page."""
        rows = [e for uid, e in self._entries(conn, site) if uid >= bound.first_key]
        return rows[:site.settings.entries_per_page]
