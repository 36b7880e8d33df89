"""The Redis page store against the real Redis server on 127.0.0.1:6379 (issue #13).

The server is shared with other test runs: every key here lives under a namespace of this
process, and only those keys are deleted. Outages go through a TCP proxy (as MariaDB's in
test_outage.py): the real server is never stopped.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Iterator
from itertools import count
from typing import Any

import pytest
import redis
from flask import Flask

from tests.conftest import IN_CI
from tests.conftest import PEER_CONFIG
from tests.support.sitemaps import assert_valid
from tests.support.storeclock import store_of
from tests.support.tcpproxy import TcpProxy
from wpsitemaps import create_app
from wpsitemaps.config import ConfigError
from wpsitemaps.config import load_settings
from wpsitemaps.store import open_store
from wpsitemaps.store.base import MAX_BODY
from wpsitemaps.store.base import Record
from wpsitemaps.store.redis import RedisStore

REDIS_PORT = 6379
_names = count()


def redis_reachable() -> bool:
    """Whether something answers on the Redis port."""
    try:
        with socket.create_connection(("127.0.0.1", REDIS_PORT), timeout=1):
            return True
    except OSError:
        return False


@pytest.fixture
def space() -> Iterator[str]:
    """A namespace of this test; its keys are deleted afterwards."""
    if not redis_reachable():
        if IN_CI:
            pytest.fail("Redis on 127.0.0.1:6379 is required in CI but unreachable")
        pytest.skip("Redis on 127.0.0.1:6379 is not reachable")
    name = f"wpsitemaps-test-{os.getpid()}-{next(_names)}"
    yield name
    client = redis.Redis(port=REDIS_PORT)
    for key in client.scan_iter(match=f"{name}/*"):
        client.delete(key)


def redis_app(url: str, database: str, space: str, **config: Any) -> Flask:
    """peer-small with its pages in Redis under `space`."""
    return create_app({"TESTING": True, "DATABASE_URL": database, **PEER_CONFIG,
                       "STORE": url, "STORE_NAMESPACE": space, **config})


def test_round_trip(space: str) -> None:
    """A record put is read back whole, its head alone, and touched."""
    store = RedisStore(f"redis://127.0.0.1:{REDIS_PORT}/0", ttl=60)
    key = f"{space}/blog1/post-sitemap.xml"
    store.put(key, Record("fp", "tag", 10.0, None), b"<urlset/>")
    head = store.head(key)
    assert head is not None and head.body is None and head.fingerprint == "fp"
    store.touch(key, 20.0)
    full = store.get(key)
    assert full is not None and full.body == b"<urlset/>" and full.checked_at == 20.0


def test_touch_never_creates_a_record(space: str) -> None:
    """Touching a missing key leaves it missing (no record without a body)."""
    store = RedisStore(f"redis://127.0.0.1:{REDIS_PORT}/0", ttl=60)
    store.touch(f"{space}/blog1/none.xml", 1.0)
    assert redis.Redis(port=REDIS_PORT).exists(f"{space}/blog1/none.xml") == 0


def test_hosts_share_page_bounds(space: str, peer_sqlite_url: str,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The page bounds one host computed are read by another from Redis (no pass of its
    own), and both serve the same index."""
    from wpsitemaps.sitemaps.providers.posts import PostTypeProvider

    url = f"redis://127.0.0.1:{REDIS_PORT}/0"
    first = redis_app(url, peer_sqlite_url, space).test_client().get("/sitemap_index.xml")
    monkeypatch.setattr(PostTypeProvider, "compute_bounds", _refuse)
    second = redis_app(url, peer_sqlite_url, space).test_client().get("/sitemap_index.xml")
    assert second.status_code == 200 and second.data == first.data
    assert redis.Redis(port=REDIS_PORT).keys(f"{space}/blog1/v-*")


def test_pages_are_stored_in_redis(space: str, peer_sqlite_url: str) -> None:
    """A served page is stored under {namespace}/{site.key}/{document}."""
    app = redis_app(f"redis://127.0.0.1:{REDIS_PORT}/0", peer_sqlite_url, space)
    resp = app.test_client().get("/post-sitemap.xml")
    assert resp.status_code == 200
    assert redis.Redis(port=REDIS_PORT).hget(f"{space}/blog1/post-sitemap.xml", "body") == \
        resp.data


def test_two_apps_share_one_store(space: str, peer_sqlite_url: str,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A page rendered by one host is served by another without rendering."""
    from wpsitemaps.serving import documents

    url = f"redis://127.0.0.1:{REDIS_PORT}/0"
    first = redis_app(url, peer_sqlite_url, space).test_client().get("/post-sitemap.xml")
    second_app = redis_app(url, peer_sqlite_url, space)
    monkeypatch.setattr(documents, "render_urlset", _refuse)
    assert second_app.test_client().get("/post-sitemap.xml").data == first.data


def test_redis_down_mid_run_still_serves_valid_pages(space: str, peer_sqlite_url: str,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    """With Redis cut off after start-up every page is still complete and valid; logged."""
    with TcpProxy("127.0.0.1", REDIS_PORT) as proxy:
        app = redis_app(f"redis://127.0.0.1:{proxy.port}/0", peer_sqlite_url, space)
        client = app.test_client()
        before = client.get("/post-sitemap.xml").data
        proxy.down()
        with caplog.at_level(logging.WARNING, logger="wpsitemaps.store.base"):
            for path in ("/post-sitemap.xml", "/sitemap_index.xml", "/news-sitemap.xml"):
                resp = client.get(path)
                assert resp.status_code == 200
                assert_valid(resp.data)
        assert client.get("/post-sitemap.xml").data == before
        assert any("page store" in r.getMessage() for r in caplog.records)


def test_store_comes_back_after_an_outage(space: str, peer_sqlite_url: str) -> None:
    """Once Redis answers again (after the back-off) pages are stored again."""
    with TcpProxy("127.0.0.1", REDIS_PORT) as proxy:
        app = redis_app(f"redis://127.0.0.1:{proxy.port}/0", peer_sqlite_url, space)
        client = app.test_client()
        proxy.down()
        assert client.get("/page-sitemap.xml").status_code == 200
        proxy.up()
        store_of(app).guard._down_until = 0.0  # the back-off is over
        client.get("/page-sitemap.xml")
        assert redis.Redis(port=REDIS_PORT).exists(f"{space}/blog1/page-sitemap.xml") == 1


def test_unreachable_redis_fails_at_start_up(space: str, peer_sqlite_url: str) -> None:
    """`wpsitemaps serve` with Redis unreachable stops with one line naming the setting."""
    with TcpProxy("127.0.0.1", REDIS_PORT) as proxy:
        proxy.down()
        settings = load_settings({"DATABASE_URL": peer_sqlite_url, "STORE_NAMESPACE": space,
                                  "STORE": f"redis://127.0.0.1:{proxy.port}/0"}, environ={})
        with pytest.raises(ConfigError, match=r"^WPSITEMAPS_STORE: redis 127\.0\.0\.1:"):
            open_store(settings)  # what `wpsitemaps serve` checks before gunicorn starts


def test_worker_started_while_redis_is_down_serves(space: str, peer_sqlite_url: str) -> None:
    """A worker started while Redis is unreachable (a reload during an outage) serves every
    page without the store, as running workers do, instead of exiting."""
    with TcpProxy("127.0.0.1", REDIS_PORT) as proxy:
        proxy.down()
        app = redis_app(f"redis://127.0.0.1:{proxy.port}/0", peer_sqlite_url, space)
        for path in ("/post-sitemap.xml", "/sitemap_index.xml"):
            resp = app.test_client().get(path)
            assert resp.status_code == 200
            assert_valid(resp.data)


def test_revalidation_time_that_is_no_number_is_no_500(space: str,
                                                       peer_sqlite_url: str) -> None:
    """A record whose `checked` field is not a number is taken as never revalidated: the
    page is served (revalidated), never a 500."""
    client = redis_app(f"redis://127.0.0.1:{REDIS_PORT}/0", peer_sqlite_url, space).test_client()
    first = client.get("/post-sitemap.xml").data
    redis.Redis(port=REDIS_PORT).hset(f"{space}/blog1/post-sitemap.xml", "checked", "soon")
    resp = client.get("/post-sitemap.xml")
    assert resp.status_code == 200
    assert resp.data == first


def test_record_larger_than_any_stored_is_not_read(space: str) -> None:
    """A hash whose body is longer than any record holds (MAX_BODY) is a miss: get() does not
    read it, however well formed it is."""
    store = RedisStore(f"redis://127.0.0.1:{REDIS_PORT}/0", ttl=60)
    body = bytes(MAX_BODY + 1)
    key = f"{space}/blog1/huge.xml"
    record = Record("fp", "tag", time.time(), None)
    redis.Redis(port=REDIS_PORT).hset(key, mapping={"head": record.head_bytes(body),
                                                    "body": body, "checked": "0"})
    assert store.get(key) is None


def _refuse(*_args: Any, **_kwargs: Any) -> Any:
    raise AssertionError("must not be called")


def test_pages_kept_for_stale_if_error(space: str, peer_sqlite_url: str) -> None:
    """A stored page expires from Redis no sooner than it may be served while the database
    fails: twice cache_ttl plus stale_if_error after its render."""
    url = f"redis://127.0.0.1:{REDIS_PORT}/0"
    app = redis_app(url, peer_sqlite_url, space, CACHE_TTL=300, STALE_IF_ERROR=7200)
    assert app.test_client().get("/post-sitemap.xml").status_code == 200
    key = next(redis.Redis(port=REDIS_PORT).scan_iter(match=f"{space}/*/post-sitemap.xml"))
    assert 2 * 300 + 7200 - 60 <= redis.Redis(port=REDIS_PORT).ttl(key) <= 2 * 300 + 7200


def test_redis_outage_is_two_lines(space: str, peer_sqlite_url: str,
                                   caplog: pytest.LogCaptureFixture) -> None:
    """Redis down over several back-offs, then back: one line when it fails, one when it
    answers again, however many requests went without it."""
    with TcpProxy("127.0.0.1", REDIS_PORT) as proxy:
        app = redis_app(f"redis://127.0.0.1:{proxy.port}/0", peer_sqlite_url, space)
        client = app.test_client()
        client.get("/page-sitemap.xml")
        with caplog.at_level(logging.INFO, logger="wpsitemaps"):
            proxy.down()
            for _ in range(3):
                assert client.get("/page-sitemap.xml").status_code == 200
                store_of(app).guard._down_until = 0.0  # the back-off is over
            proxy.up()
            assert client.get("/page-sitemap.xml").status_code == 200
        lines = [r.getMessage() for r in caplog.records
                 if r.name.startswith("wpsitemaps") and r.levelno >= logging.INFO]
    assert len(lines) == 2, lines
    assert lines[0].startswith("wpsitemaps: page store redis 127.0.0.1:")
    assert "answers again after" in lines[1] and "store operations went without it" in lines[1]
