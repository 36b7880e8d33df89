"""Site resolutions kept in the page store, for a process that starts while the database fails.

serving.sites keeps the last answer of every resolution in memory, which serves a running worker
through an outage; a worker started during one (a restart at 3 a.m., a crashed worker
replaced) has none, and without knowing a request's site it cannot find anything stored.
So each answer read from the database is also written to the store (when it differs from
the one this process had), under `{namespace}/_sites/{digest of the cache key}`, and read
back only when the database fails and memory has nothing.

JSON of the few records involved, never pickles (whoever can write the store must not be
able to run code in the app); a record that does not decode is ignored.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import time
from typing import Any

from wpsitemaps.cache.lru import MISSING
from wpsitemaps.serving.pagestore import PageStore
from wpsitemaps.serving.sites import Mode
from wpsitemaps.serving.sites import Resolved
from wpsitemaps.store.base import Record
from wpsitemaps.wordpress.network import Blog
from wpsitemaps.wordpress.network import Network

RECORDS: dict[str, type] = {cls.__name__: cls for cls in (Mode, Resolved, Blog, Network)}


def encode(value: Any) -> bytes:
    """JSON of a Mode or Resolved (records tagged by class name, tuples as lists)."""

    def plain(item: Any) -> Any:
        if dataclasses.is_dataclass(item) and not isinstance(item, type):
            fields = {f.name: plain(getattr(item, f.name)) for f in dataclasses.fields(item)}
            return {"_": type(item).__name__, **fields}
        if isinstance(item, tuple | list):
            return [plain(part) for part in item]
        return item

    return json.dumps(plain(value), separators=(",", ":")).encode()


def decode(data: bytes) -> Any:
    """The value encode() wrote; ValueError when it is not one."""

    def record(obj: dict[str, Any]) -> Any:
        name = obj.pop("_", None)
        if name not in RECORDS:
            raise ValueError(f"not a site record: {name!r}")
        fields = {k: tuple(v) if isinstance(v, list) else v for k, v in obj.items()}
        return RECORDS[name](**fields)

    try:
        return json.loads(data, object_hook=record)
    except TypeError as exc:
        raise ValueError(str(exc)) from exc


class StoreRecall:
    """serving.sites' second memory: resolutions in the page store."""

    def __init__(self, pages: PageStore) -> None:
        self.pages = pages

    def key(self, cache_key: Any) -> str:
        """The store key of a resolution's cache key."""
        digest = hashlib.sha256(repr(cache_key).encode()).hexdigest()[:32]
        return f"{self.pages.namespace}/_sites/{digest}"

    def save(self, cache_key: Any, value: Any) -> None:
        """Keep an answer just read from the database."""
        body = encode(value)
        rec = Record("sites", hashlib.sha256(body).hexdigest(), time.time(), None)
        self.pages.attempt(self.pages.backend.put, self.key(cache_key), rec, body)

    def load(self, cache_key: Any) -> Any:
        """The kept answer, or MISSING (none, the store failing, or not decodable)."""
        rec = self.pages.attempt(self.pages.backend.get, self.key(cache_key))
        if rec is None or rec.body is None:
            return MISSING
        try:
            return decode(rec.body)
        except ValueError:
            return MISSING
