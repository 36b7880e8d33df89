"""The cross-request cache of page bounds, term and author lists: one mechanism for all.

Knowing where page n starts, how many pages there are and each page's newest lastmod takes
one pass over every listed object (queries.posts.page_bounds), which grows with the site.
The result is kept for `cache_ttl` seconds (default 300, the sitemaps' own max-age) per app,
site, key and set of wp_options values, so any option change starts afresh. Entries are
always read live: a stale bound can only shift where a page starts (selection rules are in
every page query), never list something that is no longer public.

Past its TTL a value is still served while one background refresh (started through
`on_stale`, see web.context) computes the new one, so on a large site no crawler waits for a
full pass; only an empty cache is filled in the request itself. No Flask here: the web layer
owns the BoundsCache and hands each request a `SharedCache` view of it.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from typing import TypeVar

from wpsitemaps.wordpress.site import SiteContext

T = TypeVar("T")


class NotReady(Exception):
    """A slow provider's bounds are being computed in the background (answer 503)."""


class BoundsCache:
    """A bounded TTL map; computing happens outside the lock (two may race, both correct).

    Least recently used entries go first past `max_entries`: a network of many sites keeps
    a dozen entries per site, and memory must stay flat however many sites are asked for.
    """

    def __init__(self, ttl: float, clock: Callable[[], float] = time.monotonic,
                 on_stale: Callable[[], None] | None = None, max_entries: int = 10_000) -> None:
        self.ttl = ttl
        self.clock = clock
        self.on_stale = on_stale
        self.max_entries = max_entries
        self._data: OrderedDict[Any, tuple[float, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def has(self, key: Any) -> bool:
        """Whether a value (fresh or stale) is stored for key."""
        with self._lock:
            return key in self._data

    def get(self, key: Any, compute: Callable[[], Any], force: bool = False) -> Any:
        """The cached value for key (stale ones too, while a refresh runs), or compute(),
        store and return it. force=True recomputes (the background refresh)."""
        if self.ttl <= 0:
            return compute()
        now = self.clock()
        with self._lock:
            hit = self._data.get(key)
            if hit is not None:
                self._data.move_to_end(key)
        if hit is not None and not force:
            if hit[0] <= now and self.on_stale is not None:
                self.on_stale()
                return hit[1]
            if hit[0] > now:
                return hit[1]
        value = compute()
        with self._lock:
            self._data[key] = (now + self.ttl, value)
            self._data.move_to_end(key)
            while len(self._data) > self.max_entries:
                self._data.popitem(last=False)
        return value

    def __len__(self) -> int:
        with self._lock:
            return len(self._data)


def options_key(site: SiteContext) -> int:
    """A fingerprint of every option read (any change gives a new cache key)."""
    return hash(tuple(sorted(site.options.raw.items())))


@dataclass(frozen=True)
class SharedCache:
    """The app's BoundsCache as one request (or command) uses it.

    cache=None computes every value (a command run once); refresh=True is the background
    refresh, which recomputes every value it touches.
    """

    cache: BoundsCache | None = None
    refresh: bool = False

    def _key(self, site: SiteContext, key: Any) -> Any:
        return (site.key, key, site.settings.entries_per_page, options_key(site))

    def get(self, site: SiteContext, key: Any, compute: Callable[[], T]) -> T:
        """compute(), cached per app, site, key, page size and set of wp_options values."""
        if self.cache is None:
            return compute()
        value: T = self.cache.get(self._key(site, key), compute, force=self.refresh)
        return value

    def defer(self, site: SiteContext, key: Any) -> bool:
        """For a slow computation: True when it must not run in this request (nothing cached
        yet and a background refresh can do it), after starting that refresh."""
        cache = self.cache
        if (cache is None or self.refresh or cache.ttl <= 0 or cache.on_stale is None
                or cache.has(self._key(site, key))):
            return False
        cache.on_stale()
        return True
