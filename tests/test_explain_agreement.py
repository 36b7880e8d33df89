"""explain and the served sitemaps agree on every object of peer-small, and with the truth.

For every row of wp_posts, every term and every user, explain's verdict ("listed at loc")
is compared with the documents the app serves: an object is listed by explain exactly
when its URL is in the served sitemap, and every served URL is explained by some object.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from xml.etree import ElementTree as ET

import pytest
from flask import Flask
from sqlalchemy import Connection
from sqlalchemy import select

from tests.conftest import PEER_CONFIG
from tests.support.sitemaps import IMAGE
from tests.support.sitemaps import SM
from wpsitemaps import create_app
from wpsitemaps.config import load_settings
from wpsitemaps.explain.model import Explanation
from wpsitemaps.explain.others import explain_author
from wpsitemaps.explain.others import explain_term
from wpsitemaps.explain.posts import explain_post
from wpsitemaps.sitemaps.registry import Registry
from wpsitemaps.wordpress.db import make_engine
from wpsitemaps.wordpress.queries import lookup
from wpsitemaps.wordpress.site import build_site

PAGE_FILE = re.compile(r"/(?P<name>[a-z0-9_-]+)-sitemap[0-9]*\.xml$")
SUFFIX = re.compile(r"[0-9]+/$")


@pytest.fixture(scope="module")
def app(peer_sqlite_url: str) -> Flask:
    """peer-small on SQLite, configured as its README says."""
    return create_app({"TESTING": True, "DATABASE_URL": peer_sqlite_url, **PEER_CONFIG})


@pytest.fixture(scope="module")
def served(app: Flask) -> dict[str, dict[str, ET.Element]]:
    """{sitemap name: {loc: <url> element}} over every page the index lists."""
    client = app.test_client()
    index = ET.fromstring(client.get("/sitemap_index.xml").data)
    out: dict[str, dict[str, ET.Element]] = {}
    for loc in index.iter(f"{SM}loc"):
        match = PAGE_FILE.search(str(loc.text))
        assert match is not None
        doc = ET.fromstring(client.get(match.group(0)).data)
        for url in doc.iter(f"{SM}url"):
            out.setdefault(match["name"], {})[str(url.findtext(f"{SM}loc"))] = url
    return out


@pytest.fixture(scope="module")
def registry(peer_sqlite_url: str) -> Iterator[Registry]:
    """A registry built as a command builds it (no Flask), on its own connection."""
    settings = load_settings({"DATABASE_URL": peer_sqlite_url, **PEER_CONFIG}, environ={})
    engine = make_engine(settings)
    with engine.connect() as conn:
        yield Registry(conn, build_site(conn, settings))
    engine.dispose()


def _ids(conn: Connection, column: Any) -> list[int]:
    return [int(r[0]) for r in conn.execute(select(column).order_by(column))]


@pytest.fixture(scope="module")
def posts(registry: Registry) -> list[Explanation]:
    """explain on every row of wp_posts (revisions and attachments included)."""
    t = registry.site.tables
    return [explain_post(registry, lookup.post(registry.conn, t, pid), "ID")
            for pid in _ids(registry.conn, t.posts.c.ID)]


def _listing(ex: Explanation, sitemap: str) -> Any:
    return next(item for item in ex.listings if item.sitemap == sitemap)


def test_every_post_is_listed_exactly_when_served(posts: list[Explanation],
                                                  served: dict[str, dict[str, Any]]) -> None:
    """A post is listed by explain iff its URL is in its type's served sitemap, in the file
    explain names."""
    for ex in posts:
        content = _listing(ex, "content")
        locs = served.get(content.name, {})
        assert content.listed == (ex.url in locs), (ex.id, content)
        if content.listed:
            assert content.file == f"{content.name}-sitemap.xml"
            assert not content.reasons
        else:
            assert content.reasons, ex.id


def test_every_served_post_url_is_explained(posts: list[Explanation],
                                            served: dict[str, dict[str, Any]],
                                            registry: Registry) -> None:
    """Every served post-type URL is a listed post's, its page 2.., or a first link."""
    listed = {ex.url for ex in posts if _listing(ex, "content").listed}
    for provider in registry.post_types:
        firsts = {e.loc for e in provider.first_links}
        for loc in served[provider.name]:
            base = SUFFIX.sub("", loc)
            assert loc in listed or loc in firsts or base in listed, loc


def test_images_are_the_served_images(posts: list[Explanation],
                                      served: dict[str, dict[str, Any]]) -> None:
    """The images explain finds for a listed post are the served image:loc, in order."""
    seen = 0
    for ex in posts:
        content = _listing(ex, "content")
        if not content.listed:
            continue
        url = served[content.name][ex.url]
        expected = [str(e.text) for e in url.iter(f"{IMAGE}loc")]
        assert [img.url for img in ex.images] == expected, ex.id
        seen += len(expected)
    assert seen >= 40


def test_news_listing_matches_the_news_sitemap(posts: list[Explanation],
                                               served: dict[str, dict[str, Any]]) -> None:
    """A post is in the news sitemap iff explain says so; six are, as the truth says."""
    news = served.get("news", {})
    listed = {ex.url for ex in posts if _listing(ex, "news").listed}
    assert listed == set(news)
    assert len(listed) == 6


def test_video_listing_matches_the_video_sitemap(posts: list[Explanation],
                                                 served: dict[str, dict[str, Any]]) -> None:
    """A post is in the video sitemap iff explain lists at least one of its videos there."""
    listed = {ex.url for ex in posts if _listing(ex, "video").listed}
    assert listed == set(served["video"])
    for ex in posts:
        if ex.url in listed:
            assert any(v.listed for v in ex.videos), ex.id


def test_every_term_is_listed_exactly_when_served(registry: Registry,
                                                  served: dict[str, dict[str, Any]]) -> None:
    """A term is listed by explain iff its URL is in its taxonomy's served sitemap."""
    t = registry.site.tables
    listed: set[str] = set()
    for term_id in sorted(set(_ids(registry.conn, t.term_taxonomy.c.term_id))):
        for ex in explain_term(registry, term_id, "ID"):
            content = ex.listings[0]
            assert content.listed == (ex.url in served.get(content.name, {})), ex
            assert content.listed or content.reasons
            if content.listed:
                listed.add(str(ex.url))
    names = [p.name for p in registry.providers if p.name in ("category", "post_tag", "genre")]
    assert listed == {loc for name in names for loc in served[name]}


def test_every_user_is_listed_exactly_when_served(registry: Registry,
                                                  served: dict[str, dict[str, Any]]) -> None:
    """A user is listed by explain iff the author sitemap has their URL."""
    t = registry.site.tables
    listed = set()
    for uid in _ids(registry.conn, t.users.c.ID):
        ex = explain_author(registry, uid, "ID")
        content = ex.listings[0]
        assert content.listed == (ex.url in served["author"]), ex
        if content.listed:
            listed.add(ex.url)
    assert listed == set(served["author"])
