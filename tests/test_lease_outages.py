"""A slow refresh never delays other documents (issue #22, item 2).

Real gunicorn (`wpsitemaps serve`, sync workers) on a MariaDB site. A refresh is held in the
middle of its work by a table lock (`LOCK TABLES wp_users WRITE` in another connection: the
author list reads wp_users); documents that never read that table must answer as before.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from itertools import count
from pathlib import Path

import pytest

from tests.support import wpdb
from tests.support.builder import Site
from tests.support.serving import Server
from tests.support.serving import all_answer
from tests.support.serving import documents
from tests.support.serving import get
from tests.support.serving import start
from tests.support.serving import wait_for_blocked_workers

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
