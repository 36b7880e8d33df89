"""Counter sets of the directory store (issue #26: the change ledger's heads).

A set is one small JSON file, `{"gen": n, "c": {name: int}}`, read and written under
flock() exactly as lease files are (store.disklease.locked: O_NOFOLLOW, regular files only,
the lock held for microseconds), so increments from every worker of the host add up.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Mapping
from collections.abc import Sequence

from wpsitemaps.store.base import StoreError
from wpsitemaps.store.disklease import locked

LIMIT = 1 << 20  # bytes: a site's set holds a few hundred counters at most


def bump(folder: int, name: str, names: Sequence[str], marks: Mapping[str, int]) -> None:
    """Add 1 to each of `names`, set each of `marks` (the set made when missing)."""
    with locked(folder, name, create=True) as fd:
        assert fd is not None
        gen, counts = _read(fd)
        for counter in names:
            counts[counter] = counts.get(counter, 0) + 1
        counts.update(marks)
        _write(fd, gen, counts)


def counters(folder: int, name: str, names: Sequence[str]) -> dict[str, int]:
    """The counters `names` (0 when unset) and `gen` (the set made when missing)."""
    with locked(folder, name, create=True) as fd:
        assert fd is not None
        gen, counts = _read(fd)
        if not counts and _empty(fd):
            _write(fd, gen, counts)
    found = {counter: counts.get(counter, 0) for counter in names}
    found["gen"] = gen
    return found


def _empty(fd: int) -> bool:
    return os.fstat(fd).st_size == 0


def _read(fd: int) -> tuple[int, dict[str, int]]:
    """The set's gen and counters; a new gen when the file is empty or not a set (a writer
    killed between truncate and write: every document depending on it is checked again)."""
    try:
        data = json.loads(os.pread(fd, LIMIT, 0))
        gen, counts = int(data["gen"]), data["c"]
        if isinstance(counts, dict) and all(isinstance(v, int) for v in counts.values()):
            return gen, {str(k): int(v) for k, v in counts.items()}
    except OSError as exc:
        raise StoreError(f"cannot read counters: {exc.strerror}") from exc
    except (ValueError, KeyError, TypeError):
        pass
    return secrets.randbits(52), {}


def _write(fd: int, gen: int, counts: dict[str, int]) -> None:
    data = json.dumps({"gen": gen, "c": counts}, separators=(",", ":")).encode() + b"\n"
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, data, 0)
    except OSError as exc:
        raise StoreError(f"cannot write counters: {exc.strerror}") from exc
