"""Per-process cache of page bounds, so a page costs what one page costs.

Knowing where page n starts, how many pages there are and each page's newest lastmod takes
one pass over every listed object (queries_posts.page_bounds), which grows with the site.
The result is kept for `cache_ttl` seconds (default 300, the sitemaps' own max-age) per app,
provider and set of wp_options values, so any option change starts afresh. Entries are
always read live: a stale bound can only shift where a page starts (selection rules are in
every page query), never list something that is no longer public.

Past its TTL a value is still served while one background refresh (an internal request for
the index, which touches every provider) computes the new one, so on a large site no
crawler waits for a full pass; only an empty cache is filled in the request itself.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask
from flask import current_app
from flask import has_request_context
from flask import request

from wpsitemaps.entries import PageBound
from wpsitemaps.site import SiteContext

EXTENSION = "wpsitemaps.bounds_cache"
REFRESH_ENVIRON_KEY = "wpsitemaps.refresh"  # not settable by clients (no HTTP_ prefix)
log = logging.getLogger(__name__)


class NotReady(Exception):
    """A slow provider's bounds are being computed in the background (answer 503)."""


class BoundsCache:
    """A small TTL map; computing happens outside the lock (two may race, both correct)."""

    def __init__(self, ttl: float, clock: Callable[[], float] = time.monotonic,
                 on_stale: Callable[[], None] | None = None) -> None:
        self.ttl = ttl
        self.clock = clock
        self.on_stale = on_stale
        self._data: dict[Any, tuple[float, Any]] = {}
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
        if hit is not None and not force:
            if hit[0] <= now and self.on_stale is not None:
                self.on_stale()
                return hit[1]
            if hit[0] > now:
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


def _forced() -> bool:
    return bool(has_request_context() and request.environ.get(REFRESH_ENVIRON_KEY))


def cached(site: SiteContext, key: Any, compute: Callable[[], Any]) -> Any:
    """compute(), cached like bounds: per app, key and set of wp_options values."""
    cache: BoundsCache = current_app.extensions[EXTENSION]
    return cache.get((key, site.settings.entries_per_page, options_key(site)), compute,
                     force=_forced())


def cached_bounds(provider: Any, conn: Any, site: SiteContext) -> list[PageBound]:
    """provider.bounds(conn, site), cached per app, provider, page size and options.

    A provider whose `slow(conn, site)` says so (the video scan of a large site: minutes on
    a million posts) is never computed inside a request: the first time, the background
    refresh is started and NotReady raised.
    """
    cache: BoundsCache = current_app.extensions[EXTENSION]
    key = (provider, site.settings.entries_per_page, options_key(site))
    slow = getattr(provider, "slow", None)
    if (slow is not None and cache.ttl > 0 and cache.on_stale is not None and not _forced()
            and not cache.has(key) and slow(conn, site)):
        cache.on_stale()
        raise NotReady(provider.name)
    result: list[PageBound] = cache.get(key, lambda: provider.bounds(conn, site),
                                        force=_forced())
    return result


class Refresher:
    """Runs at most one background refresh at a time: an internal GET of the index with the
    refresh flag in the WSGI environ, so every provider's values are recomputed."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self._running = threading.Lock()

    def __call__(self) -> None:
        """Start a refresh unless one is running."""
        if self._running.acquire(blocking=False):
            threading.Thread(target=self._run, name="wpsitemaps-refresh", daemon=True).start()

    def _run(self) -> None:
        try:
            client = self.app.test_client()
            resp = client.get("/sitemap_index.xml", environ_base={REFRESH_ENVIRON_KEY: True})
            if resp.status_code != 200:
                log.warning("background refresh answered %s", resp.status_code)
        except Exception:  # noqa: BLE001 - a failed refresh keeps the stale values
            log.exception("background refresh failed")
        finally:
            self._running.release()


def init_app(app: Flask, ttl: int) -> None:
    """Attach the cache and its background refresher to the app."""
    app.extensions[EXTENSION] = BoundsCache(ttl, on_stale=Refresher(app))


def warm_up(app: Flask) -> None:
    """Fill the cache in the background (server start: the first crawler need not wait)."""
    cache: BoundsCache = app.extensions[EXTENSION]
    if cache.on_stale is not None and cache.ttl > 0:
        cache.on_stale()
