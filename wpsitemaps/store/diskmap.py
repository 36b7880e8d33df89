"""Small persistent maps of the directory store (the IndexNow outbox, its key): `{key}.map`.

A map is one JSON object of strings. Every change happens under flock() on the map file
(store.disklease.locked: of processes changing it at once, one at a time), and is written
to a temporary file renamed over the map, so a process killed mid-write leaves the old map
or the new one, never a part; a process that waited on the old file sees that the path
names another file once it has the lock, and opens the new one. The page store's sweep
never removes a map (they are state, not copies of something the database can give back).
"""

from __future__ import annotations

import json
import os
import secrets
import time
from collections.abc import Callable
from collections.abc import Mapping

from wpsitemaps.store import disklease
from wpsitemaps.store import files
from wpsitemaps.store.base import StoreError

SUFFIX = ".map"
LIMIT = 256 * 1024 * 1024  # bytes a map may hold (an outbox of a million URLs is ~150 MB)
Change = Callable[[dict[str, str]], bool]


def read(folder: int, name: str) -> dict[str, str]:
    """The map (empty when missing or not one the store wrote)."""
    found = files.read_whole(folder, name, LIMIT)
    return _decode(found[0]) if found is not None else {}


def change(folder: int, name: str, edit: Change) -> None:
    """Apply `edit` to the map under its lock; written back when it returns True."""
    with disklease.locked(folder, name, create=True) as fd:
        assert fd is not None
        found = files.read_whole(folder, name, LIMIT)
        current = _decode(found[0]) if found is not None else {}
        if not edit(current):
            return
        data = json.dumps(current, separators=(",", ":")).encode()
        if len(data) > LIMIT:
            raise StoreError(f"map {name} would exceed {LIMIT} bytes")
        tmp = f".{name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
        files.write(folder, name, tmp, (data,), time.time())


def _decode(data: bytes) -> dict[str, str]:
    """The JSON object of strings in `data`; {} for anything else (an empty new file)."""
    try:
        value = json.loads(data) if data else {}
    except ValueError:
        return {}
    if not isinstance(value, dict):
        return {}
    return {str(k): str(v) for k, v in value.items()}


def add(values: Mapping[str, str], only_new: bool) -> Change:
    """An edit writing `values` (keeping fields already there when `only_new`)."""
    def edit(current: dict[str, str]) -> bool:
        fresh = {k: v for k, v in values.items() if not (only_new and k in current)}
        current.update(fresh)
        return bool(fresh)
    return edit


def drop(values: Mapping[str, str], removed: list[int]) -> Change:
    """An edit removing the fields that hold exactly these values (counted in `removed`)."""
    def edit(current: dict[str, str]) -> bool:
        gone = [k for k, v in values.items() if current.get(k) == v]
        for k in gone:
            del current[k]
        removed.append(len(gone))
        return bool(gone)
    return edit
