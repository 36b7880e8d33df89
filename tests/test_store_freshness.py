"""Freshness of stored pages (issue #13), with the store's clock injected.

A change shows on every affected page within `store_window` plus one revalidation: the
stored page may be served unchanged inside the window, and the first request after it
revalidates and renders again. News shows a new article within 60 s.
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Callable
from datetime import UTC
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from flask import Flask

from tests.support.builder import Site
from tests.support.data import small_site
from tests.support.sitemaps import assert_valid
from tests.support.storeclock import Clock
from tests.support.storeclock import store_of
from tests.support.storeclock import with_clock
from tests.support.storeclock import write
from wpsitemaps.web.context import service_of

WINDOW = 5
NOW = "2026-11-29 12:00:00"
SQL_DATE = "%Y-%m-%d %H:%M:%S"


def locs(app: Flask, path: str) -> list[str]:
    """The <loc> values of a sitemap document, after checking it validates."""
    resp = app.test_client().get(path)
    assert resp.status_code == 200
    assert_valid(resp.data)

    return re.findall(r"<(?:image:)?loc>([^<]*)</(?:image:)?loc>", resp.get_data(as_text=True))


@pytest.fixture
def stored(make_app: Callable[..., Flask], tmp_path: Path) -> tuple[Flask, Clock]:
    """The small site with a page store and a hand-moved clock; post-sitemap.xml stored."""
    app = make_app(small_site(), STORE=str(tmp_path / "pages"), STORE_WINDOW=WINDOW)
    clock = with_clock(app)
    locs(app, "/post-sitemap.xml")
    return app, clock


def insert_post(app: Flask, pid: int, name: str, status: str = "publish",
                date: str = NOW, local: str | None = None) -> None:
    """A post row as wp_insert_post() writes it (`date` in UTC, `local` in the site's zone:
    the same by default)."""
    write(app, "INSERT INTO wp_posts (ID, post_author, post_date, post_date_gmt, post_content,"
          " post_title, post_excerpt, post_status, post_password, post_name, to_ping, pinged,"
          " post_modified, post_modified_gmt, post_content_filtered, post_parent, guid,"
          " menu_order, post_type, post_mime_type, comment_count) VALUES (?, 1, ?, ?, '',"
          " ?, '', ?, '', ?, '', '', ?, ?, '', 0, '', 0, 'post', '', 0)",
          pid, local or date, date, name, status, name, local or date, date)


def test_update_is_served_stale_only_inside_the_window(stored: tuple[Flask, Clock]) -> None:
    """A renamed post keeps its old URL inside the window and shows after it."""
    app, clock = stored
    write(app, "UPDATE wp_posts SET post_name = 'renamed', post_modified_gmt = ? WHERE ID = 2",
          NOW)
    assert "http://example.test/renamed/" not in locs(app, "/post-sitemap.xml")
    clock.advance(WINDOW)
    assert "http://example.test/renamed/" in locs(app, "/post-sitemap.xml")


def test_publishing_shows_after_one_revalidation(stored: tuple[Flask, Clock]) -> None:
    """A newly published post is listed after the window."""
    app, clock = stored
    insert_post(app, 50, "brand-new")
    clock.advance(WINDOW)
    assert "http://example.test/brand-new/" in locs(app, "/post-sitemap.xml")


def test_scheduled_post_published_by_cron_shows(stored: tuple[Flask, Clock]) -> None:
    """wp_publish_post() changes only post_status; the fingerprint still sees it."""
    app, clock = stored
    insert_post(app, 51, "was-future", status="future")
    clock.advance(WINDOW)
    assert "http://example.test/was-future/" not in locs(app, "/post-sitemap.xml")
    write(app, "UPDATE wp_posts SET post_status = 'publish' WHERE ID = 51")
    clock.advance(WINDOW)
    assert "http://example.test/was-future/" in locs(app, "/post-sitemap.xml")


@pytest.mark.parametrize("zone", ["UTC", "America/Los_Angeles", "Pacific/Kiritimati",
                                  "Asia/Kolkata"])
def test_post_published_below_the_bounds_watermark_shows_on_the_last_page(
        make_app: Callable[..., Flask], tmp_path: Path, zone: str) -> None:
    """The last page is read up to its last row when the bounds were taken plus what is
    newer: a scheduled post written before that (its ID is below the watermark) and
    published by WP-Cron ten minutes after its date still shows after one revalidation.
    Also in sites whose local dates are far from UTC (UTC-8, UTC+14, UTC+5:30): those rows
    are found through the local post_date index with a bound derived from the site's zone,
    which must never cut such a post off."""
    site = small_site()
    site.option("timezone_string", zone)
    app = make_app(site, STORE=str(tmp_path / "pages"), STORE_WINDOW=WINDOW,
                   ENTRIES_PER_PAGE=2, NOW="1795953600")  # the site's clock: NOW
    clock = with_clock(app)
    gmt = datetime(2026, 11, 29, 11, 50, tzinfo=UTC)  # ten minutes before the bounds pass
    insert_post(app, 50, "was-scheduled", status="future", date=gmt.strftime(SQL_DATE),
                local=gmt.astimezone(ZoneInfo(zone)).strftime(SQL_DATE))
    pages = sum("/post-sitemap" in loc for loc in index_dates(app))
    last = f"/post-sitemap{pages}.xml"
    assert "http://example.test/was-scheduled/" not in locs(app, last)
    write(app, "UPDATE wp_posts SET post_status = 'publish' WHERE ID = 50")
    clock.advance(WINDOW)
    assert "http://example.test/was-scheduled/" in locs(app, last)


def test_trashing_removes_the_post(stored: tuple[Flask, Clock]) -> None:
    """A trashed post leaves the page after the window."""
    app, clock = stored
    write(app, "UPDATE wp_posts SET post_status = 'trash' WHERE post_name = 'second-post'")
    clock.advance(WINDOW)
    assert "http://example.test/second-post/" not in locs(app, "/post-sitemap.xml")


def test_noindex_meta_alone_removes_the_post(stored: tuple[Flask, Clock]) -> None:
    """Yoast's noindex meta written without touching the post still takes it out."""
    app, clock = stored
    write(app, "INSERT INTO wp_postmeta (post_id, meta_key, meta_value)"
          " VALUES (1, '_yoast_wpseo_meta-robots-noindex', '1')")
    clock.advance(WINDOW)
    assert "http://example.test/first-post/" not in locs(app, "/post-sitemap.xml")


def test_permalink_structure_change_shows_everywhere(stored: tuple[Flask, Clock]) -> None:
    """Plain permalinks change every stored post, page and term page after the window."""
    app, clock = stored
    for path in ("/page-sitemap.xml", "/category-sitemap.xml"):
        locs(app, path)
    write(app, "UPDATE wp_options SET option_value = ''"
          " WHERE option_name = 'permalink_structure'")
    clock.advance(WINDOW)
    assert "http://example.test/?p=1" in locs(app, "/post-sitemap.xml")
    assert "http://example.test/?page_id=4" in locs(app, "/page-sitemap.xml")
    assert any("?cat=" in loc for loc in locs(app, "/category-sitemap.xml"))


def test_category_slug_change_shows_in_category_urls(make_app: Callable[..., Flask],
                                                     tmp_path: Path) -> None:
    """Renaming a category slug changes the %category% URLs of stored post pages."""
    site = small_site()
    site.permalink_structure = "/%category%/%postname%/"
    site.options["permalink_structure"] = site.permalink_structure
    app = make_app(site, STORE=str(tmp_path / "pages"), STORE_WINDOW=WINDOW)
    clock = with_clock(app)
    assert "http://example.test/news/first-post/" in locs(app, "/post-sitemap.xml")
    write(app, "UPDATE wp_terms SET slug = 'headlines' WHERE slug = 'news'")
    clock.advance(WINDOW)
    assert "http://example.test/headlines/first-post/" in locs(app, "/post-sitemap.xml")


def test_page_is_rendered_again_after_cache_ttl(stored: tuple[Flask, Clock]) -> None:
    """Content written by code without touching post_modified shows cache_ttl after render."""
    app, clock = stored
    image = "http://example.test/wp-content/uploads/quiet.jpg"
    write(app, f"UPDATE wp_posts SET post_content = '<img src=\"{image}\">' WHERE ID = 3")
    clock.advance(WINDOW)
    assert image not in locs(app, "/post-sitemap.xml")
    clock.advance(300)
    assert image in locs(app, "/post-sitemap.xml")


def news_site() -> Site:
    """The small site with its clock option, so the 48-hour window is fixed."""
    return small_site()


def test_news_article_shows_within_a_minute(make_app: Callable[..., Flask],
                                            tmp_path: Path) -> None:
    """A news article published after the news sitemap was stored is listed within 60 s."""
    app = make_app(news_site(), STORE=str(tmp_path / "pages"))
    clock = with_clock(app)
    before = locs(app, "/news-sitemap.xml")
    insert_post(app, 60, "breaking")
    clock.advance(60)
    after = locs(app, "/news-sitemap.xml")
    assert "http://example.test/breaking/" not in before
    assert "http://example.test/breaking/" in after


def index_dates(app: Flask) -> dict[str, str]:
    """{sitemap URL: lastmod} of the index, after checking it validates."""
    resp = app.test_client().get("/sitemap_index.xml")
    assert_valid(resp.data)
    pairs = re.findall(r"<loc>([^<]*)</loc>\s*<lastmod>([^<]*)</lastmod>",
                       resp.get_data(as_text=True))
    return dict(pairs)


def test_index_shows_a_new_post_after_one_revalidation(make_app: Callable[..., Flask],
                                                      tmp_path: Path) -> None:
    """Publishing dates the post type's last page in the stored index after the window."""
    app = make_app(small_site(), STORE=str(tmp_path / "pages"), STORE_WINDOW=WINDOW,
                   ENTRIES_PER_PAGE=2)
    clock = with_clock(app)
    last = "http://example.test/post-sitemap2.xml"
    assert index_dates(app)[last] != "2026-11-29T12:00:00+00:00"
    insert_post(app, 50, "index-news")
    clock.advance(WINDOW)
    assert index_dates(app)[last] == "2026-11-29T12:00:00+00:00"


def test_index_tail_ignores_new_posts_that_are_not_listed(make_app: Callable[..., Flask],
                                                          tmp_path: Path) -> None:
    """The tail reads rows inserted since the bounds, with the listing rules: a draft and a
    post whose canonical points elsewhere date no page; a listed one dates its page (the
    third: the foreign canonical takes the last page's free row, as the next bounds pass
    counts it, and is left out when that page is built)."""
    app = make_app(small_site(), STORE=str(tmp_path / "pages"), STORE_WINDOW=0,
                   ENTRIES_PER_PAGE=2)
    with_clock(app)
    last = "http://example.test/post-sitemap2.xml"
    before = index_dates(app)[last]
    insert_post(app, 50, "draft-news", status="draft")
    insert_post(app, 51, "copied-news")
    write(app, "INSERT INTO wp_postmeta (post_id, meta_key, meta_value)"
          " VALUES (51, '_yoast_wpseo_canonical', 'https://elsewhere.test/original/')")
    assert index_dates(app)[last] == before
    insert_post(app, 52, "listed-news")
    dates = index_dates(app)
    assert dates[last] == before
    assert dates["http://example.test/post-sitemap3.xml"] == "2026-11-29T12:00:00+00:00"


def test_index_tail_reads_a_draft_published_under_its_old_id(make_app: Callable[..., Flask],
                                                             tmp_path: Path) -> None:
    """A post started before the bounds were read (its ID is below their watermark) and
    published after: dated by its publication, it still dates the last page at once."""
    app = make_app(small_site(), STORE=str(tmp_path / "pages"), STORE_WINDOW=0,
                   ENTRIES_PER_PAGE=2, NOW="1795953600")  # the site's clock: NOW
    with_clock(app)
    last = "http://example.test/post-sitemap2.xml"
    insert_post(app, 50, "slow-draft", status="draft", date="2026-11-28 09:00:00")
    before = index_dates(app)[last]
    assert before != "2026-11-29T12:00:00+00:00"
    write(app, "UPDATE wp_posts SET post_status = 'publish', post_date = ?, post_date_gmt = ?,"
          " post_modified = ?, post_modified_gmt = ? WHERE ID = 50", NOW, NOW, NOW, NOW)
    assert index_dates(app)[last] == "2026-11-29T12:00:00+00:00"


def test_index_older_pages_follow_the_bounds_cache(make_app: Callable[..., Flask],
                                                   tmp_path: Path) -> None:
    """An update on an older page dates it in the index once the page bounds are refreshed
    (at most cache_ttl after they were computed), never a stale stored copy after that."""
    from wpsitemaps.web.context import service_of

    app = make_app(small_site(), STORE=str(tmp_path / "pages"), ENTRIES_PER_PAGE=2)
    with_clock(app)
    bounds_clock = Clock()
    service_of(app).values.clock = bounds_clock
    first = "http://example.test/post-sitemap.xml"
    index_dates(app)
    write(app, "UPDATE wp_posts SET post_modified_gmt = ? WHERE ID = 1", NOW)
    assert index_dates(app)[first] != "2026-11-29T12:00:00+00:00"
    bounds_clock.advance(300)
    app.test_client().get("/sitemap_index.xml")  # stale bounds: starts the background refresh
    for _ in range(200):
        if index_dates(app)[first] == "2026-11-29T12:00:00+00:00":
            break
        time.sleep(0.05)
    assert index_dates(app)[first] == "2026-11-29T12:00:00+00:00"


def test_product_category_slug_change_shows_in_product_urls(tmp_path: Path) -> None:
    """A shop whose product URLs hold %product_cat% (shop-small, product base switched to
    /shop/%product_cat%): renaming a product category's slug changes the stored product
    pages after one revalidation, as it changes the URLs WooCommerce serves."""
    from tests.support import wpdb
    from wpsitemaps import create_app
    from wpsitemaps.demo.wp import php_serialize

    path = wpdb.load_dump_sqlite(wpdb.SHOP_SQL, tmp_path / "shop.sqlite")
    con = sqlite3.connect(path)
    con.execute("UPDATE wp_options SET option_value = ? WHERE option_name = ?",
                (php_serialize({"product_base": "/shop/%product_cat%",
                                "category_base": "product-category", "tag_base": "product-tag",
                                "attribute_base": "", "use_verbose_page_rules": False}),
                 "woocommerce_permalinks"))
    con.commit()
    slug = con.execute("SELECT t.slug FROM wp_terms t JOIN wp_term_taxonomy x"
                       " ON x.term_id = t.term_id WHERE x.taxonomy = 'product_cat'"
                       " AND x.count > 0 ORDER BY t.term_id LIMIT 1").fetchone()[0]
    con.close()
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{path}",
                      "STORE": str(tmp_path / "pages"), "STORE_WINDOW": WINDOW})
    clock = with_clock(app)
    before = locs(app, "/product-sitemap.xml")
    assert any(f"/shop/{slug}/" in loc for loc in before)
    write(app, "UPDATE wp_terms SET slug = 'renamed-cat' WHERE slug = ?", slug)
    clock.advance(WINDOW)
    after = locs(app, "/product-sitemap.xml")
    assert not any(f"/shop/{slug}/" in loc for loc in after)
    assert any("/shop/renamed-cat/" in loc for loc in after)


def test_record_dated_in_the_future_is_revalidated(stored: tuple[Flask, Clock]) -> None:
    """After the clock steps back an hour the stored page's revalidation time lies in the
    future: it counts as stale, so a rename made since shows at once, not an hour later."""
    app, clock = stored
    write(app, "UPDATE wp_posts SET post_name = 'renamed', post_modified_gmt = ? WHERE ID = 2",
          NOW)
    clock.advance(-3600)
    assert "http://example.test/renamed/" in locs(app, "/post-sitemap.xml")


def test_record_checked_in_the_future_is_not_served_from_the_window(
        stored: tuple[Flask, Clock]) -> None:
    """A record another host touched with its clock ahead (checked in our future, rendered
    in our past) is revalidated, not served as if inside its window."""
    app, clock = stored
    store = store_of(app)
    key = store.key(service_of(app).resolve("example.test", "/").key, "post-sitemap.xml")
    assert store.backend.head(key) is not None
    store.backend.touch(key, clock.now + 600)  # the other host's clock is 10 min ahead
    clock.advance(1)
    write(app, "UPDATE wp_posts SET post_name = 'renamed', post_modified_gmt = ? WHERE ID = 2",
          NOW)
    assert "http://example.test/renamed/" in locs(app, "/post-sitemap.xml")
