"""The author sitemap (author-sitemap.xml), as Yoast's WPSEO_Author_Sitemap_Provider."""

from __future__ import annotations

from datetime import UTC
from datetime import datetime

from sqlalchemy import Connection

from wpsitemaps.changes.ledger import listed_deps
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
from wpsitemaps.wordpress.queries import seo as qseo
from wpsitemaps.wordpress.queries import users as qu
from wpsitemaps.wordpress.queries.rows import AuthorRow
from wpsitemaps.wordpress.seoplugins import YOAST
from wpsitemaps.wordpress.site import SiteContext


def authors_disabled(site: SiteContext) -> bool:
    """Yoast's switches that take author archives out of the sitemaps, or a running SEO
    plugin's author sitemap switched off (AIOSEO `sitemap.general.author`, ...)."""
    return any(site.yoast_on(key) for key in ("disable-author", "noindex-author-wpseo")) or \
        any(ps.authors is False for ps in site.seo_sitemaps)


def yoast_stamps(conn: Connection, site: SiteContext, ids: list[int]) -> dict[int, datetime]:
    """{user ID: lastmod} from Yoast's user meta `_yoast_wpseo_profile_updated` (Unix
    seconds, written on registration and profile save: Yoast-dist/wordpress-seo 21.1
    `inc/sitemaps/class-author-sitemap-provider.php`); users without one keep their newest
    post's date."""
    out: dict[int, datetime] = {}
    for uid, value in qseo.user_meta_values(conn, site.tables, ids,
                                            qseo.YOAST_PROFILE_UPDATED).items():
        text = value.strip()
        if text.isascii() and text.isdigit() and 0 < int(text) < 2**33:
            out[uid] = datetime.fromtimestamp(int(text), UTC)
    return out


def author_rows(conn: Connection, site: SiteContext) -> list[AuthorRow]:
    """The users the author sitemap considers (queries.users.authors() with the site's
    membership and its SEO plugin's rules), before their URLs are built."""
    prefix = site.settings.table_prefix
    member_of = prefix if site.multisite else None
    roles = tuple(r for ps in site.seo_sitemaps for r in ps.exclude_roles)
    return qu.authors(conn, site.tables, member_of, site.seo,
                      level_of=prefix if site.seo.runs(YOAST) else None,
                      roles_of=(prefix, roles),
                      exclude_users=tuple(u for ps in site.seo_sitemaps
                                          for u in ps.exclude_users))


class AuthorProvider(Provider):
    """Users with published posts of type post, not noindexed."""

    name = "author"

    def value_deps(self) -> tuple[str, ...]:
        """The author list follows every user and post (a post dates its author)."""
        return tuple(listed_deps("authors"))

    @memoized
    def authors(self) -> list[tuple[int, UrlEntry]]:
        """(user ID, entry) of every listed author, by ID; cached across requests, as each
        author's newest post is an aggregate over all posts."""
        return self.cached("authors", self._authors)

    def _authors(self) -> list[tuple[int, UrlEntry]]:
        site = self.site
        out: list[tuple[int, UrlEntry]] = []
        alternates = author_alternates(self.conn, site)
        rows = author_rows(self.conn, site)
        yoast = site.seo.runs(YOAST)
        stamps = yoast_stamps(self.conn, site, [int(r[0]) for r in rows]) if yoast else {}
        for uid, nicename, modified in rows:
            if permalinks.author_problem(site.author_type, str(nicename or "")) is not None:
                continue  # no URL reaches it: left out, named by `wpsitemaps check`
            url = permalinks.author_url(site.links, site.author_type, int(uid),
                                        str(nicename or ""))
            loc = encode_url(author_link(site, url))
            if is_listable(loc):
                lastmod = stamps.get(int(uid)) or utc(modified)
                out.append((int(uid), UrlEntry(loc, lastmod,
                                               alternates=alternates(int(uid), url))))
        return out

    def compute_bounds(self) -> list[PageBound]:
        """Pages of `entries_per_page` authors."""
        return keyed_pages(self.authors, self.site.settings.entries_per_page)

    def entries(self, page: int, bound: PageBound) -> list[UrlEntry]:
        """The authors of one page."""
        return keyed_page(self.authors, bound, self.site.settings.entries_per_page)
