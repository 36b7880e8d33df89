"""The file operations of the directory store, made so that it reads only what it wrote.

Anyone who can write the store directory, or an unlucky operator, can leave there what the
store never writes: a FIFO (a plain open() waits for a writer for ever, and so does every
worker that asks for that page), a device or a link to one (/dev/zero never ends: a plain
read() grows the worker until it is killed), a link to a directory elsewhere (a write
through it replaces files outside the store). So, below the configured root (the root
itself may be a link: the operator chose that path):

* directories are opened one segment at a time from the root with O_DIRECTORY|O_NOFOLLOW,
  and files are named relative to them (dir_fd): no link inside the store is ever followed,
  even one swapped in between two calls;
* a file is read only when it is a regular file (lstat before the open, fstat after it),
  opened with O_NOFOLLOW|O_NONBLOCK (a FIFO cannot block the open), and never more than a
  bound: a record the store refuses is a miss, rendered again and replaced by its write;
* the sweep walks with os.fwalk without following links, counts and removes only regular
  files, and removes them relative to their directory.

Callers turn every OSError into StoreError (store.disk): the page is served without the store.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from collections.abc import Sequence
from contextlib import contextmanager
from contextlib import suppress
from pathlib import Path
from typing import IO

from wpsitemaps.store.base import StoreError

ROOT_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
DIR_FLAGS = ROOT_FLAGS | os.O_NOFOLLOW
READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
# Added to open()'s own flags for a temporary file: it must be new, and never a link.
CREATE_FLAGS = os.O_EXCL | os.O_NOFOLLOW
CHUNK = 1 << 20


class Refused(Exception):
    """A file the store did not write (not a regular file, or larger than any record)."""


@contextmanager
def folder(root: Path, parts: Sequence[str], create: bool) -> Iterator[int | None]:
    """A descriptor of root/parts…, opened segment by segment without following a link;
    None when a segment is missing (created instead when `create`). StoreError when a
    segment is a link or a file: the store never writes or reads through it."""
    fd = _open_root(root, create)
    try:
        for depth, part in enumerate(parts):
            if fd is None:
                break
            child = _step(fd, part, create, root.joinpath(*parts[:depth + 1]))
            os.close(fd)
            fd = child
        yield fd
    finally:
        if fd is not None:  # closed once: a number closed twice may be another thread's file
            os.close(fd)


def _open_root(root: Path, create: bool) -> int | None:
    try:
        return os.open(root, ROOT_FLAGS)
    except FileNotFoundError:
        if not create:
            return None
    root.mkdir(parents=True, exist_ok=True)
    return os.open(root, ROOT_FLAGS)


def _step(parent: int, name: str, create: bool, where: Path) -> int | None:
    """Open the directory `name` in `parent` (made first when missing and `create`)."""
    try:
        try:
            return os.open(name, DIR_FLAGS, dir_fd=parent)
        except FileNotFoundError:
            if not create:
                return None
        with suppress(FileExistsError):  # another worker made it meanwhile
            os.mkdir(name, 0o755, dir_fd=parent)
        return os.open(name, DIR_FLAGS, dir_fd=parent)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            raise StoreError(f"{where} is a link or a file, not a directory of the store: "
                             "never followed (remove it)") from None
        raise


def read(dir_fd: int, name: str, limit: int) -> tuple[bytes, float] | None:
    """The first `limit` bytes of a regular file and its mtime; None when it is missing,
    Refused when it is anything else (a link, a FIFO, a device, a directory)."""
    try:
        if not stat.S_ISREG(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode):
            raise Refused("not a regular file")
        fd = os.open(name, READ_FLAGS, dir_fd=dir_fd)
    except FileNotFoundError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):  # swapped between the lstat and the open
            raise Refused("not a regular file")
        return _read_upto(fd, limit), st.st_mtime
    finally:
        os.close(fd)


def read_whole(dir_fd: int, name: str, limit: int) -> tuple[bytes, float] | None:
    """The whole regular file and its mtime (read()); Refused when it is over `limit`."""
    found = read(dir_fd, name, limit + 1)
    if found is not None and len(found[0]) > limit:
        raise Refused(f"larger than {limit} bytes")
    return found


def _read_upto(fd: int, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while size < limit:
        chunk = os.read(fd, min(CHUNK, limit - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def write(dir_fd: int, name: str, tmp: str, chunks: Sequence[bytes], mtime: float) -> None:
    """Write a new temporary file `tmp` beside `name`, then rename it over `name` (a link or
    FIFO there is replaced, never followed). The temporary file is removed on failure."""
    def opener(path: str, flags: int) -> int:
        return os.open(path, flags | CREATE_FLAGS, 0o644, dir_fd=dir_fd)

    try:
        fh: IO[bytes]
        with open(tmp, "wb", opener=opener) as fh:
            for chunk in chunks:
                fh.write(chunk)
            fh.flush()
            os.utime(fh.fileno(), (mtime, mtime))
        os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except OSError:
        with suppress(OSError):  # a read-only directory refuses this too
            os.unlink(tmp, dir_fd=dir_fd)
        raise


def touch(dir_fd: int, name: str, when: float) -> None:
    """Set the mtime of `name` (of a link itself, never its target); missing is fine."""
    with suppress(FileNotFoundError):
        os.utime(name, (when, when), dir_fd=dir_fd, follow_symlinks=False)


def remove(dir_fd: int, name: str) -> None:
    """Remove `name` from its directory (a link itself, never its target); missing is fine."""
    with suppress(FileNotFoundError):
        os.unlink(name, dir_fd=dir_fd)


def regular_files(root: Path) -> Iterator[tuple[tuple[str, ...], str, os.stat_result]]:
    """Every regular file under root: (folder parts, name, lstat), links never followed."""
    try:
        top = os.open(root, ROOT_FLAGS)
    except FileNotFoundError:
        return
    try:
        for path, _dirs, names, dir_fd in os.fwalk(".", dir_fd=top, follow_symlinks=False):
            parts = Path(path).parts  # "." and "./ns/blog1" give () and ("ns", "blog1")
            for name in names:
                try:
                    st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
                except FileNotFoundError:
                    continue
                if stat.S_ISREG(st.st_mode):
                    yield parts, name, st
    finally:
        os.close(top)
