"""IndexNow driven by the change stream (issues #26, #27): with an event source live, the
sweeper revalidates only the documents whose ledger buckets moved, and it starts as soon as
an event is delivered (in any worker: it reads the ledger's count of deliveries in the
store), so a term rename or an author's new slug reaches the endpoint within seconds of
its event, not at the next sweep interval.

Against the local endpoint of tests/support/indexnow.py, which fetches the key file from the
service over HTTP before accepting."""

from __future__ import annotations

import time
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import event

from tests.support.data import small_site
from tests.support.indexnow import Endpoint
from tests.support.indexnow import running_endpoint
from tests.support.indexnow import served
from tests.support.storeclock import Clock
from tests.test_change_freshness import write
from wpsitemaps.changes.model import Change
from wpsitemaps.changes.model import SourceHealth
from wpsitemaps.indexnow.feature import active
from wpsitemaps.web.context import service_of

HOME = "http://example.test"
BATCH = 1.0  # seconds: the batching window of these tests
BACKENDS = ["sqlite", pytest.param("mariadb", marks=pytest.mark.mariadb)]


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    """A local IndexNow endpoint."""
    with running_endpoint() as found:
        yield found


def live(app: Flask) -> None:
    service_of(app).report_health(SourceHealth("plugin", True, detail="test"))


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_sweep_reads_only_what_an_event_touched(make_app: Callable[..., Flask],
                                                  endpoint: Endpoint, tmp_path: Path,
                                                  backend: str) -> None:
    """With the source live and nothing reported, a sweep runs no SQL statement at all (it
    revalidated every page before, at 20 s intervals); after a post's event it reads that
    post's sitemap, and its change is submitted with what its new date dates (the home
    link, its author and its category, whose cached lists follow the event)."""
    app = make_app(small_site(), backend, STORE=str(tmp_path / "pages"), STORE_WINDOW=2,
                   CACHE_TTL=3600, INDEXNOW_ENDPOINTS=endpoint.url,
                   INDEXNOW_BATCH_WINDOW=BATCH, CHANGE_SOURCE="plugin")
    feature = active(service_of(app))
    assert feature is not None
    clock = Clock()
    service_of(app).pages.clock = clock  # type: ignore[union-attr]
    feature.outbox.clock = clock
    live(app)
    statements: list[str] = []
    with served(app) as base:
        endpoint.service = base
        feature.sweeper.sweep()  # stores every sitemap
        clock.advance(3)
        feature.sweeper.sweep()  # marks them with the heads of the values they came from
        event.listen(service_of(app).engine, "before_cursor_execute",
                     lambda *args: statements.append(str(args[2])))
        clock.advance(3)
        assert feature.sweeper.sweep() == 0
        assert statements == []
        write(app, ["UPDATE wp_posts SET post_modified_gmt = '2026-11-29 13:00:00' "
                    "WHERE post_name = 'second-post'"])
        clock.advance(3)
        assert feature.sweeper.sweep() == 0  # no event: nothing is read
        service_of(app).apply_changes([Change("post", 2, post_type="post")], "plugin")
        assert feature.sweeper.sweep() >= 1
        assert statements != []
        clock.advance(BATCH + 1)
        feature.submitter.run_once()
    # The post, and what its new date dates: the home link, its author, its category.
    assert sorted(endpoint.urls()) == [f"{HOME}/", f"{HOME}/author/admin/",
                                       f"{HOME}/category/uncategorized/",
                                       f"{HOME}/second-post/"]


@pytest.mark.parametrize("kind", ["term rename", "author slug"])
def test_an_event_reaches_the_endpoint_within_seconds(make_app: Callable[..., Flask],
                                                      endpoint: Endpoint, tmp_path: Path,
                                                      kind: str) -> None:
    """Real clock and threads, a sweep interval of 10 minutes: a term renamed or an author's
    new slug, with its event, reaches the endpoint (old and new URLs) well within 60 s: the
    event starts a sweep within a second, the term or author list is computed again, and the
    batching window later the submission is made."""
    sql, change, urls = {
        "term rename": ("UPDATE wp_terms SET slug = 'headlines' WHERE slug = 'news'",
                        Change("term", 1, taxonomy="category"),
                        [f"{HOME}/category/headlines/", f"{HOME}/category/news/"]),
        "author slug": ("UPDATE wp_users SET user_nicename = 'someone-else' WHERE ID = 1",
                        Change("user", 1),
                        [f"{HOME}/author/admin/", f"{HOME}/author/someone-else/"]),
    }[kind]
    app = make_app(small_site(), STORE=str(tmp_path / "pages"), CACHE_TTL=3600,
                   INDEXNOW_ENDPOINTS=endpoint.url, INDEXNOW_BATCH_WINDOW=BATCH,
                   INDEXNOW_SWEEP=600, CHANGE_SOURCE="plugin")
    feature = active(service_of(app))
    assert feature is not None
    live(app)
    with served(app) as base:
        endpoint.service = base
        feature.sweeper.sweep()
        feature.start()
        try:
            time.sleep(0.5)
            write(app, [sql])
            start = time.monotonic()
            service_of(app).apply_changes([change], "plugin")
            while len(endpoint.urls()) < 2 and time.monotonic() - start < 60:
                time.sleep(0.1)
        finally:
            feature.stop()
    assert sorted(endpoint.urls()) == urls
    elapsed = endpoint.times[0] - start
    print(f"IndexNow: {kind} event -> accepted in {elapsed:.1f} s")
    assert elapsed < 60
    assert elapsed < BATCH + 10  # the event, not the 10-minute sweep, started it
