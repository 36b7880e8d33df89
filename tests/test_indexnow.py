"""IndexNow (issue #27) end to end: WordPress rows change, the sweeper revalidates the stored
sitemaps, the diff queues what they say changed, and the submitter posts it to a local
endpoint that checks the key file on the service, as a search engine does. The store's and
the outbox's clock is injected where waiting would be long."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from tests.support.data import small_site
from tests.support.indexnow import Endpoint
from tests.support.indexnow import running_endpoint
from tests.support.indexnow import served
from tests.support.storeclock import Clock
from tests.support.storeclock import write
from tests.test_store_freshness import insert_post
from wpsitemaps.config import ConfigError
from wpsitemaps.config import load_settings
from wpsitemaps.indexnow.feature import IndexNow
from wpsitemaps.indexnow.feature import active
from wpsitemaps.store.base import StoreError
from wpsitemaps.web.context import service_of

HOME = "http://example.test"
NOW = "2026-11-29 12:00:00"
LATER = "2026-11-29 13:00:00"
WINDOW = 5.0


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    """A local IndexNow endpoint."""
    with running_endpoint() as found:
        yield found


class Served:
    """An app with IndexNow on, served over HTTP, its feature and the injected clock."""

    def __init__(self, app: Flask, feature: IndexNow, clock: Clock) -> None:
        self.app, self.feature, self.clock = app, feature, clock

    def sweep(self) -> None:
        """One sweep after the store's window."""
        self.clock.advance(1)
        self.feature.sweeper.sweep()

    def submit(self) -> None:
        """One submitter pass after the batching window."""
        self.clock.advance(WINDOW)
        self.feature.submitter.run_once()


def indexnow_app(make: Callable[..., Flask], endpoint: Endpoint, store: Path,
                 clock: Clock | None = None, **config: object) -> Served:
    """small_site with a page store at `store` and IndexNow posting to `endpoint`."""
    app = make(small_site(), STORE=str(store), STORE_WINDOW=0, INDEXNOW_ENDPOINTS=endpoint.url,
               INDEXNOW_BATCH_WINDOW=WINDOW, INDEXNOW_BACKOFF_MIN=1, STORE_NAMESPACE="site",
               **config)
    feature = active(service_of(app))
    assert feature is not None
    moved = clock or Clock()
    service_of(app).pages.clock = moved  # type: ignore[union-attr]
    feature.outbox.clock = moved
    return Served(app, feature, moved)


@pytest.fixture
def site(make_app: Callable[..., Flask], endpoint: Endpoint,
         tmp_path: Path) -> Iterator[Served]:
    """The served site, every sitemap stored by a first sweep (which submits nothing)."""
    found = indexnow_app(make_app, endpoint, tmp_path / "pages")
    with served(found.app) as base:
        endpoint.service = base
        found.sweep()
        yield found


def submitted_after(site: Served, endpoint: Endpoint, sql: str, *params: object) -> list[str]:
    """The URLs the endpoint accepted after one write, a sweep and a submitter pass."""
    write(site.app, sql, *params)
    site.sweep()
    site.submit()
    return endpoint.urls()


def test_the_key_file_is_served_and_nothing_else(site: Served) -> None:
    """/{key}.txt answers the key as text; another .txt name is a 404."""
    client = site.app.test_client()
    resp = client.get(f"/{site.feature.key}.txt")
    assert resp.status_code == 200 and resp.get_data(as_text=True) == site.feature.key
    assert resp.mimetype == "text/plain"
    assert client.get("/abcdefgh12345678.txt").status_code == 404
    robots = client.get("/robots.txt")  # its own route still answers
    assert robots.status_code == 200 and b"Sitemap:" in robots.data


def test_the_first_sweep_submits_nothing(site: Served, endpoint: Endpoint) -> None:
    """Storing the sitemaps for the first time is no change: no request is made."""
    site.submit()
    assert endpoint.requests == []


def test_publish_submits_the_new_url(site: Served, endpoint: Endpoint) -> None:
    """A published post reaches the endpoint, and only it."""
    insert_post(site.app, 50, "brand-new")
    site.sweep()
    site.submit()
    assert endpoint.urls() == [f"{HOME}/brand-new/"]
    assert endpoint.requests[0]["host"] == "example.test"
    assert endpoint.requests[0]["keyLocation"] == f"http://example.test/{site.feature.key}.txt"


def test_a_draft_is_never_submitted(site: Served, endpoint: Endpoint) -> None:
    """A draft written to the database is not listed, so nothing is sent."""
    insert_post(site.app, 51, "not-yet", status="draft")
    site.sweep()
    site.submit()
    assert endpoint.requests == []


def test_update_submits_the_changed_url(site: Served, endpoint: Endpoint) -> None:
    """A post whose modified date changes is submitted (its lastmod changed)."""
    assert submitted_after(site, endpoint, "UPDATE wp_posts SET post_modified_gmt = ? "
                           "WHERE post_name = 'second-post'", LATER) == [f"{HOME}/second-post/"]


def test_trash_submits_the_removed_url(site: Served, endpoint: Endpoint) -> None:
    """A trashed post's URL is submitted as removed."""
    assert submitted_after(site, endpoint, "UPDATE wp_posts SET post_status = 'trash' "
                           "WHERE post_name = 'second-post'") == [f"{HOME}/second-post/"]


def test_noindex_submits_the_removed_url(site: Served, endpoint: Endpoint) -> None:
    """Yoast's noindex meta takes the URL out, which is submitted."""
    assert submitted_after(site, endpoint, "INSERT INTO wp_postmeta (post_id, meta_key, "
                           "meta_value) VALUES (1, '_yoast_wpseo_meta-robots-noindex', '1')"
                           ) == [f"{HOME}/first-post/"]


def test_slug_change_submits_old_and_new(site: Served, endpoint: Endpoint) -> None:
    """A renamed post: the new URL (added) and the old one (deleted) are both sent."""
    got = submitted_after(site, endpoint, "UPDATE wp_posts SET post_name = 'renamed' "
                          "WHERE post_name = 'second-post'")
    assert sorted(got) == [f"{HOME}/renamed/", f"{HOME}/second-post/"]


def test_term_rename_submits_old_and_new(make_app: Callable[..., Flask], endpoint: Endpoint,
                                         tmp_path: Path) -> None:
    """A category whose slug changes: its old and new archive URLs are sent once the term
    list (a value of the value cache) is read again, cache_ttl after it was."""
    found = indexnow_app(make_app, endpoint, tmp_path / "pages", CACHE_TTL=1)
    background = service_of(found.app).background
    assert background is not None
    with served(found.app) as base:
        endpoint.service = base
        found.sweep()
        write(found.app, "UPDATE wp_terms SET slug = 'headlines' WHERE slug = 'news'")
        time.sleep(1.2)  # the term list's TTL (real time: the value cache's clock)
        found.sweep()  # serves the stale list and starts the background refresh
        while background.running():
            time.sleep(0.05)
        found.sweep()
        found.submit()
    assert sorted(endpoint.urls()) == [f"{HOME}/category/headlines/", f"{HOME}/category/news/"]


def test_a_new_sitemap_page_submits_its_urls(make_app: Callable[..., Flask],
                                             endpoint: Endpoint, tmp_path: Path) -> None:
    """Posts that land on a page the site did not have (two per page here) are submitted:
    the index began to list the page, so its first rendering is all new."""
    found = indexnow_app(make_app, endpoint, tmp_path / "pages", ENTRIES_PER_PAGE=2)
    with served(found.app) as base:
        endpoint.service = base
        found.sweep()
        insert_post(found.app, 50, "fills-page-two")
        insert_post(found.app, 51, "opens-page-three")
        found.sweep()
        found.submit()
    assert sorted(endpoint.urls()) == [f"{HOME}/fills-page-two/", f"{HOME}/opens-page-three/"]


def test_a_page_that_goes_away_submits_its_urls(make_app: Callable[..., Flask],
                                                endpoint: Endpoint, tmp_path: Path) -> None:
    """Trashing the posts of the last page takes the page out of the index: the URLs it
    listed are submitted as removed."""
    found = indexnow_app(make_app, endpoint, tmp_path / "pages", ENTRIES_PER_PAGE=2)
    with served(found.app) as base:
        endpoint.service = base
        found.sweep()
        assert found.app.test_client().get("/post-sitemap2.xml").status_code == 200
        write(found.app, "UPDATE wp_posts SET post_status = 'trash' WHERE ID = 3")
        found.sweep()
        found.submit()
    assert endpoint.urls() == [f"{HOME}/third-post/"]


def test_an_article_leaving_the_news_sitemap_is_not_submitted(site: Served,
                                                              endpoint: Endpoint) -> None:
    """Two days later the articles age out of the news sitemap: they still exist, so
    nothing is sent (the post sitemaps did not change)."""
    news = site.app.test_client().get("/news-sitemap.xml").get_data(as_text=True)
    assert f"{HOME}/first-post/" in news
    write(site.app, "UPDATE wp_options SET option_value = ? WHERE option_name = 'test_now'",
          str(2_000_000_000))
    site.sweep()
    assert f"{HOME}/first-post/" not in site.app.test_client().get(
        "/news-sitemap.xml").get_data(as_text=True)
    site.submit()
    assert endpoint.requests == []


def test_a_sweep_too_large_for_its_interval_reads_newest_pages_first(
        make_app: Callable[..., Flask], endpoint: Endpoint, tmp_path: Path) -> None:
    """When a sweep cannot read every page within its interval (here: no time at all), a new
    post is still found by the next sweep (last pages first), and an edit to an older page
    by a later one (the other pages in turn)."""
    found = indexnow_app(make_app, endpoint, tmp_path / "pages", ENTRIES_PER_PAGE=1)
    sweeper = found.feature.sweeper
    with served(found.app) as base:
        endpoint.service = base
        found.sweep()  # every page stored
        sweeper.budget = 0.0
        write(found.app, "UPDATE wp_posts SET post_modified_gmt = ? WHERE ID = 1", LATER)
        insert_post(found.app, 50, "newest")
        found.sweep()
        found.submit()
        assert f"{HOME}/newest/" in endpoint.urls()
        sweeps = 1
        while f"{HOME}/first-post/" not in endpoint.urls() and sweeps < 30:
            found.sweep()
            found.submit()
            sweeps += 1
    assert f"{HOME}/first-post/" in endpoint.urls() and sweeps > 1


def test_a_burst_of_500_edits_is_one_request(site: Served, endpoint: Endpoint) -> None:
    """500 posts published over four seconds of sweeps go out in one request."""
    for round_ in range(5):
        for n in range(100):
            insert_post(site.app, 1000 + round_ * 100 + n, f"burst-{round_}-{n}")
        site.sweep()  # one second later each time: the window never closes meanwhile
        site.feature.submitter.run_once()
    assert endpoint.requests == []
    site.submit()
    assert len(endpoint.requests) == 1 and len(set(endpoint.urls())) == 500


def test_12000_urls_are_two_requests(site: Served, endpoint: Endpoint) -> None:
    """12,000 changed URLs of one host are sent as 10,000 and 2,000."""
    site.feature.outbox.add(site.feature.plan.endpoints,
                            [f"{HOME}/p-{n}/" for n in range(12_000)])
    site.submit()
    assert [len(r["urlList"]) for r in endpoint.requests] == [10_000, 2_000]
    assert len(set(endpoint.urls())) == 12_000 and site.feature.outbox.length() == 0


def test_429_then_200_delivers_once(site: Served, endpoint: Endpoint) -> None:
    """A 429 holds the batch back; after the back-off it is delivered, once."""
    endpoint.answers.append(429)
    insert_post(site.app, 52, "busy")
    site.sweep()
    site.submit()
    assert endpoint.urls() == [] and site.feature.outbox.length() == 1
    site.feature.submitter.run_once()  # still held back: no second request at once
    assert len(endpoint.requests) == 1
    site.clock.advance(5)
    site.feature.submitter.run_once()
    site.clock.advance(60)
    site.feature.submitter.run_once()
    assert endpoint.urls() == [f"{HOME}/busy/"] and site.feature.outbox.length() == 0


def test_202_is_delivered(site: Served, endpoint: Endpoint) -> None:
    """202 (accepted, key validation pending) counts as delivered: not sent again."""
    endpoint.answers.append(202)
    insert_post(site.app, 55, "accepted-later")
    site.sweep()
    site.submit()
    site.submit()
    assert endpoint.urls() == [f"{HOME}/accepted-later/"] and len(endpoint.requests) == 1
    assert site.feature.outbox.length() == 0


def test_a_hanging_endpoint_never_delays_an_answer(site: Served, endpoint: Endpoint) -> None:
    """While the submitter waits on an endpoint that does not answer, sitemaps are served
    at once (submission runs in its own thread)."""
    endpoint.delay = 3.0
    insert_post(site.app, 56, "slow-endpoint")
    site.sweep()
    site.clock.advance(WINDOW)
    submitting = threading.Thread(target=site.feature.submitter.run_once)
    submitting.start()
    time.sleep(0.5)
    assert submitting.is_alive()  # still waiting on the endpoint
    start = time.monotonic()
    assert site.app.test_client().get("/post-sitemap.xml").status_code == 200
    assert time.monotonic() - start < 1.0
    submitting.join()
    assert endpoint.urls() == [f"{HOME}/slow-endpoint/"]


def test_retry_after_is_honoured(site: Served, endpoint: Endpoint) -> None:
    """A 429 with Retry-After: 120 is not retried before 120 s, then delivered."""
    endpoint.answers.append(429)
    endpoint.retry_after = "120"
    insert_post(site.app, 58, "told-to-wait")
    site.sweep()
    site.submit()
    site.clock.advance(110)
    site.feature.submitter.run_once()
    assert len(endpoint.requests) == 1
    site.clock.advance(15)
    site.feature.submitter.run_once()
    assert endpoint.urls() == [f"{HOME}/told-to-wait/"]


def test_500_is_retried(site: Served, endpoint: Endpoint) -> None:
    """A 500 is retried after the back-off, then delivered."""
    endpoint.answers.append(500)
    insert_post(site.app, 53, "flaky")
    site.sweep()
    site.submit()
    site.clock.advance(10)
    site.feature.submitter.run_once()
    assert endpoint.urls() == [f"{HOME}/flaky/"]


@pytest.mark.parametrize("status", [400, 403, 422])
def test_a_refusal_stops_the_host(site: Served, endpoint: Endpoint, status: int,
                                  caplog: pytest.LogCaptureFixture) -> None:
    """400/403/422 stop sending for the host with one log line; the URL stays queued."""
    endpoint.answers.append(status)
    insert_post(site.app, 54, "refused")
    site.sweep()
    site.submit()
    site.clock.advance(3600)
    site.feature.submitter.run_once()
    assert len(endpoint.requests) == 1 and site.feature.outbox.length() == 1
    assert len([r for r in caplog.records if "refused" in r.getMessage()]) == 1
    assert site.feature.outbox.facts("stop")[(endpoint.url, "example.test")]["status"] == status


def test_a_stop_ends_when_the_configuration_changes(make_app: Callable[..., Flask],
                                                    endpoint: Endpoint,
                                                    tmp_path: Path) -> None:
    """After a 403, a service started with another key on the same store sends the URLs
    that waited."""
    clock = Clock()
    first = indexnow_app(make_app, endpoint, tmp_path / "pages", clock)
    endpoint.answers.append(403)
    with served(first.app) as base:
        endpoint.service = base
        first.feature.outbox.add(first.feature.plan.endpoints, [f"{HOME}/held/"])
        first.submit()
        first.submit()
    assert len(endpoint.requests) == 1 and endpoint.accepted == []
    second = indexnow_app(make_app, endpoint, tmp_path / "pages", clock,
                          INDEXNOW_KEY="a-new-key-2026")
    with served(second.app) as base:
        endpoint.service = base
        second.submit()
    assert endpoint.urls() == [f"{HOME}/held/"]


def test_a_wrong_key_file_is_refused(make_app: Callable[..., Flask], endpoint: Endpoint,
                                     tmp_path: Path) -> None:
    """The endpoint refuses (403) when the service does not serve the key (fixed key
    replaced in the state by another), and the submitter stops for the host."""
    found = indexnow_app(make_app, endpoint, tmp_path / "pages")
    with served(found.app) as base:
        endpoint.service = base
        found.feature.plan = found.feature.submitter.plan = type(found.feature.plan)(
            found.feature.plan.endpoints, "not-the-served-key", WINDOW, 1.0, 10.0)
        found.feature.outbox.add(found.feature.plan.endpoints, [f"{HOME}/x/"])
        found.submit()
    assert endpoint.accepted == [] and endpoint.requests[0]["key"] == "not-the-served-key"
    assert found.feature.outbox.facts("stop")[(endpoint.url, "example.test")]["status"] == 403


def test_a_full_outbox_survives_a_restart(make_app: Callable[..., Flask], endpoint: Endpoint,
                                          tmp_path: Path) -> None:
    """A service stopped with URLs queued (the endpoint down) delivers them after a restart
    on the same store, once."""
    first = indexnow_app(make_app, endpoint, tmp_path / "pages")
    first.feature.outbox.add(first.feature.plan.endpoints, [f"{HOME}/a/", f"{HOME}/b/"])
    key = first.feature.key
    del first  # the process goes away without submitting
    second = indexnow_app(make_app, endpoint, tmp_path / "pages")
    assert second.feature.key == key  # generated once, kept in the store
    with served(second.app) as base:
        endpoint.service = base
        second.submit()
        second.submit()
    assert sorted(endpoint.urls()) == [f"{HOME}/a/", f"{HOME}/b/"]


def test_two_services_sharing_a_store_submit_each_url_once(
        make_app: Callable[..., Flask], endpoint: Endpoint, tmp_path: Path) -> None:
    """Two services on one store (in one process; tests/test_indexnow_processes.py runs
    real processes) queue in turn and submit at the same moment: every URL goes out once."""
    clock = Clock()
    services = [indexnow_app(make_app, endpoint, tmp_path / "pages", clock) for _ in range(2)]
    assert services[0].feature.key == services[1].feature.key
    urls = [f"{HOME}/p-{n}/" for n in range(300)]
    with served(services[0].app) as base:
        endpoint.service = base
        for batch in range(10):
            queuing = services[batch % 2].feature
            queuing.outbox.add(queuing.plan.endpoints, urls[batch * 30:(batch + 1) * 30])
            clock.advance(WINDOW)
            runs = [threading.Thread(target=s.feature.submitter.run_once) for s in services]
            for run in runs:
                run.start()
            for run in runs:
                run.join()
    assert sorted(endpoint.urls()) == sorted(urls)


def test_a_change_reaches_the_endpoint_within_60_seconds(
        make_app: Callable[..., Flask], endpoint: Endpoint, tmp_path: Path) -> None:
    """With the default sweep (20 s) and the real clock and threads, a published post is
    accepted by the endpoint well within 60 s of the database write (measured)."""
    app = make_app(small_site(), STORE=str(tmp_path / "pages"),
                   INDEXNOW_ENDPOINTS=endpoint.url)
    feature = active(service_of(app))
    assert feature is not None
    with served(app) as base:
        endpoint.service = base
        feature.sweeper.sweep()
        feature.start()
        try:
            start = time.monotonic()
            insert_post(app, 60, "timed")
            while not endpoint.urls() and time.monotonic() - start < 60:
                time.sleep(0.2)
        finally:
            feature.stop()
    assert endpoint.urls() == [f"{HOME}/timed/"]
    elapsed = endpoint.times[0] - start
    print(f"IndexNow: published -> accepted in {elapsed:.1f} s")
    assert elapsed < 60


def test_no_key_file_when_indexnow_is_off(make_app: Callable[..., Flask],
                                          tmp_path: Path) -> None:
    """Without endpoints nothing answers at /{key}.txt, and no hook watches the store."""
    app = make_app(small_site(), STORE=str(tmp_path / "pages"), INDEXNOW_KEY="abcdef123456")
    assert app.test_client().get("/abcdef123456.txt").status_code == 404
    assert active(service_of(app)) is None
    assert service_of(app).pages.on_replace is None  # type: ignore[union-attr]


def test_a_configured_key_is_served(make_app: Callable[..., Flask], endpoint: Endpoint,
                                    tmp_path: Path) -> None:
    """indexnow_key is the key served and sent, not a generated one."""
    found = indexnow_app(make_app, endpoint, tmp_path / "pages", INDEXNOW_KEY="my-key-2026")
    assert found.feature.key == "my-key-2026"
    assert found.app.test_client().get("/my-key-2026.txt").data == b"my-key-2026"


@pytest.mark.parametrize("key", ["short", "has space in it", "x" * 129, "under_score1"])
def test_an_invalid_key_is_a_config_error(key: str) -> None:
    """A key outside 8-128 of [A-Za-z0-9-] stops start-up with one line naming it."""
    with pytest.raises(ConfigError, match="WPSITEMAPS_INDEXNOW_KEY"):
        load_settings({"DATABASE_URL": "sqlite://", "INDEXNOW_KEY": key})


def test_on_names_the_shared_endpoint() -> None:
    """indexnow_endpoints = "on" is the shared api.indexnow.org endpoint; empty is off."""
    on = load_settings({"DATABASE_URL": "sqlite://", "INDEXNOW_ENDPOINTS": "on"})
    assert on.indexnow_endpoints == ("https://api.indexnow.org/indexnow",)
    assert load_settings({"DATABASE_URL": "sqlite://"}).indexnow_endpoints == ()
    with pytest.raises(ConfigError, match="WPSITEMAPS_INDEXNOW_ENDPOINTS"):
        load_settings({"DATABASE_URL": "sqlite://", "INDEXNOW_ENDPOINTS": "ftp://x/"})


class Refusing:
    """A store back end whose map writes fail while `down` (a busy lock, Redis away)."""

    def __init__(self, backend: object) -> None:
        self.backend = backend
        self.down = True

    def __getattr__(self, name: str) -> object:
        return getattr(self.backend, name)

    def set_fields(self, *args: object, **kwargs: object) -> None:
        if self.down:
            raise StoreError("map write refused (test)")
        self.backend.set_fields(*args, **kwargs)  # type: ignore[attr-defined]


def test_a_change_seen_while_the_store_fails_is_not_lost(site: Served,
                                                         endpoint: Endpoint) -> None:
    """The outbox's write fails when a change is found; the change is written once the
    store answers again, and delivered."""
    refusing = Refusing(site.feature.outbox.backend)
    site.feature.outbox.backend = refusing  # type: ignore[assignment]
    insert_post(site.app, 57, "while-down")
    site.sweep()
    assert "while-down" in site.app.test_client().get("/post-sitemap.xml").get_data(
        as_text=True)
    refusing.down = False
    site.submit()  # the pass writes what waited, and sends it on a later pass
    site.submit()
    assert endpoint.urls() == [f"{HOME}/while-down/"]
