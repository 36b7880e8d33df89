"""SQLite outages: the file is the database, so a missing, corrupt or table-less file (or a
directory in its place) answers 503 with Retry-After, never 500, and serving resumes by itself
once the file is there. A locked file or a failing one leaves stored documents served from
the page store (stale-if-error, bounded by `stale_if_error`) and robots.txt answered."""

from __future__ import annotations

import gzip
import logging
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.support import wpdb
from tests.support.sitemaps import fetch_all
from tests.support.storeclock import with_clock
from tests.test_outage import PAGES
from tests.test_outage import assert_unavailable
from tests.test_outage import outage_site
from wpsitemaps import create_app


def sqlite_app(path: Path, **config: Any) -> Flask:
    """An app reading the SQLite file at `path` (which may not exist yet)."""
    return create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{path}",
                       "NOW": "option:test_now", "ENTRIES_PER_PAGE": 8, **config})


def _missing(path: Path) -> None:
    path.unlink()


def _garbage(path: Path) -> None:
    path.write_bytes(b"this is not an SQLite database\x00" * 200)


def _truncated(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[:100])


def _no_tables(path: Path) -> None:
    path.unlink()
    wpdb.sqlite_with_schema(path, "other_")


def _unreadable_dir(path: Path) -> None:
    path.unlink()
    path.mkdir()


@pytest.mark.parametrize("breakage", [_missing, _garbage, _truncated, _no_tables,
                                      _unreadable_dir])
def test_sqlite_file_broken(tmp_path: Path, breakage: Callable[[Path], None]) -> None:
    """A missing, corrupt, truncated, table-less or directory 'file' answers 503, not 500."""
    path = tmp_path / "wp.sqlite"
    outage_site().write_sqlite(path)
    app = sqlite_app(path)
    breakage(path)
    client = app.test_client()
    for route in PAGES:
        assert_unavailable(client.get(route))


def test_sqlite_file_appears(tmp_path: Path) -> None:
    """An app started before its SQLite file exists serves it once it appears."""
    path = tmp_path / "wp.sqlite"
    app = sqlite_app(path)
    assert_unavailable(app.test_client().get("/sitemap_index.xml"))
    outage_site().write_sqlite(path)
    assert set(PAGES) <= set(fetch_all(app.test_client()))


def locked_writer(path: Path) -> sqlite3.Connection:
    """Another connection holding the file's exclusive lock (as a writer in the middle of a
    transaction does with a rollback journal)."""
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("BEGIN EXCLUSIVE")
    return con


def fresh_again(client: FlaskClient, path: str = "/post-sitemap.xml") -> bytes:
    """Poll until `path` is answered fresh (200 without Age); its body."""
    deadline = time.monotonic() + 10
    while True:
        resp = client.get(path)
        if resp.status_code == 200 and "Age" not in resp.headers:
            return resp.data
        assert time.monotonic() < deadline, "not fresh again after the lock was released"
        time.sleep(0.2)


def test_sqlite_locked_file_serves_stored_documents(tmp_path: Path) -> None:
    """While another connection holds the file's lock, stored documents are served from the
    store with Age (the first after SQLite's one-second lock wait, the others at once), a
    document never stored gets 503 at once, robots.txt 200; fresh again once released."""
    path = tmp_path / "wp.sqlite"
    outage_site().write_sqlite(path)
    client = sqlite_app(path, STORE=str(tmp_path / "store")).test_client()
    bodies = {p: client.get(p).data for p in (*PAGES[:2], "/robots.txt")}
    writer = locked_writer(path)
    try:
        for n, route in enumerate(PAGES[:2] * 3):
            start = time.monotonic()
            resp = client.get(route)
            took = time.monotonic() - start
            assert resp.status_code == 200 and resp.data == bodies[route]
            assert "Age" in resp.headers
            assert took < (2.0 if n == 0 else 1.0), (route, took)
        start = time.monotonic()
        assert_unavailable(client.get("/category-sitemap.xml"))
        robots = client.get("/robots.txt")
        assert time.monotonic() - start < 1.0
        assert robots.status_code == 200 and robots.data == bodies["/robots.txt"]
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert fresh_again(client, "/category-sitemap.xml")


def test_stale_copy_is_bounded_by_stale_if_error(tmp_path: Path) -> None:
    """A stored document is served while the database fails for `stale_if_error` seconds
    past `cache_ttl` after its render, with its Age; after that the answer is 503."""
    path = tmp_path / "wp.sqlite"
    outage_site().write_sqlite(path)
    app = sqlite_app(path, STORE=str(tmp_path / "store"), CACHE_TTL=300, STALE_IF_ERROR=600)
    clock = with_clock(app)
    client = app.test_client()
    body = client.get("/post-sitemap.xml").data
    _garbage(path)
    clock.advance(899)
    resp = client.get("/post-sitemap.xml")
    assert resp.status_code == 200 and resp.data == body
    assert resp.headers["Age"] == "899"
    clock.advance(2)
    assert_unavailable(client.get("/post-sitemap.xml"))


def test_stale_copy_keeps_its_variants(tmp_path: Path) -> None:
    """While the database fails, the stored `.xml.gz` file and the gzip-encoded answer are
    the stored render's, with Age, and a conditional request gets its 304."""
    path = tmp_path / "wp.sqlite"
    outage_site().write_sqlite(path)
    client = sqlite_app(path, STORE=str(tmp_path / "store")).test_client()
    plain = client.get("/post-sitemap.xml")
    packed = client.get("/post-sitemap.xml.gz")
    _garbage(path)
    resp = client.get("/post-sitemap.xml.gz")
    assert resp.status_code == 200 and resp.data == packed.data and "Age" in resp.headers
    resp = client.get("/post-sitemap.xml", headers={"Accept-Encoding": "gzip"})
    assert resp.headers["Content-Encoding"] == "gzip" and "Age" in resp.headers
    assert gzip.decompress(resp.data) == plain.data
    resp = client.get("/post-sitemap.xml", headers={"If-None-Match": plain.headers["ETag"]})
    assert resp.status_code == 304


def test_robots_txt_built_in_names_the_configured_home(tmp_path: Path) -> None:
    """With no database from the start, robots.txt is the built-in text: the configured
    rules, crawling allowed, the sitemap index at the configured home URL."""
    app = sqlite_app(tmp_path / "missing.sqlite", HOME_URL="https://www.example.org/blog",
                     ROBOTS={"groups": [{"user_agents": ["*"], "disallow": ["/private/"]}]})
    resp = app.test_client().get("/robots.txt")
    assert resp.status_code == 200
    assert resp.get_data(as_text=True) == (
        "User-agent: *\nDisallow: /blog/wp-admin/\nAllow: /blog/wp-admin/admin-ajax.php\n"
        "Disallow: /blog/private/\n\n"
        "Sitemap: https://www.example.org/blog/sitemap_index.xml\n")
    assert resp.headers["Cache-Control"] == "no-store"


def test_started_during_outage_serves_what_is_stored(tmp_path: Path) -> None:
    """A process started while the database fails (a restart, a replaced worker) still finds
    the site and serves stored documents and robots.txt's last copy from the page store."""
    path = tmp_path / "wp.sqlite"
    outage_site().write_sqlite(path)
    store = str(tmp_path / "store")
    before = sqlite_app(path, STORE=store).test_client()
    bodies = {p: before.get(p).data
              for p in ("/post-sitemap.xml", "/sitemap_index.xml", "/robots.txt")}
    _garbage(path)
    after = sqlite_app(path, STORE=store).test_client()
    for route, body in bodies.items():
        resp = after.get(route)
        assert resp.status_code == 200 and resp.data == body and "Age" in resp.headers
    assert_unavailable(after.get("/page-sitemap.xml"))


def test_stored_copy_for_an_error_is_logged(tmp_path: Path,
                                            caplog: pytest.LogCaptureFixture) -> None:
    """A stored copy standing in for a database error is logged as one warning naming the
    cause (the SQLite file as resolved) and the path, without a traceback."""
    path = tmp_path / "wp.sqlite"
    outage_site().write_sqlite(path)
    client = sqlite_app(path, STORE=str(tmp_path / "store")).test_client()
    client.get("/post-sitemap.xml")
    _garbage(path)
    with caplog.at_level(logging.WARNING, logger="wpsitemaps"):
        assert client.get("/post-sitemap.xml").status_code == 200
    lines = [r for r in caplog.records if "stored copy" in r.getMessage()]
    assert len(lines) == 1 and lines[0].levelno == logging.WARNING
    message = lines[0].getMessage()
    assert message.startswith("wpsitemaps: ")
    assert f"SQLite database {path} (is not a readable SQLite database)" in message
    assert "/post-sitemap.xml" in message
    assert lines[0].exc_info is None
