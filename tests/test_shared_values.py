"""Per-refresh values shared between workers through the page store (issue #13).

Two ValueCaches over one store stand for two gunicorn workers (each DiskStore instance has
its own lease token, as each process has); the HTTP tests use two apps over one database and
one store directory, as two workers of one server do.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from datetime import UTC
from datetime import datetime
from datetime import timedelta
from datetime import timezone
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.support.builder import Site
from tests.support.sitemaps import parse_index
from wpsitemaps import create_app
from wpsitemaps.cache.leases import new_token
from wpsitemaps.cache.peer import StoreValues
from wpsitemaps.cache.peer import decode
from wpsitemaps.cache.peer import encode
from wpsitemaps.cache.peer import value_key
from wpsitemaps.cache.values import WAIT
from wpsitemaps.cache.values import ValueCache
from wpsitemaps.entries import Alternate
from wpsitemaps.entries import ImageEntry
from wpsitemaps.entries import NewsEntry
from wpsitemaps.entries import PageBound
from wpsitemaps.entries import UrlEntry
from wpsitemaps.entries import VideoEntry
from wpsitemaps.sitemaps.providers.posts import PostTypeProvider
from wpsitemaps.store.base import Record
from wpsitemaps.store.base import StoreError
from wpsitemaps.store.disk import DiskStore
from wpsitemaps.wordpress.queries.posts import PageSpan

WHEN = datetime(2024, 5, 6, 7, 8, 9, 123456, tzinfo=UTC)


class Worker(ValueCache):
    """A worker's value cache as a server uses it: with a background refresh, so a stale
    value is served while it runs."""

    def get(self, key: Any, compute: Any, force: bool = False, peer_key: str | None = None,
            on_stale: Any = None) -> Any:
        return super().get(key, compute, force, peer_key, on_stale or (lambda: None))


def worker(root: Path, **kwargs: Any) -> Worker:
    """One worker's value cache over the store directory `root`."""
    peer = StoreValues(DiskStore(str(root), max_bytes=10**8), "ns")
    return Worker(300, peer=peer, **kwargs)


# -- the codec ---------------------------------------------------------------------------

@pytest.mark.parametrize("value", [
    None, 0, 3.5, "x", [], WHEN, datetime(2024, 1, 2, 3, 4, 5),  # a naive date stays naive
    datetime(2024, 1, 2, 3, 4, 5, tzinfo=timezone(timedelta(hours=-5))),
    [PageBound(1), PageBound(7, WHEN, 99, 120, WHEN)],
    [PageSpan(1, WHEN, None, 40), PageSpan(41, None, WHEN)],
    [(3, UrlEntry("https://e.test/a/", WHEN, (ImageEntry("https://e.test/i.jpg"),),
                  (VideoEntry("t", "T", "D", None, "p", 12, WHEN, ("a", "b"), "u", None),),
                  NewsEntry("N", "en", WHEN, "T"),
                  (Alternate("fr", "https://e.test/fr/a/"),)))],
])
def test_values_come_back_equal(value: Any) -> None:
    """Every shape the caches hold decodes to an equal value of the same types."""
    back = decode(encode(value))
    assert back == value and type(back) is type(value)
    if isinstance(value, list) and value:
        assert [type(v) for v in back] == [type(v) for v in value]


def test_unknown_types_are_refused_not_pickled() -> None:
    """A type the codec does not know is not shared, and a stored record cannot name a class
    the codec does not list (no code runs from the store)."""
    with pytest.raises(TypeError):
        encode({"a": 1})
    with pytest.raises(TypeError):
        encode([object()])
    with pytest.raises(KeyError):
        decode(b'{"r":"Popen","f":[["sh"]]}')


def test_value_keys_are_the_same_in_every_process() -> None:
    """Python's hash() differs between processes; the store key must not."""
    code = ("from wpsitemaps.cache.peer import value_key;"
            "print(value_key('s1', ('blog', ('bounds', 'post'), 1000, 'abc')))")
    keys = {subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                           text=True, env={**os.environ, "PYTHONHASHSEED": seed}).stdout
            for seed in ("1", "2", "3")}
    assert keys == {value_key("s1", ("blog", ("bounds", "post"), 1000, "abc")) + "\n"}


# -- two workers over one store ----------------------------------------------------------

def test_a_value_computed_by_one_worker_is_read_by_the_other(tmp_path: Path) -> None:
    """Worker B takes worker A's value from the store instead of computing it."""
    a, b = worker(tmp_path), worker(tmp_path)
    calls: list[str] = []
    assert a.get("k", lambda: calls.append("a") or [PageBound(1, WHEN)], peer_key="s/k") \
        == [PageBound(1, WHEN)]
    assert b.get("k", lambda: calls.append("b") or [], peer_key="s/k") == [PageBound(1, WHEN)]
    assert calls == ["a"]


def test_a_worker_waits_for_the_one_computing(tmp_path: Path) -> None:
    """While A holds the lease, B waits for A's value rather than repeat the pass."""
    a, b = worker(tmp_path), worker(tmp_path)
    started, finish = threading.Event(), threading.Event()
    calls: list[str] = []

    def slow() -> str:
        calls.append("a")
        started.set()
        finish.wait(10)
        return "from a"

    b.wait = 10  # longer than this test's steps take on a busy machine
    ta = threading.Thread(target=lambda: a.get("k", slow, peer_key="s/k"))
    ta.start()
    assert started.wait(10)
    got: list[str] = []
    tb = threading.Thread(target=lambda: got.append(
        b.get("k", lambda: calls.append("b") or "from b", peer_key="s/k")))
    tb.start()
    time.sleep(0.3)
    assert not got  # B is waiting
    finish.set()
    ta.join(10)
    tb.join(10)
    assert got == ["from a"] and calls == ["a"]


def test_a_request_waits_at_most_a_second_for_a_lease(tmp_path: Path) -> None:
    """A request without a value waits at most WAIT (1 s) on another's lease, then computes
    the value itself."""
    store = DiskStore(str(tmp_path), max_bytes=10**8)
    assert store.claim("ns/s/k.lease", new_token(), 900)  # held by a worker that hangs
    b = worker(tmp_path)
    started = time.monotonic()
    assert b.get("k", lambda: "computed here", peer_key="s/k") == "computed here"
    assert time.monotonic() - started < WAIT + 1


def test_a_stale_value_is_served_at_once_while_another_holds_the_lease(
        tmp_path: Path) -> None:
    """A cache without a background refresh (the headless API's) serves its stale value
    at once while another process holds the lease, instead of waiting."""
    clock = [1000.0]
    peer = StoreValues(DiskStore(str(tmp_path), max_bytes=10**8), "ns")
    cache = ValueCache(300, clock=lambda: clock[0], peer=peer)
    cache.get("k", lambda: "old", peer_key="s/k")
    clock[0] += 1000  # stale
    assert DiskStore(str(tmp_path), 10**8).claim("ns/s/k.lease", new_token(), 900)
    started = time.monotonic()
    assert cache.get("k", lambda: "new", peer_key="s/k") == "old"
    assert time.monotonic() - started < 0.5


def test_a_refresh_takes_over_a_lease_its_holder_stopped_renewing(tmp_path: Path) -> None:
    """A background refresh finding a lease whose holder died (no renewal) computes the value
    as soon as the lease runs out, not after the longest hold."""
    a = worker(tmp_path)
    a.get("k", lambda: "old", peer_key="s/k")
    later = time.monotonic() + 1000
    a.clock = lambda: later  # stale
    assert DiskStore(str(tmp_path), 10**8).claim("ns/s/k.lease", new_token(), 1.0)
    got: list[str] = []
    refresh = threading.Thread(target=lambda: got.append(
        a.get("k", lambda: "new", force=True, peer_key="s/k")), daemon=True)
    started = time.monotonic()
    refresh.start()
    refresh.join(10)
    assert got == ["new"] and time.monotonic() - started < 1.0 + 2


def test_a_refresh_adopts_a_newer_value_instead_of_recomputing(tmp_path: Path) -> None:
    """Both workers' values go stale; A's refresh computes, B's refresh reads A's result."""
    a, b = worker(tmp_path), worker(tmp_path)
    later = time.monotonic() + 1000
    a.get("k", lambda: "old", peer_key="s/k")
    b.get("k", lambda: "old", peer_key="s/k")
    a.clock = b.clock = lambda: later  # both stale
    assert a.get("k", lambda: "new", force=True, peer_key="s/k") == "new"
    calls: list[str] = []
    assert b.get("k", lambda: calls.append("b") or "newer", force=True,
                 peer_key="s/k") == "new"
    assert calls == []
    # ...and a refresh when no one computed since this worker's own value recomputes.
    assert b.get("k", lambda: "newest", force=True, peer_key="s/k") == "newest"


def test_a_stale_shared_value_is_served_while_refreshing(tmp_path: Path) -> None:
    """A new worker finding only a stale value serves it and asks for a refresh, as a
    worker with its own stale value does."""
    a = worker(tmp_path)
    a.get("k", lambda: "old", peer_key="s/k")
    asked: list[int] = []
    peer = StoreValues(DiskStore(str(tmp_path), max_bytes=10**8), "ns",
                       clock=lambda: time.time() + 1000)
    b = ValueCache(300, peer=peer)
    assert b.get("k", lambda: "new", peer_key="s/k", on_stale=lambda: asked.append(1)) == "old"
    assert asked == [1]


class Broken(DiskStore):
    """A store whose every call fails (disk gone, Redis down)."""

    def get(self, key: str) -> Record | None:
        raise StoreError("down")

    def claim(self, key: str, token: str, seconds: float) -> bool:
        raise StoreError("down")


def test_a_failing_store_leaves_every_worker_computing_alone(tmp_path: Path) -> None:
    """No store, no sharing and no waiting: the value is computed in the worker."""
    cache = ValueCache(300, peer=StoreValues(Broken(str(tmp_path), 10**8), "ns"))
    assert cache.get("k", lambda: "mine", peer_key="s/k") == "mine"


def test_a_damaged_value_is_computed_again(tmp_path: Path) -> None:
    """A stored value that does not decode (an older codec, a hand edit) is not used."""
    store = DiskStore(str(tmp_path), max_bytes=10**8)
    body = b'{"r":"Nope","f":[]}'
    store.put("ns/s/k", Record("value", "e", time.time(), None), body)
    assert worker(tmp_path).get("k", lambda: "fresh", peer_key="s/k") == "fresh"


# -- through HTTP: two workers of one server ---------------------------------------------

def two_workers(site: Site, tmp_path: Path) -> tuple[Flask, Flask]:
    """Two apps over one database and one store directory."""
    url = site.write_sqlite(tmp_path / "site.sqlite")
    config = {"TESTING": True, "DATABASE_URL": url, "TABLE_PREFIX": site.prefix,
              "NOW": "option:test_now", "STORE": str(tmp_path / "store"),
              "ENTRIES_PER_PAGE": 2}
    return create_app(config), create_app(config)


def test_the_second_worker_serves_without_a_pass_over_the_site(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Worker B answers the index and a page from the bounds worker A computed, and its
    bytes equal A's."""
    site = Site()
    for i in range(5):
        site.post(f"Post {i}", name=f"p-{i}")
    a, b = two_workers(site, tmp_path)
    passes: list[str] = []
    original = PostTypeProvider.compute_bounds

    def counted(self: PostTypeProvider) -> list[PageBound]:
        passes.append(self.name)
        return original(self)

    monkeypatch.setattr(PostTypeProvider, "compute_bounds", counted)
    first = a.test_client().get("/sitemap_index.xml")
    assert first.status_code == 200 and "post" in passes
    passes.clear()
    second = b.test_client().get("/sitemap_index.xml")
    assert second.status_code == 200 and passes == []
    assert second.data == first.data
    assert len([loc for loc, _ in parse_index(second.data) if "post-sitemap" in loc]) == 3
    page = b.test_client().get("/post-sitemap3.xml")
    assert page.status_code == 200 and b"/p-4/" in page.data and passes == []



def test_a_slow_value_another_worker_computed_is_not_deferred(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The video scan runs in the background on a large site (503 until then); a worker
    started after another finished it serves the video sitemap at once."""
    from wpsitemaps.sitemaps.providers import video

    monkeypatch.setattr(video, "BACKGROUND_FROM", 0)  # treat this small site as large
    site = Site()
    site.post("Clip", name="clip",
              content="<p>Watch:</p>\nhttps://www.youtube.com/watch?v=abcdefghijk\n<p>.</p>")
    a, b = two_workers(site, tmp_path)
    client = a.test_client()
    assert client.get("/video-sitemap.xml").status_code == 503
    deadline = time.monotonic() + 10
    while client.get("/video-sitemap.xml").status_code != 200:
        assert time.monotonic() < deadline, "worker A's background scan never finished"
        time.sleep(0.05)
    assert b.test_client().get("/video-sitemap.xml").status_code == 200


def test_a_slow_values_lifetime_is_shared(tmp_path: Path) -> None:
    """Another worker keeps a slow value as long as the worker that computed it."""
    clock = [1000.0]
    a = worker(tmp_path, clock=lambda: clock[0])

    def slow() -> str:
        clock[0] += 100  # a 100 s scan: kept 2,000 s
        return "scanned"

    a.get("k", slow, peer_key="s/k")
    b = worker(tmp_path, clock=lambda: clock[0])
    assert b.get("k", lambda: "again", peer_key="s/k") == "scanned"
    clock[0] += 1000  # past cache_ttl
    assert b.get("k", lambda: "again", force=True, peer_key="s/k") == "scanned"
