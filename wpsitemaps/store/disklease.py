"""Lease files of the directory store: `{key}` holds `{"holder": token, "until": epoch}`.

Every read and write of a lease file happens under flock() on it, so deciding that a lease
is free or ran out and writing the new holder is one atomic step: of two processes noticing
an expired lease at once, exactly one takes it over. The flock is held for microseconds,
never while a value is computed, and the kernel drops it if its holder dies. Releasing
removes the file under the lock; a process that opened it just before checks, once it has
the lock, that the path still names the file it locked (else it opens the new one).

Files are opened with O_NOFOLLOW, relative to their folder's descriptor (store.files: no
link on the way is followed either), and must be regular files: a symlink or a FIFO planted
at a lease path is a store failure, never followed.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import stat
import time
from collections.abc import Iterator

from wpsitemaps.store.base import StoreError

log = logging.getLogger(__name__)
LOCK_WAIT = 0.5  # seconds; a live process locks a lease file for microseconds


def claim(folder: int, name: str, token: str, seconds: float) -> bool:
    """Write `token` as holder for `seconds` when the lease is free or ran out."""
    with locked(folder, name, create=True) as fd:
        assert fd is not None
        held = _read(fd)
        now = time.time()
        if held is not None and held[1] > now:
            return False
        if held is not None:
            log.warning("store: lease %s of %s ran out %.0f s ago (not renewed); taken over "
                        "by %s", name, held[0], now - held[1], token)
        _write(fd, token, now + seconds)
        return True


def renew(folder: int, name: str, token: str, seconds: float) -> bool:
    """Move the lease's end to `seconds` from now if `token` still holds it."""
    with locked(folder, name) as fd:
        if fd is None or _holder_in(fd) != token:
            return False
        _write(fd, token, time.time() + seconds)
        return True


def release(folder: int, name: str, token: str) -> None:
    """Remove the lease file if `token` holds it."""
    with locked(folder, name) as fd:
        if fd is not None and _holder_in(fd) == token:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(name, dir_fd=folder)


def holder(folder: int, name: str) -> str | None:
    """The holder of a running lease (None: free or ran out)."""
    with locked(folder, name) as fd:
        held = _read(fd) if fd is not None else None
    return held[0] if held is not None and held[1] > time.time() else None


@contextlib.contextmanager
def locked(folder: int, name: str, create: bool = False) -> Iterator[int | None]:
    """The lease file open and flock()ed (None when it is missing and not `create`d)."""
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        fd = _open(folder, name, create)
        if fd is None:
            yield None
            return
        try:
            if _lock(fd, deadline) and _is_at(fd, folder, name):
                yield fd
                return
        finally:
            os.close(fd)  # drops the lock
        if time.monotonic() > deadline:
            raise StoreError(f"lease {name} stayed locked for {LOCK_WAIT} s")


def _open(folder: int, name: str, create: bool) -> int | None:
    flags = (os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
             | (os.O_CREAT if create else 0))
    try:
        fd = os.open(name, flags, 0o644, dir_fd=folder)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StoreError(f"cannot open lease {name}: {exc.strerror}") from exc
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise StoreError(f"lease {name} is not a regular file")
    return fd


def _lock(fd: int, deadline: float) -> bool:
    """flock(fd) exclusively, polling until `deadline` (False: still locked then)."""
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.001)
        except OSError as exc:
            raise StoreError(f"cannot lock a lease: {exc.strerror}") from exc


def _is_at(fd: int, folder: int, name: str) -> bool:
    """Whether `name` still names the file open as `fd` (a releaser may have removed it)."""
    try:
        st = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise StoreError(f"cannot read lease {name}: {exc.strerror}") from exc
    mine = os.fstat(fd)
    return (st.st_dev, st.st_ino) == (mine.st_dev, mine.st_ino)


def _read(fd: int) -> tuple[str, float] | None:
    """(holder, end in epoch seconds); None when empty or not a lease (a holder killed
    between truncate and write leaves the file empty: free)."""
    try:
        data = json.loads(os.pread(fd, 1024, 0))
        return str(data["holder"]), float(data["until"])
    except OSError as exc:
        raise StoreError(f"cannot read a lease: {exc.strerror}") from exc
    except (ValueError, KeyError, TypeError):
        return None


def _holder_in(fd: int) -> str | None:
    """The token written in a lease file, run out or not."""
    held = _read(fd)
    return held[0] if held is not None else None


def _write(fd: int, token: str, until: float) -> None:
    """Replace the lease file's content (under its lock)."""
    data = json.dumps({"holder": token, "until": round(until, 3)}).encode() + b"\n"
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, data, 0)
    except OSError as exc:
        raise StoreError(f"cannot write a lease: {exc.strerror}") from exc
