"""Hostile data in the database: every response stays valid, bad values are dropped or
escaped, nothing crashes (SQLite with invalid UTF-8 bytes too, and MariaDB)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pymysql
import pytest
from flask import Flask

from tests.conftest import require_mariadb
from tests.support import wpdb
from tests.support.hostile import FORBIDDEN_OUTPUT
from tests.support.hostile import GOOD_SLUG
from tests.support.hostile import INVALID_UTF8
from tests.support.hostile import clip_for_mysql
from tests.support.hostile import hostile_site
from tests.support.hostile import poison_sqlite
from tests.support.sitemaps import assert_valid
from tests.support.sitemaps import fetch_all
from tests.support.sitemaps import parse_urlset
from wpsitemaps.content.urls import MAX_URL_LENGTH
from wpsitemaps.sitemaps.render import XML_FORBIDDEN
from wpsitemaps.web.context import service_of

NAMES = ("post", "page", "attachment", "category", "post_tag", "post_format", "author",
         "nav_menu_item", "revision")
BACKENDS = ["sqlite", pytest.param("mariadb", marks=pytest.mark.mariadb)]


@pytest.fixture(params=BACKENDS)
def hostile_app(request: pytest.FixtureRequest, make_app: Callable[..., Flask]) -> Flask:
    """The hostile site on each backend; on SQLite also poisoned with invalid UTF-8."""
    site = hostile_site()
    if request.param == "mariadb":
        clip_for_mysql(site)
    app = make_app(site, backend=request.param)
    url = service_of(app).settings.database_url
    if request.param == "sqlite":
        poison_sqlite(Path(url.removeprefix("sqlite:///")))
    return app


def all_bodies(app: Flask) -> dict[str, bytes]:
    """The index, every page it lists, and every sitemap name tried directly."""
    client = app.test_client()
    bodies = fetch_all(client)
    for name in NAMES:
        path = f"/{name}-sitemap.xml"
        resp = client.get(path)
        assert resp.status_code in (200, 404), (path, resp.status_code, resp.data[:200])
        if resp.status_code == 200:
            assert_valid(resp.data, path)
            bodies[path] = resp.data
    return bodies


def test_every_response_is_valid(hostile_app: Flask) -> None:
    """The index and every sitemap of the hostile site are 200 and pass validate.py."""
    bodies = all_bodies(hostile_app)
    assert "/post-sitemap.xml" in bodies and "/category-sitemap.xml" in bodies


def test_no_hostile_value_reaches_the_output(hostile_app: Flask) -> None:
    """No script or data URL, CDATA end, raw markup or forbidden character is served."""
    for path, body in all_bodies(hostile_app).items():
        text = body.decode("utf-8")
        for needle in FORBIDDEN_OUTPUT:
            assert needle not in text.lower(), (path, needle)
        assert not XML_FORBIDDEN.search(text), path


def test_every_url_is_listable(hostile_app: Flask) -> None:
    """Every <loc> and <image:loc> is an absolute http(s) URL of at most 2,048 characters."""
    for path, body in all_bodies(hostile_app).items():
        if path == "/sitemap_index.xml":
            continue
        for url in parse_urlset(body):
            for loc in (url.loc, *url.images):
                assert loc.startswith(("http://", "https://")), (path, loc[:100])
                assert len(loc) <= MAX_URL_LENGTH, (path, loc[:100])
                assert " " not in loc and '"' not in loc and "<" not in loc, (path, loc[:100])


def test_good_rows_survive(hostile_app: Flask) -> None:
    """The ordinary post among the hostile ones is still listed."""
    body = hostile_app.test_client().get("/post-sitemap.xml").data
    assert any(GOOD_SLUG in u.loc for u in parse_urlset(body))


def test_overlong_slugs_are_dropped(hostile_app: Flask) -> None:
    """A post or term whose URL would pass 2,048 characters is left out, not truncated."""
    for body in all_bodies(hostile_app).values():
        assert b"x" * 1000 not in body


def _insert_raw(name: str, value: bytes) -> Any:
    """Insert raw bytes into wp_posts.post_title as root; return what MariaDB stored."""
    with wpdb.root_conn(name) as con, con.cursor() as cur:
        cur.execute("INSERT INTO wp_posts (post_title, post_content, post_excerpt, to_ping, "
                    "pinged, post_content_filtered) VALUES (%s, '', '', '', '', '')", (value,))
        cur.execute("SELECT post_title FROM wp_posts WHERE ID = LAST_INSERT_ID()")
        return cur.fetchone()[0]


@pytest.mark.mariadb
def test_mariadb_keeps_invalid_utf8_out() -> None:
    """MariaDB's utf8mb4 columns (strict mode) refuse invalid UTF-8 bytes, so only SQLite can
    hold them; control characters are stored as they are."""
    require_mariadb()
    name = wpdb.create_mariadb("rawbytes")
    try:
        with pytest.raises(pymysql.err.DataError) as info:
            _insert_raw(name, INVALID_UTF8)
        assert info.value.args[0] == 1366  # ER_TRUNCATED_WRONG_VALUE_FOR_FIELD
        assert _insert_raw(name, b"a\x01\x00b") == "a\x01\x00b"
    finally:
        wpdb.drop_mariadb(name)
