"""The page store's freshness rules (issue #13): when stored bytes may be served.

A document that is stored is answered in one of three ways:

1. Within `store_window` seconds of the last render or revalidation (shared by every worker
   through the store), the stored bytes are served without asking the database.
2. Otherwise the page's fingerprint is computed (sitemaps.fingerprint: a query bounded by
   the page) and compared with the stored one; equal means the stored bytes are what a
   render would give, so they are served, and a conditional request is answered 304 from
   the stored ETag without reading or rendering the page.
3. Otherwise (no record, a changed fingerprint, or a record rendered `cache_ttl` seconds
   ago or more) the page is rendered and stored.

The fingerprint is taken before the render, so stored bytes are never older than their
fingerprint: a change that lands between the two only costs one more render later.

Variants have their own keys and ETags: `{doc}` (the XML, ETag = SHA-256 of its bytes),
`{doc}.gz` (its gzip twin: the `.xml.gz` file, and the body of a `Content-Encoding: gzip`
answer, whose ETag is the XML's plus `-gzip`), and `{doc}.html…` (the server-side XSLT
rendering for browsers, ETag = SHA-256 of the HTML). A variant is valid only for the XML
render it was made from, and the HTML also only for the stylesheets' version
(web.xslt.view_version: xsl/ and the code that shapes the view).

A record dated in the future (its render or revalidation time is later than this host's
clock: the clock was stepped back, or hosts sharing one Redis disagree on the time) has no
age anyone can trust: its window does not hold, it is revalidated, and one rendered in the
future is rendered again (its true age is unknown, so `cache_ttl` cannot be held).

When the store fails (Redis down, disk full) the page is rendered without it; the failure is
logged and the store is left alone for a few seconds (store.base.Guard), so an outage costs
no timeouts. When the database fails instead, `stale()` gives the stored copy of a document
for `stale_if_error` seconds past `cache_ttl` (serving.documents.stale). No Flask here:
web.negotiate decides which variant a request gets.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import replace
from datetime import datetime
from typing import Any
from typing import TypeVar

from wpsitemaps.metrics import PAGE_STORE
from wpsitemaps.store.base import Guard
from wpsitemaps.store.base import Record
from wpsitemaps.store.base import Store

log = logging.getLogger(__name__)
T = TypeVar("T")
Render = Callable[[], tuple[bytes, datetime | None]]
Fingerprint = Callable[[], str | None]
Told = Callable[[tuple[str, ...]], str | None]  # a record's deps -> their tag now
# Told (key, old bytes or None: first stored, new bytes) when a render is stored in place of
# a different one, or of none (IndexNow's diff).
Replaced = Callable[[str, bytes | None, bytes], None]


@dataclass(frozen=True)
class Variant:
    """The bytes of one variant of a document and the ETag they are served with."""

    body: bytes
    etag: str


class PageStore:
    """The service's view of its store: keys, the freshness rules and failure handling."""

    def __init__(self, backend: Store, space: str, ttl: float, window: float,
                 stale_for: float = 0.0, clock: Callable[[], float] = time.time) -> None:
        self.backend = backend
        self.namespace = space
        self.ttl = ttl
        self.window = window
        self.stale_for = stale_for
        self.clock = clock
        self.guard = Guard(backend)
        self.on_replace: Replaced | None = None

    def key(self, site_key: str, document: str) -> str:
        """'{namespace}/{site.key}/{document}' (docs/performance.md, "What is stored")."""
        return f"{self.namespace}/{site_key}/{document}"

    def in_window(self, key: str, told: Told | None = None) -> Record | None:
        """The head of a document that may be served before anything is read from the
        database (not even the site's options): rendered or revalidated less than
        `store_window` seconds ago, or, when `told` is given, one whose tag `told` says is
        still current (serving.changecheck: nothing it depends on changed)."""
        if self.window <= 0 and told is None:
            return None
        rec = self.attempt(self.backend.head, key)
        now = self.clock()
        if rec is None or expired(now, rec.rendered_at, self.ttl):
            return None
        if not expired(now, rec.checked_at, self.window):
            PAGE_STORE.labels(outcome="window").inc()
            return rec
        if told is not None and rec.tag and told(rec.deps) == rec.tag:
            PAGE_STORE.labels(outcome="told").inc()
            return rec
        return None

    def told_current(self, key: str, told: Told) -> Record | None:
        """The head of a document whose tag `told` says is current (nothing it depends on
        was reported changed since it was rendered or found unchanged), whatever its
        window: what a sweep for changes may leave alone (indexnow.sweeper)."""
        rec = self.attempt(self.backend.head, key)
        if rec is None or expired(self.clock(), rec.rendered_at, self.ttl) or not rec.tag:
            return None
        return rec if told(rec.deps) == rec.tag else None

    def stale(self, key: str) -> tuple[Record, float] | None:
        """The head of a document whose revalidation or render failed on the database
        (stale-if-error) and its age, the seconds since it was last known current: a record
        rendered less than `cache_ttl` + `stale_if_error` seconds ago; None without one."""
        rec = self.attempt(self.backend.head, key)
        now = self.clock()
        if rec is None or now - rec.rendered_at >= self.ttl + self.stale_for:
            return None
        PAGE_STORE.labels(outcome="stale").inc()
        return rec, max(0.0, now - max(rec.rendered_at, rec.checked_at))

    def attempt(self, fn: Callable[..., T], *args: Any) -> T | None:
        """fn(*args), or None when the store fails (store.base.Guard)."""
        return self.guard.attempt(fn, *args)

    def valid(self, key: str, fingerprint: Fingerprint, tag: str | None = None,
              deps: tuple[str, ...] = ()) -> tuple[Record | None, str | None]:
        """The stored record if it may be served, and the fingerprint if one was computed.
        `tag` (serving.changecheck, read before this) and `deps` are what a record found
        unchanged is marked with: a record already marked with `tag` needs no fingerprint."""
        rec = self.attempt(self.backend.head, key)
        now = self.clock()
        if rec is None or expired(now, rec.rendered_at, self.ttl):
            return None, None
        if not expired(now, rec.checked_at, self.window):
            PAGE_STORE.labels(outcome="window").inc()
            return rec, None
        if tag and rec.tag == tag:
            PAGE_STORE.labels(outcome="told").inc()
            return rec, None
        fp = fingerprint()
        if fp is None or fp != rec.fingerprint:
            return None, fp
        if tag and (rec.tag, rec.deps) != (tag, deps):
            self._retag(key, rec, tag, deps)
        self.attempt(self.backend.touch, key, now)
        PAGE_STORE.labels(outcome="revalidated").inc()
        return rec, fp

    def rendered(self, key: str, fp: str | None, render: Render, tag: str | None = None,
                 deps: tuple[str, ...] = ()) -> tuple[Record, bytes]:
        """Render the document and store it under its fingerprint (None: not stored) and
        the change tag read before the fingerprint."""
        body, lastmod = render()
        rec = Record(fp or "", hashlib.sha256(body).hexdigest(), self.clock(),
                     lastmod.isoformat() if lastmod else None,
                     tag=tag or "", deps=deps if tag else ())
        if fp is None:
            return rec, body
        if self.on_replace is None:
            self.attempt(self.backend.put, key, rec, body)
            return rec, body
        old = self.attempt(self.backend.get, key)
        self.attempt(self.backend.put, key, rec, body)
        if old is None or old.etag != rec.etag:
            try:
                self.on_replace(key, old.body if old is not None else None, body)
            except Exception:  # noqa: BLE001 - a listener never costs an answer
                log.exception("a listener of %s's replacement failed", key)
        return rec, body

    def _retag(self, key: str, rec: Record, tag: str, deps: tuple[str, ...]) -> None:
        """Mark a record found unchanged with the tag it is current for (its render time
        kept: `cache_ttl` still counts from the render)."""
        full = self.attempt(self.backend.get, key)
        if full is None or full.body is None or full.etag != rec.etag:
            return
        self.attempt(self.backend.put, key, replace(full, body=None, tag=tag, deps=deps),
                     full.body)

    def body(self, key: str, rec: Record) -> bytes | None:
        """The stored XML bytes of exactly this record, or None (gone, or replaced)."""
        full = self.attempt(self.backend.get, key)
        if full is None or full.body is None or full.etag != rec.etag:
            return None
        return full.body

    def stored_variant(self, key: str, bound: str) -> Variant | None:
        """A stored variant (`key` is the variant's), if it was made from exactly what
        `bound` names (bound_to: the XML render, plus a version for the HTML)."""
        variant = self.attempt(self.backend.get, key)
        if variant is None or variant.body is None or variant.fingerprint != bound:
            return None
        return Variant(variant.body, variant.etag)

    def put_variant(self, key: str, rec: Record, bound: str, made: Variant) -> None:
        """Store a variant made from this render (never for an unstored render)."""
        if rec.fingerprint:
            variant = Record(bound, made.etag, rec.rendered_at, rec.lastmod)
            self.attempt(self.backend.put, key, variant, made.body)


def expired(now: float, at: float, limit: float) -> bool:
    """Whether a time recorded `at` is `limit` seconds old or more, or lies in the future
    (a stepped-back clock, or another host's clock ahead of ours: its age is unknown)."""
    return at > now or now - at >= limit


class GuardedCounters:
    """The store's counter sets (the change ledger's heads) behind the page store's guard:
    None when the store fails; a bump that failed is kept and made again on the next call
    that reaches the store, so a change is not lost to a short outage of the store."""

    def __init__(self, pages: PageStore) -> None:
        self.pages = pages
        self._pending: list[tuple[str, tuple[str, ...], dict[str, int]]] = []
        self._lock = threading.Lock()  # a worker's threads share the pending bumps

    def bump(self, key: str, names: Sequence[str], marks: Mapping[str, int]) -> bool:
        """Add to a set; False when the store failed (kept to be made again)."""
        with self._lock:
            self._pending.append((key, tuple(names), dict(marks)))
        return self._flush()

    def counters(self, key: str, names: Sequence[str]) -> dict[str, int] | None:
        """The named counters and `gen`, None when the store fails or a bump is pending."""
        if not self._flush():
            return None
        return self.pages.attempt(self.pages.backend.counters, key, names)

    def _flush(self) -> bool:
        with self._lock:
            while self._pending:
                key, names, marks = self._pending[0]
                if self.pages.attempt(_bumped, self.pages.backend, key, names, marks) is None:
                    return False
                self._pending.pop(0)
            return True


def _bumped(backend: Store, key: str, names: Sequence[str], marks: Mapping[str, int]) -> bool:
    backend.bump(key, names, marks)
    return True


def bound_to(rec: Record) -> str:
    """What a variant records as its fingerprint: the XML render it was made from."""
    return f"{rec.fingerprint}:{rec.etag}"
