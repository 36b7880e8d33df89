"""WebSub (W3C) for /rss.xml and /atom.xml (issue #27): discovery links in the feeds, and a
publish ping to each configured hub when a feed's content changes, on IndexNow's outbox,
sweeper, lease and back-off. The hub is a real HTTP server (tests/support/websub.py) that
fetches the topic from the service and checks that the feed names it, as a hub does."""

from __future__ import annotations

import logging
import shutil
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path

import feedparser
import pytest
from click.testing import CliRunner
from flask import Flask
from sqlalchemy import create_engine
from sqlalchemy import make_url
from sqlalchemy import text

from tests.support import wpdb
from tests.support.data import small_site
from tests.support.indexnow import served
from tests.support.network import network_app
from tests.support.storeclock import Clock
from tests.support.websub import Hub
from tests.support.websub import running_hub
from tests.test_indexnow_network import ms_master  # noqa: F401 - the fixture (ms-small)
from wpsitemaps import create_app
from wpsitemaps.cli import main
from wpsitemaps.config import ConfigError
from wpsitemaps.config import load_settings
from wpsitemaps.indexnow.commands import findings
from wpsitemaps.indexnow.feature import IndexNow
from wpsitemaps.indexnow.feature import active
from wpsitemaps.web.context import service_of

HOME = "http://example.test"
TOPICS = [f"{HOME}/atom.xml", f"{HOME}/rss.xml"]
NOW = "2026-11-29 12:00:00"
LATER = "2026-11-29 13:00:00"
WINDOW = 5.0
POST = ("INSERT INTO wp_posts (ID, post_author, post_date, post_date_gmt, post_content, "
        "post_title, post_excerpt, post_status, post_password, post_name, to_ping, pinged, "
        "post_modified, post_modified_gmt, post_content_filtered, post_parent, guid, "
        "menu_order, post_type, post_mime_type, comment_count) VALUES (:id, 1, :now, :now, "
        "'', :name, '', 'publish', '', :name, '', '', :now, :now, '', 0, '', 0, 'post', '', 0)")


def write(app: Flask, sql: str, **params: object) -> None:
    """One writing statement on the app's database (SQLite or MariaDB), as WordPress would."""
    url = make_url(service_of(app).settings.database_url)
    if url.get_backend_name() != "sqlite":  # the app's MariaDB user only reads: write as root
        url = make_url(wpdb.mariadb_url(str(url.database), read_only_user=False))
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text(sql), params)
    finally:
        engine.dispose()


class Site:
    """An app with WebSub on, served over HTTP, its feature and the injected clock."""

    def __init__(self, app: Flask, feature: IndexNow, clock: Clock) -> None:
        self.app, self.feature, self.clock = app, feature, clock

    def sweep(self) -> None:
        """One sweep (the feeds are checked after the sitemaps)."""
        self.clock.advance(1)
        self.feature.sweeper.sweep()

    def submit(self) -> None:
        """One submitter pass after the batching window."""
        self.clock.advance(WINDOW)
        self.feature.submitter.run_once()


def websub_app(make: Callable[..., Flask], hubs: str, store: Path, backend: str = "sqlite",
               **config: object) -> Site:
    """small_site with a page store at `store` and WebSub pinging `hubs`."""
    app = make(small_site(), backend, STORE=str(store), STORE_WINDOW=0, WEBSUB_HUBS=hubs,
               INDEXNOW_BATCH_WINDOW=WINDOW, INDEXNOW_BACKOFF_MIN=1, STORE_NAMESPACE="site",
               **config)
    feature = active(service_of(app))
    assert feature is not None
    clock = Clock()
    service_of(app).pages.clock = clock  # type: ignore[union-attr]
    feature.outbox.clock = clock
    return Site(app, feature, clock)


@pytest.fixture
def hub() -> Iterator[Hub]:
    """A local WebSub hub."""
    with running_hub() as found:
        yield found


@pytest.fixture(params=["sqlite", "mariadb"])
def site(request: pytest.FixtureRequest, make_app: Callable[..., Flask], hub: Hub,
         tmp_path: Path) -> Iterator[Site]:
    """The served site (SQLite or MariaDB), its feeds fingerprinted by a first sweep."""
    found = websub_app(make_app, hub.url, tmp_path / "pages", request.param)
    with served(found.app) as base:
        hub.service = base
        found.sweep()
        yield found


def read(app: Flask, path: str) -> feedparser.FeedParserDict:
    """A feed as feedparser reads it (a malformed feed fails here)."""
    resp = app.test_client().get(path)
    assert resp.status_code == 200
    parsed = feedparser.parse(resp.data)
    assert not parsed.bozo, parsed.get("bozo_exception")
    return parsed


def links(parsed: feedparser.FeedParserDict) -> list[tuple[str, str]]:
    """(rel, href) of the feed's own links."""
    return [(link["rel"], link["href"]) for link in parsed.feed.links]


@pytest.mark.parametrize("path", ["/rss.xml", "/atom.xml"])
def test_off_by_default_no_hub_is_named(make_app: Callable[..., Flask], path: str) -> None:
    """Without websub_hubs a feed names no hub, has no Link header, and no ping machinery
    runs (the feed bytes themselves are held by tests/test_served_bytes.py)."""
    app = make_app(small_site())
    assert service_of(app).settings.websub_hubs == ()
    assert active(service_of(app)) is None
    resp = app.test_client().get(path)
    assert b'rel="hub"' not in resp.data and "Link" not in resp.headers
    assert ("self", f"{HOME}{path}") in links(read(app, path))


@pytest.mark.parametrize("path", ["/rss.xml", "/atom.xml"])
def test_feeds_name_their_hubs_and_themselves(make_app: Callable[..., Flask], tmp_path: Path,
                                              path: str) -> None:
    """WebSub discovery: each hub as rel="hub" and the feed as rel="self", in the feed (read
    by feedparser, still well-formed) and in Link headers."""
    hubs = ["https://pubsubhubbub.appspot.com/", "https://hub.example.org/publish"]
    app = websub_app(make_app, ",".join(hubs), tmp_path / "pages").app
    found = links(read(app, path))
    assert [h for rel, h in found if rel == "hub"] == hubs
    assert ("self", f"{HOME}{path}") in found
    header = app.test_client().get(path).headers["Link"]
    assert header == (f'<{hubs[0]}>; rel="hub", <{hubs[1]}>; rel="hub", '
                      f'<{HOME}{path}>; rel="self"')


def test_a_published_post_pings_each_feed_once(site: Site, hub: Hub) -> None:
    """A post published in the database: the next sweep sees the feeds change, and the hub
    gets one publish ping per feed; nothing more while nothing changes."""
    site.submit()
    assert hub.requests == []  # the first sweep only fingerprints
    write(site.app, POST, id=50, name="brand-new", now=NOW)
    site.sweep()
    site.submit()
    assert sorted(hub.topics) == TOPICS
    assert all(r["hub.mode"] == ["publish"] for r in hub.requests)
    site.sweep()
    site.submit()
    assert sorted(hub.topics) == TOPICS


def test_an_edit_of_a_listed_post_pings(site: Site, hub: Hub) -> None:
    """A post of the feed edited (its modified date): one ping per feed."""
    write(site.app, "UPDATE wp_posts SET post_modified_gmt = :later, post_title = 'Edited' "
          "WHERE post_name = 'second-post'", later=LATER)
    site.sweep()
    site.submit()
    assert sorted(hub.topics) == TOPICS


def test_a_burst_of_changes_is_one_ping_per_feed(site: Site, hub: Hub) -> None:
    """Posts published between sweeps inside one batching window: one ping per feed."""
    for pid in range(60, 65):
        write(site.app, POST, id=pid, name=f"burst-{pid}", now=NOW)
        site.sweep()
    site.submit()
    assert sorted(hub.topics) == TOPICS


def test_429_then_accepted_pings_once(site: Site, hub: Hub) -> None:
    """A 429 holds the ping back (no retry before the back-off); it then goes out once."""
    hub.answers.extend([429, 429])
    write(site.app, POST, id=50, name="brand-new", now=NOW)
    site.sweep()
    site.submit()
    assert hub.topics == [] and len(hub.requests) == 1  # one hub, held after its first 429
    site.clock.advance(2)
    site.submit()
    site.clock.advance(4)
    site.submit()
    site.clock.advance(8)
    site.submit()
    assert sorted(hub.topics) == TOPICS


@pytest.mark.parametrize("status", [400, 404, 410])
def test_a_4xx_stops_with_a_log_line_and_a_finding(site: Site, hub: Hub, status: int,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    """A hub refusing a ping is not pinged again for that host: one log line, a `check`
    finding; the ping stays queued."""
    hub.answers.append(status)
    write(site.app, POST, id=50, name="brand-new", now=NOW)
    site.sweep()
    with caplog.at_level(logging.ERROR):
        site.submit()
        site.submit()
    assert len(hub.requests) == 1 and hub.topics == []
    assert any("WebSub" in r.message and str(status) in r.message for r in caplog.records)
    assert [line for line in findings(site.feature) if line.startswith("WebSub STOPPED")]
    assert site.feature.outbox.length() == 2


def test_a_queued_ping_survives_a_restart_and_goes_out_once(
        make_app: Callable[..., Flask], hub: Hub, tmp_path: Path) -> None:
    """A service stopped with pings queued (the hub down) pings after a restart on the same
    store, once per feed."""
    first = websub_app(make_app, hub.url, tmp_path / "pages")
    first.sweep()
    write(first.app, POST, id=50, name="brand-new", now=NOW)
    first.sweep()
    assert first.feature.outbox.length() == 2
    database = service_of(first.app).settings.database_url
    del first  # the process goes away without pinging
    second = websub_app(make_app, hub.url, tmp_path / "pages", DATABASE_URL=database)
    with served(second.app) as base:
        hub.service = base
        second.submit()
        second.submit()
        second.sweep()  # nothing changed since the fingerprint the first process kept
        second.submit()
    assert sorted(hub.topics) == TOPICS


def test_websub_alone_serves_no_indexnow_key(make_app: Callable[..., Flask], hub: Hub,
                                             tmp_path: Path) -> None:
    """With IndexNow off no key is generated nor served, and a sitemap change queues
    nothing but the feeds' pings."""
    site = websub_app(make_app, hub.url, tmp_path / "pages")
    assert site.feature.key == "" and site.feature.plan.endpoints == ()
    assert site.app.test_client().get("/.txt").status_code == 404
    client = site.app.test_client()
    assert client.get("/post-sitemap.xml").status_code == 200
    site.sweep()
    write(site.app, POST, id=50, name="brand-new", now=NOW)
    site.clock.advance(1)
    assert b"brand-new" in client.get("/post-sitemap.xml").data  # its rendering replaced
    assert site.feature.outbox.length() == 0
    site.sweep()
    assert sorted(u.split(" ", 1)[1] for u in site.feature.outbox.backend.fields(
        site.feature.outbox.queue)) == TOPICS


def test_a_hub_must_be_an_absolute_url() -> None:
    """A hub that is not an absolute http(s) URL is a ConfigError naming the setting."""
    with pytest.raises(ConfigError, match="WPSITEMAPS_WEBSUB_HUBS"):
        load_settings({"DATABASE_URL": "sqlite://", "WEBSUB_HUBS": "hub.example.org"},
                      environ={})


def test_check_reports_a_refused_ping(write_site: Callable[..., str], hub: Hub, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """`wpsitemaps check` (and `indexnow status`) name the hub that refused a ping and what
    to do about it, with IndexNow itself off."""
    values = {"WPSITEMAPS_DATABASE_URL": write_site(small_site(), "sqlite"),
              "WPSITEMAPS_NOW": "option:test_now", "WPSITEMAPS_STORE": str(tmp_path / "pages"),
              "WPSITEMAPS_STORE_NAMESPACE": "site", "WPSITEMAPS_WEBSUB_HUBS": hub.url,
              "WPSITEMAPS_INDEXNOW_BATCH_WINDOW": "0"}
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    app = create_app({"TESTING": True})
    feature = active(service_of(app))
    assert feature is not None
    feature.outbox.add(feature.plan.hubs, TOPICS)
    hub.answers.append(410)
    feature.submitter.run_once()
    output = CliRunner().invoke(main, ["check"]).output
    assert f"WebSub        {hub.url}" in output
    assert f"WebSub STOPPED: hub {hub.url} refused the publish ping for example.test with 410"\
        in output
    status = CliRunner().invoke(main, ["indexnow", "status"]).output
    assert "WebSub STOPPED" in status and "queued        2" in status


def test_a_network_site_pings_its_own_feeds(ms_master: Path, tmp_path: Path,  # noqa: F811
                                            hub: Hub) -> None:
    """On a multisite network (ms-small) the newest post of site 3 (its own host) edited:
    only that site's feeds are pinged, by their own URLs, and the hub finds itself named in
    them on that host."""
    path = tmp_path / "ms.sqlite"
    shutil.copy(ms_master, path)
    app = network_app(f"sqlite:///{path}", STORE=str(tmp_path / "pages"), STORE_WINDOW=0,
                      WEBSUB_HUBS=hub.url, INDEXNOW_BATCH_WINDOW=1)
    feature = active(service_of(app))
    assert feature is not None
    clock = Clock()
    service_of(app).pages.clock = clock  # type: ignore[union-attr]
    feature.outbox.clock = clock
    with served(app) as base:
        hub.service = base
        feature.sweeper.sweep()
        write(app, "UPDATE wp_3_posts SET post_modified_gmt = '2030-01-01 00:00:00' WHERE ID ="
              " (SELECT ID FROM (SELECT ID FROM wp_3_posts WHERE post_type = 'post' AND "
              "post_status = 'publish' ORDER BY post_date DESC LIMIT 1) AS newest)")
        clock.advance(1)
        feature.sweeper.sweep()
        clock.advance(5)
        feature.submitter.run_once()
    assert sorted(hub.topics) == ["http://127.0.0.1/atom.xml", "http://127.0.0.1/rss.xml"]


def test_a_language_host_pings_its_own_feeds(tmp_path: Path, hub: Hub) -> None:
    """Polylang with a host per language (sub-yoast): a French article edited pings the
    French host's feeds (which list French articles), not the German host's."""
    fixtures = wpdb.REPO / "tests" / "fixtures" / "polylang"
    database = wpdb.load_peer_sqlite(tmp_path / "pll.sqlite", fixtures / "sub-yoast.sql")
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{database}",
                      "TABLE_PREFIX": "wp_", "NOW": "1796109000", "STORE": str(tmp_path / "p"),
                      "STORE_WINDOW": 0, "WEBSUB_HUBS": hub.url, "INDEXNOW_BATCH_WINDOW": 1})
    feature = active(service_of(app))
    assert feature is not None
    clock = Clock()
    service_of(app).pages.clock = clock  # type: ignore[union-attr]
    feature.outbox.clock = clock
    with served(app) as base:
        hub.service = base
        feature.sweeper.sweep()
        write(app, "UPDATE wp_posts SET post_modified_gmt = '2026-12-01 00:00:00', "
              "post_title = 'Bonjour encore' WHERE post_name = 'bonjour-les-langues'")
        clock.advance(1)
        feature.sweeper.sweep()
        clock.advance(5)
        feature.submitter.run_once()
    fr = "http://fr.pll-subyoast.example.test"
    assert {f"{fr}/atom.xml", f"{fr}/rss.xml"} <= set(hub.topics)
    assert not [t for t in hub.topics if "//de." in t]
    assert len(hub.topics) == len(set(hub.topics))
