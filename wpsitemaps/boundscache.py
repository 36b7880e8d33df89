"""Per-process cache of page bounds, so a page costs what one page costs.

Knowing where page n starts, how many pages there are and each page's newest lastmod takes
one pass over every listed object (queries_posts.page_bounds), which grows with the site.
The result is kept for `cache_ttl` seconds (default 300, the sitemaps' own max-age) per app,
provider and set of wp_options values, so any option change starts afresh. Entries are
always read live: a stale bound can only shift where a page starts (selection rules are in
every page query), never list something that is no longer public.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from flask import current_app

from wpsitemaps.entries import PageBound
from wpsitemaps.site import SiteContext

EXTENSION = "wpsitemaps.bounds_cache"


class BoundsCache:
    """A small TTL map; computing happens outside the lock (two may race, both correct)."""

    def __init__(self, ttl: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl = ttl
        self.clock = clock
        self._data: dict[Any, tuple[float, Any]] = {}
        self._lock = threading.Lock()

    def get(self, key: Any, compute: Callable[[], Any]) -> Any:
        """The cached value for key, or compute(), store and return it."""
        if self.ttl <= 0:
            return compute()
        now = self.clock()
        with self._lock:
            hit = self._data.get(key)
        if hit is not None and hit[0] > now:
            return hit[1]
        value = compute()
        with self._lock:
            if len(self._data) > 1000:  # many option sets over time: start afresh
                self._data.clear()
            self._data[key] = (now + self.ttl, value)
        return value


def options_key(site: SiteContext) -> int:
    """A fingerprint of every option read (any change gives a new cache key)."""
    return hash(tuple(sorted(site.options.raw.items())))


def cached(site: SiteContext, key: Any, compute: Callable[[], Any]) -> Any:
    """compute(), cached like bounds: per app, key and set of wp_options values."""
    cache: BoundsCache = current_app.extensions[EXTENSION]
    return cache.get((key, site.settings.entries_per_page, options_key(site)), compute)


def cached_bounds(provider: Any, conn: Any, site: SiteContext) -> list[PageBound]:
    """provider.bounds(conn, site), cached per app, provider, page size and options."""
    cache: BoundsCache = current_app.extensions[EXTENSION]
    key = (provider, site.settings.entries_per_page, options_key(site))
    result: list[PageBound] = cache.get(key, lambda: provider.bounds(conn, site))
    return result
