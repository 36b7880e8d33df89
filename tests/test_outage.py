"""Database outages: 503 with Retry-After and a short plain body, never a traceback or a 200
with partial XML, and recovery without a restart once the database answers again.

MariaDB outages go through tests/tcpproxy.py (the shared server is never stopped); SQLite
outages are a missing, unreadable or corrupt file.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event
from werkzeug.test import EnvironBuilder

from tests.conftest import require_mariadb
from tests.support import wpdb
from tests.support.builder import Site
from tests.support.sitemaps import assert_valid
from tests.support.sitemaps import fetch_all
from tests.support.tcpproxy import TcpProxy
from wpsitemaps import create_app
from wpsitemaps.web.context import service_of

pytestmark = pytest.mark.mariadb
PAGES = ("/sitemap_index.xml", "/post-sitemap.xml", "/post-sitemap2.xml", "/page-sitemap.xml",
         "/category-sitemap.xml", "/author-sitemap.xml")


def outage_site() -> Site:
    """Two pages of posts with images, terms and authors: several queries per page."""
    site = Site()
    news = site.term("News", "category", slug="news")
    writer = site.user("writer", "Writer")
    for n in range(12):
        img = site.attachment(f"2026/01/pic-{n}.jpg")
        site.post(f"Post {n}", name=f"post-{n}", terms=(news,), author=writer,
                  meta={"_thumbnail_id": str(img)},
                  content=f'<img src="/wp-content/uploads/2026/01/in-{n}.jpg">')
    site.post("About", post_type="page", name="about")
    return site


@pytest.fixture(scope="module")
def mariadb_name() -> Iterator[str]:
    """The outage site in a MariaDB database of its own."""
    require_mariadb()
    url = outage_site().write_mariadb("outage")
    name = url.rsplit("/", 1)[1].split("?")[0]
    yield name
    wpdb.drop_mariadb(name)


@pytest.fixture
def proxy() -> Iterator[TcpProxy]:
    """A TCP forwarder to the MariaDB server that the test can switch off."""
    with TcpProxy(wpdb.MARIADB_HOST, wpdb.MARIADB_PORT) as p:
        yield p


@pytest.fixture
def proxied_app(mariadb_name: str, proxy: TcpProxy) -> Flask:
    """The app reading the outage site through the proxy, as the SELECT-only user."""
    url = wpdb.mariadb_url(mariadb_name).replace(f":{wpdb.MARIADB_PORT}/", f":{proxy.port}/")
    # CACHE_TTL 0: every request runs all of its statements, so a cut can hit each one.
    return create_app({"TESTING": True, "DATABASE_URL": url, "NOW": "option:test_now",
                       "ENTRIES_PER_PAGE": 8, "CACHE_TTL": 0})


def assert_unavailable(resp: Any) -> None:
    """A 503 (or 502) with Retry-After, nosniff and a short plain body without a traceback."""
    assert resp.status_code in (502, 503), (resp.status_code, resp.data[:300])
    assert int(resp.headers["Retry-After"]) > 0
    assert resp.mimetype == "text/plain"
    assert resp.headers["X-Content-Type-Options"] == "nosniff"
    assert len(resp.data) < 200
    assert b"Traceback" not in resp.data and b"<" not in resp.data


def test_outage_before_first_request(proxied_app: Flask, proxy: TcpProxy) -> None:
    """With the database down from start-up, every sitemap route answers 503."""
    proxy.down()
    client = proxied_app.test_client()
    for path in PAGES:
        assert_unavailable(client.get(path))


def test_recovers_after_startup_outage(proxied_app: Flask, proxy: TcpProxy) -> None:
    """After a start-up outage the same app serves valid sitemaps once the database is back."""
    proxy.down()
    client = proxied_app.test_client()
    assert_unavailable(client.get("/sitemap_index.xml"))
    proxy.up()
    assert set(PAGES) <= set(fetch_all(client))


def test_outage_mid_operation(proxied_app: Flask, proxy: TcpProxy) -> None:
    """Pooled connections cut while the app runs give 503s, then recovery without a restart."""
    client = proxied_app.test_client()
    fetch_all(client)
    proxy.down()
    for path in PAGES:
        assert_unavailable(client.get(path))
    proxy.up()
    assert set(PAGES) <= set(fetch_all(client))


def test_restart_is_invisible(proxied_app: Flask, proxy: TcpProxy) -> None:
    """A server restart between requests (pooled sockets dead) is healed by pool_pre_ping."""
    client = proxied_app.test_client()
    fetch_all(client)
    proxy.cut()
    assert set(PAGES) <= set(fetch_all(client))


def statements_per_page(app: Flask, path: str) -> int:
    """How many SQL statements one request for `path` runs."""
    engine = service_of(app).engine
    seen: list[str] = []

    def count(*args: Any) -> None:
        seen.append(args[2])

    event.listen(engine, "before_cursor_execute", count)
    try:
        assert app.test_client().get(path).status_code == 200
    finally:
        event.remove(engine, "before_cursor_execute", count)
    return len(seen)


@pytest.mark.parametrize("path", ["/sitemap_index.xml", "/post-sitemap2.xml"])
def test_cut_inside_a_page_never_gives_partial_xml(proxied_app: Flask, proxy: TcpProxy,
                                                   path: str) -> None:
    """Cutting the connection before any one of a page's statements gives 503, never a 200."""
    total = statements_per_page(proxied_app, path)
    assert total >= 3
    engine = service_of(proxied_app).engine
    for k in range(1, total + 1):
        calls = iter(range(1, 1000))

        def cut_at_k(*_args: Any, k: int = k, calls: Iterator[int] = calls) -> None:
            if next(calls) == k:
                proxy.cut()

        event.listen(engine, "before_cursor_execute", cut_at_k)
        try:
            assert_unavailable(proxied_app.test_client().get(path))
        finally:
            event.remove(engine, "before_cursor_execute", cut_at_k)
        resp = proxied_app.test_client().get(path)
        assert resp.status_code == 200, k
        assert_valid(resp.data, path)


def test_cut_after_last_statement_keeps_the_page(proxied_app: Flask, proxy: TcpProxy) -> None:
    """A cut after the page's last query (only the closing rollback fails) still gives the 200."""
    total = statements_per_page(proxied_app, "/post-sitemap2.xml")
    engine = service_of(proxied_app).engine
    calls = iter(range(1, 1000))

    def cut_after_last(*_args: Any) -> None:
        if next(calls) == total:
            proxy.cut()

    event.listen(engine, "after_cursor_execute", cut_after_last)
    try:
        resp = proxied_app.test_client().get("/post-sitemap2.xml")
    finally:
        event.remove(engine, "after_cursor_execute", cut_after_last)
    assert resp.status_code == 200
    assert_valid(resp.data, "/post-sitemap2.xml")
    assert engine.pool.checkedout() == 0


def test_body_is_complete_before_sending(proxied_app: Flask) -> None:
    """The WSGI app returns the finished body with its length, not a generator of parts."""
    started: list[tuple[str, list[tuple[str, str]]]] = []
    environ = EnvironBuilder(path="/post-sitemap.xml").get_environ()
    body = proxied_app.wsgi_app(environ, lambda s, h, e=None: started.append((s, h)))
    parts = list(body)
    assert started[0][0] == "200 OK"
    assert len(parts) == 1
    assert int(dict(started[0][1])["Content-Length"]) == len(parts[0])
    assert parts[0].rstrip().endswith(b"</urlset>")


def test_random_cuts_under_traffic(proxied_app: Flask, proxy: TcpProxy) -> None:
    """While connections are cut at random moments, answers are complete XML or 503."""
    stop = threading.Event()
    gaps = random.Random(13)

    def chaos() -> None:
        # Random gaps (5-80 ms) so that some requests finish between cuts however loaded
        # the machine is, and some are cut.
        while not stop.wait(gaps.uniform(0.005, 0.08)):
            proxy.cut()

    thread = threading.Thread(target=chaos, daemon=True)
    thread.start()
    statuses: dict[int, int] = {}
    start = time.monotonic()
    try:
        client = proxied_app.test_client()
        # At least 4 s of traffic, longer (up to 60 s) until both outcomes were seen.
        while time.monotonic() < start + 4 or (
                not (statuses.get(200) and statuses.get(503))
                and time.monotonic() < start + 60):
            for path in PAGES:
                resp = client.get(path)
                statuses[resp.status_code] = statuses.get(resp.status_code, 0) + 1
                if resp.status_code == 200:
                    assert_valid(resp.data, path)
                else:
                    assert_unavailable(resp)
    finally:
        stop.set()
        thread.join()
    assert statuses.get(503, 0) > 0 and statuses.get(200, 0) > 0, statuses
    assert service_of(proxied_app).engine.pool.checkedout() == 0
