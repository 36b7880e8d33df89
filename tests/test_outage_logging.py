"""Outage logging: one line when the database stops answering and one when it is back, with
the count of affected requests; no traceback per request (a crawler-rate outage must not fill
the log disk). The database is stopped with the TCP proxy (tests/support/tcpproxy.py), as in
test_outage.py; the shared server keeps running."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator

import pytest
from flask import Flask

from tests.conftest import require_mariadb
from tests.support import wpdb
from tests.support.tcpproxy import TcpProxy
from tests.test_outage import PAGES
from tests.test_outage import outage_site
from wpsitemaps import create_app

pytestmark = pytest.mark.mariadb


@pytest.fixture(scope="module")
def mariadb_name() -> Iterator[str]:
    """The outage site in a MariaDB database of its own."""
    require_mariadb()
    url = outage_site().write_mariadb("outlog")
    name = url.rsplit("/", 1)[1].split("?")[0]
    yield name
    wpdb.drop_mariadb(name)


@pytest.fixture
def proxy() -> Iterator[TcpProxy]:
    """A TCP forwarder to the MariaDB server that the test can switch off."""
    with TcpProxy(wpdb.MARIADB_HOST, wpdb.MARIADB_PORT) as p:
        yield p


def proxied_app(mariadb_name: str, proxy: TcpProxy, **config: object) -> Flask:
    """The app reading through the proxy, every request asking the database."""
    url = wpdb.mariadb_url(mariadb_name).replace(f":{wpdb.MARIADB_PORT}/", f":{proxy.port}/")
    return create_app({"TESTING": True, "DATABASE_URL": url, "NOW": "option:test_now",
                       "ENTRIES_PER_PAGE": 8, "CACHE_TTL": 0, **config})


def logged(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """What an operator sees at the default level: wpsitemaps' records at INFO and above."""
    return [r for r in caplog.records
            if r.name.startswith("wpsitemaps") and r.levelno >= logging.INFO]


@pytest.mark.parametrize("failed", [5, 40])
def test_an_outage_is_two_lines(mariadb_name: str, proxy: TcpProxy, failed: int,
                                caplog: pytest.LogCaptureFixture) -> None:
    """N requests failing while the database is down log 2 lines, the second with N."""
    client = proxied_app(mariadb_name, proxy).test_client()
    assert client.get("/sitemap_index.xml").status_code == 200
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="wpsitemaps"):
        proxy.down()
        statuses = [client.get(PAGES[n % len(PAGES)]).status_code for n in range(failed)]
        proxy.up()
        assert client.get("/sitemap_index.xml").status_code == 200
    assert statuses == [503] * failed
    lines = logged(caplog)
    assert len(lines) == 2, [r.getMessage() for r in lines]
    start, back = (r.getMessage() for r in lines)
    assert start.startswith("wpsitemaps: the database cannot be read: cannot reach a "
                            f"database server at 127.0.0.1:{proxy.port}")
    assert back.startswith("wpsitemaps: the database answers again after ")
    assert f"; {failed} requests were affected (0 answered from stored copies, {failed} " \
           "with 503)" in back
    assert all(r.exc_info is None for r in lines)


def test_tracebacks_only_at_debug(mariadb_name: str, proxy: TcpProxy,
                                  caplog: pytest.LogCaptureFixture) -> None:
    """Each failed request's traceback is still there for DEBUG, and only there."""
    client = proxied_app(mariadb_name, proxy).test_client()
    proxy.down()
    with caplog.at_level(logging.DEBUG, logger="wpsitemaps"):
        for _ in range(3):
            assert client.get("/post-sitemap.xml").status_code == 503
    traced = [r for r in caplog.records if r.exc_info is not None]
    assert len(traced) == 3 and all(r.levelno == logging.DEBUG for r in traced)


def test_a_silent_database_is_two_lines(mariadb_name: str, proxy: TcpProxy,
                                        caplog: pytest.LogCaptureFixture) -> None:
    """A database that stops answering (the breaker's case) is two lines as well: one when
    the first request's time runs out, one when the probe is answered, with the count."""
    client = proxied_app(mariadb_name, proxy, DB_TIMEOUT=1.0, STORE="off").test_client()
    assert client.get("/sitemap_index.xml").status_code == 200
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="wpsitemaps"):
        proxy.silence()
        statuses = [client.get(PAGES[n % len(PAGES)]).status_code for n in range(6)]
        proxy.up()
        deadline = time.monotonic() + 20
        while not any("answers again" in r.getMessage() for r in caplog.records):
            assert time.monotonic() < deadline, "the probe never saw the database back"
            time.sleep(0.2)
        assert client.get("/sitemap_index.xml").status_code == 200
    assert statuses == [503] * 6
    lines = [r.getMessage() for r in logged(caplog)]
    assert len(lines) == 2, lines
    assert lines[0].startswith("wpsitemaps: database did not answer in time")
    assert lines[1].startswith("wpsitemaps: database answers again after ")
    # The request that met the silence counts too when it met it on connecting (the pool's
    # ping), not when it met it on a statement.
    assert lines[1].endswith(("; 5 requests were answered without asking it",
                              "; 6 requests were answered without asking it"))
