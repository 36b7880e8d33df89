"""A worker that dies or restarts mid-refresh never stops service (issue #22, items 1 and 2).

Real gunicorn (`wpsitemaps serve`, sync workers) on a MariaDB site, with the disk store or the
real Redis. A refresh is held in the middle of its work by a table lock (`LOCK TABLES
wp_users WRITE` in another connection: the author list reads wp_users), so the worker doing
it holds a shared value's lease; that worker is then killed (SIGKILL) or restarted (HUP),
the table unlocked, and every document timed under 8 clients. The issue's bound: every
document answers within 2 s (p99), after any worker death or graceful restart, on disk and
on Redis with two service processes sharing it.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import threading
import time
from collections.abc import Iterator
from itertools import count
from pathlib import Path

import pytest
import redis

from tests.conftest import IN_CI
from tests.support import wpdb
from tests.support.builder import Site
from tests.support.serving import Server
from tests.support.serving import Tally
from tests.support.serving import all_answer
from tests.support.serving import documents
from tests.support.serving import get
from tests.support.serving import hammer
from tests.support.serving import start
from tests.support.serving import wait_for_blocked_workers
from tests.test_store_redis import redis_reachable

pytestmark = pytest.mark.mariadb
CACHE_TTL = 3  # seconds: values go stale, and refreshes start, within the test
BOUND = 2.0  # seconds: the bound on every answer (p99 under 8 clients)
_labels = count()


def lease_site() -> Site:
    """A small blog: posts in categories by three authors, and pages."""
    site = Site()
    cats = [site.term(f"Category {n}", "category", slug=f"category-{n}") for n in range(4)]
    authors = [site.user(f"author{n}", f"Author {n}") for n in range(3)]
    for n in range(40):
        site.post(f"Post {n}", name=f"post-{n}", terms=(cats[n % 4],), author=authors[n % 3])
    for n in range(6):
        site.post(f"Page {n}", post_type="page", name=f"page-{n}")
    return site


@pytest.fixture
def database() -> Iterator[tuple[str, str]]:
    """(database name, URL for the read-only user) of a fresh lease_site() in MariaDB."""
    from tests.conftest import require_mariadb

    require_mariadb()
    label = f"lease{next(_labels)}"
    url = lease_site().write_mariadb(label)
    yield wpdb.mariadb_name(label), url
    wpdb.drop_mariadb(wpdb.mariadb_name(label))


@pytest.fixture
def redis_space() -> Iterator[str]:
    """A Redis namespace of this test; its keys are deleted afterwards."""
    if not redis_reachable():
        if IN_CI:
            pytest.fail("Redis on 127.0.0.1:6379 is required in CI but unreachable")
        pytest.skip("Redis on 127.0.0.1:6379 is not reachable")
    name = f"wpsitemaps-lease-{os.getpid()}-{next(_labels)}"
    yield name
    client = redis.Redis(port=6379)
    for key in client.scan_iter(match=f"{name}/*"):
        client.delete(key)


def server_env(url: str, store: str, space: str = "") -> dict[str, str]:
    """The settings of the servers under test (defaults but a short cache_ttl)."""
    env = {"WPSITEMAPS_DATABASE_URL": url, "WPSITEMAPS_NOW": "option:test_now",
           "WPSITEMAPS_CACHE_TTL": str(CACHE_TTL), "WPSITEMAPS_STORE": store,
           "WPSITEMAPS_STORE_WINDOW": "2", "WPSITEMAPS_ENTRIES_PER_PAGE": "10"}
    if space:
        env["WPSITEMAPS_STORE_NAMESPACE"] = space
    return env


@contextlib.contextmanager
def table_locked(database: str, table: str = "wp_users") -> Iterator[None]:
    """LOCK TABLES `table` WRITE in another connection while the block runs."""
    con = wpdb.root_conn(database)
    try:
        with con.cursor() as cur:
            cur.execute(f"LOCK TABLES `{table}` WRITE")
        yield
        with con.cursor() as cur:
            cur.execute("UNLOCK TABLES")
    finally:
        con.close()


def poke(port: int, path: str = "/sitemap_index.xml") -> None:
    """Request `path` without waiting for the answer (it may block on the lock)."""
    def run() -> None:
        with contextlib.suppress(OSError):
            get(port, path, timeout=3)

    threading.Thread(target=run, daemon=True).start()


def refresh_held(server: Server, database: str) -> set[int]:
    """With the table locked: let every value go stale, start a refresh, and return the
    workers whose refresh is now waiting on the lock in the middle of its work."""
    time.sleep(CACHE_TTL + 0.5)
    poke(server.port)
    return wait_for_blocked_workers(server, database)


def assert_served(tally: Tally) -> None:
    """Every request answered 200, and the 99th percentile within the issue's bound."""
    failed = tally.failures()
    assert tally.seen, "no request was made"
    assert not failed, f"{len(failed)} of {len(tally.seen)} requests failed, e.g. {failed[:3]}"
    assert tally.p99() < BOUND, f"p99 {tally.p99():.2f} s; slowest: {tally.slowest(3)}"



def lease_holders(store: Path) -> set[int]:
    """The process ids named by the lease files of a directory store."""
    pids: set[int] = set()
    for lease in store.rglob("*.lease"):
        with contextlib.suppress(OSError):
            pids |= {int(n) for n in re.findall(r"(?<![0-9A-Za-z])(\d+)(?![0-9A-Za-z])",
                                                 lease.read_text())}
    return pids


def test_a_killed_refresh_holder_stops_nothing_on_disk(
        tmp_path: Path, database: tuple[str, str]) -> None:
    """kill -9 of the worker whose refresh holds a lease: every document still answers
    within 2 s (p99, 8 clients), and the dead worker's lease is taken over."""
    name, url = database
    store = tmp_path / "store"
    server = start(server_env(url, str(store)), tmp_path / "server.log", workers=3)
    try:
        paths = documents(server.port)
        all_answer(server.port, paths)
        with table_locked(name):
            victims = refresh_held(server, name)
            for pid in victims:
                os.kill(pid, signal.SIGKILL)
        assert victims & lease_holders(store), "the killed worker held no lease"
        assert_served(hammer([server.port], paths, seconds=12))
        deadline = time.monotonic() + 30
        while victims & lease_holders(store):
            assert time.monotonic() < deadline, "a dead worker's lease was never taken over"
            get(server.port, "/sitemap_index.xml")
            time.sleep(0.5)
    finally:
        server.stop()


def test_a_killed_refresh_holder_stops_no_host_on_redis(
        tmp_path: Path, database: tuple[str, str], redis_space: str) -> None:
    """Two services share one Redis store: kill -9 of service A's worker whose refresh
    holds a lease, and every document of A and B answers within 2 s (p99, 8 clients)."""
    name, url = database
    env = server_env(url, "redis://127.0.0.1:6379/0", redis_space)
    a = start(env, tmp_path / "a.log", workers=2)
    b = start(env, tmp_path / "b.log", workers=2)
    try:
        paths = documents(a.port)
        all_answer(a.port, paths)
        all_answer(b.port, paths)
        with table_locked(name):
            for pid in refresh_held(a, name):
                os.kill(pid, signal.SIGKILL)
        assert_served(hammer([a.port, b.port], paths, seconds=12))
    finally:
        a.stop()
        b.stop()


def test_a_restart_mid_refresh_and_under_load_stops_nothing(
        tmp_path: Path, database: tuple[str, str]) -> None:
    """HUP while a refresh holds a lease gives the lease back, and a HUP under load leaves
    every document answering within 2 s (p99, 8 clients)."""
    name, url = database
    store = tmp_path / "store"
    server = start(server_env(url, str(store)), tmp_path / "server.log", workers=3)
    try:
        paths = documents(server.port)
        all_answer(server.port, paths)
        old = server.workers()
        with table_locked(name):
            refresh_held(server, name)
            server.proc.send_signal(signal.SIGHUP)
            deadline = time.monotonic() + 30
            while server.workers() & old:
                assert time.monotonic() < deadline, "old workers did not stop"
                time.sleep(0.1)
            assert not old & lease_holders(store), "a stopped worker left its lease"
        threading.Timer(4, server.proc.send_signal, (signal.SIGHUP,)).start()
        assert_served(hammer([server.port], paths, seconds=12))
    finally:
        server.stop()


def test_a_locked_users_table_does_not_delay_other_documents(
        tmp_path: Path, database: tuple[str, str]) -> None:
    """While a refresh waits on a locked wp_users, /page-sitemap.xml (which never reads it)
    answers within 2 s, before and after its stored copy's window."""
    name, url = database
    server = start(server_env(url, str(tmp_path / "store")), tmp_path / "server.log",
                   workers=1)
    try:
        all_answer(server.port, documents(server.port))
        with table_locked(name):
            refresh_held(server, name)
            took = []
            for _ in range(8):
                started = time.monotonic()
                try:
                    status = get(server.port, "/page-sitemap.xml", timeout=10)[0]
                except OSError:
                    status = 0
                took.append((status, round(time.monotonic() - started, 2)))
                time.sleep(0.5)
            assert all(s == 200 and t < BOUND for s, t in took), took
    finally:
        server.stop()
