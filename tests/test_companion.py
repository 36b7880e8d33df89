"""The companion must-use plugin (wordpress/wpsitemaps-registry.php): the option it writes is
read as the first source. The WordPress lane has real WordPress load the plugin and write the
option, then the service, configured with nothing but the database, must link every post,
term and archive exactly as WordPress does."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import require_mariadb
from tests.support import wpdb
from wpsitemaps.config import load_settings
from wpsitemaps.demo.wp import php_serialize
from wpsitemaps.wordpress import permalinks
from wpsitemaps.wordpress.companion import read_companion
from wpsitemaps.wordpress.db import make_engine
from wpsitemaps.wordpress.site import SiteContext
from wpsitemaps.wordpress.site import build_site

COMPANION_DIR = wpdb.REPO / "wordpress"
GENERATOR = wpdb.REPO / "tests" / "oracle" / "generate.py"
LANE = pytest.mark.skipif(os.environ.get("WPSITEMAPS_WORDPRESS_TESTS") != "1",
                          reason="runs PHP and WordPress; set WPSITEMAPS_WORDPRESS_TESTS=1")


def test_companion_is_small_php_files() -> None:
    """The folder holds the registry and the notifier (issue #26), each a small PHP file
    that prints nothing (no echo, print or closing tag)."""
    files = sorted(p.name for p in COMPANION_DIR.iterdir())
    assert files == ["wpsitemaps-notify.php", "wpsitemaps-registry.php"]
    for name in files:
        text = (COMPANION_DIR / name).read_text(encoding="utf-8")
        assert len(text.splitlines()) < 150
        assert not any(w in text for w in ("echo ", "print ", "printf(", "?>"))


def test_recorded_registry_becomes_registrations() -> None:
    """Permastructs give bases, has_archive and the front give archives, as recorded."""
    value = php_serialize({
        "version": 1, "front": "/blog/", "root": "", "permalink_structure": "/blog/%postname%/",
        "post_types": {"book": {"hierarchical": True, "has_archive": True,
                                "rewrite": {"slug": "library", "with_front": True},
                                "query_var": "book", "permastruct": "/blog/library/%book%"},
                       "event": {"hierarchical": False, "has_archive": "happenings-archive",
                                 "rewrite": {"slug": "happenings", "with_front": False},
                                 "query_var": "event", "permastruct": "/happenings/%event%"}},
        "taxonomies": {"region": {"hierarchical": True, "query_var": "region",
                                  "rewrite": {"slug": "where", "with_front": True,
                                              "hierarchical": True},
                                  "permastruct": "/blog/where/%region%",
                                  "object_type": ["post"]}},
        "languages": {"plugin": "polylang", "settings": {"hide_default": 1}, "languages": []}})
    found = read_companion(value)
    assert found is not None
    book, event = found.post_types["book"], found.post_types["event"]
    assert (book.base, book.archive, book.hierarchical) == ("blog/library", "blog/library", True)
    assert (event.base, event.archive) == ("happenings", "happenings-archive")
    assert (found.taxonomies["region"].base, found.taxonomies["region"].hierarchical) == (
        "blog/where", True)
    assert found.languages["plugin"] == "polylang"


def _site(sql: Path, truth: dict[str, Any], tmp_path: Path) -> SiteContext:
    """The dump in SQLite, read with no configuration at all."""
    path = wpdb.load_dump_sqlite(sql, tmp_path / "site.sqlite")
    settings = load_settings({"DATABASE_URL": f"sqlite:///{path}",
                              "TABLE_PREFIX": truth["table_prefix"]}, environ={})
    engine = make_engine(settings)
    with engine.connect() as conn:
        site = build_site(conn, settings)
    engine.dispose()
    return site


@pytest.mark.wordpress
@LANE
@pytest.mark.parametrize("variant", ["a", "c", "e"])
def test_real_wordpress_registry_serves_exact_urls(variant: str, tmp_path: Path) -> None:
    """With the option real WordPress wrote, every public type is found from it and every
    listed post, term and archive link equals WordPress's, with no configuration."""
    if not (shutil.which("php") and Path("/usr/share/wordpress/wp-settings.php").exists()):
        pytest.fail("WPSITEMAPS_WORDPRESS_TESTS=1 but php or /usr/share/wordpress is missing")
    require_mariadb()
    subprocess.run([sys.executable, str(GENERATOR), "--out", str(tmp_path), variant],
                   check=True, capture_output=True,
                   env={**os.environ, "ORACLE_MU_DIR": str(COMPANION_DIR)})
    truth = json.loads((tmp_path / f"{variant}.truth.json").read_text(encoding="utf-8"))
    site = _site(tmp_path / f"{variant}.sql", truth, tmp_path)
    listed = sorted(n for n, i in truth["post_types"].items() if i["listed"])
    assert sorted(t.name for t in site.types.post_types) == listed
    assert {t.evidence for t in site.types.post_types if not t.builtin} == {
        "companion plugin (wpsitemaps_registry)"}
    for post in (p for p in truth["posts"] if p["listed"]):
        ctype = site.types.post_type(post["post_type"])
        assert ctype is not None
        link = permalinks.PostLink(post["id"], post["post_type"], post["post_name"],
                                   post["post_date"], post["page_uri"], post["category_path"],
                                   post["author_nicename"])
        assert permalinks.post_url(site.links, ctype, link) == post["loc"]
    for term in (t for t in truth["terms"] if t["listed"]):
        tax = site.types.taxonomy(term["taxonomy"])
        assert tax is not None
        assert permalinks.term_url(site.links, tax, term["id"], term["slug"],
                                   tuple(term["ancestors"])) == term["loc"]
    for name, info in truth["post_types"].items():
        ctype = site.types.post_type(name)
        if info["listed"] and not info["builtin"] and ctype is not None:
            want = info["archive_link"] or None
            assert permalinks.archive_url(site.links, ctype) == want, name
