"""Posts published after the page bounds were computed are on a page at once (issue #22).

The page bounds are cached for `cache_ttl`; the rows newer than them (the tail) fill the
last page up to `entries_per_page` and go on new pages that the index lists at once, a
draft published under an old ID goes on the page whose range holds it, and the index dates
every page by the entries that page lists. Everything here goes through HTTP, with the page
store on unless WPSITEMAPS_TEST_STORE=off (window 0: every request revalidates, so stale
fingerprints would show).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from datetime import timedelta
from pathlib import Path

import pytest
from flask import Flask
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from tests.support.builder import Site
from tests.support.publish import Publisher
from tests.support.publish import post_pages
from tests.support.publish import post_url
from tests.support.publish import refresh_bounds
from tests.support.storeclock import Clock
from tests.support.storeclock import with_clock
from wpsitemaps.web.context import service_of

NOW = Site().now  # the site's clock (option test_now): the bounds pass looks at it too
WINDOW = 5


def site_of(kinds: list[str]) -> Site:
    """A site whose rows 1..n are `kinds`: 'publish', 'draft', 'future' (scheduled for
    the last hour, WP-Cron not run yet) or 'page' (a row of another type)."""
    site = Site()
    for kind in kinds:
        if kind == "page":
            site.post(post_type="page")
        elif kind == "future":
            site.post(status="future", date=NOW - timedelta(minutes=30))
        else:
            site.post(status=kind)
    return site


def served(app: Flask) -> list[str]:
    """Every post URL on the post pages the index lists (checked by post_pages())."""
    return [url for page in post_pages(app) for url in page]


def publisher(app: Flask, site: Site) -> Publisher:
    """A Publisher for the app's database, handing out the IDs after the site's."""
    return Publisher(app, NOW, len(site.rows["posts"]) + 1)


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("mariadb",
                                                            marks=pytest.mark.mariadb)])
def test_posts_published_into_a_full_last_page_go_on_new_pages(
        make_app: Callable[..., Flask], backend: str) -> None:
    """Ten posts published while the last of two pages of 7 is full are on pages 3 and 4,
    which the index lists at once (they were on no page until the bounds refresh)."""
    site = site_of(["publish"] * 14)
    app = make_app(site, backend, ENTRIES_PER_PAGE=7)
    assert [len(p) for p in post_pages(app)] == [7, 7]
    pub = publisher(app, site)
    new = []
    for _ in range(10):
        new.append(pub.insert())
        pub.insert("inherit", "revision")  # WordPress writes a revision beside each post
    pages = post_pages(app)
    assert [len(p) for p in pages] == [7, 7, 7, 3]
    assert pages[2] + pages[3] == [post_url(pid) for pid in new]


def test_new_posts_fill_the_last_page_before_starting_one(
        make_app: Callable[..., Flask]) -> None:
    """A last page of 3 takes the next 4 new posts; the 5th and 6th start page 3."""
    site = site_of(["publish"] * 10)
    app = make_app(site, ENTRIES_PER_PAGE=7)
    assert [len(p) for p in post_pages(app)] == [7, 3]
    pub = publisher(app, site)
    new = [pub.insert() for _ in range(6)]
    pages = post_pages(app)
    assert [len(p) for p in pages] == [7, 7, 2]
    assert pages[1][3:] + pages[2] == [post_url(pid) for pid in new]


def test_refresh_keeps_every_page_where_it_was(make_app: Callable[..., Flask]) -> None:
    """The pages derived from the tail are the ones the next bounds pass computes: after
    the refresh every post is on the same page at the same address."""
    site = site_of(["publish"] * 14)
    app = make_app(site, ENTRIES_PER_PAGE=7)
    post_pages(app)
    pub = publisher(app, site)
    for _ in range(9):
        pub.insert()
    before = post_pages(app)
    refresh_bounds(app)
    assert post_pages(app) == before


def test_draft_published_inside_a_full_page_keeps_its_last_post(
        make_app: Callable[..., Flask]) -> None:
    """A draft published under its old ID, inside the range of full page 1, joins that page:
    the page's last post stays on it (it was cut off and on no page)."""
    site = site_of(["publish"] * 3 + ["draft"] + ["publish"] * 11)
    app = make_app(site, ENTRIES_PER_PAGE=7)
    assert [len(p) for p in post_pages(app)] == [7, 7]
    publisher(app, site).publish_draft(4)
    pages = post_pages(app)
    assert [len(p) for p in pages] == [8, 7]
    assert post_url(4) in pages[0] and post_url(8) in pages[0]


def test_draft_published_below_the_first_post_goes_on_page_1(
        make_app: Callable[..., Flask]) -> None:
    """A draft older than every published post (its ID below page 1's first) joins page 1."""
    site = site_of(["draft"] + ["publish"] * 7)
    app = make_app(site, ENTRIES_PER_PAGE=7)
    assert [len(p) for p in post_pages(app)] == [7]
    publisher(app, site).publish_draft(1)
    assert post_pages(app) == [[post_url(pid) for pid in range(1, 9)]]


def test_first_post_of_an_empty_type_is_listed_at_once(make_app: Callable[..., Flask]) -> None:
    """A type with no post when the bounds were computed gets its page 1 (home link and the
    new post) in the index at once."""
    site = site_of(["page"])
    app = make_app(site)
    assert post_pages(app) == []
    pid = publisher(app, site).insert()
    assert post_pages(app) == [[post_url(pid)]]


def test_scheduled_post_published_late_starts_a_page(
        make_app: Callable[..., Flask]) -> None:
    """A post scheduled half an hour ago, written before the bounds pass (its ID above the
    last post's, below the pass's highest) and published by WP-Cron after it, while the
    last page is full: it starts page 3."""
    site = site_of(["publish"] * 14 + ["future"])
    app = make_app(site, ENTRIES_PER_PAGE=7)
    assert [len(p) for p in post_pages(app)] == [7, 7]
    publisher(app, site).cron_publish(15)
    assert post_pages(app)[2:] == [[post_url(15)]]


def test_new_post_is_listed_within_the_store_window(make_app: Callable[..., Flask],
                                                    tmp_path: Path) -> None:
    """The freshness bound of docs/performance.md: a post published into a full last page is
    on a page listed by the index once the stored documents' window has passed."""
    site = site_of(["publish"] * 14)
    app = make_app(site, ENTRIES_PER_PAGE=7, STORE=str(tmp_path), STORE_WINDOW=WINDOW)
    clock = with_clock(app)
    post_pages(app)
    pid = publisher(app, site).insert()
    clock.advance(WINDOW)
    assert post_url(pid) in served(app)


def test_backdated_publication_is_listed_after_the_bounds_refresh(
        make_app: Callable[..., Flask]) -> None:
    """The slower half of the bound: a draft written before the bounds pass and published
    with a date two days back is not in the tail; it is listed once the bounds are older
    than cache_ttl and the background refresh they start has run."""
    site = site_of(["publish"] * 7 + ["draft"])
    app = make_app(site, ENTRIES_PER_PAGE=7)
    bounds_clock = Clock()
    service_of(app).values.clock = bounds_clock
    post_pages(app)
    publisher(app, site).publish_draft(8, date=NOW - timedelta(days=2))
    bounds_clock.advance(300)  # cache_ttl's default
    app.test_client().get("/sitemap_index.xml")  # stale bounds: starts the refresh
    # Pages are compared with the index only once the refresh is over: while it runs, an
    # index rendered from the old bounds may be followed by a page read after the new ones.
    background = service_of(app).background
    assert background is not None
    deadline = time.monotonic() + 30
    while background.running() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert post_url(8) in served(app)


@dataclass
class Model:
    """What a run has published, and what it may still publish."""

    published: set[int] = field(default_factory=set)
    drafts: list[int] = field(default_factory=list)
    scheduled: list[int] = field(default_factory=list)
    old_ids: int = 0  # posts published under an old ID since the bounds were computed

    @classmethod
    def of(cls, kinds: list[str]) -> Model:
        """The model of site_of(kinds)."""
        model = cls()
        for pid, kind in enumerate(kinds, start=1):
            {"publish": model.published.add, "draft": model.drafts.append,
             "future": model.scheduled.append}.get(kind, lambda _: None)(pid)
        return model


EVENTS = st.one_of(
    st.tuples(st.just("insert"), st.sampled_from(["publish", "draft", "future", "page",
                                                  "revision"]), st.integers(0, 59)),
    st.tuples(st.sampled_from(["publish_draft", "cron_publish"]), st.integers(0, 99),
              st.just(0)),
    st.tuples(st.just("refresh"), st.just(0), st.just(0)),
)


def apply(app: Flask, pub: Publisher, model: Model, event: tuple[object, ...]) -> None:
    """Write one event to the site and the model."""
    op, arg, minutes = event
    if op == "insert":
        kind = str(arg)
        post_type = {"page": "page", "revision": "revision"}.get(kind, "post")
        status = {"page": "publish", "revision": "inherit"}.get(kind, kind)
        pid = pub.insert(status, post_type, NOW - timedelta(minutes=int(str(minutes))))
        {"publish": model.published.add, "draft": model.drafts.append,
         "future": model.scheduled.append}.get(kind, lambda _: None)(pid)
    elif op == "refresh":
        refresh_bounds(app)
        model.old_ids = 0
    else:
        waiting = model.drafts if op == "publish_draft" else model.scheduled
        if waiting:
            pid = waiting.pop(int(str(arg)) % len(waiting))
            (pub.publish_draft if op == "publish_draft" else pub.cron_publish)(pid)
            model.published.add(pid)
            model.old_ids += 1


def check(app: Flask, model: Model, size: int) -> None:
    """Every published post is on exactly one page; the index lists pages 1..n, each
    answering 200 with the entries that date it (post_pages()); every page but the last is
    full, and none holds more than the posts published under old IDs since the bounds."""
    pages = post_pages(app)
    assert sorted(url for page in pages for url in page) == sorted(
        post_url(pid) for pid in model.published)
    assert all(len(page) >= size for page in pages[:-1])
    assert all(len(page) <= size + model.old_ids for page in pages)


def run(make_app: Callable[..., Flask], kinds: list[str], events: list[tuple[object, ...]],
        size: int) -> None:
    """Serve site_of(kinds), then check after each event."""
    site = site_of(kinds)
    app = make_app(site, ENTRIES_PER_PAGE=size)
    pub, model = publisher(app, site), Model.of(kinds)
    check(app, model, size)
    for event in events:
        apply(app, pub, model, event)
        check(app, model, size)


def property_settings(examples: int) -> settings:
    """Hypothesis settings of the HTTP property tests: slow examples, one app each."""
    return settings(max_examples=examples, deadline=None, suppress_health_check=[
        HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@property_settings(25)
@given(kinds=st.lists(st.sampled_from(["publish", "publish", "draft", "future", "page"]),
                      max_size=30),
       events=st.lists(EVENTS, max_size=12))
def test_every_published_post_is_on_exactly_one_page_of_7(
        make_app: Callable[..., Flask], kinds: list[str],
        events: list[tuple[object, ...]]) -> None:
    """Any publishes between refreshes (new IDs, drafts published under old IDs, scheduled
    posts published late): every published post is on exactly one page of 7."""
    run(make_app, kinds, events, 7)


@property_settings(6)
@given(published=st.sampled_from([999, 1000, 1001, 2000]),
       extra=st.lists(st.tuples(st.integers(0, 2000), st.sampled_from(["draft", "future"])),
                      max_size=3),
       events=st.lists(EVENTS, max_size=5))
def test_every_published_post_is_on_exactly_one_page_of_1000(
        make_app: Callable[..., Flask], published: int, extra: list[tuple[int, str]],
        events: list[tuple[object, ...]]) -> None:
    """The same with Yoast's default pages of 1,000, around full pages."""
    kinds = ["publish"] * published
    for position, kind in extra:
        kinds.insert(min(position, len(kinds)), kind)
    run(make_app, kinds, events, 1000)
