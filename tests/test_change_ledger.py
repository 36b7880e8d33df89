"""The change ledger (issue #26): heads of buckets in the store, shared by every worker.

A source's changes bump the heads of the buckets they touch; a document's tag (the digest of
the heads it depends on) moves exactly when one of its buckets was bumped, and says nothing
(None) while no event source is live.
"""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest
import redis

from tests.conftest import PEER_CONFIG
from tests.support.storeclock import Clock
from tests.test_store_redis import REDIS_PORT
from tests.test_store_redis import space  # noqa: F401  (fixture)
from wpsitemaps import create_app
from wpsitemaps.changes.ledger import BEAT_FOR
from wpsitemaps.changes.ledger import Ledger
from wpsitemaps.changes.ledger import buckets_of
from wpsitemaps.changes.ledger import listed_deps
from wpsitemaps.changes.ledger import post_page_deps
from wpsitemaps.changes.model import Change
from wpsitemaps.changes.model import SourceHealth
from wpsitemaps.serving.pagestore import GuardedCounters
from wpsitemaps.serving.pagestore import PageStore
from wpsitemaps.store.base import Store
from wpsitemaps.store.disk import DiskStore
from wpsitemaps.store.redis import RedisStore
from wpsitemaps.web.context import service_of

PAGE1 = post_page_deps("post", 1, 3000, 1, False)
PAGE2 = post_page_deps("post", 3000, 9000, 2, False)
LAST = post_page_deps("post", 9000, None, 3, False)


def _bump_many(root: str, times: int) -> None:
    store = DiskStore(root, 10**8)
    for _ in range(times):
        store.bump("ns/blog1/changes.ledger", ["a"], {})


def test_disk_bumps_from_many_processes_add_up(tmp_path: Path) -> None:
    """Increments from four processes at once are all counted (flock), gen stays."""
    store = DiskStore(str(tmp_path), 10**8)
    gen = store.counters("ns/blog1/changes.ledger", ["a"])["gen"]
    procs = [multiprocessing.get_context("fork").Process(target=_bump_many,
                                                          args=(str(tmp_path), 50))
             for _ in range(4)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join()
    assert store.counters("ns/blog1/changes.ledger", ["a", "b"]) == {"a": 200, "b": 0,
                                                                     "gen": gen}


def check_round_trip(store: Store, key: str) -> None:
    first = store.counters(key, ["x"])
    assert first["x"] == 0 and first["gen"] > 0
    store.bump(key, ["x", "y"], {"beat:plugin": 1234})
    store.bump(key, ["x"], {})
    assert store.counters(key, ["x", "y", "beat:plugin", "z"]) == {
        "x": 2, "y": 1, "beat:plugin": 1234, "z": 0, "gen": first["gen"]}


def test_disk_round_trip_and_a_lost_set_gets_a_new_gen(tmp_path: Path) -> None:
    """A set removed (the sweep, an operator) comes back with another gen: no document
    tagged before matches it again."""
    store = DiskStore(str(tmp_path), 10**8)
    check_round_trip(store, "ns/blog1/changes.ledger")
    gen = store.counters("ns/blog1/changes.ledger", [])["gen"]
    os.remove(tmp_path / "ns" / "blog1" / "changes.ledger")
    again = store.counters("ns/blog1/changes.ledger", ["x"])
    assert again["x"] == 0 and again["gen"] != gen
    # A damaged set (a writer killed mid-write) is a new one too.
    (tmp_path / "ns" / "blog1" / "changes.ledger").write_text("{")
    assert store.counters("ns/blog1/changes.ledger", [])["gen"] not in (gen, again["gen"])


def test_redis_round_trip_and_a_lost_set_gets_a_new_gen(space: str) -> None:  # noqa: F811
    store = RedisStore(f"redis://127.0.0.1:{REDIS_PORT}/0", ttl=60)
    key = f"{space}/blog1/changes.ledger"
    check_round_trip(store, key)
    gen = store.counters(key, [])["gen"]
    assert 0 < redis.Redis(port=REDIS_PORT).ttl(key) <= 60
    redis.Redis(port=REDIS_PORT).delete(key)
    assert store.counters(key, [])["gen"] != gen


def test_buckets_of_each_kind_of_change() -> None:
    """A post touches its ID range, its type, terms and authors; unknown types every post
    page; an option every document."""
    post = buckets_of(Change("post", 5000, post_type="post"))
    assert post == {"content", "terms", "authors", "ids:post:4", "type:post"}
    assert "posts" in buckets_of(Change("post", 7))
    assert "media" in buckets_of(Change("post", 7, post_type="attachment"))
    assert buckets_of(Change("term", 3, taxonomy="category")) == {"content", "terms",
                                                                 "termnames"}
    assert buckets_of(Change("user", 2)) == {"content", "authors", "users"}
    assert buckets_of(Change("option", option="permalink_structure")) == {"content", "site"}
    assert PAGE2 == ["site", "posts", "media", "ids:post:2", "ids:post:3", "ids:post:4",
                     "ids:post:5", "ids:post:6", "ids:post:7", "ids:post:8"]
    assert "type:post" in LAST and "content" in PAGE1
    assert "type:page" in post_page_deps("page", 1, 50, 2, True)
    assert "type:post" in post_page_deps("post", 1, 10**6, 2, False)  # too many spans


def ledger_on(tmp_path: Path, names: tuple[str, ...] = ("plugin",),
              clock: Clock | None = None) -> Ledger:
    clock = clock or Clock()
    pages = PageStore(DiskStore(str(tmp_path), 10**8), "ns", 300, 2.0, clock=clock)
    return Ledger(GuardedCounters(pages), "ns", names, clock=clock)


def test_a_change_moves_only_the_tags_of_what_depends_on_it(tmp_path: Path) -> None:
    clock = Clock()
    ledger = ledger_on(tmp_path, clock=clock)
    ledger.report(SourceHealth("plugin", True))
    before = {n: ledger.tag("blog1", d) for n, d in
              [("p1", PAGE1), ("p2", PAGE2), ("last", LAST), ("terms", listed_deps("terms")),
               ("users", listed_deps("authors"))]}
    assert all(before.values())
    clock.advance(0.5)
    ledger.apply([Change("post", 4100, post_type="post")], "plugin")
    after = {n: ledger.tag("blog1", d) for n, d in
             [("p1", PAGE1), ("p2", PAGE2), ("last", LAST), ("terms", listed_deps("terms")),
              ("users", listed_deps("authors"))]}
    assert after["p2"] != before["p2"] and after["last"] != before["last"]
    assert after["terms"] != before["terms"] and after["users"] != before["users"]
    assert after["p1"] != before["p1"]  # page 1 moves with any change (first links)
    # Another site's heads are its own.
    ledger.apply([Change("post", 4100, post_type="post", blog_id=2)], "plugin")
    assert ledger.tag("blog1", PAGE2) == after["p2"]
    ledger.apply([Change("post", 20, post_type="page")], "plugin")
    assert ledger.tag("blog1", PAGE2) == after["p2"]


def test_tags_only_while_a_source_is_live(tmp_path: Path) -> None:
    """No tag before a source beats, after it says it is down or goes silent; one coming
    back gives every document another tag (what it missed is checked again)."""
    clock = Clock()
    ledger = ledger_on(tmp_path, clock=clock)
    assert ledger.tag("blog1", PAGE1) is None
    ledger.report(SourceHealth("plugin", True))
    first = ledger.tag("blog1", PAGE2)
    assert first is not None
    ledger.report(SourceHealth("plugin", False, detail="connection lost"))
    assert ledger.tag("blog1", PAGE2) is None
    ledger.report(SourceHealth("plugin", True))
    second = ledger.tag("blog1", PAGE2)
    assert second not in (None, first)
    clock.advance(BEAT_FOR + 1)
    assert ledger.tag("blog1", PAGE2) is None
    # A source the settings do not name is never trusted; without names, nothing is read.
    other = ledger_on(tmp_path, ("binlog",), clock)
    assert other.tag("blog1", PAGE2) is None
    assert ledger_on(tmp_path, (), clock).tag("blog1", PAGE2) is None


class Down(DiskStore):
    fail = True

    def bump(self, key: str, names: object, marks: object) -> None:  # type: ignore[override]
        from wpsitemaps.store.base import StoreError
        if self.fail:
            raise StoreError("down")
        super().bump(key, names, marks)  # type: ignore[arg-type]


def test_a_bump_the_store_refused_is_made_later(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A change arriving while the store fails is not lost: no tag until it is written."""
    monkeypatch.setattr("wpsitemaps.store.base.BACKOFF", 0.0)
    store = Down(str(tmp_path), 10**8)
    store.fail = False
    pages = PageStore(store, "ns", 300, 2.0)
    ledger = Ledger(GuardedCounters(pages), "ns", ("plugin",))
    ledger.report(SourceHealth("plugin", True))
    before = ledger.tag("blog1", PAGE2)
    store.fail = True
    ledger.apply([Change("post", 4100, post_type="post")], "plugin")
    assert ledger.tag("blog1", PAGE2) is None
    store.fail = False
    assert ledger.tag("blog1", PAGE2) not in (None, before)


def test_the_service_is_the_sink(peer_sqlite_url: str, tmp_path: Path) -> None:
    """Service.apply_changes (changes.model.ChangeSink) bumps the app's shared ledger, and
    change_sources says which sources reported and how they are."""
    app = create_app({"TESTING": True, "DATABASE_URL": peer_sqlite_url, **PEER_CONFIG,
                      "STORE": str(tmp_path / "pages"), "CHANGE_SOURCE": "plugin,binlog"})
    service = service_of(app)
    assert service.ledger is not None and service.change_sources == {}
    assert service.ledger.tag("blog1", PAGE2) is None
    service.report_health(SourceHealth("binlog", True, detail="at mysql-bin.000001:4"))
    before = service.ledger.tag("blog1", PAGE2)
    service.apply_changes([Change("post", 3001, post_type="post")], "plugin")
    assert service.ledger.tag("blog1", PAGE2) not in (None, before)
    assert set(service.change_sources) == {"binlog", "plugin"}
    assert service.change_sources["plugin"].healthy


def test_the_value_cache_tells_when_a_value_changed(tmp_path: Path) -> None:
    """on_change (the ledger's `values` head) is told when a value computed differs from the
    one held (or none was held and it was computed here), not when a recompute gives the
    same value nor when a fresh worker takes from the store what another computed."""
    from wpsitemaps.cache.peer import StoreValues
    from wpsitemaps.cache.values import ValueCache

    told: list[object] = []
    key = ("blog1", "terms")

    def cache() -> ValueCache:
        return ValueCache(300, peer=StoreValues(DiskStore(str(tmp_path), 10**8), "ns"),
                          on_change=told.append)

    one = cache()
    one.get(key, lambda: [1, 2], peer_key="blog1/terms")
    assert told == [key]
    one.get(key, lambda: [1, 2], force=True, peer_key="blog1/terms")
    assert told == [key]
    other = cache()
    assert other.get(key, lambda: [9], peer_key="blog1/terms") == [1, 2]  # taken, not told
    assert told == [key]
    one.get(key, lambda: [1, 3], force=True, peer_key="blog1/terms")
    assert told == [key, key]
