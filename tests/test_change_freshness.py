"""Stored pages served as the change stream or the site-level check says (issue #26).

Through HTTP, on SQLite and MariaDB, with the store's clock injected: every request here
comes after `store_window`, as a crawler's do.

* With an event source live (`service.apply_changes` standing in for the plugin or the
  binary log), an unchanged document costs no database statement at all, and a change is
  served on the first request after its event.
* An event that never came (the service was down) is caught by the safety net: nothing is
  served `cache_ttl` past its render.
* With no source (the default `check`), one site-level check per `store_window` replaces
  every page's fingerprint while nothing changed, and a change is served on the first
  request after it.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event

from tests.support.builder import Site
from tests.support.data import small_site
from tests.support.publish import HOME
from tests.support.publish import Publisher
from tests.support.publish import refresh_bounds
from tests.support.sitemaps import assert_valid
from tests.support.storeclock import Clock
from tests.support.storeclock import with_clock
from tests.test_store_redis import REDIS_PORT
from tests.test_store_redis import space  # noqa: F401  (fixture)
from wpsitemaps import create_app
from wpsitemaps.changes.model import Change
from wpsitemaps.changes.model import SourceHealth
from wpsitemaps.check import run_check
from wpsitemaps.config import load_settings
from wpsitemaps.serving import documents
from wpsitemaps.web.context import service_of

WINDOW = 2
TTL = 300
BACKENDS = ["sqlite", pytest.param("mariadb", marks=pytest.mark.mariadb)]
NOW = Site().now.strftime("%Y-%m-%d %H:%M:%S")  # the site's clock: a draft published now
PATHS = ["/sitemap_index.xml", "/post-sitemap.xml", "/page-sitemap.xml",
         "/category-sitemap.xml", "/author-sitemap.xml"]
# A change as WordPress writes it, the event a source reports for it, the document it shows on.
CHANGES: dict[str, tuple[list[str], list[Change], str]] = {
    "publish": ([f"UPDATE wp_posts SET post_status = 'publish', post_name = 'secret-draft',"
                 f" post_date = '{NOW}', post_date_gmt = '{NOW}', post_modified = '{NOW}',"
                 f" post_modified_gmt = '{NOW}' WHERE ID = 5"],
                [Change("post", 5, post_type="post")], "/post-sitemap.xml"),
    "update": ([f"UPDATE wp_posts SET post_modified = '{NOW}', post_modified_gmt = '{NOW}'"
                " WHERE ID = 2"], [Change("post", 2, post_type="post")], "/post-sitemap.xml"),
    "trash": (["UPDATE wp_posts SET post_status = 'trash' WHERE ID = 3"],
              [Change("post", 3, post_type="post")], "/post-sitemap.xml"),
    "meta noindex": (["INSERT INTO wp_postmeta (post_id, meta_key, meta_value) VALUES"
                      " (2, '_yoast_wpseo_meta-robots-noindex', '1')"],
                     [Change("post", 2, post_type="post")], "/post-sitemap.xml"),
    "permalink": (["UPDATE wp_options SET option_value = ? WHERE option_name ="
                   " 'permalink_structure'", "/%year%/%postname%/"],
                  [Change("option", option="permalink_structure")], "/post-sitemap.xml"),
    "page slug": (["UPDATE wp_posts SET post_name = 'about-us' WHERE ID = 4"],
                  [Change("post", 4, post_type="page")], "/page-sitemap.xml"),
}


def stored_app(make_app: Callable[..., Flask], tmp_path: Path, backend: str,
               **config: Any) -> tuple[Flask, Clock]:
    app = make_app(small_site(), backend, STORE=str(tmp_path / "pages"), STORE_WINDOW=WINDOW,
                   CACHE_TTL=TTL, **config)
    return app, with_clock(app)


def fresh(app: Flask, path: str) -> bytes:
    """What a service without a store serves for `path` now (a fresh render)."""
    settings = service_of(app).settings
    other = create_app({"TESTING": True, "DATABASE_URL": settings.database_url,
                        "TABLE_PREFIX": settings.table_prefix, "NOW": settings.now,
                        "STORE": "off"})
    resp = other.test_client().get(path)
    assert resp.status_code == 200
    return resp.data


def entries(body: bytes) -> list[tuple[str, str | None]]:
    """The (loc, lastmod) of every entry but the home page's: page 1's first link is dated
    from the value cache (the newest post), which follows `cache_ttl` as it always did."""
    assert_valid(body)
    found = re.findall(r"<url>\s*<loc>([^<]*)</loc>\s*(?:<lastmod>([^<]*)</lastmod>)?",
                       body.decode())
    return [(loc, mod or None) for loc, mod in found if loc != HOME]


def write(app: Flask, sqls: list[str]) -> None:
    pub = Publisher(app, Site().now, 100)
    for sql in sqls:
        if sql.startswith("/"):  # the previous statement's parameter
            continue
        params = [p for p in sqls[sqls.index(sql) + 1:][:1] if p.startswith("/")]
        pub.execute(sql, *params)


class Counted:
    """Every SQL statement an app runs, and every page or index fingerprint it computes."""

    def __init__(self, app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
        self.statements: list[str] = []
        self.fingerprints: list[str] = []
        event.listen(service_of(app).engine, "before_cursor_execute",
                     lambda *args: self.statements.append(str(args[2])))
        for name in ("page_fingerprint", "index_fingerprint", "empty_fingerprint"):
            real = getattr(documents, name)
            monkeypatch.setattr(documents, name, self._counting(name, real))

    def _counting(self, name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def counting(*args: Any) -> Any:
            self.fingerprints.append(name)
            return real(*args)
        return counting

    def reset(self) -> None:
        self.statements.clear()
        self.fingerprints.clear()


def live_source(app: Flask) -> None:
    service_of(app).report_health(SourceHealth("plugin", True, detail="test"))


@pytest.mark.parametrize("backend", BACKENDS)
def test_unchanged_documents_cost_no_statement_with_an_event_source(
        make_app: Callable[..., Flask], tmp_path: Path, backend: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A crawler's request (past the window) for an unchanged document, and its 304, run
    no SQL at all while the source is live; with the source down the page is checked."""
    app, clock = stored_app(make_app, tmp_path, backend, CHANGE_SOURCE="plugin")
    live_source(app)
    client = app.test_client()
    first = {path: client.get(path) for path in PATHS}
    # The values computed by those first renders (page bounds, term lists) were new to
    # this process: the first revalidation of each document marks it with their heads.
    clock.advance(WINDOW + 1)
    for path in PATHS:
        assert client.get(path).data == first[path].data
    counted = Counted(app, monkeypatch)
    for _ in range(3):
        clock.advance(WINDOW + 1)
        for path in PATHS:
            again = client.get(path)
            assert again.status_code == 200 and again.data == first[path].data, path
            etag = again.headers["ETag"].strip('"')
            assert client.get(path, headers={"If-None-Match": etag}).status_code == 304
    assert counted.statements == [] and counted.fingerprints == []
    service_of(app).report_health(SourceHealth("plugin", False, detail="test: cut"))
    clock.advance(WINDOW + 1)
    assert client.get("/post-sitemap.xml").data == first["/post-sitemap.xml"].data
    assert counted.statements != []


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind", list(CHANGES))
def test_a_change_is_served_on_the_request_after_its_event(
        make_app: Callable[..., Flask], tmp_path: Path, backend: str, kind: str) -> None:
    """Until its event arrives the stored page is served as it was (no database read); the
    first request after the event serves what a fresh render serves."""
    sqls, changes, path = CHANGES[kind]
    app, clock = stored_app(make_app, tmp_path, backend, CHANGE_SOURCE="plugin")
    live_source(app)
    client = app.test_client()
    old = client.get(path).data
    write(app, sqls)
    clock.advance(WINDOW + 1)
    assert client.get(path).data == old
    service_of(app).apply_changes(changes, "plugin")
    new = client.get(path).data
    assert entries(new) != entries(old) and entries(new) == entries(fresh(app, path))


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_lost_event_is_caught_by_the_safety_net(make_app: Callable[..., Flask],
                                                  tmp_path: Path, backend: str) -> None:
    """A change whose event never came (the service was down) is served once the stored
    page is `cache_ttl` old, and not before."""
    sqls, _, path = CHANGES["trash"]
    app, clock = stored_app(make_app, tmp_path, backend, CHANGE_SOURCE="plugin")
    live_source(app)
    client = app.test_client()
    old = client.get(path).data
    write(app, sqls)
    clock.advance(TTL - 1)
    live_source(app)
    assert client.get(path).data == old
    clock.advance(1)
    assert entries(client.get(path).data) == entries(fresh(app, path)) != entries(old)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind", list(CHANGES))
def test_without_a_source_a_change_is_served_after_the_window(
        make_app: Callable[..., Flask], tmp_path: Path, backend: str, kind: str) -> None:
    """With no source (the site-level check), a change is served on the first request
    after `store_window`."""
    sqls, _, path = CHANGES[kind]
    app, clock = stored_app(make_app, tmp_path, backend)
    client = app.test_client()
    old = client.get(path).data
    settle(app)
    clock.advance(WINDOW + 1)
    assert client.get(path).data == old  # checked, and found unchanged
    write(app, sqls)
    clock.advance(WINDOW + 1)
    new = client.get(path).data
    assert entries(new) != entries(old) and entries(new) == entries(fresh(app, path))


def settle(app: Flask) -> None:
    """Make the database's last write older than the check's settle margin (SQLite: the
    file's times; MariaDB: wait). On MariaDB the tables empty in the test site are written
    once first, as a live site's are: a table never written since the server loaded it has
    no UPDATE_TIME, and then the check also reads the server's count of table definitions
    loaded, which the other test runs sharing this server move at any time."""
    url = service_of(app).settings.database_url
    if url.startswith("sqlite:///"):
        path = url.removeprefix("sqlite:///")
        past = time.time() - 10
        for name in (path, path + "-wal"):
            if os.path.exists(name):
                os.utime(name, (past, past))
    else:
        pub = Publisher(app, Site().now, 100)
        for table, column in (("wp_postmeta", "post_id"), ("wp_termmeta", "term_id"),
                              ("wp_usermeta", "user_id")):
            pub.execute(f"INSERT INTO {table} ({column}, meta_key, meta_value)"
                        " VALUES (999, 'x', 'x')")
            pub.execute(f"DELETE FROM {table} WHERE {column} = 999")
        time.sleep(2.2)


@pytest.mark.parametrize("backend", BACKENDS)
def test_without_a_source_one_check_per_window_replaces_page_fingerprints(
        make_app: Callable[..., Flask], tmp_path: Path, backend: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing changed: past the window, every document is served without its fingerprint,
    after one site-level check shared by every request of that window."""
    app, clock = stored_app(make_app, tmp_path, backend)
    client = app.test_client()
    first = {path: client.get(path).data for path in PATHS}
    settle(app)
    # The renders above came less than the settle margin after the database was written:
    # their first revalidation computes fingerprints and marks them with the check's tag.
    clock.advance(WINDOW + 1)
    for path in PATHS:
        assert client.get(path).data == first[path]
    counted = Counted(app, monkeypatch)
    clock.advance(WINDOW + 1)
    for path in PATHS:
        assert client.get(path).data == first[path]
    assert counted.fingerprints == []
    assert len(counted.statements) <= 2, counted.statements
    counted.reset()
    clock.advance(WINDOW + 1)
    for path in PATHS:
        assert client.get(path).data == first[path]
    assert counted.fingerprints == [] and len(counted.statements) <= 2


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind", ["term rename", "author slug"])
def test_term_and_author_pages_follow_their_lists_refresh(
        make_app: Callable[..., Flask], tmp_path: Path, backend: str, kind: str) -> None:
    """Term and author pages are rendered from lists the value cache keeps: their event
    has the list computed again (tests/test_change_lists.py), and the list's later refresh
    changes nothing more."""
    sql, change, path = {
        "term rename": ("UPDATE wp_terms SET slug = 'headlines' WHERE slug = 'news'",
                        Change("term", 1, taxonomy="category"), "/category-sitemap.xml"),
        "author slug": ("UPDATE wp_users SET user_nicename = 'someone-else'",
                        Change("user", 1), "/author-sitemap.xml"),
    }[kind]
    app, clock = stored_app(make_app, tmp_path, backend, CHANGE_SOURCE="plugin")
    live_source(app)
    client = app.test_client()
    old = client.get(path).data
    write(app, [sql])
    service_of(app).apply_changes([change], "plugin")
    clock.advance(WINDOW + 1)
    client.get(path)
    refresh_bounds(app)  # the background refresh, as cache_ttl runs out
    clock.advance(WINDOW + 1)
    new = client.get(path).data
    assert new != old and new == fresh(app, path)


@pytest.mark.parametrize("backend", BACKENDS)
def test_check_says_how_changes_are_learnt(make_app: Callable[..., Flask], tmp_path: Path,
                                          backend: str) -> None:
    """`wpsitemaps check` names the event sources, whether each is live (from the store the
    service shares), and what the site-level check reads on this database."""
    app, _ = stored_app(make_app, tmp_path, backend, CHANGE_SOURCE="plugin,binlog")
    settings = service_of(app).settings
    live_source(app)
    env = {"WPSITEMAPS_DATABASE_URL": settings.database_url, "WPSITEMAPS_STORE": settings.store,
           "WPSITEMAPS_CHANGE_SOURCE": "plugin,binlog", "WPSITEMAPS_NOW": str(settings.now)}
    lines: list[str] = []
    assert run_check(load_settings(environ=env), lines.append) == 0
    said = lines[[n for n, line in enumerate(lines) if line.startswith("changes")][0]:]
    what = "the database file's times" if backend == "sqlite" else "UPDATE_TIME of 8 tables"
    assert said[0] == ("changes       events from plugin, binlog; the site-level check "
                       "while none is live")
    assert said[1].startswith("  plugin: live, last heard ")
    assert said[2] == "  binlog: not live (never heard)"
    assert said[3].startswith(f"site check    {what} plus the options")
    lines.clear()
    env["WPSITEMAPS_CHANGE_SOURCE"] = "none"
    run_check(load_settings(environ=env), lines.append)
    assert any(line.startswith("changes       none: ") for line in lines)


def test_workers_share_the_ledger_through_the_store(make_app: Callable[..., Flask],
                                                    tmp_path: Path) -> None:
    """Two workers on one store directory: the source's events reach one of them, and the
    other serves the change too (and serves the unchanged page without the database)."""
    sqls, changes, path = CHANGES["trash"]
    one, clock = stored_app(make_app, tmp_path, "sqlite", CHANGE_SOURCE="plugin")
    settings = service_of(one).settings
    other = create_app({"TESTING": True, "DATABASE_URL": settings.database_url,
                        "TABLE_PREFIX": settings.table_prefix, "NOW": settings.now,
                        "STORE": settings.store, "STORE_WINDOW": WINDOW, "CACHE_TTL": TTL,
                        "CHANGE_SOURCE": "plugin"})
    service_of(other).pages.clock = clock  # type: ignore[union-attr]
    live_source(one)
    old = one.test_client().get(path).data
    write(other, sqls)
    clock.advance(WINDOW + 1)
    assert other.test_client().get(path).data == old
    service_of(one).apply_changes(changes, "plugin")
    assert entries(other.test_client().get(path).data) == entries(fresh(other, path))


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_ledger_in_redis(make_app: Callable[..., Flask], backend: str,
                             space: str) -> None:  # noqa: F811
    """With the store in Redis (several hosts), the same: no statement while nothing
    changed, the change on the request after its event."""
    sqls, changes, path = CHANGES["publish"]
    app = make_app(small_site(), backend, STORE=f"redis://127.0.0.1:{REDIS_PORT}/0",
                   STORE_NAMESPACE=space, STORE_WINDOW=WINDOW, CACHE_TTL=TTL,
                   CHANGE_SOURCE="plugin")
    clock = with_clock(app)
    live_source(app)
    client = app.test_client()
    old = client.get(path).data
    clock.advance(WINDOW + 1)
    assert client.get(path).data == old  # marked with the values' heads
    statements: list[str] = []
    event.listen(service_of(app).engine, "before_cursor_execute",
                 lambda *args: statements.append(str(args[2])))
    write(app, sqls)
    clock.advance(WINDOW + 1)
    assert client.get(path).data == old and statements == []
    service_of(app).apply_changes(changes, "plugin")
    assert entries(client.get(path).data) == entries(fresh(app, path)) != entries(old)


def test_a_stale_list_is_refreshed_though_pages_come_from_the_store(
        make_app: Callable[..., Flask], tmp_path: Path) -> None:
    """A page served from the store without reading the site still starts the background
    refresh once a value of the site is past its TTL: a term renamed without an event (it
    was lost) is served anew when it is done."""
    app, clock = stored_app(make_app, tmp_path, "sqlite", CHANGE_SOURCE="plugin")
    live_source(app)
    client = app.test_client()
    path = "/category-sitemap.xml"
    old = client.get(path).data
    clock.advance(WINDOW + 1)
    assert client.get(path).data == old  # marked with the values' heads
    write(app, ["UPDATE wp_terms SET slug = 'headlines' WHERE slug = 'news'"])
    clock.advance(WINDOW + 1)
    assert client.get(path).data == old  # no event: served as the ledger says
    service_of(app).values.clock = lambda: time.monotonic() + 2 * TTL  # every value stale
    for _ in range(40):  # 120 s of the store's clock: well within cache_ttl
        clock.advance(WINDOW + 1)
        if client.get(path).data != old:
            break
        time.sleep(0.5)
    assert client.get(path).data == fresh(app, path)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_news_item_leaves_with_the_clock_though_no_event_comes(
        make_app: Callable[..., Flask], tmp_path: Path, backend: str) -> None:
    """The news sitemap moves with time, not only with changes: with an event source live
    and a `cache_ttl` of an hour, a post that has aged past the 48 hours is gone once the
    stored page's clock bucket (NEWS_CLOCK) has passed, without any event."""
    from datetime import timedelta

    from wpsitemaps.sitemaps.deps import NEWS_CLOCK

    site = small_site()
    site.post("Breaking", name="breaking", date=site.now - timedelta(hours=47, minutes=59))
    app = make_app(site, backend, STORE=str(tmp_path / "pages"), STORE_WINDOW=WINDOW,
                   CACHE_TTL=3600, CHANGE_SOURCE="plugin")
    clock = with_clock(app)
    live_source(app)
    client = app.test_client()
    path = "/news-sitemap.xml"
    old = client.get(path).data
    assert b"/breaking/" in old
    later = int((site.now + timedelta(minutes=2)).timestamp())
    write(app, [f"UPDATE wp_options SET option_value = '{later}'"
                " WHERE option_name = 'test_now'"])  # two minutes pass; no event
    clock.advance(WINDOW + 1)  # the same clock bucket: served as stored
    live_source(app)
    assert client.get(path).data == old
    clock.advance(NEWS_CLOCK)
    live_source(app)
    new = client.get(path).data
    assert b"/breaking/" not in new and new == fresh(app, path)
