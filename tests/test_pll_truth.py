"""pll-small (WordPress + Polylang 3.4.6): every URL, language and hreflang group served equals
what WordPress + Polylang printed (the truth file), on SQLite and MariaDB."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from tests.conftest import require_mariadb
from tests.support import wpdb
from tests.support.sitemaps import SM
from tests.support.sitemaps import assert_valid
from tests.support.sitemaps import fetch_all
from tests.support.sitemaps import parse_urlset
from wpsitemaps import create_app

XHTML = "{http://www.w3.org/1999/xhtml}"
NEWS = "{http://www.google.com/schemas/sitemap-news/0.9}"
# The `event` type and `genre` taxonomy are registered in PHP (see the fixture's README); the
# types helper (#15) reads them from Polylang's rewritten rules, this test states them.
PLL_CONFIG: dict[str, Any] = {
    "TABLE_PREFIX": "wp_",
    "POST_TYPES": {"event": {"rewrite_slug": "events", "has_archive": True},
                   "peer_internal": {"exclude": True}},
    "TAXONOMIES": {"genre": {"rewrite_slug": "genre"}},
    "NOW": "option:peer_generated_at",
}
SITEMAPS = [("post_types", "post"), ("post_types", "page"), ("post_types", "event"),
            ("taxonomies", "category"), ("taxonomies", "post_tag"), ("taxonomies", "genre"),
            ("authors", "author")]


@pytest.fixture(scope="module")
def pll_truth() -> dict[str, Any]:
    """pll-small.truth.json."""
    data: dict[str, Any] = json.loads(wpdb.PLL_TRUTH.read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def pll_sqlite(tmp_path_factory: pytest.TempPathFactory) -> str:
    """pll-small in SQLite."""
    path = tmp_path_factory.mktemp("pll") / "pll.sqlite"
    return f"sqlite:///{wpdb.load_peer_sqlite(path, wpdb.PLL_SQL)}"


@pytest.fixture(scope="module")
def pll_mariadb() -> Iterator[str]:
    """pll-small in MariaDB, read through the SELECT-only user."""
    require_mariadb()
    name = wpdb.create_mariadb("pll", wpdb.PLL_SQL)
    yield wpdb.mariadb_url(name)
    wpdb.drop_mariadb(name)


@pytest.fixture(params=["sqlite", pytest.param("mariadb", marks=pytest.mark.mariadb)])
def pll_docs(request: pytest.FixtureRequest) -> dict[str, bytes]:
    """Every document served for pll-small, once per backend."""
    url: str = request.getfixturevalue("pll_sqlite" if request.param == "sqlite"
                                       else "pll_mariadb")
    app: Flask = create_app({"TESTING": True, "DATABASE_URL": url, **PLL_CONFIG})
    return fetch_all(app.test_client())


def expected(truth: dict[str, Any], kind: str, name: str) -> dict[str, dict[str, str]]:
    """{loc: hreflang} of one sitemap in the truth, first links first, paged URLs included."""
    block = truth[kind] if kind == "authors" else truth[kind][name]
    out: dict[str, dict[str, str]] = {}
    for item in block.get("first_links", []) + block["entries"]:
        out[item["loc"]] = item.get("hreflang", {})
        for paged in item.get("pages", []):
            out[paged] = {}
    return out


def served(docs: dict[str, bytes], name: str) -> dict[str, dict[str, str]]:
    """{loc: {hreflang: href}} of one served sitemap."""
    out: dict[str, dict[str, str]] = {}
    for url in parse_urlset(docs[f"/{name}-sitemap.xml"]):
        out[url.loc] = {link.get("hreflang", ""): link.get("href", "")
                        for link in url.element.findall(XHTML + "link")}
    return out


@pytest.mark.parametrize(("kind", "name"), SITEMAPS)
def test_locs_equal_truth(pll_docs: dict[str, bytes], pll_truth: dict[str, Any], kind: str,
                          name: str) -> None:
    """Every <loc> of the sitemap, in order, is the URL WordPress + Polylang print."""
    assert list(served(pll_docs, name)) == list(expected(pll_truth, kind, name))


@pytest.mark.parametrize(("kind", "name"), SITEMAPS)
def test_hreflang_equals_truth(pll_docs: dict[str, bytes], pll_truth: dict[str, Any],
                               kind: str, name: str) -> None:
    """Each URL's hreflang group (codes, URLs and order) is what Polylang prints on its page."""
    want = expected(pll_truth, kind, name)
    got = served(pll_docs, name)
    assert {k: list(v.items()) for k, v in got.items()} == {
        k: list(v.items()) for k, v in want.items()}


def test_news_language_is_the_post_language(pll_docs: dict[str, bytes],
                                            pll_truth: dict[str, Any]) -> None:
    """news:language of each article is its Polylang language (en, de, es)."""
    body = pll_docs["/news-sitemap.xml"]
    got = {u.loc: u.element.findtext(f"{NEWS}news/{NEWS}publication/{NEWS}language")
           for u in parse_urlset(body)}
    assert got == {e["loc"]: e["language"] for e in pll_truth["news"]["entries"]}
    assert set(got.values()) == {"en", "de", "es"}


def test_every_document_is_valid(pll_docs: dict[str, bytes]) -> None:
    """Every served document, hreflang links included, validates (sitemap XSD + xhtml)."""
    for path, body in pll_docs.items():
        assert_valid(body, path)
    assert any(b"xhtml:link" in body for body in pll_docs.values())


def test_nothing_private_in_any_language(pll_docs: dict[str, bytes],
                                         pll_truth: dict[str, Any]) -> None:
    """No excluded or private object of any language is served as a <loc>."""
    locs = {u.loc for path, body in pll_docs.items() if path != "/sitemap_index.xml"
            for u in parse_urlset(body)}
    forbidden = {item[key] for item in pll_truth["excluded"] + pll_truth["private"]["posts"]
                 for key in ("loc", "would_be_loc") if item.get(key)}
    forbidden |= {item["loc"] for item in pll_truth["excluded_terms"]
                  + pll_truth["excluded_users"] if item.get("loc")}
    langs = {item.get("lang") for item in pll_truth["excluded"]}
    assert {"en", "de", "es"} <= langs and forbidden
    assert sorted(locs & forbidden) == []


def test_index_has_no_hreflang(pll_docs: dict[str, bytes]) -> None:
    """The index lists sitemaps only: no xhtml links there."""
    assert b"xhtml" not in pll_docs["/sitemap_index.xml"]
    assert pll_docs["/sitemap_index.xml"].count(SM.strip("{}").encode()) == 1


def test_no_unpublished_translation_in_hreflang(pll_docs: dict[str, bytes],
                                                pll_truth: dict[str, Any]) -> None:
    """No hreflang link points at a draft, pending, private, future or trashed translation."""
    hrefs = {link.get("href") for path, body in pll_docs.items() if path != "/sitemap_index.xml"
             for u in parse_urlset(body) for link in u.element.findall(XHTML + "link")}
    unpublished = {item[key] for item in pll_truth["private"]["posts"] + pll_truth["excluded"]
                   if item.get("status") in ("draft", "pending", "private", "future", "trash")
                   for key in ("loc", "would_be_loc") if item.get(key)}
    assert len(hrefs) > 80 and len(unpublished) > 20
    assert sorted(hrefs & unpublished) == []


def test_video_uploader_links_carry_the_language(pll_docs: dict[str, bytes]) -> None:
    """video:uploader info is the author archive as Polylang links it (default language)."""
    body = pll_docs["/video-sitemap.xml"].decode()
    assert 'info="http://127.0.0.1:8088/en/author/' in body
    assert 'info="http://127.0.0.1:8088/author/' not in body
