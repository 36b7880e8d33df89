"""The default back end: one file per document under a directory on local disk.

Why our own ~150 lines and not cachelib's FileSystemCache (evaluated for issue #13): its write
is atomic (mkstemp + os.replace), but a worker killed mid-write leaves its temporary file
behind for ever (they are skipped by its listing and never removed), its bound is a number
of files kept in a shared counter file that every worker rewrites without a lock (it
drifts), values are pickles (anyone who can write the directory can run code in the app),
and a read always loads and unpickles the whole value, where a conditional request only
needs the header. Here a file is a one-line JSON header (fingerprint, ETag, dates, length and
SHA-256 of the body) followed by the bytes served.

Crash safety: a document is written to a temporary file in the same directory and renamed
over the old one (rename is atomic on POSIX), so readers see the old or the new file, never
a part. A file damaged below us (power loss before the data reached the disk) fails the
length/SHA-256 check and is treated as missing. Temporary files left by a killed worker are
removed by the next sweep. The size bound is kept by sweeps (every SWEEP_EVERY writes of a
worker): when the directory holds more than `max_bytes`, the least recently revalidated
files go first (their mtime is the time of their last revalidation).
"""

from __future__ import annotations

import logging
import os
import re
import secrets
import time
from pathlib import Path

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
HEAD_LIMIT = 4096


class DiskStore:
    """Documents as files under `root`, bounded to about `max_bytes`."""

    def __init__(self, root: str, max_bytes: int) -> None:
        self.root = Path(root)
        self.max_bytes = max_bytes
        self._writes = 0
        self._token = f"{os.getpid()}-{secrets.token_hex(8)}"  # whose lease a file is

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
        try:
            with open(self.path(key), "rb") as fh:
                meta = parse_head(fh.readline(HEAD_LIMIT))
                checked = os.fstat(fh.fileno()).st_mtime
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise StoreError(f"cannot read {self.root}: {exc.strerror}") from exc
        return record_from(meta, None, checked) if meta else None

    def get(self, key: str) -> Record | None:
        """The whole document, verified against its header; a damaged file is removed."""
        path = self.path(key)
        try:
            with open(path, "rb") as fh:
                data = fh.read()
                checked = os.fstat(fh.fileno()).st_mtime
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise StoreError(f"cannot read {self.root}: {exc.strerror}") from exc
        head, sep, body = data.partition(b"\n")
        meta = parse_head(head + sep)
        if meta is None or not body_ok(meta, body):
            log.warning("store: %s is damaged; it is rendered again", key)
            path.unlink(missing_ok=True)
            return None
        return record_from(meta, body, checked)

    def put(self, key: str, record: Record, body: bytes) -> None:
        """Write to a temporary file beside the target, then rename it over the target."""
        path = self.path(key)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}{TMP_SUFFIX}")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(tmp, "wb") as fh:
                fh.write(record.head_bytes(body))
                fh.write(body)
            os.utime(tmp, (record.rendered_at, record.rendered_at))
            os.replace(tmp, path)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise StoreError(f"cannot write {self.root}: {exc.strerror}") from exc
        self._writes += 1
        if self._writes % SWEEP_EVERY == 1:
            self.sweep()

    def touch(self, key: str, when: float) -> None:
        """Record a revalidation in the file's mtime (shared by every worker)."""
        try:
            os.utime(self.path(key), (when, when))
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise StoreError(f"cannot write {self.root}: {exc.strerror}") from exc

    def claim(self, key: str, seconds: float) -> bool:
        """Create the lease file exclusively (O_EXCL: one creator wins, on every POSIX file
        system we run on); a lease older than `seconds` was left by a killed worker and is
        taken over."""
        path = self.path(key)
        for _ in range(2):
            try:
                fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                try:
                    age = time.time() - path.stat().st_mtime
                except FileNotFoundError:
                    continue  # released meanwhile: try again
                except OSError as exc:
                    raise StoreError(f"cannot read {self.root}: {exc.strerror}") from exc
                if age <= seconds:
                    return False
                path.unlink(missing_ok=True)
                continue
            except FileNotFoundError:
                self._mkdir(path.parent)
                continue
            except OSError as exc:
                raise StoreError(f"cannot write {self.root}: {exc.strerror}") from exc
            with os.fdopen(fd, "w") as fh:
                fh.write(self._token)
            return True
        return False

    def release(self, key: str) -> None:
        """Remove the lease file if this process wrote it."""
        path = self.path(key)
        try:
            if path.read_text() == self._token:
                path.unlink(missing_ok=True)
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise StoreError(f"cannot write {self.root}: {exc.strerror}") from exc

    def _mkdir(self, folder: Path) -> None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot write {self.root}: {exc.strerror}") from exc

    def check(self) -> None:
        """Create the directory and write, read and remove a probe document."""
        probe = f"probe-{os.getpid()}-{secrets.token_hex(4)}"
        record = Record("probe", "probe", time.time(), None)
        try:
            self.put(probe, record, b"probe")
            ok = self.get(probe)
            self.path(probe).unlink(missing_ok=True)
        except (StoreError, OSError) as exc:
            raise StoreError(f"{self.root} is not usable: {exc}") from None
        if ok is None or ok.body != b"probe":
            raise StoreError(f"{self.root} does not give back what was written")

    def sweep(self) -> None:
        """Remove killed writers' temporary files, then the least recently revalidated
        documents while the directory is over its bound."""
        files: list[tuple[float, int, str]] = []
        total = 0
        now = time.time()
        for folder, _dirs, names in os.walk(self.root):
            for name in names:
                full = os.path.join(folder, name)
                try:
                    st = os.stat(full)
                except OSError:
                    continue
                if name.endswith(TMP_SUFFIX):
                    if now - st.st_mtime > ORPHAN_AGE:
                        _remove(full)
                    continue
                total += st.st_size
                files.append((st.st_mtime, st.st_size, full))
        if total <= self.max_bytes:
            return
        target = self.max_bytes * 0.8
        for _mtime, size, full in sorted(files):
            if total <= target:
                break
            _remove(full)
            total -= size
        log.info("store: swept %s down to %d bytes", self.root, total)


def _remove(path: str) -> None:
    """Remove a file another worker may have removed already."""
    try:
        os.unlink(path)
    except OSError:
        pass
