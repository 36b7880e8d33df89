"""The default back end: one file per document under a directory on local disk.

Why our own ~150 lines and not cachelib's FileSystemCache (evaluated for issue #13): its write
is atomic (mkstemp + os.replace), but a worker killed mid-write leaves its temporary file
behind for ever (they are skipped by its listing and never removed), its bound is a number
of files kept in a shared counter file that every worker rewrites without a lock (it
drifts), values are pickles (anyone who can write the directory can run code in the app),
and a read always loads and unpickles the whole value, where a conditional request only
needs the header. Here a file is a one-line JSON header (fingerprint, ETag, dates, length and
SHA-256 of the body) followed by the bytes served.

What is read: only what the store writes (store.files): regular files, no larger than a
record can be, opened without following a link and without blocking on a FIFO, in
directories opened from the root without following a link. Anything else at a key is a
miss (the page is rendered and the write replaces it); a link where a directory should be
is a store failure (never followed, never written through); so is every OSError, so a full
or read-only disk costs the store, never an answer.

Crash safety: a document is written to a temporary file in the same directory and renamed
over the old one (rename is atomic on POSIX), so readers see the old or the new file, never
a part. A file damaged below us (power loss before the data reached the disk) fails the
length/SHA-256 check and is treated as missing. Temporary files left by a killed worker are
removed by the next sweep. The size bound is kept by sweeps (every SWEEP_EVERY writes of a
worker): when the directory holds more than `max_bytes`, the least recently revalidated
files go first (their mtime is the time of their last revalidation); a sweep counts and
removes regular files only, and never follows a link. Leases (who computes a shared value)
are small JSON files read and written under flock(), in their folder opened as every
document's is: store.disklease.
"""

from __future__ import annotations

import logging
import os
import re
import secrets
import time
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from contextlib import contextmanager
from pathlib import Path

from wpsitemaps.store import diskcounters
from wpsitemaps.store import disklease
from wpsitemaps.store import diskmap
from wpsitemaps.store import files
from wpsitemaps.store.base import HEAD_LIMIT
from wpsitemaps.store.base import MAX_BODY
from wpsitemaps.store.base import Record
from wpsitemaps.store.base import StoreError
from wpsitemaps.store.base import body_ok
from wpsitemaps.store.base import parse_head
from wpsitemaps.store.base import record_from

log = logging.getLogger(__name__)
SEGMENT_RE = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]{0,199}")
TMP_SUFFIX = ".tmp"
SWEEP_EVERY = 64
ORPHAN_AGE = 300.0  # seconds after which a temporary file is a killed writer's leftover


class DiskStore:
    """Documents as files under `root`, bounded to about `max_bytes`."""

    def __init__(self, root: str, max_bytes: int) -> None:
        self.root = Path(root)
        self.max_bytes = max_bytes
        self._writes = 0

    def describe(self) -> str:
        """The directory."""
        return str(self.root)

    def path(self, key: str) -> Path:
        """The file of a key; every segment is checked (keys never climb out of root)."""
        parts = key.split("/")
        if not all(SEGMENT_RE.fullmatch(p) for p in parts):
            raise ValueError(f"invalid store key {key!r}")
        return self.root.joinpath(*parts)

    def head(self, key: str) -> Record | None:
        """The header of a stored document and its last revalidation time (mtime)."""
        found = self._read(key, files.read, HEAD_LIMIT)
        if found is None:
            return None
        data, checked = found
        line, sep, _ = data.partition(b"\n")
        meta = parse_head(line + sep)
        return record_from(meta, None, checked) if meta else None

    def get(self, key: str) -> Record | None:
        """The whole document, verified against its header; a damaged file is removed."""
        found = self._read(key, files.read_whole, HEAD_LIMIT + MAX_BODY)
        if found is None:
            return None
        data, checked = found
        head, sep, body = data.partition(b"\n")
        meta = parse_head(head + sep)
        if meta is None or not body_ok(meta, body):
            log.warning("store: %s is damaged; it is rendered again", key)
            self._remove(key)
            return None
        return record_from(meta, body, checked)

    def put(self, key: str, record: Record, body: bytes) -> None:
        """Write to a temporary file beside the target, then rename it over the target."""
        if len(body) > MAX_BODY:
            log.info("store: %s is %d bytes, more than a record holds: not stored", key,
                     len(body))
            return
        where, name = self._split(key)
        tmp = f".{name}.{os.getpid()}.{secrets.token_hex(4)}{TMP_SUFFIX}"
        with self._failing("write"), files.folder(self.root, where, create=True) as fd:
            assert fd is not None  # made when missing
            files.write(fd, name, tmp, (record.head_bytes(body), body), record.rendered_at)
        self._writes += 1
        if self._writes % SWEEP_EVERY == 1:
            self.sweep()

    def touch(self, key: str, when: float) -> None:
        """Record a revalidation in the file's mtime (shared by every worker)."""
        where, name = self._split(key)
        with self._failing("write"), files.folder(self.root, where, create=False) as fd:
            if fd is not None:
                files.touch(fd, name, when)

    def claim(self, key: str, token: str, seconds: float) -> bool:
        """Take the lease file for `token` when it is free or ran out (store.disklease)."""
        where, name = self._split(key)
        with self._failing("write"), files.folder(self.root, where, create=True) as fd:
            assert fd is not None  # made when missing
            return disklease.claim(fd, name, token, seconds)

    def renew(self, key: str, token: str, seconds: float) -> bool:
        """Extend the lease if `token` still holds it."""
        where, name = self._split(key)
        with self._failing("write"), files.folder(self.root, where, create=False) as fd:
            return fd is not None and disklease.renew(fd, name, token, seconds)

    def release(self, key: str, token: str) -> None:
        """Remove the lease file if `token` holds it."""
        where, name = self._split(key)
        with self._failing("write"), files.folder(self.root, where, create=False) as fd:
            if fd is not None:
                disklease.release(fd, name, token)

    def holder(self, key: str) -> str | None:
        """Who holds the lease now (None: free or ran out)."""
        where, name = self._split(key)
        with self._failing("read"), files.folder(self.root, where, create=False) as fd:
            return None if fd is None else disklease.holder(fd, name)

    def bump(self, key: str, names: Sequence[str], marks: Mapping[str, int]) -> None:
        """Add to a counter set (store.diskcounters: one file under flock)."""
        where, name = self._split(key)
        with self._failing("write"), files.folder(self.root, where, create=True) as fd:
            assert fd is not None  # made when missing
            diskcounters.bump(fd, name, names, marks)

    def counters(self, key: str, names: Sequence[str]) -> dict[str, int]:
        """Read a counter set (made when missing)."""
        where, name = self._split(key)
        with self._failing("write"), files.folder(self.root, where, create=True) as fd:
            assert fd is not None  # made when missing
            return diskcounters.counters(fd, name, names)

    def fields(self, key: str) -> dict[str, str]:
        """The map file `{key}.map` (store.diskmap)."""
        where, name = self._split(key)
        try:
            with self._failing("read"), files.folder(self.root, where, create=False) as fd:
                return {} if fd is None else diskmap.read(fd, name + diskmap.SUFFIX)
        except files.Refused as exc:
            raise StoreError(f"map {key} is {exc}") from None

    def set_fields(self, key: str, values: Mapping[str, str], only_new: bool = False) -> None:
        """Write fields of the map under its lock."""
        self._change(key, diskmap.add(values, only_new))

    def drop_fields(self, key: str, values: Mapping[str, str]) -> int:
        """Remove the fields still holding these values, under the map's lock."""
        removed: list[int] = []
        self._change(key, diskmap.drop(values, removed))
        return sum(removed)

    def _change(self, key: str, edit: diskmap.Change) -> None:
        where, name = self._split(key)
        try:
            with self._failing("write"), files.folder(self.root, where, create=True) as fd:
                assert fd is not None  # made when missing
                diskmap.change(fd, name + diskmap.SUFFIX, edit)
        except files.Refused as exc:
            raise StoreError(f"map {key} is {exc}") from None

    def check(self) -> None:
        """Create the directory and write, read and remove a probe document."""
        probe = f"probe-{os.getpid()}-{secrets.token_hex(4)}"
        record = Record("probe", "probe", time.time(), None)
        try:
            self.put(probe, record, b"probe")
            ok = self.get(probe)
            self._remove(probe)
        except StoreError as exc:
            raise StoreError(f"{self.root} is not usable: {exc}") from None
        if ok is None or ok.body != b"probe":
            raise StoreError(f"{self.root} does not give back what was written")

    def sweep(self) -> None:
        """Remove killed writers' temporary files, then the least recently revalidated
        documents while the directory is over its bound (regular files only: links, and
        what they point to, are never followed nor removed)."""
        found: list[tuple[float, int, tuple[str, ...], str]] = []
        total = 0
        now = time.time()
        with self._failing("sweep"):
            for where, name, st in files.regular_files(self.root):
                if name.endswith(TMP_SUFFIX):
                    if now - st.st_mtime > ORPHAN_AGE:
                        self._remove_at(where, name)
                    continue
                if name.endswith(diskmap.SUFFIX):
                    continue  # state (store.diskmap), never evicted
                total += st.st_size
                found.append((st.st_mtime, st.st_size, where, name))
            if total <= self.max_bytes:
                return
            target = self.max_bytes * 0.8
            for _mtime, size, where, name in sorted(found):
                if total <= target:
                    break
                self._remove_at(where, name)
                total -= size
        log.info("store: swept %s down to %d bytes", self.root, total)

    def _split(self, key: str) -> tuple[tuple[str, ...], str]:
        """The folder segments and file name of a key (checked as path() checks them)."""
        self.path(key)
        *where, name = key.split("/")
        return tuple(where), name

    def _read(self, key: str, reader: Callable[[int, str, int], tuple[bytes, float] | None],
              limit: int) -> tuple[bytes, float] | None:
        """reader(folder, name, limit) on the key's file: None when it is missing, or when
        it is not a file the store wrote (logged: it is rendered again and replaced)."""
        where, name = self._split(key)
        try:
            with self._failing("read"), files.folder(self.root, where, create=False) as fd:
                return None if fd is None else reader(fd, name, limit)
        except files.Refused as exc:
            log.warning("store: %s is %s; not read, rendered again", key, exc)
            return None

    def _remove(self, key: str) -> None:
        self._remove_at(*self._split(key))

    def _remove_at(self, where: tuple[str, ...], name: str) -> None:
        with self._failing("write"), files.folder(self.root, where, create=False) as fd:
            if fd is not None:
                files.remove(fd, name)

    @contextmanager
    def _failing(self, verb: str) -> Iterator[None]:
        """Every OSError of the store is a store failure: the page is served without it
        (serving.pagestore), never a 500."""
        try:
            yield
        except OSError as exc:
            raise StoreError(f"cannot {verb} {self.root}: {exc.strerror or exc}") from exc
