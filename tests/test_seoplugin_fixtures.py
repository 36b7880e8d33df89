"""The SEO plugin fixtures (tests/oracle/seoplugins/): databases written by real WordPress 6.1
with one real SEO plugin active (Yoast SEO, All in One SEO 4, Rank Math, SEOPress, The SEO
Framework) and leftover data of the others, plus that plugin's own sitemap output. These tests
hold the committed files consistent with each other; the dumps load with the shared loader."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from datetime import UTC
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import require_mariadb
from tests.support import wpdb

FIXTURES = wpdb.REPO / "tests" / "fixtures" / "seoplugins"
GENERATOR = wpdb.REPO / "tests" / "oracle" / "seoplugins" / "generate.py"
VARIANTS = ("yoast-leftovers", "aioseo4", "rankmath", "seopress", "tsf")
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def truth(variant: str) -> dict[str, Any]:
    """The variant's truth file."""
    data: dict[str, Any] = json.loads((FIXTURES / f"{variant}.truth.json").read_text("utf-8"))
    return data


def listed(data: dict[str, Any]) -> set[str]:
    """Every URL the plugin's sitemaps list."""
    return {u["loc"] for s in data["sitemaps"].values() for u in s["urls"]}


def objects(data: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(kind, object) for every published post, every term and every user: kind is the post
    type, the taxonomy or `user`."""
    for p in data["posts"]:
        if p["status"] == "publish" and not p["password"]:
            yield p["post_type"], p
    for t in data["terms"]:
        yield t["taxonomy"], t
    for u in data["users"]:
        yield "user", u


@pytest.fixture(scope="module")
def databases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """{variant: SQLite file} of every dump, through the shared loader."""
    base = tmp_path_factory.mktemp("seoplugins")
    return {v: wpdb.load_dump_sqlite(FIXTURES / f"{v}.sql", base / f"{v}.sqlite")
            for v in VARIANTS}


def option(db: Path, name: str) -> str:
    """One wp_options value from a loaded dump."""
    with sqlite3.connect(db) as con:
        row = con.execute("SELECT option_value FROM wp_options WHERE option_name = ?",
                          (name,)).fetchone()
    return str(row[0]) if row else ""


@pytest.mark.parametrize("variant", VARIANTS)
def test_dump_loads_with_its_plugin_active(databases: dict[str, Path], variant: str) -> None:
    """Each dump loads into SQLite, names its plugin in active_plugins and holds every
    published post the truth lists."""
    data = truth(variant)
    db = databases[variant]
    assert f'"{data["plugin"]["file"]}"' in option(db, "active_plugins")
    with sqlite3.connect(db) as con:
        ids = {r[0] for r in con.execute("SELECT ID FROM wp_posts WHERE post_status = 'publish'")}
    assert {p["id"] for p in data["posts"] if p["status"] == "publish"} <= ids


@pytest.mark.parametrize("variant", VARIANTS)
def test_sitemap_files_are_the_truth(variant: str) -> None:
    """Every sitemap the index lists has its XML file, and each file's <loc>/<lastmod> pairs
    are the truth's URL list for it, in order."""
    data = truth(variant)
    folder = FIXTURES / variant
    index = ET.parse(folder / data["sitemap_index"]["file"]).getroot()
    assert [e.findtext(SM + "loc") for e in index.iter(SM + "sitemap")] == [
        s["loc"] for s in data["sitemap_index"]["sitemaps"]]
    assert {s["loc"] for s in data["sitemaps"].values()} >= {
        s["loc"] for s in data["sitemap_index"]["sitemaps"]}
    for sitemap in data["sitemaps"].values():
        assert sitemap["http_status"] == 200
        root = ET.parse(folder / sitemap["file"]).getroot()
        got = [{k: v for k, v in (("loc", e.findtext(SM + "loc")),
                                  ("lastmod", e.findtext(SM + "lastmod"))) if v}
               for e in root.iter(SM + "url")]
        assert got == sitemap["urls"], sitemap["file"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_listed_urls_are_published_objects(variant: str) -> None:
    """Each listed URL is the home page, the event archive or the URL of a published post,
    a term or a user: nothing unpublished, private or password-protected."""
    data = truth(variant)
    known = {o["loc"] for _, o in objects(data)} | {data["home"], data["archives"]["event"]}
    assert listed(data) <= known
    hidden = {p["loc"] for p in data["posts"] if p["status"] != "publish" or p["password"]}
    assert hidden and not hidden & listed(data)


@pytest.mark.parametrize("variant", VARIANTS)
def test_own_noindex_is_not_listed(variant: str) -> None:
    """Every object the active plugin marks noindex prints `noindex` on its page and is in
    none of that plugin's sitemaps."""
    data = truth(variant)
    plugin = data["variant"].split("-")[0].replace("aioseo4", "aioseo")
    own = [o for _, o in objects(data)
           if any(m.startswith(f"{plugin}:noindex_") for m in o["marks"])]
    assert len(own) >= 5
    for obj in own:
        assert "noindex" in obj["page"]["robots"], obj["loc"]
        assert obj["loc"] not in listed(data), obj["loc"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_leftovers_do_not_remove_urls(variant: str) -> None:
    """Every object carrying only leftover markers of inactive plugins, of a type or taxonomy
    the active plugin lists, is listed and printed without noindex: leftovers change nothing."""
    data = truth(variant)
    urls = listed(data)
    kinds = {kind for kind, o in objects(data) if o["loc"] in urls}
    leftover_only = [o for kind, o in objects(data) if kind in kinds and o["marks"]
                     and all(m.startswith("leftover:") for m in o["marks"])]
    assert len(leftover_only) >= 8
    for obj in leftover_only:
        assert "noindex" not in obj["page"]["robots"], obj["loc"]
        assert obj["loc"] in urls, obj["loc"]


def test_yoast_author_lastmod_is_profile_updated() -> None:
    """Yoast's author sitemap dates each author by the user meta
    `_yoast_wpseo_profile_updated`, not by their posts."""
    data = truth("yoast-leftovers")
    urls = {u["loc"]: u["lastmod"] for u in data["sitemaps"]["author-sitemap"]["urls"]}
    assert len(urls) == 4
    for user in data["users"]:
        if user["loc"] in urls:
            stamp = int(user["meta"]["_yoast_wpseo_profile_updated"])
            want = datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%dT%H:%M:%S+00:00")
            assert urls[user["loc"]] == want


def test_aioseo_reads_its_own_table(databases: dict[str, Path]) -> None:
    """The AIOSEO 4 dump holds its robots in wp_aioseo_posts: no post with robots_default 0
    and robots_noindex 1 is listed, and its author sitemap is off in aioseo_options."""
    data = truth("aioseo4")
    with sqlite3.connect(databases["aioseo4"]) as con:
        noindexed = {r[0] for r in con.execute(
            "SELECT post_id FROM wp_aioseo_posts WHERE robots_default = 0 AND robots_noindex = 1")}
    assert len(noindexed) == 5
    locs = {p["id"]: p["loc"] for p in data["posts"]}
    assert not {locs[i] for i in noindexed} & listed(data)
    general = json.loads(option(databases["aioseo4"], "aioseo_options"))["sitemap"]["general"]
    assert general["author"] is False
    assert not any("author" in name for name in data["sitemaps"])


def test_yoast_indexables_are_built(databases: dict[str, Path]) -> None:
    """The Yoast dump holds a complete indexation: one indexable per published post."""
    data = truth("yoast-leftovers")
    assert data["plugin"]["state"]["indexables_indexing_completed"] is True
    with sqlite3.connect(databases["yoast-leftovers"]) as con:
        ids = {r[0] for r in con.execute(
            "SELECT object_id FROM wp_yoast_indexable WHERE object_type = 'post'")}
    assert {p["id"] for p in data["posts"] if p["status"] == "publish"} <= ids


@pytest.mark.wordpress
@pytest.mark.skipif(os.environ.get("WPSITEMAPS_WORDPRESS_TESTS") != "1",
                    reason="runs PHP and WordPress; set WPSITEMAPS_WORDPRESS_TESTS=1")
@pytest.mark.parametrize("variant", VARIANTS)
def test_regenerated_truth_equals_committed(variant: str, tmp_path: Path) -> None:
    """With the plugins' source in WPSITEMAPS_SEO_PLUGINS, the generator writes the committed
    truth again (the plugins cannot be fetched in CI: there this test is skipped)."""
    plugins = os.environ.get("WPSITEMAPS_SEO_PLUGINS", "")
    if not plugins:
        pytest.skip("needs the plugins' source: set WPSITEMAPS_SEO_PLUGINS (see README)")
    if not (shutil.which("php") and Path(plugins).is_dir()):
        pytest.fail(f"php or the plugins directory {plugins!r} is missing")
    require_mariadb()
    subprocess.run([sys.executable, str(GENERATOR), plugins, "--out", str(tmp_path), variant],
                   check=True, capture_output=True)
    fresh = json.loads((tmp_path / f"{variant}.truth.json").read_text(encoding="utf-8"))
    assert fresh == truth(variant)
