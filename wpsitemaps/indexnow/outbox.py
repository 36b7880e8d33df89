"""The outbox: URLs waiting to be submitted, and what the submitter knows, kept in the page
store's back end (store.base maps: a file on local disk, or Redis when hosts share it), so
that a restart or a crash loses nothing.

`{namespace}/indexnow/outbox` holds one field per (endpoint, URL): `{endpoint} {url}` ->
the time it was first queued. A URL queued again while it waits keeps its field (one
submission per batching window), and a field is removed only after the endpoint answered
2xx for it (nothing lost; a process killed between the answer and the removal sends it once
more: at least once). `{namespace}/indexnow/state` holds the generated key, each endpoint's
last answer per host, holds after 429/5xx, and stops after 400/403/422.

WebSub (websub.py) shares both: a field `{hub} {feed URL}` is a publish ping waiting for
that hub, and `feed {site}` in the state is the fingerprint of a site's feeds.
"""

from __future__ import annotations

import json
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from wpsitemaps.indexnow.protocol import MAX_URLS
from wpsitemaps.indexnow.protocol import new_key
from wpsitemaps.indexnow.protocol import valid_key
from wpsitemaps.store.base import Store
from wpsitemaps.store.base import StoreError


@dataclass(frozen=True)
class Batch:
    """URLs of one host for one endpoint, at most MAX_URLS, and their outbox fields."""

    endpoint: str
    scheme: str
    host: str
    urls: tuple[str, ...]
    fields: dict[str, str]


@dataclass(frozen=True)
class Group:
    """Every queued URL of one (endpoint, scheme, host), oldest and newest queue times."""

    endpoint: str
    scheme: str
    host: str
    fields: dict[str, str]
    oldest: float
    newest: float

    def batches(self, size: int = MAX_URLS) -> list[Batch]:
        """The group in requests of at most `size` URLs, oldest first."""
        ordered = sorted(self.fields.items(), key=lambda kv: (float(kv[1]), kv[0]))
        out = []
        for start in range(0, len(ordered), size):
            part = dict(ordered[start:start + size])
            urls = tuple(f.split(" ", 1)[1] for f in part)
            out.append(Batch(self.endpoint, self.scheme, self.host, urls, part))
        return out


class Outbox:
    """The outbox and the submitter's state in one store under `space`."""

    def __init__(self, backend: Store, space: str,
                 clock: Callable[[], float] = time.time) -> None:
        self.backend = backend
        self.queue = f"{space}/indexnow/outbox"
        self.state = f"{space}/indexnow/state"
        self.clock = clock
        # Fields the store refused (down, or its lock busy): kept here and written by the
        # next flush(), so a change seen while the store fails is not lost with it.
        self._unsaved: dict[str, str] = {}
        self._lock = threading.Lock()

    def add(self, endpoints: Sequence[str], urls: Iterable[str]) -> int:
        """Queue absolute http(s) URLs for every endpoint; how many fields were offered."""
        now = repr(self.clock())
        fields = {f"{e} {u}": now for u in urls if _host(u) for e in endpoints}
        if fields:
            try:
                self.backend.set_fields(self.queue, fields, only_new=True)
            except StoreError:
                with self._lock:
                    self._unsaved = {**fields, **self._unsaved}
                raise
        return len(fields)

    def flush(self) -> int:
        """Write the fields the store refused before (StoreError: still refused); how many."""
        with self._lock:
            waiting, self._unsaved = self._unsaved, {}
        try:
            if waiting:
                self.backend.set_fields(self.queue, waiting, only_new=True)
        except StoreError:
            with self._lock:
                self._unsaved = {**waiting, **self._unsaved}
            raise
        return len(waiting)

    def groups(self) -> list[Group]:
        """What waits, by (endpoint, scheme, host)."""
        found: dict[tuple[str, str, str], dict[str, str]] = defaultdict(dict)
        for field_name, value in self.backend.fields(self.queue).items():
            endpoint, _, url = field_name.partition(" ")
            where = _host(url)
            if where is not None:
                found[(endpoint, *where)][field_name] = value
        out = []
        for (endpoint, scheme, host), fields in sorted(found.items()):
            times = [_time(v) for v in fields.values()]
            out.append(Group(endpoint, scheme, host, fields, min(times), max(times)))
        return out

    def length(self) -> int:
        """How many (endpoint, URL) pairs wait."""
        return len(self.backend.fields(self.queue))

    def delivered(self, batch: Batch) -> int:
        """Remove a batch the endpoint accepted (fields queued again meanwhile stay)."""
        return self.backend.drop_fields(self.queue, batch.fields)

    def key(self, configured: str | None) -> str:
        """The configured key, else the one generated once and kept in the store."""
        if configured:
            return configured
        kept = self.backend.fields(self.state).get("key")
        if kept and valid_key(kept):
            return kept
        self.backend.set_fields(self.state, {"key": new_key()}, only_new=True)
        return self.backend.fields(self.state)["key"]

    def expect(self, keys: Iterable[str]) -> None:
        """Mark documents an index began to list: their first rendering is all new."""
        marks = {f"new {k}": "1" for k in keys}
        if marks:
            self.backend.set_fields(self.state, marks)

    def unexpect(self, key: str) -> bool:
        """Whether `key` was marked new (the mark is removed)."""
        return self.backend.drop_fields(self.state, {f"new {key}": "1"}) > 0

    def remember(self, name: str, value: str) -> str | None:
        """Keep `value` under `name` in the state (a fact of one word and no space, e.g.
        `feed SITE`); the value it replaced, None the first time."""
        previous = self.backend.fields(self.state).get(name)
        if previous != value:
            self.backend.set_fields(self.state, {name: value})
        return previous

    def note(self, kind: str, endpoint: str, host: str, value: dict[str, Any] | None) -> None:
        """Record (or, with None, clear) a fact about an endpoint and a host."""
        name = f"{kind} {endpoint} {host}"
        if value is None:
            self.backend.set_fields(self.state, {name: ""})
        else:
            self.backend.set_fields(self.state, {name: json.dumps(value)})

    def facts(self, kind: str) -> dict[tuple[str, str], dict[str, Any]]:
        """Every recorded fact of a kind ('last', 'hold', 'stop'), by (endpoint, host)."""
        out = {}
        for name, value in self.backend.fields(self.state).items():
            parts = name.split(" ")
            if len(parts) == 3 and parts[0] == kind and value:
                try:
                    out[(parts[1], parts[2])] = json.loads(value)
                except ValueError:
                    continue
        return out


def _host(url: str) -> tuple[str, str] | None:
    """(scheme, host) of an absolute http(s) URL, else None (never queued)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or " " in url:
        return None
    return parts.scheme, parts.netloc


def _time(value: str) -> float:
    try:
        return float(value)
    except ValueError:
        return 0.0
