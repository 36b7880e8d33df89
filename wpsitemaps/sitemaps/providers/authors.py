"""The author sitemap (author-sitemap.xml), as Yoast's WPSEO_Author_Sitemap_Provider."""

from __future__ import annotations

from wpsitemaps.content.urls import encode_url
from wpsitemaps.content.urls import is_listable
from wpsitemaps.entries import PageBound
from wpsitemaps.entries import UrlEntry
from wpsitemaps.memo import memoized
from wpsitemaps.sitemaps.providers.base import Provider
from wpsitemaps.sitemaps.providers.base import keyed_page
from wpsitemaps.sitemaps.providers.base import keyed_pages
from wpsitemaps.sitemaps.translations import author_alternates
from wpsitemaps.sitemaps.translations import author_link
from wpsitemaps.wordpress import permalinks
from wpsitemaps.wordpress.dates import utc
from wpsitemaps.wordpress.queries import users as qu
from wpsitemaps.wordpress.site import SiteContext


def authors_disabled(site: SiteContext) -> bool:
    """Yoast's switches that take author archives out of the sitemaps."""
    return any(site.options.yoast_on(key) for key in ("disable-author", "noindex-author-wpseo"))


class AuthorProvider(Provider):
    """Users with published posts of type post, not noindexed."""

    name = "author"

    @memoized
    def authors(self) -> list[tuple[int, UrlEntry]]:
        """(user ID, entry) of every listed author, by ID; cached across requests, as each
        author's newest post is an aggregate over all posts."""
        return self.cached("authors", self._authors)

    def _authors(self) -> list[tuple[int, UrlEntry]]:
        site = self.site
        out: list[tuple[int, UrlEntry]] = []
        alternates = author_alternates(self.conn, site)
        member_of = site.settings.table_prefix if site.multisite else None
        for uid, nicename, modified in qu.authors(self.conn, site.tables, member_of):
            if permalinks.author_problem(site.author_type, str(nicename or "")) is not None:
                continue  # no URL reaches it: left out, named by `wpsitemaps check`
            url = permalinks.author_url(site.links, site.author_type, int(uid),
                                        str(nicename or ""))
            loc = encode_url(author_link(site, url))
            if is_listable(loc):
                out.append((int(uid), UrlEntry(loc, utc(modified),
                                               alternates=alternates(int(uid), url))))
        return out

    def compute_bounds(self) -> list[PageBound]:
        """Pages of `entries_per_page` authors."""
        return keyed_pages(self.authors, self.site.settings.entries_per_page)

    def entries(self, page: int, bound: PageBound) -> list[UrlEntry]:
        """The authors of one page."""
        return keyed_page(self.authors, bound, self.site.settings.entries_per_page)
