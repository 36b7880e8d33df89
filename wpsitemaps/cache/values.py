"""The cross-request cache of computed values (page bounds, term and author lists): one
mechanism for all.

Knowing where page n starts, how many pages there are and each page's newest lastmod takes
one pass over every listed object (queries.posts.page_bounds), which grows with the site.
The result is kept for `cache_ttl` seconds (default 300, the sitemaps' own max-age) per app,
site, key and set of wp_options values, so any option change starts afresh. Entries are
always read live: a stale bound can only shift where a page starts (selection rules are in
every page query), never list something that is no longer public.

Past its TTL a value is still served while one background refresh (started through the
caller's `on_stale`, see serving.refresh) computes the new one, so on a large site no crawler
waits for a full pass; only an empty cache is filled in the request itself. With the page
store on, the workers (and app hosts) share these values: one computes, the others read
(cache.peer). The service owns the ValueCache and hands each caller a `Values` view of it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from typing import TypeVar

from wpsitemaps.cache.leases import LONGEST
from wpsitemaps.cache.leases import TERM
from wpsitemaps.cache.leases import Lease
from wpsitemaps.cache.lru import LRU
from wpsitemaps.cache.peer import StoreValues
from wpsitemaps.cache.peer import value_key
from wpsitemaps.wordpress.site import SiteContext

log = logging.getLogger(__name__)
T = TypeVar("T")
WAIT = 1.0  # seconds a request without a value waits for another process computing it
POLL = 0.05  # seconds between looks at the store while waiting
# A value is kept at least this many times as long as it took to compute, so that keeping
# it fresh never keeps the database busy more than 1/SLOW_FACTOR of the time (the video
# candidates' scan takes about 90 s on a million posts: refreshed every 30 minutes, not
# every `cache_ttl`).
SLOW_FACTOR = 20
# A value whose generation moved (an event touched what it is computed from, issue #26) is
# computed again in the request when it last took less than this (seconds); a slower one is
# served as it was while the background refresh computes it, as one past its TTL is.
QUICK = 0.25


@dataclass(frozen=True)
class Entry:
    """A cached value: when it goes stale (cache clock), when its computation started
    (wall clock, comparable between processes), how long it is kept (seconds), the
    generation it was computed under (Values: the heads of what it is computed from) and
    how long computing it took (seconds)."""

    expires: float
    value: Any
    stamp: float
    life: float
    gen: str | None = None
    cost: float = 0.0


class ValueCache:
    """A bounded TTL map; computing happens outside the lock.

    Least recently used entries go first past `max_entries`: a network of many sites keeps
    a dozen entries per site, and memory must stay flat however many sites are asked for.

    With a `peer` (the page store, cache.peer) the map is the first level of two: a
    value missing or stale here is taken from the store when another worker computed it
    more recently, and a value to compute is computed by one worker under a lease while the
    others serve what they have (or wait a second for it). Without one, two workers (or
    threads) may compute the same value; both results are correct.
    """

    def __init__(self, ttl: float, clock: Callable[[], float] = time.monotonic,
                 max_entries: int = 10_000, peer: StoreValues | None = None,
                 on_change: Callable[[Any], None] | None = None) -> None:
        self.ttl = ttl
        self.clock = clock
        self.peer = peer
        # Told the key of a value that differs from the one held before (or none was):
        # documents stored from the old value are then checked again (issue #26).
        self.on_change = on_change
        # When each value of a site runs out (keys starting with the site's key): a stored
        # page served without the site (serving.changecheck) still starts the refresh a
        # stale value would have started.
        self._expires: dict[str, dict[Any, float]] = {}
        self.wait = WAIT
        self._data: LRU[Any, Entry] = LRU(max_entries)

    def has(self, key: Any, peer_key: str | None = None) -> bool:
        """Whether a value (fresh or stale) is here for key, or in the peer (then taken)."""
        if key in self._data:
            return True
        if self.peer is None or peer_key is None:
            return False
        return self._adopt(self.peer, key, peer_key, None, self.clock()) is not None

    def get(self, key: Any, compute: Callable[[], Any], force: bool = False,
            peer_key: str | None = None,
            on_stale: Callable[[], None] | None = None, gen: str | None = None) -> Any:
        """The cached value for key (stale ones too, after starting `on_stale`: the caller's
        background refresh), or compute(), store and return it. force=True recomputes (the
        background refresh) unless another worker did since this one's value. `peer_key`
        names the value (of generation `gen`) in the peer.

        `gen` names what the value is computed from now (Values.heads): a value held of
        another generation is not served, unless it took QUICK seconds or more to compute
        (then it is served stale, as one past its TTL)."""
        if self.ttl <= 0:
            return compute()
        now = self.clock()
        hit = self._peek(key)
        current = hit is not None and hit.gen == gen
        if hit is not None and current and hit.expires > now and (
                not force or hit.life > self.ttl):
            return hit.value  # a refresh recomputes it, unless it is a slow value kept longer
        peer = self.peer
        if peer is not None and peer_key is not None:
            newer = self._adopt(peer, key, peer_key, hit if current else None, now, gen)
            if newer is not None and newer.expires > now:
                return newer.value
            if newer is not None:
                hit, current = newer, True
        if hit is not None and not force and on_stale is not None and (
                current or hit.cost >= QUICK):
            on_stale()
            return hit.value
        if not current:
            hit = None  # computed from what an event changed: never served while computing
        if peer is not None and peer_key is not None:
            return self._compute_once(peer, key, peer_key, compute, hit, force, gen)
        entry = self._computed(compute, time.time(), gen)
        self._put(key, entry)
        return entry.value

    def _computed(self, compute: Callable[[], Any], stamp: float,
                  gen: str | None = None) -> Entry:
        """compute() as an entry kept for cache_ttl, or SLOW_FACTOR times its duration."""
        started = self.clock()
        value = compute()
        done = self.clock()
        life = max(self.ttl, SLOW_FACTOR * (done - started))
        return Entry(done + life, value, stamp, life, gen, done - started)

    def _compute_once(self, peer: StoreValues, key: Any, peer_key: str,
                      compute: Callable[[], Any], hit: Entry | None, force: bool,
                      gen: str | None) -> Any:
        """Compute under the peer's lease, or take what its holder computes. A request never
        waits when it has a stale value (it serves that) and at most `wait` seconds when it
        has none (then computes the value itself); a background refresh waits while the
        holder renews its lease and takes the lease over as soon as it is not renewed."""
        deadline = time.monotonic() + (LONGEST + TERM if force else self.wait)
        pause = POLL
        while True:
            lease = peer.claim(peer_key)
            if lease is not None:
                return self._compute_held(peer, lease, key, peer_key, compute, gen)
            if hit is not None and not force:
                return hit.value
            if time.monotonic() >= deadline:
                break
            time.sleep(pause)
            if force:  # a background wait may be long: look less often as it goes on
                pause = min(pause * 2, 1.0)
            newer = self._adopt(peer, key, peer_key, hit, self.clock(), gen)
            if newer is not None:
                return newer.value
        log.info("peer value %s: computing it here rather than wait longer for %s",
                 peer_key, peer.holder(peer_key))
        entry = self._computed(compute, peer.clock(), gen)
        self._put(key, entry)
        return entry.value

    def _compute_held(self, peer: StoreValues, lease: Lease, key: Any, peer_key: str,
                      compute: Callable[[], Any], gen: str | None) -> Any:
        """compute() while holding the lease (renewed meanwhile), stored for the others."""
        try:
            entry = self._computed(compute, peer.clock(), gen)
            peer.save(peer_key, entry.value, entry.stamp, entry.life, entry.cost)
        finally:
            peer.release(lease)
        self._put(key, entry)
        return entry.value

    def _adopt(self, peer: StoreValues, key: Any, peer_key: str, hit: Entry | None,
               now: float, gen: str | None = None) -> Entry | None:
        """The peer's value when it was computed after ours (kept here with the TTL it has
        left), else None."""
        got = peer.load(peer_key, newer_than=hit.stamp if hit is not None else None)
        if got is None:
            return None
        age = max(peer.clock() - got.stamp, 0.0)
        life = max(self.ttl, got.life)
        entry = Entry(now + life - age, got.value, got.stamp, life, gen, got.cost)
        self._put(key, entry, adopted=True)
        return entry

    def _peek(self, key: Any) -> Entry | None:
        return self._data.get(key)

    def stale_for(self, site: str) -> bool:
        """Whether a value of `site` held here is past its TTL."""
        held = self._expires.get(site)
        if not held:
            return False
        now = self.clock()
        for key, expires in list(held.items()):
            if key not in self._data:
                held.pop(key, None)
            elif expires <= now:
                return True
        return False

    def _put(self, key: Any, entry: Entry, adopted: bool = False) -> None:
        """Keep an entry; tell on_change when it differs from the one held before, or when
        it was computed here with none held (a value taken from the peer with none held
        was told by the worker that computed it: nothing here was made from an older one)."""
        if isinstance(key, tuple) and key and isinstance(key[0], str):
            self._expires.setdefault(key[0], {})[key] = entry.expires
        if self.on_change is not None:
            before = self._data.get(key)
            if before is None and not adopted or (
                    before is not None and before.value != entry.value):
                self.on_change(key)
        self._data.put(key, entry)

    def __len__(self) -> int:
        return len(self._data)


def options_key(site: SiteContext) -> str:
    """A fingerprint of every option read (any change gives a new cache key); the same in
    every process (the key of a value shared through the store)."""
    return site.options.fingerprint


@dataclass(frozen=True)
class Values:
    """The service's ValueCache as one caller (a request, the refresh, a command) uses it.

    cache=None computes every value (a command run once); refresh=True is the background
    refresh, which recomputes every value it touches; `on_stale` starts the background
    refresh of the caller's site when a value it reads is past its TTL.

    `heads` (issue #26), with an event source configured: the generation of what a value
    is computed from, named by the change ledger's buckets it depends on (the caller's
    `deps`), shared by every worker and host. An event moving one of them has the value
    computed again on its next read (cache.ValueCache.get), not `cache_ttl` later.
    """

    cache: ValueCache | None = None
    refresh: bool = False
    on_stale: Callable[[], None] | None = None
    heads: Callable[[str, tuple[str, ...]], str | None] | None = None

    def _key(self, site: SiteContext, key: Any) -> Any:
        return (site.key, key, site.settings.entries_per_page, options_key(site))

    def _gen(self, site: SiteContext, deps: tuple[str, ...]) -> str | None:
        return None if self.heads is None else self.heads(site.key, deps)

    @staticmethod
    def _peer_key(site: SiteContext, full: Any, gen: str | None) -> str:
        return value_key(site.key, full if gen is None else (full, gen))

    def get(self, site: SiteContext, key: Any, compute: Callable[[], T],
            deps: tuple[str, ...] = ()) -> T:
        """compute(), cached per site, key, page size and set of wp_options values, and
        computed again when one of the ledger's buckets `deps` (and 'site') moved."""
        if self.cache is None:
            return compute()
        full = self._key(site, key)
        gen = self._gen(site, deps)
        value: T = self.cache.get(full, compute, force=self.refresh,
                                  peer_key=self._peer_key(site, full, gen),
                                  on_stale=self.on_stale, gen=gen)
        return value

    def defer(self, site: SiteContext, key: Any, deps: tuple[str, ...] = ()) -> bool:
        """For a slow computation: True when it must not run in this request (nothing cached
        yet and a background refresh can do it), after starting that refresh."""
        cache = self.cache
        if cache is None or self.refresh or cache.ttl <= 0 or self.on_stale is None:
            return False
        full = self._key(site, key)
        if cache.has(full, self._peer_key(site, full, self._gen(site, deps))):
            return False
        self.on_stale()
        return True
