"""Cached lists follow events (issue #26): term and author lists, page bounds and the
newest dates are kept by the value cache for `cache_ttl`; with an event source live, an
event touching what one is computed from has it computed again on its next read, in every
worker (the generation is read from the change ledger in the store).

Through HTTP, on SQLite and MariaDB, with the store's clock injected: the first request
after the event serves, for every document, what a fresh render serves.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask

from tests.support.builder import Site
from tests.support.sitemaps import assert_valid
from tests.support.storeclock import with_clock
from tests.test_change_freshness import NOW
from tests.test_change_freshness import PATHS
from tests.test_change_freshness import fresh
from tests.test_change_freshness import live_source
from tests.test_change_freshness import write
from wpsitemaps import create_app
from wpsitemaps.cache.values import ValueCache
from wpsitemaps.changes.model import Change
from wpsitemaps.web.context import service_of

WINDOW = 2
TTL = 3600  # what docs/change-sources.md suggests with an event source
BACKENDS = ["sqlite", pytest.param("mariadb", marks=pytest.mark.mariadb)]
# A change as WordPress writes it and the events its hooks report.
CHANGES: dict[str, tuple[list[str], list[Change]]] = {
    "term rename": (["UPDATE wp_terms SET slug = 'headlines' WHERE slug = 'news'"],
                    [Change("term", 1, taxonomy="category")]),
    "new term": (["INSERT INTO wp_terms (term_id, name, slug, term_group)"
                  " VALUES (7, 'Sport', 'sport', 0)",
                  "INSERT INTO wp_term_taxonomy (term_taxonomy_id, term_id, taxonomy,"
                  " description, parent, count) VALUES (7, 7, 'category', '', 0, 1)",
                  "INSERT INTO wp_term_relationships (object_id, term_taxonomy_id,"
                  " term_order) VALUES (3, 7, 0)"],
                 [Change("term", 7, taxonomy="category"),
                  Change("post", 3, post_type="post")]),
    "author slug": (["UPDATE wp_users SET user_nicename = 'someone-else'"],
                    [Change("user", 1)]),
    "post moves category": (
        ["UPDATE wp_term_relationships SET term_taxonomy_id = 2 WHERE object_id = 1",
         "UPDATE wp_term_taxonomy SET count = 0 WHERE term_taxonomy_id = 1",
         "UPDATE wp_term_taxonomy SET count = 2 WHERE term_taxonomy_id = 2",
         f"UPDATE wp_posts SET post_modified = '{NOW}', post_modified_gmt = '{NOW}'"
         " WHERE ID = 1"],
        [Change("post", 1, post_type="post")]),
    "post update": ([f"UPDATE wp_posts SET post_modified = '{NOW}',"
                     f" post_modified_gmt = '{NOW}' WHERE ID = 3"],
                    [Change("post", 3, post_type="post")]),
}


def two_categories() -> Site:
    """Three published posts in two categories (News: the first; World: the second), a
    page."""
    site = Site()
    news = site.term("News", "category", slug="news")
    world = site.term("World", "category", slug="world")
    site.post("First post", name="first-post", terms=(news,))
    site.post("Second post", name="second-post", terms=(world,))
    site.post("Third post", name="third-post")
    site.post("About", post_type="page", name="about")
    return site


def stored(make_app: Callable[..., Flask], tmp_path: Path, backend: str) -> Flask:
    return make_app(two_categories(), backend, STORE=str(tmp_path / "pages"),
                    STORE_WINDOW=WINDOW, CACHE_TTL=TTL, CHANGE_SOURCE="plugin")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("kind", list(CHANGES))
def test_the_first_request_after_an_event_serves_the_new_list(
        make_app: Callable[..., Flask], tmp_path: Path, backend: str, kind: str) -> None:
    """Every document (the index's dates, the home link's date, term and author pages) is
    what a fresh render serves on the first request after the event, well within
    `cache_ttl`; before the event, the stored documents are served as they were."""
    sqls, changes = CHANGES[kind]
    app = stored(make_app, tmp_path, backend)
    clock = with_clock(app)
    live_source(app)
    client = app.test_client()
    old = {path: client.get(path).data for path in PATHS}
    clock.advance(WINDOW + 1)
    assert {path: client.get(path).data for path in PATHS} == old
    write(app, sqls)
    clock.advance(WINDOW + 1)
    assert {path: client.get(path).data for path in PATHS} == old  # no event yet
    service_of(app).apply_changes(changes, "plugin")
    new = {path: client.get(path).data for path in PATHS}
    for path in PATHS:
        assert_valid(new[path])
        assert new[path] == fresh(app, path), (kind, path)
    assert new != old


def test_another_worker_follows_the_event_too(make_app: Callable[..., Flask],
                                              tmp_path: Path) -> None:
    """Two workers on one store: the event reaches one of them; the other, which holds the
    old term list in its own memory, serves the renamed term on its next request."""
    sqls, changes = CHANGES["term rename"]
    one = stored(make_app, tmp_path, "sqlite")
    clock = with_clock(one)
    settings = service_of(one).settings
    other = create_app({"TESTING": True, "DATABASE_URL": settings.database_url,
                        "TABLE_PREFIX": settings.table_prefix, "NOW": settings.now,
                        "STORE": settings.store, "STORE_WINDOW": WINDOW, "CACHE_TTL": TTL,
                        "CHANGE_SOURCE": "plugin"})
    service_of(other).pages.clock = clock  # type: ignore[union-attr]
    live_source(one)
    path = "/category-sitemap.xml"
    old = other.test_client().get(path).data
    assert b"/category/news/" in old
    write(one, sqls)
    service_of(one).apply_changes(changes, "plugin")
    clock.advance(WINDOW + 1)  # what was rendered less than store_window ago is served
    new = other.test_client().get(path).data
    assert b"/category/headlines/" in new and new == fresh(other, path)


class SlowClock:
    """The value cache's clock: `step` seconds pass on every reading (a computation takes
    one step)."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 1000.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.parametrize("step, served", [(0.01, "new"), (5.0, "old")])
def test_a_slow_value_of_an_older_generation_is_served_while_it_is_computed_again(
        step: float, served: str) -> None:
    """A value whose generation moved is computed in the request when it is quick; one that
    took seconds (page bounds of a million posts) is served as it was while the background
    refresh computes it, as a value past its TTL is, and the refresh computes it."""
    asked: list[int] = []
    cache = ValueCache(TTL, SlowClock(step))
    assert cache.get("k", lambda: "old", gen="1") == "old"
    assert cache.get("k", lambda: "new", gen="2", on_stale=lambda: asked.append(1)) == served
    assert asked == ([1] if served == "old" else [])
    assert cache.get("k", lambda: "new", gen="2", force=True) == "new"
    assert cache.get("k", lambda: "newer", gen="2") == "new"
