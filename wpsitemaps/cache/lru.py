"""The one bounded, thread-safe LRU map that every in-process cache of the package is built on.

`LRU` keeps at most `size` entries, dropping the least recently used; `TTLCache` adds an
expiry per entry. The value cache (values.py) stores entries that carry their own expiry
and stays usable past it (a stale value is served while a refresh runs), so it uses `LRU`
directly.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")
MISSING: Any = object()


class LRU(Generic[K, V]):
    """At most `size` entries; reads and writes make an entry the most recently used."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The value, or None."""
        with self._lock:
            hit = self._data.get(key)
            if hit is not None:
                self._data.move_to_end(key)
            return hit

    def put(self, key: K, value: V) -> None:
        """Store a value, dropping the least recently used entries past `size`."""
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._data

    def __len__(self) -> int:
        with self._lock:
            return len(self._data)


class TTLCache:
    """An LRU whose entries expire `ttl` seconds after they were put (ttl 0: nothing kept)."""

    def __init__(self, ttl: float, size: int, clock: Callable[[], float]) -> None:
        self.ttl, self.clock = ttl, clock
        self._lru: LRU[Any, tuple[float, Any]] = LRU(size)

    def get(self, key: Any) -> Any:
        """The value, or MISSING when absent or expired."""
        hit = self._lru.get(key)
        if hit is None or hit[0] <= self.clock():
            return MISSING
        return hit[1]

    def last(self, key: Any) -> Any:
        """The value even when expired (the last known answer), or MISSING when absent."""
        hit = self._lru.get(key)
        return MISSING if hit is None else hit[1]

    def put(self, key: Any, value: Any) -> None:
        """Store a value for `ttl` seconds."""
        if self.ttl > 0:
            self._lru.put(key, (self.clock() + self.ttl, value))

    def __len__(self) -> int:
        return len(self._lru)
