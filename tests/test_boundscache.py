"""The value cache (page bounds...): TTL, stale-while-refresh, forced refresh, and its effect
on pages."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.support.builder import Site
from tests.support.sitemaps import parse_index
from wpsitemaps.cache.values import ValueCache
from wpsitemaps.cache.values import Values
from wpsitemaps.entries import PageBound
from wpsitemaps.serving.refresh import Refresher
from wpsitemaps.sitemaps.providers.base import Provider
from wpsitemaps.web.context import service_of


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_fresh_value_is_reused() -> None:
    """Within the TTL the value is computed once."""
    calls: list[int] = []
    cache = ValueCache(300, Clock())
    assert cache.get("k", lambda: calls.append(1) or len(calls)) == 1
    assert cache.get("k", lambda: calls.append(1) or len(calls)) == 1
    assert calls == [1]


def test_stale_value_is_served_and_a_refresh_is_asked_for() -> None:
    """Past the TTL the old value is returned at once and the refresher is called."""
    clock, asked = Clock(), []
    cache = ValueCache(300, clock)
    cache.get("k", lambda: "old")
    clock.now += 301
    assert cache.get("k", lambda: "new", on_stale=lambda: asked.append(1)) == "old"
    assert asked == [1]


def test_forced_get_recomputes() -> None:
    """force=True (the background refresh) computes and stores the new value."""
    cache = ValueCache(300, Clock())
    cache.get("k", lambda: "old")
    assert cache.get("k", lambda: "new", force=True) == "new"
    assert cache.get("k", lambda: "newer") == "new"


def test_ttl_zero_never_caches() -> None:
    """cache_ttl = 0 computes on every call."""
    cache = ValueCache(0, Clock())
    cache.get("k", lambda: "a")
    assert cache.get("k", lambda: "b") == "b"


def _trash(url: str, *ids: int) -> None:
    """Trash posts straight in the SQLite file (as WordPress would, meanwhile): unlike a new
    post, which is listed at once (sitemaps/tails.py), this leaves the page count as the
    cached bounds have it until they are refreshed."""
    con = sqlite3.connect(url.removeprefix("sqlite:///"))
    con.executemany("UPDATE wp_posts SET post_status = 'trash' WHERE ID = ?",
                    [(i,) for i in ids])
    con.commit()
    con.close()


def post_pages(client: FlaskClient) -> int:
    """How many post sitemap pages the index lists."""
    return sum("post-sitemap" in loc for loc, _ in parse_index(
        client.get("/sitemap_index.xml").data))


def test_background_refresh_updates_the_index(make_app: Callable[..., Flask]) -> None:
    """Posts trashed after the first request leave the index once the refresh has run."""
    site = Site()
    for i in range(3):
        site.post(f"Post {i}", name=f"p-{i}")
    app = make_app(site, ENTRIES_PER_PAGE=2)
    client = app.test_client()
    assert post_pages(client) == 2
    _trash(service_of(app).settings.database_url, 1, 2)
    assert post_pages(client) == 2  # still within the TTL
    service = service_of(app)
    Refresher(service).run(service.resolve("localhost", "/"))
    assert post_pages(client) == 1


def test_stale_cache_triggers_a_background_refresh(make_app: Callable[..., Flask]) -> None:
    """After the TTL a request gets the old index at once; a thread refreshes it."""
    site = Site()
    site.post("First", name="first")
    site.post("Second", name="second")
    app = make_app(site, ENTRIES_PER_PAGE=1)
    client = app.test_client()
    client.get("/sitemap_index.xml")
    _trash(service_of(app).settings.database_url, 1)
    cache = service_of(app).values
    cache.clock = lambda: time.monotonic() + 10_000  # everything is stale now
    assert post_pages(client) == 2
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        cache.clock = time.monotonic
        if post_pages(client) == 1:
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the background refresh never updated the index")


def test_slow_video_scan_runs_in_the_background(make_app: Callable[..., Flask],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """On a large site the video sitemap is not computed in a request: 503 and left out of
    the index until the background refresh has it, then listed and served."""
    from wpsitemaps.sitemaps.providers import video

    monkeypatch.setattr(video, "BACKGROUND_FROM", 0)  # treat this small site as large
    site = Site()
    url = "https://www.youtube.com/watch?v=abcdefghijk"
    site.post("Clip", name="clip", content=f"<p>Watch:</p>\n{url}\n<p>Done.</p>")
    app = make_app(site)
    client = app.test_client()
    resp = client.get("/video-sitemap.xml")
    assert resp.status_code == 503 and resp.headers["Retry-After"]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if any("video-sitemap" in loc for loc, _ in parse_index(
                client.get("/sitemap_index.xml").data)):
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the background refresh never listed the video sitemap")
    assert client.get("/video-sitemap.xml").status_code == 200


def test_a_slow_value_is_kept_twenty_times_its_cost() -> None:
    """A value that took 100 s to compute is kept 2,000 s, and a refresh of the others
    (force) leaves it alone until then: keeping it fresh never keeps the database busy more
    than a twentieth of the time."""
    from wpsitemaps.cache.values import SLOW_FACTOR

    clock = Clock()
    cache = ValueCache(300, clock)

    def slow(value: str) -> Callable[[], str]:
        def compute() -> str:
            clock.now += 100
            return value
        return compute

    assert cache.get("video", slow("first")) == "first"
    clock.now += 1000  # past cache_ttl, inside 20 x 100 s
    assert cache.get("video", slow("second"), force=True) == "first"
    assert cache.get("video", slow("second")) == "first"
    clock.now += SLOW_FACTOR * 100
    assert cache.get("video", slow("third"), force=True) == "third"


class Held(Provider):
    """A provider whose bounds take until the test lets them finish."""

    name = "held"
    gate = threading.Event()
    started = threading.Event()

    def compute_bounds(self) -> list[PageBound]:
        self.started.set()
        self.gate.wait(10)
        return [PageBound(1)]


class Quick(Provider):
    """A provider whose bounds are at hand."""

    name = "quick"

    def compute_bounds(self) -> list[PageBound]:
        return [PageBound(7)]


def test_one_providers_slow_bounds_never_delay_anothers() -> None:
    """While one thread computes a provider's bounds (a refresh waiting on a locked table),
    another thread gets another provider's bounds at once: no lock shared between them."""
    no_site: Any = None  # neither provider reads its site or connection
    held, quick = Held(no_site, no_site, Values()), Quick(no_site, no_site, Values())
    thread = threading.Thread(target=lambda: held.bounds, daemon=True)
    thread.start()
    try:
        assert Held.started.wait(10)
        got: list[list[PageBound]] = []
        reader = threading.Thread(target=lambda: got.append(quick.bounds), daemon=True)
        reader.start()
        reader.join(2)
        assert got == [[PageBound(7)]]
    finally:
        Held.gate.set()
        thread.join(10)
