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
    assert ("    - the author sitemap is switched off in All in One SEO's sitemap settings "
            "(sitemap.general.author)"
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
    assert ("seo sitemap   All in One SEO: post types recipe left out; taxonomies venue left "
            "out; post types event noindexed by default: only their posts indexed one by one; "
            "1 post and 1 term excluded by ID") in check_lines(f"sqlite:///{db}")
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


def copy_db(sqlite_urls: dict[str, str], variant: str, db: Path) -> str:
    """A SQLite copy of one dump, to edit as the plugin's screens would; its URL."""
    shutil.copy(sqlite_urls[variant].removeprefix("sqlite:///"), db)
    return f"sqlite:///{db}"


def event_slugs(docs: dict[str, bytes]) -> set[str] | None:
    """The event slugs of the served event sitemap, its type archive (/events/) aside
    (None: not served)."""
    body = docs.get("/event-sitemap.xml")
    return None if body is None else {u.loc.rstrip("/").rsplit("/", 1)[-1]
                                      for u in parse_urlset(body)} - {"events"}


def test_aioseo_noindexed_type_lists_posts_indexed_one_by_one(sqlite_urls: dict[str, str],
                                                              tmp_path: Path) -> None:
    """AIOSEO 4.9.9: events noindexed in search appearance (robotsMeta default false,
    noindex true) keep a sitemap listing only spring-fair, set to index in its editor
    panel (`Models\\Post::savePost()` writes robots_default 0, robots_noindex 0;
    `Sitemap/Helpers.php` checkForIndexedPost(), `Query.php` posts()); without that row
    the event sitemap is gone; explain names the setting for summer-gig."""
    db = tmp_path / "aioseo-type.db"
    url = copy_db(sqlite_urls, "aioseo4", db)
    edit_json_option(db, "aioseo_options_dynamic", lambda v: v["searchAppearance"][
        "postTypes"]["event"]["advanced"]["robotsMeta"].update(default=False, noindex=True))
    docs = fetch_all(app_for(url).test_client())
    assert event_slugs(docs) is None and b"event-sitemap" not in docs["/sitemap_index.xml"]
    with sqlite3.connect(db) as con:
        con.execute("DELETE FROM wp_aioseo_posts WHERE post_id = 37")
        con.execute("INSERT INTO wp_aioseo_posts (id, post_id, robots_default, "
                    "robots_noindex, created, updated) VALUES (9999, 37, 0, 0, "
                    "'2026-10-01 00:00:00', '2026-10-01 00:00:00')")
    assert event_slugs(fetch_all(app_for(url).test_client())) == {"spring-fair"}
    locs = {p["slug"]: p["loc"] for p in truth("aioseo4")["posts"]}
    assert ("    - post type 'event' is noindexed by default in All in One SEO's search "
            "appearance (aioseo_options_dynamic) and the post is not indexed one by one"
            in explain_lines(url, locs["summer-gig"]))


def edit_serialized_option(db: Path, name: str, edit: Any) -> None:
    """Change one serialized (PHP) option of a SQLite copy as the plugin's screen saves it."""
    from wpsitemaps.wordpress.phpdata import unserialize
    with sqlite3.connect(db) as con:
        value = unserialize(con.execute("SELECT option_value FROM wp_options WHERE "
                                        "option_name = ?", (name,)).fetchone()[0], name)
        assert isinstance(value, dict)
        edit(value)
        con.execute("UPDATE wp_options SET option_value = ? WHERE option_name = ?",
                    (php_serialize(value), name))


def php_serialize(value: Any) -> str:
    """PHP's serialize() of the plain values the options hold."""
    if isinstance(value, bool):
        return f"b:{int(value)};"
    if isinstance(value, int):
        return f"i:{value};"
    if isinstance(value, dict | list):
        items = value.items() if isinstance(value, dict) else enumerate(value)
        return f"a:{len(value)}:{{" + "".join(php_serialize(k) + php_serialize(v)
                                              for k, v in items) + "}"
    if value is None:
        return "N;"
    text = str(value)
    return f's:{len(text.encode())}:"{text}";'


def test_rank_math_type_and_author_robots(sqlite_urls: dict[str, str],
                                          tmp_path: Path) -> None:
    """Rank Math 1.0.273 titles: events noindexed by default (`pt_event_custom_robots` on,
    `pt_event_robots` [noindex]) list only old-event, whose `rank_math_robots` says index
    (is_post_indexable(): 'index' wins); author archives noindexed (`author_custom_robots`
    on, `author_robots` [noindex]) leave no author sitemap (404, not in the index), and
    explain and check name the setting."""
    db = tmp_path / "rankmath-robots.db"
    url = copy_db(sqlite_urls, "rankmath", db)
    assert "/author-sitemap.xml" in fetch_all(app_for(url).test_client())

    def titles(v: dict[Any, Any]) -> None:
        v.update(pt_event_custom_robots="on", pt_event_robots=["noindex"],
                 author_custom_robots="on")

    edit_serialized_option(db, "rank-math-options-titles", titles)
    with sqlite3.connect(db) as con:
        con.execute("DELETE FROM wp_postmeta WHERE post_id = 40 AND meta_key = "
                    "'rank_math_robots'")
        con.execute("INSERT INTO wp_postmeta (post_id, meta_key, meta_value) VALUES "
                    "(40, 'rank_math_robots', ?)", (php_serialize(["index"]),))
    app = app_for(url)
    docs = fetch_all(app.test_client())
    assert event_slugs(docs) == {"old-event"}
    assert b"author-sitemap" not in docs["/sitemap_index.xml"]
    assert app.test_client().get("/author-sitemap.xml").status_code == 404
    alice = next(u["loc"] for u in truth("rankmath")["users"] if u["login"] == "alice")
    assert any("author_robots noindex" in line for line in explain_lines(url, alice))
    assert ("seo sitemap   Rank Math: post types recipe left out; taxonomies venue left out; "
            "post types event noindexed by default: only their posts indexed one by one; "
            "no author sitemap (author_robots noindex); 1 post and 1 term excluded by ID"
            ) in check_lines(url)


def test_seopress_switches(sqlite_urls: dict[str, str], tmp_path: Path) -> None:
    """SEOPress 9.7.4 `seopress_xml_sitemap_option_name` as its settings screen saves it:
    events unchecked, the author and image sitemaps off leave /event-sitemap.xml and
    /author-sitemap.xml 404 and out of the index, and no <image:image>; the sitemaps
    switched off (`seopress_xml_sitemap_general_enable` unset) leave nothing served; explain
    names the setting."""
    db = tmp_path / "seopress-switches.db"
    url = copy_db(sqlite_urls, "seopress", db)
    with sqlite3.connect(db) as con:  # an image in p02, as the editor's image block saves it
        con.execute("UPDATE wp_posts SET post_content = post_content || '<figure class=\"wp-"
                    "block-image\"><img src=\"http://seopress.example.test/wp-content/uploads"
                    "/2026/10/fair.jpg\" alt=\"\"/></figure>' WHERE post_name = 'p02'")
    before = fetch_all(app_for(url).test_client())
    assert {"/event-sitemap.xml", "/author-sitemap.xml"} <= set(before)
    assert any(b"<image:image>" in body for body in before.values())

    def uncheck(v: dict[Any, Any]) -> None:
        del v["seopress_xml_sitemap_post_types_list"]["event"]
        del v["seopress_xml_sitemap_author_enable"]
        del v["seopress_xml_sitemap_img_enable"]

    edit_serialized_option(db, "seopress_xml_sitemap_option_name", uncheck)
    client = app_for(url).test_client()
    docs = fetch_all(client)
    assert "/post-sitemap.xml" in docs
    assert not {"/event-sitemap.xml", "/author-sitemap.xml"} & set(docs)
    assert b"event-sitemap" not in docs["/sitemap_index.xml"]
    assert not any(b"<image:image>" in body for body in docs.values())
    for path in ("/event-sitemap.xml", "/author-sitemap.xml"):
        assert client.get(path).status_code == 404
    alice = next(u["loc"] for u in truth("seopress")["users"] if u["login"] == "alice")
    assert any("(seopress_xml_sitemap_author_enable)" in line
               for line in explain_lines(url, alice))

    edit_serialized_option(db, "seopress_xml_sitemap_option_name",
                           lambda v: v.pop("seopress_xml_sitemap_general_enable"))
    client = app_for(url).test_client()
    assert set(fetch_all(client)) <= {"/sitemap_index.xml"}
    assert client.get("/post-sitemap.xml").status_code == 404
    hello = next(p["loc"] for p in truth("seopress")["posts"] if p["slug"] == "p02")
    assert ("    - SEOPress's sitemaps are switched off (seopress_xml_sitemap_general_enable)"
            in explain_lines(url, hello))
    assert ("seo sitemap   SEOPress's sitemaps are switched off "
            "(seopress_xml_sitemap_general_enable): nothing is served") in check_lines(url)


def test_tsf_noindexed_type_lists_posts_forced_to_index(sqlite_urls: dict[str, str],
                                                        tmp_path: Path) -> None:
    """The SEO Framework 5.1.4 with events noindexed (`noindex_post_types` [event => 1] in
    `autodescription-site-settings`, as its settings screen saves it): no event sitemap;
    spring-fair set to "force index" in its editor box (post meta `_genesis_noindex` = -1;
    meta/robots/args.class.php: the qubit wins over the type's setting) is then the one
    event listed; summer-gig's explain names the setting."""
    db = tmp_path / "tsf-force.db"
    url = copy_db(sqlite_urls, "tsf", db)
    edit_serialized_option(db, "autodescription-site-settings",
                           lambda v: v["noindex_post_types"].update(event=1))
    docs = fetch_all(app_for(url).test_client())
    assert event_slugs(docs) is None and b"event-sitemap" not in docs["/sitemap_index.xml"]
    with sqlite3.connect(db) as con:
        con.execute("INSERT INTO wp_postmeta (post_id, meta_key, meta_value) VALUES "
                    "(37, '_genesis_noindex', '-1')")
    assert event_slugs(fetch_all(app_for(url).test_client())) == {"spring-fair"}
    gig = next(p["loc"] for p in truth("tsf")["posts"] if p["slug"] == "summer-gig")
    assert ("    - post type 'event' is noindexed by default in The SEO Framework's settings "
            "(autodescription-site-settings noindex_post_types) and the post is not indexed "
            "one by one" in explain_lines(url, gig))


# AIOSEO Pro's term table: Pro is not public, so its shape is aioseo_posts' with term_id
# (the columns AIOSEO 4.9.9 reads from it, app/Common/Sitemap/Content.php).
AIOSEO_TERMS = ("CREATE TABLE wp_aioseo_terms (id INTEGER PRIMARY KEY, term_id BIGINT NOT NULL, "
                "title TEXT, description TEXT, canonical_url TEXT, robots_default TINYINT NOT "
                "NULL DEFAULT 1, robots_noindex TINYINT NOT NULL DEFAULT 0, created DATETIME "
                "NOT NULL, updated DATETIME NOT NULL)")


def test_aioseo_pro_terms_table(sqlite_urls: dict[str, str], tmp_path: Path) -> None:
    """AIOSEO Pro's `aioseo_terms`: hidden-cat set to noindex (robots_default 0,
    robots_noindex 1, as its term editor saves it) and canon-cat canonicalised elsewhere
    leave the category sitemap; `check` counts the noindexed term; on the recorded (free)
    AIOSEO site the table is missing and nothing is said about it."""
    assert not any("aioseo_terms" in line for line in check_lines(sqlite_urls["aioseo4"]))
    db = tmp_path / "aioseo-pro.db"
    url = copy_db(sqlite_urls, "aioseo4", db)
    locs = {t["slug"]: t["loc"] for t in truth("aioseo4")["terms"]}
    before = {u.loc for u in parse_urlset(fetch_all(app_for(url, CACHE_TTL=0).test_client())[
        "/category-sitemap.xml"])}
    assert {locs["hidden-cat"], locs["canon-cat"]} <= before
    with sqlite3.connect(db) as con:
        con.execute(AIOSEO_TERMS)
        con.executemany("INSERT INTO wp_aioseo_terms (term_id, canonical_url, robots_default, "
                        "robots_noindex, created, updated) VALUES (?, ?, ?, ?, "
                        "'2026-10-01 00:00:00', '2026-10-01 00:00:00')",
                        [(6, None, 0, 1), (7, "https://elsewhere.example.com/cats/", 1, 0)])
    # (term lists are kept for cache_ttl: a fresh app without the cache reads the table)
    after = {u.loc for u in parse_urlset(fetch_all(app_for(url, CACHE_TTL=0).test_client())[
        "/category-sitemap.xml"])}
    assert before - after == {locs["hidden-cat"], locs["canon-cat"]}
    assert ("seo markers   1 term noindexed in wp_aioseo_terms (All in One SEO Pro): honoured"
            in check_lines(url))
    assert "    - noindexed by All in One SEO" in explain_lines(url, locs["hidden-cat"])


def test_rank_math_taxonomy_robots(sqlite_urls: dict[str, str], tmp_path: Path) -> None:
    """Rank Math 1.0.273 with tags noindexed by default (`tax_post_tag_custom_robots` on,
    `tax_post_tag_robots` [noindex], as its titles screen saves them): the tag sitemap lists
    only alpha, whose term meta `rank_math_robots` says index (class-taxonomy.php
    is_term_indexable(): the term's 'index' wins); gamma's explain and check name the
    setting."""
    db = tmp_path / "rankmath-tax.db"
    url = copy_db(sqlite_urls, "rankmath", db)
    edit_serialized_option(db, "rank-math-options-titles",
                           lambda v: v.update(tax_post_tag_custom_robots="on"))
    with sqlite3.connect(db) as con:
        con.execute("INSERT INTO wp_termmeta (term_id, meta_key, meta_value) VALUES "
                    "(9, 'rank_math_robots', ?)", (php_serialize(["index"]),))
    docs = fetch_all(app_for(url, CACHE_TTL=0).test_client())
    locs = {t["slug"]: t["loc"] for t in truth("rankmath")["terms"]}
    assert {u.loc for u in parse_urlset(docs["/post_tag-sitemap.xml"])} == {locs["alpha"]}
    assert ("    - taxonomy 'post_tag' is noindexed by default in Rank Math's titles "
            "(rank-math-options-titles tax_post_tag_robots) and the term is not indexed one "
            "by one" in explain_lines(url, locs["gamma"]))
    assert any(line.startswith("seo sitemap   Rank Math:") and "taxonomies post_tag "
               "noindexed by default: only their terms indexed one by one" in line
               for line in check_lines(url))
