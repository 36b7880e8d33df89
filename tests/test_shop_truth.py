"""shop-small (a WooCommerce shop) served with no configuration equals what WordPress computed,
on SQLite and on MariaDB: products, product categories and tags, attributes, the shipping
class and the shop archive come from WooCommerce's own options and tables."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from tests.conftest import require_mariadb
from tests.support import wpdb
from tests.support.sitemaps import fetch_all
from tests.support.sitemaps import parse_urlset
from wpsitemaps import create_app


@pytest.fixture(scope="module")
def shop_truth() -> dict[str, Any]:
    """shop-small.truth.json."""
    data: dict[str, Any] = json.loads(wpdb.SHOP_TRUTH.read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def shop_sqlite_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The shop dump in SQLite."""
    path = wpdb.load_dump_sqlite(wpdb.SHOP_SQL, tmp_path_factory.mktemp("shop") / "s.sqlite")
    return f"sqlite:///{path}"


@pytest.fixture(scope="module")
def shop_mariadb_url() -> Iterator[str]:
    """The shop dump in a fresh MariaDB database, read through a SELECT-only user."""
    require_mariadb()
    name = wpdb.create_mariadb("shop", wpdb.SHOP_SQL)
    yield wpdb.mariadb_url(name)
    wpdb.drop_mariadb(name)


@pytest.fixture(scope="module",
                params=["sqlite", pytest.param("mariadb", marks=pytest.mark.mariadb)])
def shop_docs(request: pytest.FixtureRequest) -> dict[str, bytes]:
    """Every document the app serves for the shop (validated by fetch_all), configured with
    nothing but the database (and the dump's clock)."""
    url = request.getfixturevalue(f"shop_{request.param}_url")
    app: Flask = create_app({"TESTING": True, "DATABASE_URL": url, "TABLE_PREFIX": "wp_",
                             "NOW": "option:peer_generated_at"})
    return fetch_all(app.test_client())


def expected(truth: dict[str, Any]) -> dict[str, list[str]]:
    """{sitemap name: locs in order} as the truth has them (first links, entries, pages)."""
    out: dict[str, list[str]] = {}
    for name, info in truth["post_types"].items():
        out[name] = [f["loc"] for f in info["first_links"]] + [
            loc for e in info["entries"] for loc in [e["loc"], *e.get("pages", [])]]
    for name, info in truth["taxonomies"].items():
        out[name] = [e["loc"] for e in info["entries"]]
    out["author"] = [e["loc"] for e in truth["authors"]["entries"]]
    return out


def test_sitemaps_are_the_truths(shop_docs: dict[str, bytes],
                                 shop_truth: dict[str, Any]) -> None:
    """The index names exactly the truth's content sitemaps (plus video and news)."""
    names = {p[1:-len("-sitemap.xml")] for p in shop_docs if p.endswith("-sitemap.xml")}
    assert names == set(expected(shop_truth)) | {"video", "news"}


def test_every_url_equals_the_truth(shop_docs: dict[str, bytes],
                                    shop_truth: dict[str, Any]) -> None:
    """Each sitemap's <loc>s are the truth's, in order, for all 107 URLs."""
    want = expected(shop_truth)
    got = {name: [u.loc for u in parse_urlset(shop_docs[f"/{name}-sitemap.xml"])]
           for name in want}
    assert got == want
    assert sum(len(v) for v in want.values()) == 107


def test_nothing_excluded_or_private_is_served(shop_docs: dict[str, bytes],
                                               shop_truth: dict[str, Any]) -> None:
    """No URL of an excluded or private row, term or user (variations, pa_size...) appears."""
    locs = {u.loc for path, body in shop_docs.items() if path != "/sitemap_index.xml"
            for u in parse_urlset(body)}
    forbidden = {item.get(key) for item in shop_truth["excluded"] + shop_truth["private"]["posts"]
                 + shop_truth["excluded_terms"] + shop_truth["excluded_users"]
                 for key in ("loc", "would_be_loc")} - {None}
    assert forbidden and not (forbidden & locs)

