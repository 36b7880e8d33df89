"""The provider contract (WordPress's WP_Sitemaps_Provider, Django's Sitemap) and its base.

A provider is built per request (or per command) with its connection, site and the app's
value cache, and memoizes per-request values on itself (`memo.memoized`, which, unlike
functools.cached_property on Python 3.11, shares no lock between requests).
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence
from typing import TypeVar

from sqlalchemy import Connection

from wpsitemaps.cache.values import Values
from wpsitemaps.entries import PageBound
from wpsitemaps.entries import UrlEntry
from wpsitemaps.memo import memoized
from wpsitemaps.wordpress.contenttypes import ContentType
from wpsitemaps.wordpress.dates import latest
from wpsitemaps.wordpress.site import SiteContext

T = TypeVar("T")


class NotReady(Exception):
    """A slow provider's bounds are being computed in the background (answer 503)."""


class Provider:
    """A named sitemap split into pages of at most `entries_per_page` objects.

    Subclasses set `name` and `stylesheet` and implement `compute_bounds()` and `entries()`;
    `live_bounds()` is what callers read (`bounds`, cached across requests by the value
    cache, plus what a provider reads live).
    """

    name: str
    stylesheet: str = "main"  # which XSL renders it: 'main', 'video' or 'news'

    def __init__(self, conn: Connection, site: SiteContext, values: Values) -> None:
        self.conn = conn
        self.site = site
        self.values = values

    def compute_bounds(self) -> list[PageBound]:
        """One PageBound per non-empty page, in order (empty list: no entries)."""
        raise NotImplementedError

    def entries(self, page: int, bound: PageBound) -> list[UrlEntry]:
        """The entries of page `page` (1-based) starting at `bound`."""
        raise NotImplementedError

    def value_deps(self) -> tuple[str, ...]:
        """The change ledger's buckets the values cached across requests (bounds, lists)
        are computed from (changes.ledger): an event moving one has them computed again on
        their next read. None but 'site' (always implied): they follow `cache_ttl`."""
        return ()

    def is_slow(self) -> bool:
        """Whether computing the bounds is too slow for a request (then background only)."""
        return False

    @memoized
    def bounds(self) -> list[PageBound]:
        """The page bounds, cached per app, site and options; NotReady while a slow
        provider's first computation runs in the background."""
        key = ("bounds", self.name)
        if self.is_slow() and self.values.defer(self.site, key, self.value_deps()):
            raise NotReady(self.name)
        return self.values.get(self.site, key, self.compute_bounds, self.value_deps())

    def live_bounds(self) -> list[PageBound]:
        """The pages as served now: the index lists them, the page route answers them (404
        past the last). The cached bounds, unless the provider reads what is newer (post
        types: sitemaps/tails.py)."""
        return self.bounds

    def cached(self, key: str, compute: Callable[[], T]) -> T:
        """compute(), cached across requests like the bounds (aggregates over the site)."""
        return self.values.get(self.site, (key, self.name), compute, self.value_deps())


class TypeProvider(Provider):
    """A provider of one post type or taxonomy: its sitemap is named after the type."""

    def __init__(self, conn: Connection, site: SiteContext, values: Values,
                 ctype: ContentType) -> None:
        super().__init__(conn, site, values)
        self.ctype = ctype
        self.name = ctype.name


def keyed_pages(rows: Sequence[tuple[int, UrlEntry]], size: int) -> list[PageBound]:
    """Bounds of a list of (key, entry) sorted by key: pages of `size` entries."""
    return [PageBound(rows[i][0], latest(*(e.lastmod for _, e in rows[i:i + size])))
            for i in range(0, len(rows), size)]


def keyed_page(rows: Sequence[tuple[int, UrlEntry]], bound: PageBound,
               size: int) -> list[UrlEntry]:
    """The entries of the page that starts at `bound` in a list of (key, entry)."""
    return [e for key, e in rows if key >= bound.first_key][:size]


