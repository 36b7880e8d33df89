"""IndexNow across real processes (issue #27): a service killed (SIGKILL) with URLs in its
outbox delivers them after a restart, once; two service processes sharing one store (a
directory, or the real Redis) submit each URL once. Real clocks, real threads: the sweep
and the batching window are one second here."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import Callable
from collections.abc import Iterator
from itertools import count
from pathlib import Path

import pytest
import redis

from tests.conftest import IN_CI
from tests.support.builder import Site
from tests.support.data import small_site
from tests.support.indexnow import Endpoint
from tests.support.indexnow import running_endpoint
from tests.test_store_redis import REDIS_PORT
from tests.test_store_redis import redis_reachable

HOME = "http://example.test"
ROOT = Path(__file__).resolve().parent.parent
_names = count()


class Worker:
    """A running service process and the base URL it serves."""

    def __init__(self, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.support.indexnow_worker"],
                                     cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True)
        assert self.proc.stdout is not None
        self.base = f"http://127.0.0.1:{self.proc.stdout.readline().strip()}"

    def prime(self) -> None:
        """Have the post sitemap stored (a crawler's request), so a later change to it is
        one the diff sees, however slow the first sweep is."""
        with urllib.request.urlopen(self.base + "/post-sitemap.xml", timeout=30) as resp:
            assert resp.status == 200

    def kill(self) -> None:
        """SIGKILL: nothing runs, no lease is given back."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    """A local IndexNow endpoint."""
    with running_endpoint() as found:
        yield found


@pytest.fixture
def workers() -> Iterator[list[Worker]]:
    """Service processes started by the test, killed at its end."""
    started: list[Worker] = []
    yield started
    for worker in started:
        if worker.proc.poll() is None:
            worker.kill()


@pytest.fixture(params=["disk", "redis"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """(WPSITEMAPS_STORE, namespace): a directory, or the real Redis (keys deleted after)."""
    space = f"wpsitemaps-test-i27-{os.getpid()}-{next(_names)}"
    if request.param == "disk":
        yield str(tmp_path / "pages"), space
        return
    if not redis_reachable():
        if IN_CI:
            pytest.fail("Redis on 127.0.0.1:6379 is required in CI but unreachable")
        pytest.skip("Redis on 127.0.0.1:6379 is not reachable")
    yield f"redis://127.0.0.1:{REDIS_PORT}/0", space
    client = redis.Redis(port=REDIS_PORT)
    for key in client.scan_iter(match=f"{space}/*"):
        client.delete(key)


def environment(database: str, store: tuple[str, str], endpoint: Endpoint) -> dict[str, str]:
    """A worker's environment: IndexNow on, sweeping and batching every second."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("WPSITEMAPS_")}
    return {**env, "WPSITEMAPS_DATABASE_URL": database, "WPSITEMAPS_NOW": "option:test_now",
            "WPSITEMAPS_STORE": store[0], "WPSITEMAPS_STORE_NAMESPACE": store[1],
            "WPSITEMAPS_INDEXNOW_ENDPOINTS": endpoint.url, "WPSITEMAPS_INDEXNOW_SWEEP": "1",
            "WPSITEMAPS_INDEXNOW_BATCH_WINDOW": "1", "WPSITEMAPS_INDEXNOW_BACKOFF_MIN": "0.5",
            "WPSITEMAPS_INDEXNOW_BACKOFF_MAX": "1"}


def wait_for(done: Callable[[], bool], seconds: float = 30.0) -> None:
    """Poll until done() or fail after `seconds`."""
    end = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.1)


def execute(database: str, sql: str, *params: object) -> None:
    """Write to the site's SQLite database."""
    import sqlite3

    con = sqlite3.connect(database.removeprefix("sqlite:///"))
    try:
        con.execute(sql, params)
        con.commit()
    finally:
        con.close()


POST = ("INSERT INTO wp_posts (ID, post_author, post_date, post_date_gmt, post_content, "
        "post_title, post_excerpt, post_status, post_password, post_name, to_ping, pinged, "
        "post_modified, post_modified_gmt, post_content_filtered, post_parent, guid, "
        "menu_order, post_type, post_mime_type, comment_count) VALUES (?, 1, "
        "'2026-11-29 12:00:00', '2026-11-29 12:00:00', '', ?, '', 'publish', '', ?, '', '', "
        "'2026-11-29 12:00:00', '2026-11-29 12:00:00', '', 0, '', 0, 'post', '', 0)")


def publish(database: str, pid: int, name: str) -> None:
    """A published post, as wp_insert_post() writes it."""
    execute(database, POST, pid, name, name)


def test_killed_with_a_full_outbox_delivers_after_restart_once(
        write_site: Callable[[Site, str], str], store: tuple[str, str], endpoint: Endpoint,
        workers: list[Worker]) -> None:
    """The endpoint fails (500) while a change is queued; the service is SIGKILLed; a new
    one delivers the change once the endpoint is back, exactly once."""
    database = write_site(small_site(), "sqlite")
    env = environment(database, store, endpoint)
    endpoint.answers.extend([500] * 1000)
    first = Worker(env)
    workers.append(first)
    endpoint.service = first.base
    first.prime()
    publish(database, 70, "survives-a-kill")
    wait_for(lambda: len(endpoint.requests) >= 1)
    first.kill()
    assert endpoint.accepted == []
    endpoint.answers.clear()
    second = Worker(env)
    workers.append(second)
    endpoint.service = second.base
    wait_for(lambda: bool(endpoint.accepted))
    time.sleep(4)  # later passes must not send it again
    assert endpoint.urls() == [f"{HOME}/survives-a-kill/"]


def test_two_processes_sharing_a_store_submit_each_url_once(
        write_site: Callable[[Site, str], str], store: tuple[str, str], endpoint: Endpoint,
        workers: list[Worker]) -> None:
    """Two service processes on one store, 30 posts published over three seconds: every
    URL reaches the endpoint, each once."""
    database = write_site(small_site(), "sqlite")
    env = environment(database, store, endpoint)
    workers.extend([Worker(env), Worker(env)])
    endpoint.service = workers[0].base
    workers[0].prime()
    expected = []
    for n in range(30):
        publish(database, 100 + n, f"shared-{n}")
        expected.append(f"{HOME}/shared-{n}/")
        time.sleep(0.1)
    wait_for(lambda: set(expected) <= set(endpoint.urls()))
    time.sleep(4)
    counts = Counter(endpoint.urls())
    assert sorted(counts) == sorted(expected) and set(counts.values()) == {1}
