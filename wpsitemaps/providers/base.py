"""The provider contract (WordPress's WP_Sitemaps_Provider, Django's Sitemap)."""

from __future__ import annotations

from typing import Protocol

from sqlalchemy import Connection

from wpsitemaps.entries import PageBound
from wpsitemaps.entries import UrlEntry
from wpsitemaps.site import SiteContext


class Provider(Protocol):
    """A named sitemap split into pages of at most `entries_per_page` objects."""

    @property
    def name(self) -> str:
        """The name in the URL: `{name}-sitemap{n}.xml`."""

    @property
    def stylesheet(self) -> str:
        """Which XSL renders it: 'main', 'video' or 'news'."""

    def bounds(self, conn: Connection, site: SiteContext) -> list[PageBound]:
        """One PageBound per non-empty page, in order (empty list: no entries)."""

    def entries(self, conn: Connection, site: SiteContext, page: int,
                bound: PageBound) -> list[UrlEntry]:
        """The entries of page `page` (1-based) starting at `bound`."""
