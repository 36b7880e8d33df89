"""The active SEO plugin decides (issue #24), on the databases real WordPress 6.1 wrote with
one real SEO plugin active and leftovers of the others (tests/oracle/seoplugins/): what we
serve over HTTP holds every URL the plugin's own sitemaps list, on SQLite and MariaDB;
leftover markers of plugins that no longer run remove nothing; `check` and `explain` say
which plugin's markers count."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.conftest import require_mariadb
from tests.support import wpdb
from tests.support.network import fetch_site
from tests.support.network import load_ms_sqlite
from tests.support.network import network_app
from tests.support.network import process_app
from tests.support.network import site_address
from tests.support.network import sqlite_exec
from tests.support.sitemaps import fetch_all
from tests.support.sitemaps import parse_urlset
from tests.test_seoplugin_fixtures import FIXTURES
from tests.test_seoplugin_fixtures import VARIANTS
from tests.test_seoplugin_fixtures import listed
from tests.test_seoplugin_fixtures import truth
from wpsitemaps import create_app
from wpsitemaps.check import run_check
from wpsitemaps.config import load_settings
from wpsitemaps.explain.command import run_explain

PLUGINS = {"yoast-leftovers": "Yoast", "aioseo4": "All in One SEO", "rankmath": "Rank Math",
           "seopress": "SEOPress", "tsf": "The SEO Framework"}
NAMES = {"yoast": "Yoast", "rankmath": "Rank Math", "aioseo": "All in One SEO",
         "seopress": "SEOPress", "tsf": "The SEO Framework"}


@pytest.fixture(scope="module")
def sqlite_urls(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """{variant: SQLite URL} of every dump, through the shared loader."""
    base = tmp_path_factory.mktemp("seoserve")
    return {v: f"sqlite:///{wpdb.load_dump_sqlite(FIXTURES / f'{v}.sql', base / f'{v}.db')}"
            for v in VARIANTS}


@pytest.fixture(scope="module")
def mariadb_urls() -> Iterator[dict[str, str]]:
    """{variant: URL} of the Yoast and AIOSEO dumps in fresh MariaDB databases, read
    through a SELECT-only user."""
    require_mariadb()
    names = {v: wpdb.create_mariadb(f"seo_{v.split('-')[0]}", FIXTURES / f"{v}.sql")
             for v in ("yoast-leftovers", "aioseo4")}
    yield {v: wpdb.mariadb_url(name) for v, name in names.items()}
    for name in names.values():
        wpdb.drop_mariadb(name)


def app_for(url: str, **config: Any) -> Flask:
    """An app serving one dump with nothing but the database configured."""
    return create_app({"TESTING": True, "DATABASE_URL": url, "TABLE_PREFIX": "wp_", **config})


@pytest.fixture(scope="module",
                params=["sqlite", pytest.param("mariadb", marks=pytest.mark.mariadb)])
def served(request: pytest.FixtureRequest) -> dict[str, dict[str, bytes]]:
    """{variant: every document served (validated by validate.py --google in fetch_all)}
    for the Yoast and AIOSEO dumps, on each database."""
    urls = request.getfixturevalue(f"{request.param}_urls")
    return {v: fetch_all(app_for(urls[v]).test_client()) for v in ("yoast-leftovers", "aioseo4")}


def urls_of(docs: dict[str, bytes]) -> dict[str, str | None]:
    """{loc: lastmod} of every URL in the served sitemaps."""
    return {u.loc: u.lastmod for path, body in docs.items() if path != "/sitemap_index.xml"
            for u in parse_urlset(body)}


def page_parts(extra: set[str], ours: set[str]) -> set[str]:
    """The extras that are not /N/ pages of a multi-page post we list."""
    return {u for u in extra if not (re.search(r"/\d+/$", u)
                                     and re.sub(r"\d+/$", "", u) in ours)}


def test_yoast_site_lists_every_url_yoast_lists(served: dict[str, dict[str, bytes]]) -> None:
    """With Yoast active and leftover Rank Math, AIOSEO 3, SEOPress and TSF markers, every
    URL Yoast lists is listed; the only extras are p01's /2/ and /3/ pages."""
    ours, theirs = set(urls_of(served["yoast-leftovers"])), listed(truth("yoast-leftovers"))
    assert theirs - ours == set()
    assert ours - theirs and page_parts(ours - theirs, ours) == set()


def test_yoast_author_lastmod_is_yoasts(served: dict[str, dict[str, bytes]]) -> None:
    """The author sitemap lists Yoast's four authors (not the subscriber), each dated by
    `_yoast_wpseo_profile_updated` exactly as Yoast dates it."""
    want = {u["loc"]: u["lastmod"]
            for u in truth("yoast-leftovers")["sitemaps"]["author-sitemap"]["urls"]}
    got = {u.loc: u.lastmod for u in parse_urlset(
        served["yoast-leftovers"]["/author-sitemap.xml"])}
    assert got == want


def test_aioseo_site_lists_every_url_aioseo_lists(served: dict[str, dict[str, bytes]]) -> None:
    """With AIOSEO 4 active, every URL AIOSEO lists is listed but the two posts whose AIOSEO
    canonical points elsewhere (AIOSEO keeps them; p13's, its own URL, keeps it listed), and
    nothing else but p01's pages: its noindexed posts, excluded post and term (and the
    term's posts), its unlisted type and taxonomy stay out, leftovers of other plugins
    remove nothing."""
    data = truth("aioseo4")
    ours, theirs = set(urls_of(served["aioseo4"])), listed(data)
    locs = {p["slug"]: p["loc"] for p in data["posts"]}
    assert theirs - ours == canonical_elsewhere(data, "aioseo") == {locs["p05"], locs["p09"]}
    assert locs["p13"] in ours
    assert page_parts(ours - theirs, ours) == set()


def test_aioseo_noindexed_posts_are_not_listed(served: dict[str, dict[str, bytes]]) -> None:
    """No object AIOSEO noindexes (robots in wp_aioseo_posts) is in any served sitemap."""
    data = truth("aioseo4")
    noindexed = {p["loc"] for p in data["posts"]
                 if any(m.startswith("aioseo:noindex") for m in p["marks"])}
    assert len(noindexed) == 5
    assert not noindexed & set(urls_of(served["aioseo4"]))


def test_aioseo_author_sitemap_is_off(served: dict[str, dict[str, bytes]],
                                      sqlite_urls: dict[str, str]) -> None:
    """AIOSEO's author sitemap is switched off (sitemap.general.author false): the index
    does not name it and /author-sitemap.xml is 404."""
    assert "/author-sitemap.xml" not in served["aioseo4"]
    assert b"author-sitemap" not in served["aioseo4"]["/sitemap_index.xml"]
    assert app_for(sqlite_urls["aioseo4"]).test_client().get(
        "/author-sitemap.xml").status_code == 404


def check_lines(url: str, **env: str) -> list[str]:
    """What `wpsitemaps check` prints for a database."""
    lines: list[str] = []
    settings = load_settings(environ={"WPSITEMAPS_DATABASE_URL": url, **env})
    assert run_check(settings, lines.append) == 0
    return lines


@pytest.mark.parametrize("variant", VARIANTS)
def test_check_names_the_plugin_and_ignores_leftovers(sqlite_urls: dict[str, str],
                                                      variant: str) -> None:
    """`check` names the active plugin, says its own markers are honoured and every other
    plugin's leftover noindex is ignored because that plugin is not active."""
    lines = check_lines(sqlite_urls[variant])
    plugin = PLUGINS[variant]
    assert f"seo plugins   {plugin} (from active_plugins): only its markers count" in lines
    others = {p for p in PLUGINS.values() if p != plugin}
    ignored = {p for p in others for line in lines
               if re.fullmatch(rf"seo markers   .* carr(y|ies) {p}( 3)? noindex; "
                               rf"{p} is not active: ignored", line)}
    assert ignored == others
    assert any(line.startswith("seo markers") and f"carry {plugin} noindex" in line
               and line.endswith("honoured") for line in lines) or variant == "aioseo4"


def test_check_counts_rank_math_leftovers_on_the_yoast_site(sqlite_urls: dict[str, str],
                                                             ) -> None:
    """The Yoast site's leftover Rank Math noindex is counted per kind."""
    assert ("seo markers   4 posts and 1 term and 1 user carry Rank Math noindex; Rank Math "
            "is not active: ignored") in check_lines(sqlite_urls["yoast-leftovers"])


def test_setting_overrides_the_active_plugins(sqlite_urls: dict[str, str]) -> None:
    """seo_plugins = rankmath (a Rank Math loaded as a must-use plugin): Rank Math's markers
    count and Yoast's do not, whatever active_plugins says; check says why."""
    data = truth("yoast-leftovers")
    locs = {p["slug"]: p["loc"] for p in data["posts"]}
    docs = fetch_all(app_for(sqlite_urls["yoast-leftovers"], SEO_PLUGINS="rankmath")
                     .test_client())
    ours = set(urls_of(docs))
    assert {locs["p02"], locs["p04"]} & ours == set()  # Rank Math leftover noindex
    assert {locs["p03"], locs["p07"]} <= ours  # Yoast noindex, Yoast not counted
    lines = check_lines(sqlite_urls["yoast-leftovers"], WPSITEMAPS_SEO_PLUGINS="rankmath")
    assert "seo plugins   Rank Math (from the setting seo_plugins): only its markers count" \
        in lines


def test_no_known_plugin_active_counts_every_marker(sqlite_urls: dict[str, str],
                                                    tmp_path: Path) -> None:
    """With no known SEO plugin in active_plugins, every plugin's noindex counts, as before:
    the Yoast site's Rank Math leftovers are then left out, and check says so."""
    db = tmp_path / "none.db"
    shutil.copy(sqlite_urls["yoast-leftovers"].removeprefix("sqlite:///"), db)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE wp_options SET option_value = 'a:0:{}' "
                    "WHERE option_name = 'active_plugins'")
    locs = {p["slug"]: p["loc"] for p in truth("yoast-leftovers")["posts"]}
    ours = set(urls_of(fetch_all(app_for(f"sqlite:///{db}").test_client())))
    assert {locs["p02"], locs["p03"], locs["p08"], locs["p12"]} & ours == set()
    lines = check_lines(f"sqlite:///{db}")
    assert any(line.startswith("seo plugins   none of Yoast") for line in lines)
    assert ("seo markers   4 posts and 1 term carry Rank Math noindex; no known "
            "SEO plugin is active: honoured") in lines


def test_missing_aioseo_table_is_one_check_finding_not_a_503(
        sqlite_urls: dict[str, str], tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """AIOSEO active without its table: the sitemaps are served (200, valid), the log and
    `check` say once that its per-post noindex is not applied."""
    db = tmp_path / "noaioseo.db"
    shutil.copy(sqlite_urls["aioseo4"].removeprefix("sqlite:///"), db)
    with sqlite3.connect(db) as con:
        con.execute("DROP TABLE wp_aioseo_posts")
    docs = fetch_all(app_for(f"sqlite:///{db}").test_client())
    assert "/post-sitemap.xml" in docs
    assert "wp_aioseo_posts cannot be read" in caplog.text
    problems = [line for line in check_lines(f"sqlite:///{db}") if "PROBLEM" in line]
    assert problems == ["seo PROBLEM   All in One SEO is active but wp_aioseo_posts cannot be "
                        "read (missing, or no SELECT on it): its per-post noindex is not "
                        "applied"]


def explain_lines(url: str, target: str) -> list[str]:
    """What `wpsitemaps explain` prints for one URL."""
    lines: list[str] = []
    assert run_explain(load_settings(environ={"WPSITEMAPS_DATABASE_URL": url}), target,
                       False, lines.append) == 0
    return lines


def test_explain_names_the_plugin_and_the_ignored_leftover(sqlite_urls: dict[str, str],
                                                           ) -> None:
    """explain: p02 (leftover Rank Math noindex) is listed with the leftover named as
    ignored; p03 is noindexed by Yoast, the active plugin."""
    locs = {p["slug"]: p["loc"] for p in truth("yoast-leftovers")["posts"]}
    url = sqlite_urls["yoast-leftovers"]
    p02 = "\n".join(explain_lines(url, locs["p02"]))
    assert "content sitemap: LISTED" in p02
    assert "carries a Rank Math noindex marker; Rank Math is not active: ignored" in p02
    p03 = "\n".join(explain_lines(url, locs["p03"]))
    assert "- noindexed by Yoast" in p03
    assert "SEO markers that count: Yoast (from active_plugins)" in p03


def canonical_elsewhere(data: dict[str, Any], plugin: str) -> set[str]:
    """URLs of the objects whose canonical, set through the active plugin, is another URL."""
    return {o["loc"] for o in data["posts"] + data["terms"]
            if f"{plugin}:canonical_posts" in o["marks"] or f"{plugin}:canonical_terms"
            in o["marks"]} - {o["loc"] for o in data["posts"] + data["terms"]
                              if o.get("page", {}).get("canonical") == o["loc"]}


@pytest.mark.parametrize("variant", ["rankmath", "seopress", "tsf"])
def test_other_plugins_sites_list_what_the_plugin_lists(sqlite_urls: dict[str, str],
                                                        variant: str) -> None:
    """Rank Math, SEOPress and TSF sites: every URL the plugin lists is listed but those it
    canonicalises elsewhere (TSF lists them; a sitemap should not), nothing the plugin
    noindexes is; on Rank Math and SEOPress, with their sitemap settings, nothing else but
    p01's pages (TSF has no term or author sitemap to compare with)."""
    data, plugin = truth(variant), variant
    ours = set(urls_of(fetch_all(app_for(sqlite_urls[variant]).test_client())))
    theirs = listed(data)
    assert theirs - ours <= canonical_elsewhere(data, plugin)
    own_noindex = {o["loc"] for o in data["posts"] + data["terms"] + data["users"]
                   if any(m.startswith(f"{plugin}:noindex") for m in o["marks"])}
    assert len(own_noindex) >= 5 and not own_noindex & ours
    if variant != "tsf":
        assert page_parts(ours - theirs, ours) == set()


def test_explain_names_aioseo_settings(sqlite_urls: dict[str, str]) -> None:
    """explain on the AIOSEO site: a post of an excluded term, a type AIOSEO does not list
    and an author, each with AIOSEO's setting as the reason."""
    locs = {p["slug"]: p["loc"] for p in truth("aioseo4")["posts"]}
    url = sqlite_urls["aioseo4"]
    assert ("    - left out by All in One SEO's sitemap settings (a post of an excluded term)"
            in explain_lines(url, locs["p19"]))
    assert ("    - post type 'recipe' is not in All in One SEO's sitemap settings"
            in explain_lines(url, locs["bread"]))
    assert ("    - canonical points to https://elsewhere.example.com/original/"
            in explain_lines(url, locs["p09"]))
    alice = next(u["loc"] for u in truth("aioseo4")["users"] if u["login"] == "alice")
    assert ("    - the author sitemap is switched off in All in One SEO's sitemap settings"
            in explain_lines(url, alice))


def edit_json_option(db: Path, name: str, edit: Any) -> None:
    """Change one JSON option of a SQLite copy, as AIOSEO's settings screen would save it."""
    with sqlite3.connect(db) as con:
        value = json.loads(con.execute("SELECT option_value FROM wp_options WHERE "
                                       "option_name = ?", (name,)).fetchone()[0])
        edit(value)
        con.execute("UPDATE wp_options SET option_value = ? WHERE option_name = ?",
                    (json.dumps(value), name))


def test_aioseo_search_appearance_and_author_switch(sqlite_urls: dict[str, str],
                                                    tmp_path: Path) -> None:
    """AIOSEO settings changed: events hidden from search (searchAppearance show false in
    aioseo_options_dynamic) have no sitemap; the author sitemap switched on
    (sitemap.general.author) is served."""
    db = tmp_path / "aioseo-edit.db"
    shutil.copy(sqlite_urls["aioseo4"].removeprefix("sqlite:///"), db)
    edit_json_option(db, "aioseo_options_dynamic", lambda v: v["searchAppearance"][
        "postTypes"]["event"].update(show=False))
    edit_json_option(db, "aioseo_options", lambda v: v["sitemap"]["general"].update(
        author=True))
    docs = fetch_all(app_for(f"sqlite:///{db}").test_client())
    assert "/event-sitemap.xml" not in docs
    authors = {u.loc.rstrip("/").rsplit("/", 1)[-1]
               for u in parse_urlset(docs["/author-sitemap.xml"])}
    assert {"alice", "bob"} <= authors


@pytest.mark.parametrize("mode", ["network", "process"])
def test_network_activated_plugin_decides(tmp_path: Path, mode: str) -> None:
    """ms-small with Yoast network-activated (`active_sitewide_plugins`, no site's
    active_plugins names it): on site 2 a post with only a leftover Rank Math noindex is
    listed, the post Yoast noindexes is not; with nothing active both stay out."""
    url = f"sqlite:///{load_ms_sqlite(tmp_path / 'ms.sqlite')}"
    slugs = {"yoast": "why-a-c-matters-6", "rank_math": "%e6%97%a5%e6%9c%ac"}

    def site2_locs() -> set[str]:
        app = network_app(url) if mode == "network" else process_app(url, 2)
        base, path = site_address(2)
        docs = fetch_site(app.test_client(), f"{base}{path}/sitemap_index.xml")
        return {u.loc for u in parse_urlset(docs["post"])}

    def listed_slugs() -> set[str]:
        locs = site2_locs()
        return {name for name, slug in slugs.items()
                if any(slug in loc.lower() for loc in locs)}

    assert listed_slugs() == set()
    sqlite_exec(url, "UPDATE wp_sitemeta SET meta_value = 'a:1:{s:24:\"wordpress-seo/wp-seo.php\""
                     ";i:1700000000;}' WHERE meta_key = 'active_sitewide_plugins'")
    assert listed_slugs() == {"rank_math"}
