"""End to end: each oracle variant served from SQLite and MariaDB lists exactly WordPress's URLs.

The expected <loc>s come only from the truth WordPress wrote (tests/oracle/README.md) and
Yoast's selection rules: published rows of listed types with their pages 2..n, the first
links (home, static front page, posts page, type archives), terms with posts (in hierarchical
taxonomies also empty parents of terms with posts) and authors with published posts.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.conftest import require_mariadb
from tests.support import oracle_data
from tests.support import wpdb
from tests.support.sitemaps import assert_valid
from tests.support.sitemaps import parse_index
from tests.support.sitemaps import parse_urlset
from wpsitemaps import create_app
from wpsitemaps.content.urls import encode_url

BACKENDS = ["sqlite", pytest.param("mariadb", marks=pytest.mark.mariadb)]


@pytest.fixture(scope="module", params=[(v, b) for v in oracle_data.VARIANTS for b in BACKENDS],
                ids=lambda p: f"{p[0]}-{p[1] if isinstance(p[1], str) else p[1].values[0]}")
def served(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, set[str]]]]:
    """(variant, {sitemap name: served locs}) over every page the index lists."""
    variant, backend = request.param
    backend = backend if isinstance(backend, str) else backend.values[0]
    name = None
    if backend == "mariadb":
        require_mariadb()
        name = wpdb.create_mariadb(f"oracle_{variant}", oracle_data.dump(variant))
        url = wpdb.mariadb_url(name)
    else:
        path = oracle_data.to_sqlite(variant, tmp_path_factory.mktemp("e2e") / "site.sqlite")
        url = f"sqlite:///{path}"
    app = create_app({"TESTING": True, "DATABASE_URL": url, **oracle_data.site_config(variant)})
    yield variant, fetch_locs(app.test_client(), oracle_data.truth(variant)["options"]["home"])
    if name is not None:
        wpdb.drop_mariadb(name)


def fetch_locs(client: FlaskClient, home: str) -> dict[str, set[str]]:
    """Every sitemap page the index lists, validated, as {sitemap name: locs}.

    The app answers at its root; on a sub-path site ('/blog') a proxy maps home there.
    """
    index = client.get("/sitemap_index.xml")
    assert index.status_code == 200
    assert_valid(index.data, "index")
    locs: dict[str, set[str]] = {}
    for loc, _ in parse_index(index.data):
        assert loc.startswith(home + "/"), loc
        resp = client.get(loc[len(home):])
        assert resp.status_code == 200, loc
        assert_valid(resp.data, loc)
        sitemap = loc[len(home) + 1:].split("-sitemap")[0]
        locs.setdefault(sitemap, set()).update(u.loc for u in parse_urlset(resp.data))
    return locs


def post_type_locs(truth: dict[str, Any], ptype: str) -> set[str]:
    """Permalinks and pages 2..n of the published rows of a type, plus Yoast's first links."""
    opts = truth["options"]
    front, posts_page = int(opts["page_on_front"]), int(opts["page_for_posts"])
    rows = {p["id"]: p for p in truth["posts"]}
    out = {u for p in rows.values() if p["post_type"] == ptype and p["listed"]
           and p["id"] != posts_page for u in (p["loc"], *p["pages"])}
    if ptype == "page":
        out.add(truth["home_url_slash"])
    elif ptype == "post":
        out.add(rows[posts_page]["loc"] if posts_page else truth["home_url_slash"])
    elif truth["post_types"][ptype]["archive_link"]:
        out.add(truth["post_types"][ptype]["archive_link"])
    assert not front or rows[front]["loc"] == truth["home_url_slash"]
    return {encode_url(u) for u in out}


def term_locs(truth: dict[str, Any], taxonomy: str) -> set[str]:
    """Terms with posts, and in hierarchical taxonomies their ancestors (get_terms hide_empty)."""
    terms = [t for t in truth["terms"] if t["taxonomy"] == taxonomy]
    by_slug = {t["slug"]: t for t in terms}
    keep = {t["slug"] for t in terms if t["count"] > 0}
    if truth["taxonomies"][taxonomy]["hierarchical"]:
        keep |= {a for t in terms if t["count"] > 0 for a in t["ancestors"]}
    return {encode_url(by_slug[s]["loc"]) for s in keep}


def test_post_type_sitemaps_list_exactly_wordpress_urls(
        served: tuple[str, dict[str, set[str]]]) -> None:
    """post, page and every listed custom type serve exactly their truth URLs."""
    variant, locs = served
    truth = oracle_data.truth(variant)
    types = [n for n, i in truth["post_types"].items() if i["listed"]]
    assert {t: locs.get(t, set()) for t in types} == {t: post_type_locs(truth, t) for t in types}


def test_taxonomy_sitemaps_list_exactly_wordpress_urls(
        served: tuple[str, dict[str, set[str]]]) -> None:
    """category, post_tag, genre, region and shelf serve exactly their truth URLs."""
    variant, locs = served
    truth = oracle_data.truth(variant)
    taxes = [n for n, i in truth["taxonomies"].items() if i["listed"]]
    assert {t: locs.get(t, set()) for t in taxes} == {t: term_locs(truth, t) for t in taxes}


def test_author_sitemap_lists_exactly_wordpress_urls(
        served: tuple[str, dict[str, set[str]]]) -> None:
    """Authors with published posts are listed with get_author_posts_url()."""
    variant, locs = served
    users = oracle_data.truth(variant)["users"]
    assert locs.get("author") == {encode_url(u["loc"]) for u in users if u["published_posts"]}


def test_no_other_sitemaps_are_served(served: tuple[str, dict[str, set[str]]]) -> None:
    """Only listed types get a sitemap: internal_note and internal_tag never do."""
    variant, locs = served
    truth = oracle_data.truth(variant)
    listed = {n for kind in ("post_types", "taxonomies")
              for n, i in truth[kind].items() if i["listed"]}
    assert set(locs) == listed | {"author"}


@pytest.mark.parametrize("variant", ["b", "c"])
def test_front_page_pages_are_listed(variant: str, tmp_path: Path) -> None:
    """The static front page's pages 2..n (_wp_link_page: /page/2, ?page=2) are listed too."""
    truth = oracle_data.truth(variant)
    front = next(p for p in truth["posts"] if p["id"] == int(truth["options"]["page_on_front"]))
    path = oracle_data.to_sqlite(variant, tmp_path / "site.sqlite")
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{path}",
                      **oracle_data.site_config(variant)})
    locs = fetch_locs(app.test_client(), truth["options"]["home"])
    assert front["pages"]
    assert {encode_url(u) for u in front["pages"]} <= locs["page"]
