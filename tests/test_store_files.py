"""The directory store reads only what it wrote (issue #22).

A read-only directory, a FIFO or a link to /dev/zero where a record was, a link to a
directory elsewhere: none of them costs an answer, a worker, memory, or a byte outside the
store. The cases that hang or exhaust a worker on failure run against a real server
(tests/support/served.py), so a failure is a timeout or a 500, not a hung test run.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import time
from collections.abc import Callable
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from flask import Flask

from tests.support.builder import Site
from tests.support.data import small_site
from tests.support.served import Answer
from tests.support.served import Served
from tests.support.served import serve
from wpsitemaps import create_app
from wpsitemaps.store.base import BACKOFF
from wpsitemaps.store.base import Record
from wpsitemaps.store.disk import DiskStore

PATHS = ["/sitemap_index.xml", "/post-sitemap.xml", "/page-sitemap.xml",
         "/category-sitemap.xml", "/author-sitemap.xml"]
GZIP = {"Accept-Encoding": "gzip"}
BROWSER = {"Sec-Fetch-Dest": "document", "Sec-Fetch-Mode": "navigate"}
VARIANTS = {"xml": {}, "gzip": GZIP, "html": BROWSER}
MEMORY_LIMIT = 3 * 1024**3  # bytes of address space per server process (old code: MemoryError)


@pytest.fixture
def site_url(write_site: Callable[[Site, str], str]) -> str:
    """The small site written to SQLite."""
    return write_site(small_site(), "sqlite")


def app_for(url: str, store: Path | str) -> Flask:
    """An app on the site with the given store (namespace 'ns')."""
    return create_app({"TESTING": True, "DATABASE_URL": url, "NOW": "option:test_now",
                       "STORE": str(store), "STORE_NAMESPACE": "ns"})


def fresh(url: str, path: str, headers: dict[str, str]) -> bytes:
    """The document as a store-less app renders it (the XML of a gzip answer)."""
    resp = app_for(url, "off").test_client().get(path, headers=headers)
    assert resp.status_code == 200
    if resp.headers.get("Content-Encoding") == "gzip":
        return gzip.decompress(resp.data)
    return resp.data


def content(answer: Answer) -> bytes:
    """The document an answer carries (decoded when it was sent gzip-encoded)."""
    if answer.headers.get("content-encoding") == "gzip":
        return gzip.decompress(answer.body)
    return answer.body


def server_env(url: str, store: Path) -> dict[str, str]:
    """The settings of a served site with the store in `store`, namespace 'ns'."""
    return {"WPSITEMAPS_DATABASE_URL": url, "WPSITEMAPS_NOW": "option:test_now",
            "WPSITEMAPS_STORE": str(store), "WPSITEMAPS_STORE_NAMESPACE": "ns",
            "WPSITEMAPS_STORE_WINDOW": "0"}


def record_file(store: Path, pattern: str) -> Path:
    """The stored file of a record (`post-sitemap.xml.html*`: the HTML, whatever its view)."""
    found = sorted((store / "ns" / "blog1").glob(pattern))
    assert len(found) == 1, found
    return found[0]


def can_remount() -> bool:
    """Whether this process may make a private read-only bind mount (root with
    CAP_SYS_ADMIN: then a read-only directory is a read-only file system, as root ignores
    directory permissions)."""
    if os.geteuid() != 0 or not (shutil.which("unshare") and shutil.which("nsenter")):
        return False
    return subprocess.run(["unshare", "--mount", "true"], capture_output=True,
                          check=False).returncode == 0


def make_read_only(srv: Served, store: Path, remount: bool) -> None:
    """Make the store read-only for the server: remount its private bind mount read-only
    (root), or take the write permission away (any other user)."""
    if remount:
        # The kernel refuses while a file there is open for writing ("mount point is
        # busy"): the server's background threads (the start-up refresh storing values,
        # the lease keeper) write for moments; try again until it holds none.
        command = ["nsenter", "-t", str(srv.proc.pid), "-m", "mount", "-o",
                   "remount,bind,ro", str(store)]
        for _ in range(100):
            if subprocess.run(command, capture_output=True, check=False).returncode == 0:
                return
            time.sleep(0.1)
        subprocess.run(command, check=True)
        return
    for folder, _dirs, _files in os.walk(store):
        os.chmod(folder, 0o555)


@contextmanager
def read_only_server(url: str, tmp_path: Path) -> Iterator[Served]:
    """A served site whose store turns read-only (a file system remounted read-only after
    disk errors) once two pages are stored and one of them is damaged."""
    store = tmp_path / "pages"
    store.mkdir()
    remount = can_remount()
    if os.geteuid() == 0 and not remount:
        pytest.skip("root without CAP_SYS_ADMIN can make no directory read-only")
    wrap = (["unshare", "--mount", "--propagation", "private", "sh", "-c",
             'mount --bind "$0" "$0" && exec "$@"', str(store)] if remount else [])
    with serve(server_env(url, store), tmp_path / "server.log", wrap=wrap) as srv:
        srv.get("/post-sitemap.xml")
        srv.get("/page-sitemap.xml")
        # A damaged record the read-only store cannot remove, and pages never stored.
        damaged = record_file(store, "post-sitemap.xml")
        damaged.write_bytes(damaged.read_bytes()[:-10])
        make_read_only(srv, store, remount)
        yield srv


def wrong_answers(srv: Served, expected: dict[tuple[str, str], bytes],
                  seconds: float) -> list[tuple[str, str, int]]:
    """Every document in every variant, again and again for `seconds`: those not answered
    200 with the expected bytes."""
    wrong: list[tuple[str, str, int]] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for (path, name), body in expected.items():
            answer = srv.get(path, VARIANTS[name], timeout=10)
            if answer.status != 200 or content(answer) != body:
                wrong.append((path, name, answer.status))
    return wrong


def fresh_documents(url: str) -> dict[tuple[str, str], bytes]:
    """Every document of PATHS in every variant, as a store-less app renders it."""
    return {(path, name): fresh(url, path, headers)
            for path in PATHS for name, headers in VARIANTS.items()}


def test_read_only_store_costs_no_answer(site_url: str, tmp_path: Path) -> None:
    """A store that turns read-only under requests costs no answer: for longer than the
    store's back-off, every document in every variant is 200 with a fresh render's bytes."""
    expected = fresh_documents(site_url)
    with read_only_server(site_url, tmp_path) as srv:
        assert wrong_answers(srv, expected, BACKOFF + 1) == []
        assert srv.errors_logged() == []


def test_workers_start_while_the_store_is_read_only(site_url: str, tmp_path: Path) -> None:
    """Workers started while the store is read-only (a graceful reload: SIGHUP, as
    logrotate sends) serve every document instead of exiting at their store check."""
    expected = fresh_documents(site_url)
    with read_only_server(site_url, tmp_path) as srv:
        assert srv.reload(), "no worker answered within 60 s of the reload"
        assert wrong_answers(srv, expected, 2) == []
        assert srv.errors_logged() == []


@pytest.mark.parametrize(("record", "variant"), [
    ("post-sitemap.xml", "xml"), ("post-sitemap.xml.gz", "gzip"),
    ("post-sitemap.xml.html*", "html")])
def test_fifo_in_the_store_blocks_no_worker(site_url: str, tmp_path: Path, record: str,
                                            variant: str) -> None:
    """A FIFO where a stored record was blocks no worker: three requests (one more than
    the workers) each answer within 10 s, with the bytes of a fresh render."""
    store = tmp_path / "pages"
    headers = VARIANTS[variant]
    with serve(server_env(site_url, store), tmp_path / "server.log") as srv:
        assert srv.get("/post-sitemap.xml", headers).status == 200
        target = record_file(store, record)
        target.unlink()
        os.mkfifo(target)
        answers = []
        for _ in range(3):
            answers.append(srv.get("/post-sitemap.xml", headers, timeout=10))
            if answers[-1].status != 200:
                break  # a worker is hung: the next request would wait as long
        assert [a.status for a in answers] == [200, 200, 200]
        assert {content(a) for a in answers} == {fresh(site_url, "/post-sitemap.xml", headers)}


@pytest.mark.parametrize(("record", "variant"), [
    ("post-sitemap.xml.gz", "gzip"), ("post-sitemap.xml.html*", "html"),
    ("post-sitemap.xml", "xml")])
def test_link_to_dev_zero_is_not_read(site_url: str, tmp_path: Path, record: str,
                                      variant: str) -> None:
    """A link to /dev/zero where a stored record was is never read: the answer is a fresh
    render and no worker grows by more than 100 MB."""
    store = tmp_path / "pages"
    headers = VARIANTS[variant]
    with serve(server_env(site_url, store), tmp_path / "server.log",
               memory_limit=MEMORY_LIMIT) as srv:
        for _ in range(4):  # both workers warm (lxml and the stylesheets loaded)
            assert srv.get("/post-sitemap.xml", headers).status == 200
        before = max(srv.worker_rss_mb())
        target = record_file(store, record)
        target.unlink()
        target.symlink_to("/dev/zero")
        answers = [srv.get("/post-sitemap.xml", headers, timeout=30) for _ in range(2)]
        grown = max(srv.worker_rss_mb()) - before
        assert [a.status for a in answers] == [200, 200]
        assert {content(a) for a in answers} == {fresh(site_url, "/post-sitemap.xml", headers)}
        assert grown < 100, f"a worker grew by {grown:.0f} MB"


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under a folder and its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("link", ["ns", "ns/blog1"])
def test_store_never_writes_through_a_linked_directory(site_url: str, tmp_path: Path,
                                                       link: str) -> None:
    """A directory inside the store that is a link to one elsewhere is never written
    through: the files there keep their bytes, and every answer is a fresh render."""
    outside = tmp_path / "outside"
    inside = outside / "blog1" if link == "ns" else outside
    inside.mkdir(parents=True)
    for name in ("post-sitemap.xml", "post-sitemap.xml.gz", "sitemap_index.xml"):
        (inside / name).write_bytes(b"precious " + name.encode())
    before = snapshot(outside)
    store = tmp_path / "pages"
    (store / link).parent.mkdir(parents=True)
    (store / link).symlink_to(outside, target_is_directory=True)
    client = app_for(site_url, store).test_client()
    for path in PATHS:
        for name, headers in VARIANTS.items():
            resp = client.get(path, headers=headers)
            assert resp.status_code == 200, (path, name)
            body = gzip.decompress(resp.data) if name == "gzip" else resp.data
            assert body == fresh(site_url, path, headers), (path, name)
    assert snapshot(outside) == before
    assert (store / link).is_symlink()


def test_sweep_never_deletes_outside_the_store(tmp_path: Path) -> None:
    """A sweep over the bound removes stored records but neither follows nor removes links,
    and nothing they point to."""
    outside = tmp_path / "outside"
    (outside / "deep").mkdir(parents=True)
    (outside / "deep" / "old.xml").write_bytes(b"x" * 5_000)
    (outside / "file.xml").write_bytes(b"y" * 5_000)
    before = snapshot(outside)
    store = DiskStore(str(tmp_path / "pages"), max_bytes=1_000)
    for n in range(3):
        store.put(f"ns/blog1/p{n}.xml", Record("fp", "tag", 100.0 + n, None), b"z" * 2_000)
    (tmp_path / "pages" / "ns" / "linked").symlink_to(outside / "deep")
    (tmp_path / "pages" / "ns" / "blog1" / "a.xml").symlink_to(outside / "file.xml")
    os.utime(tmp_path / "pages" / "ns" / "blog1" / "a.xml", (1, 1), follow_symlinks=False)
    store.sweep()
    assert snapshot(outside) == before
    assert (tmp_path / "pages" / "ns" / "linked").is_symlink()
    assert (tmp_path / "pages" / "ns" / "blog1" / "a.xml").is_symlink()
    assert not any((tmp_path / "pages" / "ns" / "blog1").glob("p*.xml"))


@pytest.mark.parametrize(("field", "value"), [
    ("rendered", "abc"), ("rendered", None), ("rendered", [1]), ("rendered", 1e400),
    ("rendered", True), ("lastmod", 5), ("lastmod", "not-a-date"),
    ("lastmod", "2026-01-01T00:00:00"), ("len", "x"), ("fp", None), ("etag", 7)])
def test_header_of_the_wrong_shape_is_a_miss(site_url: str, tmp_path: Path, field: str,
                                             value: object) -> None:
    """A stored header whose field has a value the store never writes (a number as text,
    a date that is none, a date without its offset) is a miss: the page is a fresh render."""
    store = tmp_path / "pages"
    client = app_for(site_url, store).test_client()
    client.get("/post-sitemap.xml")
    target = record_file(store, "post-sitemap.xml")
    head, _, body = target.read_bytes().partition(b"\n")
    meta = json.loads(head.removeprefix(b"WPSM1 "))
    meta[field] = value
    target.write_bytes(b"WPSM1 " + json.dumps(meta).encode() + b"\n" + body)
    resp = client.get("/post-sitemap.xml")
    assert resp.status_code == 200
    assert resp.data == fresh(site_url, "/post-sitemap.xml", {})
