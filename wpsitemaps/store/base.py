"""What a stored document is, the back-end contract and the failure guard."""

from __future__ import annotations

import hashlib
import json
import logging
import math
import time
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from typing import Protocol
from typing import TypeVar

log = logging.getLogger(__name__)
MAGIC = b"WPSM1 "
HEAD_LIMIT = 4096  # bytes of the header line (a fingerprint, an ETag, dates: ~300)
# The largest body a record holds, so every read has a bound (HEAD_LIMIT + MAX_BODY). A
# sitemap may be at most 50 MB (52,428,800 bytes) uncompressed (the sitemaps.org and Google
# limit): no page a search engine takes is larger, its gzip twin is smaller, the shared
# values (page bounds, term and author lists) are far smaller on every site measured. A
# larger body (the browser view of a page near the limit) is not stored but rendered every
# time, so a larger record is not one the store wrote and is never read.
MAX_BODY = 52_428_800
# The header's fields and their JSON types ("lastmod" is an ISO date or null).
HEAD_FIELDS: dict[str, type | tuple[type, ...]] = {
    "fp": str, "etag": str, "rendered": (int, float), "len": int, "sha": str}
BACKOFF = 5.0  # seconds a failed store is left alone (an outage costs no timeouts)
T = TypeVar("T")


class StoreError(Exception):
    """The store cannot be read or written right now (the page is rendered without it)."""


@dataclass(frozen=True)
class Record:
    """One stored document: its bytes and what they were built from.

    `fingerprint` is the page fingerprint the bytes were rendered for; `etag` the entity tag
    served with them; `rendered_at` and `checked_at` are store-clock seconds (render, and the
    last time a revalidation found the fingerprint unchanged). `body` is None when only the
    head was read (enough to answer a conditional request).
    """

    fingerprint: str
    etag: str
    rendered_at: float
    lastmod: str | None
    body: bytes | None = None
    checked_at: float = 0.0
    # What the change ledger said when it was rendered or last revalidated (issue #26):
    # the digest of the heads of the buckets it depends on (`tag`, '' when none was known)
    # and those buckets (`deps`).
    tag: str = ""
    deps: tuple[str, ...] = ()

    def head_bytes(self, body: bytes) -> bytes:
        """The header line written before the body (JSON; length and digest of the body)."""
        meta: dict[str, Any] = {
            "fp": self.fingerprint, "etag": self.etag, "rendered": self.rendered_at,
            "lastmod": self.lastmod, "len": len(body), "sha": hashlib.sha256(body).hexdigest()}
        if self.tag:
            meta["tag"], meta["deps"] = self.tag, list(self.deps)
        return MAGIC + json.dumps(meta, separators=(",", ":")).encode() + b"\n"


def parse_head(line: bytes) -> dict[str, Any] | None:
    """The header dict of a stored document, or None when the line is not one head_bytes()
    writes: whatever else is there is a miss (rendered again), never a 500."""
    if not line.startswith(MAGIC) or not line.endswith(b"\n"):
        return None
    try:
        meta = json.loads(line[len(MAGIC):])
    except ValueError:
        return None
    return meta if isinstance(meta, dict) and _well_formed(meta) else None


def _well_formed(meta: dict[str, Any]) -> bool:
    """Every field of the type head_bytes() writes (a finite render time, an ISO lastmod)."""
    for key, kind in HEAD_FIELDS.items():
        if not isinstance(meta.get(key), kind) or isinstance(meta[key], bool):
            return False
    lastmod = meta.get("lastmod", False)
    try:
        rendered = float(meta["rendered"])
        if lastmod is not None:
            datetime.fromisoformat(lastmod)
    except (OverflowError, ValueError, TypeError):
        return False
    return math.isfinite(rendered)


def stamp(raw: Any) -> float:
    """A stored time in seconds (Redis `checked`), 0.0 (long ago) when it is not one."""
    try:
        value = float(raw or 0)
    except (OverflowError, ValueError, TypeError):
        return 0.0
    return value if math.isfinite(value) else 0.0


def record_from(meta: dict[str, Any], body: bytes | None, checked_at: float) -> Record:
    """A Record from a parsed header (and the body, once verified)."""
    tag, deps = meta.get("tag"), meta.get("deps")
    if not (isinstance(tag, str) and isinstance(deps, list)
            and all(isinstance(d, str) for d in deps)):
        tag, deps = "", []  # none, or not what head_bytes() writes: checked again
    return Record(str(meta["fp"]), str(meta["etag"]), float(meta["rendered"]),
                  meta["lastmod"], body, checked_at, tag, tuple(deps))


def body_ok(meta: dict[str, Any], body: bytes) -> bool:
    """Whether body is exactly the one the header describes (never serve a torn write),
    and no larger than any the store writes."""
    return bool(len(body) == meta["len"] <= MAX_BODY
                and hashlib.sha256(body).hexdigest() == meta["sha"])


class Store(Protocol):
    """A back end: keys are '{namespace}/{site.key}/{document}'."""

    def head(self, key: str) -> Record | None:
        """The record without its body, or None."""

    def get(self, key: str) -> Record | None:
        """The record with its verified body, or None (missing or damaged)."""

    def put(self, key: str, record: Record, body: bytes) -> None:
        """Store body under key, replacing any previous record atomically."""

    def touch(self, key: str, when: float) -> None:
        """Mark the record as revalidated at `when`."""

    def claim(self, key: str, token: str, seconds: float) -> bool:
        """Take the lease `key` for holder `token` for `seconds`, when it is free or ran out
        (False: another holder's lease is running). Atomic: of processes claiming at once,
        one gets it."""

    def renew(self, key: str, token: str, seconds: float) -> bool:
        """Extend the lease to `seconds` from now if `token` still holds it (False: lost)."""

    def release(self, key: str, token: str) -> None:
        """Give the lease back if `token` holds it (one taken over by another is left alone)."""

    def holder(self, key: str) -> str | None:
        """The token holding the lease `key` now (None when it is free or ran out)."""

    def bump(self, key: str, names: Sequence[str], marks: Mapping[str, int]) -> None:
        """Add 1 to each counter `names` of the counter set `key` and set each of `marks`,
        in one atomic step (a set is made, with its `gen`, when missing)."""

    def counters(self, key: str, names: Sequence[str]) -> dict[str, int]:
        """The counters `names` of the set `key` (0 when unset) and its `gen`: a random number
        the set got when it was made (made now when missing), so a set lost and made again
        never gives back a state it had before."""
    def fields(self, key: str) -> dict[str, str]:
        """Every field of the small persistent map `key` (empty when missing). Maps hold
        state that must outlive restarts (the IndexNow outbox and key): never expired."""

    def set_fields(self, key: str, values: Mapping[str, str], only_new: bool = False) -> None:
        """Write fields of the map `key` in one atomic step; `only_new` keeps every field
        already there (of processes adding the same field at once, the first one wins)."""

    def drop_fields(self, key: str, values: Mapping[str, str]) -> int:
        """Remove the fields that still hold exactly these values (one atomic step: a field
        rewritten meanwhile stays); how many were removed."""

    def check(self) -> None:
        """Write, read and delete a probe; raise StoreError naming the problem."""

    def describe(self) -> str:
        """Where the store is (for logs and errors; never a password)."""


class Guard:
    """Calls into a back end that may fail: a failure is logged and the store is left alone
    for BACKOFF seconds, so when Redis or the disk fails every request goes on without it.

    An outage is two lines: one at the first failure, one when the store answers again with
    the number of operations that went without it (not one line per BACKOFF while it lasts)."""

    def __init__(self, backend: Store) -> None:
        self.backend = backend
        self._down_until = 0.0
        self._failing_since: float | None = None
        self._skipped = 0

    def attempt(self, fn: Callable[..., T], *args: Any) -> T | None:
        """fn(*args), or None when the store fails or is being left alone."""
        if time.monotonic() < self._down_until:
            self._skipped += 1
            return None
        try:
            result = fn(*args)
        except StoreError as exc:
            self._skipped += 1
            if self._failing_since is None:
                self._failing_since = time.monotonic()
                log.warning("wpsitemaps: page store %s failed (%s); going on without it, "
                            "trying again every %ds", self.backend.describe(), exc, BACKOFF)
            else:
                log.debug("page store %s still fails: %s", self.backend.describe(), exc)
            self._down_until = time.monotonic() + BACKOFF
            return None
        if self._failing_since is not None:
            log.warning("wpsitemaps: page store %s answers again after %.1f s; %d store "
                        "operations went without it", self.backend.describe(),
                        time.monotonic() - self._failing_since, self._skipped)
            self._failing_since, self._skipped = None, 0
        return result
