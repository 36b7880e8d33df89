"""Polylang modes written by real WordPress 6.1 + real Polylang 3.4.6 (tests/oracle/polylang/):
`hidden` (directory, default language hidden, static front pages without redirect_lang) and
`subdomain` (languages on de./fr. hosts, posts on front). Every published object's URL and
the hreflang tags WordPress printed on it (requested over HTTP from the running site) must be
what we serve, on SQLite and MariaDB."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.conftest import require_mariadb
from tests.support import wpdb
from tests.support.sitemaps import assert_valid
from tests.support.sitemaps import fetch_all
from tests.support.sitemaps import parse_urlset
from wpsitemaps import create_app

FIXTURES = wpdb.REPO / "tests" / "fixtures" / "polylang"
XHTML = "{http://www.w3.org/1999/xhtml}"
VARIANTS = ("hidden", "subdomain")
CONFIG = {"TABLE_PREFIX": "wp_", "NOW": "1796109000",
          "POST_TYPES": {"event": {"rewrite_slug": "events", "has_archive": True}}}


def load_truth(variant: str) -> dict[str, Any]:
    """The variant's truth file."""
    data: dict[str, Any] = json.loads((FIXTURES / f"{variant}.truth.json").read_text("utf-8"))
    return data


@pytest.fixture(scope="module")
def databases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """{sqlite-variant: URL}: each dump in SQLite."""
    out: dict[str, str] = {}
    base = tmp_path_factory.mktemp("plloracle")
    for variant in VARIANTS:
        dump = FIXTURES / f"{variant}.sql"
        out[f"sqlite-{variant}"] = "sqlite:///" + str(
            wpdb.load_peer_sqlite(base / f"{variant}.sqlite", dump))
    yield out


@pytest.fixture(scope="module")
def mariadb_urls() -> Iterator[dict[str, str]]:
    """{variant: URL} of the dumps in MariaDB."""
    require_mariadb()
    names = {v: wpdb.create_mariadb(f"plloracle{v}", FIXTURES / f"{v}.sql") for v in VARIANTS}
    yield {v: wpdb.mariadb_url(n) for v, n in names.items()}
    for name in names.values():
        wpdb.drop_mariadb(name)


def served(url: str, variant: str) -> dict[str, dict[str, str]]:
    """{loc: {hreflang: href}} over every content sitemap served for the database, on every
    language's host (one set per host in subdomain mode: tests/test_pll_hosts.py)."""
    app: Flask = create_app({"TESTING": True, "DATABASE_URL": url, **CONFIG})
    docs = [body for lang in load_truth(variant)["languages"]
            for body in fetch_all(app.test_client(), lang["home_url"].rstrip("/")).items()]
    out: dict[str, dict[str, str]] = {}
    for path, body in docs:
        assert_valid(body, path)
        if path in ("/sitemap_index.xml", "/news-sitemap.xml", "/video-sitemap.xml"):
            continue
        for u in parse_urlset(body):
            out[u.loc] = {a.get("hreflang", ""): a.get("href", "")
                          for a in u.element.findall(XHTML + "link")}
    return out


def objects(truth: dict[str, Any]) -> dict[str, dict[str, str]]:
    """{loc: hreflang} of every published post and every term with posts (itself or below)."""
    out = {p["loc"]: p.get("hreflang", {}) for p in truth["posts"] if p["status"] == "publish"}
    terms = truth["terms"]
    for t in terms:
        # A child's hierarchical URL starts with its parent's: an empty parent with posts
        # below is listed too (get_terms(hide_empty) keeps it).
        if any(o["count"] > 0 for o in terms if o["loc"].startswith(t["loc"])):
            out[t["loc"]] = t.get("hreflang", {})
    return out


def url_for(request: pytest.FixtureRequest, backend: str, variant: str) -> str:
    """The database URL of one backend and variant."""
    if backend == "mariadb":
        urls: dict[str, str] = request.getfixturevalue("mariadb_urls")
        return urls[variant]
    dbs: dict[str, str] = request.getfixturevalue("databases")
    return dbs[f"sqlite-{variant}"]


BACKENDS = ["sqlite", pytest.param("mariadb", marks=pytest.mark.mariadb)]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_object_url_and_hreflang(request: pytest.FixtureRequest, backend: str,
                                       variant: str) -> None:
    """Each published object is served at WordPress's URL with WordPress's hreflang tags."""
    truth = load_truth(variant)
    got = served(url_for(request, backend, variant), variant)
    want = objects(truth)
    assert len(want) >= 20
    assert {loc: got.get(loc) for loc in want} == want


@pytest.mark.parametrize("variant", VARIANTS)
def test_nothing_else_but_archives_and_homes(request: pytest.FixtureRequest,
                                             variant: str) -> None:
    """Beyond the objects, only the language homes, the event archives and the author (in
    each language) are listed, and nothing unpublished (draft, private) in any language."""
    truth = load_truth(variant)
    got = served(url_for(request, "sqlite", variant), variant)
    # The author archive is listed on each language's host (Yoast + Polylang do too: see
    # tests/fixtures/polylang/sub-yoast/*/author-sitemap.xml).
    author = "/" + truth["author"].split("/", 3)[3]
    homes = {lang["home_url"] for lang in truth["languages"]} | {truth["author"]} | {
        lang["home_url"].rstrip("/") + author for lang in truth["languages"]}
    extra = set(got) - set(objects(truth))
    assert all(loc in homes or loc.endswith("/events/") for loc in extra), extra
    hidden = {p["loc"] for p in truth["posts"] if p["status"] != "publish"}
    assert hidden and not hidden & set(got)


def test_language_homes_carry_hreflang(request: pytest.FixtureRequest) -> None:
    """With posts on the front (subdomain variant) each language home is listed with the
    hreflang tags WordPress printed there."""
    truth = load_truth("subdomain")
    got = served(url_for(request, "sqlite", "subdomain"), "subdomain")
    assert {lang["home_url"]: got.get(lang["home_url"]) for lang in truth["languages"]} == {
        lang["home_url"]: lang["hreflang"] for lang in truth["languages"]}


def test_fixture_was_written_by_polylang() -> None:
    """The committed dumps hold Polylang's own rows (option, language terms, groups)."""
    for variant in VARIANTS:
        dump = (FIXTURES / f"{variant}.sql").read_text("utf-8")
        assert "'polylang'" in dump and "post_translations" in dump and "term_language" in dump
        assert Path(FIXTURES / f"{variant}.truth.json").stat().st_size > 5000
