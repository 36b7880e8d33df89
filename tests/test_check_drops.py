"""`wpsitemaps check` names what the sitemaps leave out without a word: videos left out (no
thumbnail) with their count and the setting that lists them, post types and taxonomies with
published content but no evidence, plugin tables missing; the counts agree with what is
served over HTTP."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.support import wpdb
from wpsitemaps import cli
from wpsitemaps import create_app

THUMB = "https://cdn.example.com/video-placeholder.jpg"


@pytest.fixture(scope="module")
def shop_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """shop-small in SQLite."""
    return wpdb.load_dump_sqlite(wpdb.SHOP_SQL, tmp_path_factory.mktemp("drops") / "s.sqlite")


def findings(url: str, **env: str) -> list[str]:
    """The `finding` lines of `wpsitemaps check` (which must succeed)."""
    result = CliRunner().invoke(cli.main, ["check"], env={
        "WPSITEMAPS_DATABASE_URL": url, "WPSITEMAPS_STORE": "off", **env})
    assert result.exit_code == 0, result.output
    return [line.removeprefix("finding").strip() for line in result.output.splitlines()
            if line.startswith("finding")]


def served_videos(url: str, **config: str) -> int:
    """How many <video:video> the video sitemap serves through HTTP."""
    app = create_app({"TESTING": True, "DATABASE_URL": url, "STORE": "off",
                      "NOW": "option:peer_generated_at", **config})
    resp = app.test_client().get("/video-sitemap.xml")
    assert resp.status_code == 200
    return resp.data.count(b"<video:video>")


def test_videos_without_thumbnail_are_counted(shop_path: Path) -> None:
    """9 of the shop's 16 videos have no thumbnail: one finding naming the setting, and the
    video sitemap serves the other 7."""
    url = f"sqlite:///{shop_path}"
    videos = [f for f in findings(url) if f.startswith("videos:")]
    assert videos == ["videos: 9 of 16 left out of the video sitemap: no thumbnail (no "
                      "poster, attachment image, featured image or video_default_thumbnail); "
                      "set video_default_thumbnail to an image URL to list them"]
    assert served_videos(url) == 16 - 9


def test_the_setting_named_lists_them(shop_path: Path) -> None:
    """With video_default_thumbnail set, no video is left out and all 16 are served."""
    url = f"sqlite:///{shop_path}"
    assert not [f for f in findings(url, WPSITEMAPS_VIDEO_DEFAULT_THUMBNAIL=THUMB)
                if f.startswith("videos:")]
    assert served_videos(url, VIDEO_DEFAULT_THUMBNAIL=THUMB) == 16


def test_types_without_evidence_are_counted(peer_sqlite_url: str) -> None:
    """peer-small's peer_internal (3 published, rules only) is a finding with its fix."""
    types = [f for f in findings(peer_sqlite_url) if f.startswith(("post type", "taxonomy"))]
    assert types == ["post type peer_internal: 3 published, NOT served (rewrite rules only "
                     "(register_post_type() defaults to public = false)); a "
                     "[post_types.peer_internal] table in the configuration lists it (see "
                     "above)"]


def test_a_missing_plugin_table_is_named(shop_path: Path, tmp_path: Path) -> None:
    """A shop whose attribute table is gone: one finding naming it and what is lost."""
    copy = tmp_path / "shop.sqlite"
    copy.write_bytes(shop_path.read_bytes())
    with sqlite3.connect(copy) as con:
        con.execute("DROP TABLE wp_woocommerce_attribute_taxonomies")
    tables = [f for f in findings(f"sqlite:///{copy}") if "WooCommerce" in f]
    assert tables == ["warning: WooCommerce product attributes skipped: table "
                      "wp_woocommerce_attribute_taxonomies does not exist: check the table "
                      "prefix ('wp_') and that the plugin's tables exist; until then "
                      "attributes come from WooCommerce's cached copy (option "
                      "_transient_wc_attribute_taxonomies); an attribute added since may be "
                      "missing"]
