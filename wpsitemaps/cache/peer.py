"""The page store as the value cache's second level: one worker computes, the others read
(issue #13).

Page bounds, term and author lists and the first links' newest dates are aggregates over
the whole site (seconds each on a million posts). Kept per worker only, every gunicorn
worker, on every app host, computed all of them at start and again every `cache_ttl`: five
workers doing the same passes at once is what made a large site slow right after start.

Here one worker computes a value and every other reads it: the value is stored next to the
pages (`{namespace}/{site}/v-{digest}`, docs/performance.md) with the wall-clock time its
computation started, and a lease (`….lease`, cache.leases: short, renewed while its holder
works, taken over as soon as it is not) says who is computing it, so the others take the
result instead of repeating the pass.

Values are JSON with a few tags (tuples, datetimes and the named records of entries.py),
never pickles: whoever can write the store must not be able to run code in the app. A value
that does not encode stays in its worker (it is only not shared). When the store fails,
every worker computes for itself, as without a store.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from wpsitemaps.cache.leases import KEEPER
from wpsitemaps.cache.leases import Keeper
from wpsitemaps.cache.leases import Lease
from wpsitemaps.entries import Alternate
from wpsitemaps.entries import ImageEntry
from wpsitemaps.entries import NewsEntry
from wpsitemaps.entries import PageBound
from wpsitemaps.entries import SitemapRef
from wpsitemaps.entries import UrlEntry
from wpsitemaps.entries import VideoEntry
from wpsitemaps.store.base import Guard
from wpsitemaps.store.base import Record
from wpsitemaps.store.base import Store
from wpsitemaps.wordpress.queries.posts import PageSpan

log = logging.getLogger(__name__)
CODEC = "v3"  # part of every key: a change of the value shapes starts afresh
RECORDS: dict[str, type] = {cls.__name__: cls for cls in (
    Alternate, ImageEntry, NewsEntry, PageBound, SitemapRef, UrlEntry, VideoEntry, PageSpan)}


@dataclass(frozen=True)
class Stored:
    """A value read from the store, the wall-clock time its computation started and how
    long it is kept (bounds.SLOW_FACTOR)."""

    value: Any
    stamp: float
    life: float = 0.0
    cost: float = 0.0  # seconds its computation took


@lru_cache(maxsize=4096)
def value_key(site_key: str, key: Any) -> str:
    """The store key of a cached value (the same in every process: no hash()); looked up on
    every cache read, so remembered rather than hashed again."""
    digest = hashlib.sha256(repr((CODEC, key)).encode()).hexdigest()[:40]
    return f"{site_key}/v-{digest}"


def encode(value: Any) -> bytes:
    """The JSON bytes of a value (TypeError for a type the codec does not know)."""
    return json.dumps(_tagged(value), separators=(",", ":"), ensure_ascii=False).encode()


def decode(data: bytes) -> Any:
    """The value encode() was given."""
    return _untagged(json.loads(data))


def _tagged(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    name = type(value).__name__
    if RECORDS.get(name) is type(value):
        record: Any = value
        fields = (record if isinstance(record, tuple)
                  else [getattr(record, f.name) for f in dataclasses.fields(record)])
        return {"r": name, "f": [_tagged(v) for v in fields]}
    if isinstance(value, datetime):
        return {"d": value.isoformat()}
    if type(value) is tuple:
        return {"t": [_tagged(v) for v in value]}
    if type(value) is list:
        return [_tagged(v) for v in value]
    raise TypeError(f"cannot share a {type(value).__name__}")


def _untagged(data: Any) -> Any:
    if isinstance(data, list):
        return [_untagged(v) for v in data]
    if not isinstance(data, dict):
        return data
    if "d" in data:
        return datetime.fromisoformat(data["d"])
    if "t" in data:
        return tuple(_untagged(v) for v in data["t"])
    return RECORDS[data["r"]](*(_untagged(v) for v in data["f"]))


class StoreValues:
    """The store as the bounds cache's second level: load, save and the compute lease."""

    def __init__(self, backend: Store, space: str, clock: Callable[[], float] = time.time,
                 guard: Guard | None = None, keeper: Keeper = KEEPER) -> None:
        self.backend = backend
        self.namespace = space
        self.clock = clock
        self.guard = guard or Guard(backend)
        self.keeper = keeper

    def load(self, key: str, newer_than: float | None = None) -> Stored | None:
        """The stored value of key, or None (missing, damaged, the store failing, or not
        computed after `newer_than`: then only its header is read)."""
        if newer_than is not None:
            head = self.guard.attempt(self.backend.head, self._full(key))
            if head is None or head.rendered_at <= newer_than:
                return None
        rec = self.guard.attempt(self.backend.get, self._full(key))
        if rec is None or rec.body is None:
            return None
        try:
            life, value, *cost = decode(rec.body)
            return Stored(value, rec.rendered_at, float(life), float(cost[0]) if cost else 0.0)
        except (ValueError, KeyError, TypeError, IndexError):
            log.warning("store: shared value %s does not decode; it is computed again", key)
            return None

    def save(self, key: str, value: Any, stamp: float, life: float = 0.0,
             cost: float = 0.0) -> None:
        """Store value as computed from `stamp` on, kept `life` seconds, computed in `cost`
        seconds (a value the codec refuses stays local)."""
        try:
            body = encode((life, value, cost))
        except TypeError as exc:
            log.debug("store: %s is not shared: %s", key, exc)
            return
        rec = Record("value", hashlib.sha256(body).hexdigest(), stamp, None)
        self.guard.attempt(self.backend.put, self._full(key), rec, body)

    def claim(self, key: str) -> Lease | None:
        """The lease to compute key (renewed by the keeper until released), None while
        another process holds it; an unstored Lease when the store fails (compute alone)."""
        return self.keeper.take(self.guard, self._full(key) + ".lease")

    def release(self, lease: Lease) -> None:
        """Give the lease back."""
        self.keeper.give_back(lease)

    def holder(self, key: str) -> str | None:
        """Who holds the lease of key now (host:pid:random), for the logs."""
        return self.guard.attempt(self.backend.holder, self._full(key) + ".lease")

    def _full(self, key: str) -> str:
        return f"{self.namespace}/{key}"
