"""The news sitemap (issue #5): the shared dump against its truth file, the 48-hour window on
built sites with a daylight-saving timezone, exclusions, paging, fields and the locale table."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC
from datetime import datetime
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import PEER_CONFIG
from tests.support.builder import Site
from tests.support.sitemaps import NEWS
from tests.support.sitemaps import assert_valid
from tests.support.sitemaps import parse_index
from tests.support.sitemaps import parse_urlset
from tests.support.sitemaps import path_of
from wpsitemaps import create_app
from wpsitemaps.content.urls import encode_url
from wpsitemaps.demo.wp import php_serialize
from wpsitemaps.sitemaps.providers.news import excluded_category_keys
from wpsitemaps.sitemaps.providers.news import news_language
from wpsitemaps.sitemaps.providers.news import news_title

# 2026-03-29 01:00 UTC Berlin switches to summer time: the window below spans the change, so
# comparing the local post_date instead of post_date_gmt would put posts on the wrong side.
NOW = datetime(2026, 3, 30, 12, 0, 0, tzinfo=UTC)
MakeApp = Callable[..., Flask]


def get_news(client: FlaskClient, path: str = "/news-sitemap.xml") -> bytes:
    """Fetch a news sitemap page, check it is 200 and valid for Google, return the body."""
    resp = client.get(path)
    assert resp.status_code == 200, path
    assert_valid(resp.data, path)
    return resp.data


def get_empty_news(client: FlaskClient, path: str = "/news-sitemap.xml") -> bytes:
    """Fetch a news sitemap page that must be an empty <urlset> (200).

    The sitemaps.org XSD requires at least one <url>, so validate.py rejects every empty
    urlset; the issue still asks for a 200 <urlset> (as Yoast serves it), so only the
    shape is checked here.
    """
    resp = client.get(path)
    assert resp.status_code == 200, path
    assert parse_urlset(resp.data) == []
    return resp.data


def news_fields(body: bytes) -> list[dict[str, str]]:
    """loc and the news:news children of every <url>, in document order."""
    out = []
    for url in parse_urlset(body):
        fields = {"loc": url.loc}
        news = url.element.find(NEWS + "news")
        assert news is not None, url.loc
        for child in news.iter():
            if child is not news and child.text and child.text.strip():
                fields[child.tag.removeprefix(NEWS)] = child.text
        out.append(fields)
    return out


def berlin_site() -> Site:
    """An empty site in Europe/Berlin whose clock is NOW."""
    return Site(timezone="Europe/Berlin", now=NOW)


def served_locs(make_app: MakeApp, site: Site, backend: str = "sqlite",
                **config: Any) -> list[str]:
    """The <loc>s of /news-sitemap.xml for a built site with the clock fixed at NOW."""
    app = make_app(site, backend, NOW=str(int(NOW.timestamp())), **config)
    return [u.loc for u in parse_urlset(get_news(app.test_client()))]


def url_of(site: Site, pid: int) -> str:
    """The permalink the builder's default slug gives a post."""
    return f"{site.home}/post-{pid}/"


# --- the shared dump -----------------------------------------------------------------------


def test_peer_locs_equal_truth(peer_app: Flask, truth: dict[str, Any]) -> None:
    """The served locs are the truth's news entries, newest first."""
    body = get_news(peer_app.test_client())
    assert [u.loc for u in parse_urlset(body)] == [e["loc"] for e in truth["news"]["entries"]]


def test_peer_titles_are_the_stored_titles(peer_app: Flask, truth: dict[str, Any]) -> None:
    """news:title is the stored post_title, decoded (the truth's title_raw, not wptexturized)."""
    fields = news_fields(get_news(peer_app.test_client()))
    assert [f["title"] for f in fields] == [e["title_raw"] for e in truth["news"]["entries"]]


def test_peer_publication_dates(peer_app: Flask, truth: dict[str, Any]) -> None:
    """news:publication_date is post_date_gmt as W3C with +00:00."""
    fields = news_fields(get_news(peer_app.test_client()))
    assert [f["publication_date"] for f in fields] == [
        e["publication_date"] for e in truth["news"]["entries"]]


def test_peer_publication_name_and_language(peer_app: Flask, truth: dict[str, Any]) -> None:
    """Every entry names the publication 'Peer News' in language 'en'."""
    fields = news_fields(get_news(peer_app.test_client()))
    assert {(f["name"], f["language"]) for f in fields} == {("Peer News", "en")}
    assert {(e["publication_name"], e["language"]) for e in truth["news"]["entries"]} == {
        ("Peer News", "en")}


def test_peer_images_and_lastmod_as_post_sitemap(peer_app: Flask,
                                                 truth: dict[str, Any]) -> None:
    """Each entry carries the images and lastmod its post has in the post sitemap."""
    posts = {e["loc"]: e for e in truth["post_types"]["post"]["entries"]}
    urls = parse_urlset(get_news(peer_app.test_client()))
    assert {u.loc: (u.images, u.lastmod) for u in urls} == {
        u.loc: ([encode_url(i) for i in posts[u.loc]["images"]], posts[u.loc]["lastmod"])
        for u in urls}


def test_peer_boundary_posts(peer_app: Flask, truth: dict[str, Any]) -> None:
    """47 h 50 min old (ID 37) and exactly now (ID 1) are in; 48 h 10 min old (ID 30) is out."""
    locs = [u.loc for u in parse_urlset(get_news(peer_app.test_client()))]
    by_id = {e["id"]: e["loc"] for e in truth["news"]["entries"]}
    excluded = {e["id"]: e["loc"] for e in truth["excluded"]}
    assert by_id[37] in locs and by_id[1] in locs
    assert excluded[30] not in locs


@pytest.mark.parametrize(("shift", "inside"), [(600, True), (601, False)])
def test_peer_window_start_is_inclusive(peer_url: str, truth: dict[str, Any], shift: int,
                                        inside: bool) -> None:
    """Moving the clock so ID 37 is exactly 48 h old keeps it; one second later drops it."""
    now = truth["generated_at"] + shift
    app = create_app({"TESTING": True, "DATABASE_URL": peer_url, **PEER_CONFIG, "NOW": str(now)})
    locs = [u.loc for u in parse_urlset(get_news(app.test_client()))]
    by_id = {e["id"]: e["loc"] for e in truth["news"]["entries"]}
    assert (by_id[37] in locs) is inside


def test_peer_window_end_is_now(peer_url: str, truth: dict[str, Any]) -> None:
    """One second before 'now', the post published at 'now' (ID 1) is in the future: out."""
    now = truth["generated_at"] - 1
    app = create_app({"TESTING": True, "DATABASE_URL": peer_url, **PEER_CONFIG, "NOW": str(now)})
    locs = [u.loc for u in parse_urlset(get_news(app.test_client()))]
    assert truth["news"]["entries"][0]["id"] == 1
    assert truth["news"]["entries"][0]["loc"] not in locs


# --- the 48-hour window on a built site ----------------------------------------------------


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("mariadb", marks=pytest.mark.mariadb)])
def test_47h59m_old_is_in(make_app: MakeApp, backend: str) -> None:
    """A post published 47 h 59 min ago (across the DST change) is listed."""
    site = berlin_site()
    pid = site.post("Fresh", date=NOW - timedelta(hours=47, minutes=59))
    assert served_locs(make_app, site, backend) == [url_of(site, pid)]


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("mariadb", marks=pytest.mark.mariadb)])
def test_48h01m_old_is_out(make_app: MakeApp, backend: str) -> None:
    """A post published 48 h 1 min ago is not listed, though its local date looks recent."""
    site = berlin_site()
    site.post("Stale", date=NOW - timedelta(hours=48, minutes=1))
    kept = site.post("Control", date=NOW - timedelta(hours=1))
    assert served_locs(make_app, site, backend) == [url_of(site, kept)]


def test_future_dated_is_out(make_app: MakeApp) -> None:
    """A published post dated one minute after now is not listed."""
    site = berlin_site()
    site.post("Tomorrow", date=NOW + timedelta(minutes=1))
    kept = site.post("Control", date=NOW - timedelta(hours=1))
    assert served_locs(make_app, site) == [url_of(site, kept)]


@pytest.mark.parametrize("kind", ["draft", "private", "password", "yoast_noindex",
                                  "rank_math_noindex", "canonical_elsewhere", "page"])
def test_unlisted_posts_are_out(make_app: MakeApp, kind: str) -> None:
    """Drafts, private, password-protected, noindexed, canonicalised and non-news types are out."""
    site = berlin_site()
    when = NOW - timedelta(hours=1)
    args: dict[str, Any] = {
        "draft": {"status": "draft"}, "private": {"status": "private"},
        "password": {"password": "secret"},
        "yoast_noindex": {"meta": {"_yoast_wpseo_meta-robots-noindex": "1"}},
        "rank_math_noindex": {"meta": {"rank_math_robots": 'a:1:{i:0;s:7:"noindex";}'}},
        "canonical_elsewhere": {"meta": {"_yoast_wpseo_canonical": "https://other.test/x/"}},
        "page": {"post_type": "page"},
    }[kind]
    site.post("Hidden", date=when, **args)
    kept = site.post("Visible", date=when - timedelta(minutes=1))
    assert served_locs(make_app, site) == [url_of(site, kept)]


def test_self_canonical_with_primary_category_is_in(make_app: MakeApp) -> None:
    """A canonical override equal to the post's own URL keeps it in the news sitemap, that URL
    built as the post sitemap builds it: with /%category%/ and Yoast's primary category."""
    site = Site(timezone="Europe/Berlin", now=NOW, permalink_structure="/%category%/%postname%/")
    site.option("active_plugins", php_serialize(["wordpress-seo/wp-seo.php"]))
    news = site.term("News", "category", slug="news")
    world = site.term("World", "category", slug="world")
    url = f"{site.home}/world/primary/"
    site.post("Primary", name="primary", date=NOW - timedelta(hours=1), terms=(news, world),
              meta={"_yoast_wpseo_primary_category": str(world), "_yoast_wpseo_canonical": url})
    assert served_locs(make_app, site) == [url]


@pytest.mark.parametrize("setting", ["sponsored", "ID"])
def test_excluded_category_is_out(make_app: MakeApp, setting: str) -> None:
    """A post in a category named in news_excluded_categories (slug or term ID) is out."""
    site = berlin_site()
    sponsored = site.term("Sponsored", "category", slug="sponsored")
    site.post("Advert", date=NOW - timedelta(hours=1), terms=(sponsored,))
    kept = site.post("Story", date=NOW - timedelta(hours=2))
    value = str(sponsored) if setting == "ID" else "sponsored"
    locs = served_locs(make_app, site, NEWS_EXCLUDED_CATEGORIES=value)
    assert locs == [url_of(site, kept)]


def test_excluded_category_keys_split_ids_and_slugs() -> None:
    """Digits are term IDs; other values are slugs, also tried percent-encoded as WordPress
    stores non-Latin slugs."""
    ids, slugs = excluded_category_keys(("12", "sponsored", "新闻", " "))
    assert ids == [12]
    assert set(slugs) == {"sponsored", "新闻", "%e6%96%b0%e9%97%bb"}


@pytest.mark.parametrize(("key", "value", "listed"), [
    ("_yoast_wpseo_newssitemap-exclude", "on", False),
    ("_yoast_wpseo_newssitemap-robots-index", "1", False),
    ("_yoast_wpseo_newssitemap-exclude", "off", True),
])
def test_yoast_news_meta(make_app: MakeApp, key: str, value: str, listed: bool) -> None:
    """Yoast News SEO's exclude switches take a post out; their 'off' values do not."""
    site = berlin_site()
    pid = site.post("Story", date=NOW - timedelta(hours=1), meta={key: value})
    kept = site.post("Control", date=NOW - timedelta(hours=2))
    expected = [url_of(site, pid), url_of(site, kept)] if listed else [url_of(site, kept)]
    assert served_locs(make_app, site) == expected


def test_yoast_news_meta_is_a_leftover_where_rank_math_runs(make_app: MakeApp) -> None:
    """With Rank Math the active SEO plugin, a leftover Yoast News SEO exclusion does not
    take a post out of the news sitemap (issue #24)."""
    site = berlin_site()
    site.option("active_plugins", php_serialize(["seo-by-rank-math/rank-math.php"]))
    pid = site.post("Story", date=NOW - timedelta(hours=1),
                    meta={"_yoast_wpseo_newssitemap-exclude": "on"})
    assert served_locs(make_app, site) == [url_of(site, pid)]


def test_newest_first_ties_by_id(make_app: MakeApp) -> None:
    """Entries are ordered by post_date_gmt descending, then ID descending."""
    site = berlin_site()
    same = NOW - timedelta(hours=3)
    older = site.post("Older", date=NOW - timedelta(hours=5))
    first = site.post("Tie A", date=same)
    second = site.post("Tie B", date=same)
    newest = site.post("Newest", date=NOW - timedelta(minutes=5))
    assert served_locs(make_app, site) == [url_of(site, i) for i in (newest, second, first,
                                                                      older)]


# --- paging --------------------------------------------------------------------------------

FRESH = 1003


@pytest.fixture(scope="module")
def big_client(tmp_path_factory: pytest.TempPathFactory) -> FlaskClient:
    """A site with 1,003 posts inside the window, one per minute."""
    site = berlin_site()
    for n in range(FRESH):
        site.post(f"Story {n}", date=NOW - timedelta(minutes=n + 1))
    url = site.write_sqlite(tmp_path_factory.mktemp("news") / "big.sqlite")
    app = create_app({"TESTING": True, "DATABASE_URL": url, "TABLE_PREFIX": site.prefix,
                      "NOW": str(int(NOW.timestamp()))})
    return app.test_client()


def test_first_page_holds_1000(big_client: FlaskClient) -> None:
    """news-sitemap.xml holds the 1,000 newest posts."""
    locs = [u.loc for u in parse_urlset(get_news(big_client))]
    assert len(locs) == 1000
    assert locs[0] == "http://example.test/post-1/"


def test_second_page_holds_the_rest(big_client: FlaskClient) -> None:
    """news-sitemap2.xml continues where page 1 stopped, with the 3 oldest."""
    locs = [u.loc for u in parse_urlset(get_news(big_client, "/news-sitemap2.xml"))]
    assert locs == [f"http://example.test/post-{i}/" for i in (1001, 1002, 1003)]


def test_index_lists_both_news_pages(big_client: FlaskClient) -> None:
    """The index lists news-sitemap.xml and news-sitemap2.xml."""
    index = big_client.get("/sitemap_index.xml").data
    news = [path_of(loc) for loc, _ in parse_index(index) if "news-sitemap" in loc]
    assert news == ["/news-sitemap.xml", "/news-sitemap2.xml"]


def test_third_page_is_404(big_client: FlaskClient) -> None:
    """news-sitemap3.xml does not exist."""
    assert big_client.get("/news-sitemap3.xml").status_code == 404


def test_page_size_follows_smaller_setting(make_app: MakeApp) -> None:
    """With entries_per_page = 2, news pages hold 2 entries too."""
    site = berlin_site()
    for n in range(3):
        site.post(f"Story {n}", date=NOW - timedelta(hours=n + 1))
    app = make_app(site, NOW=str(int(NOW.timestamp())), ENTRIES_PER_PAGE=2)
    client = app.test_client()
    assert len(parse_urlset(get_news(client))) == 2
    assert [u.loc for u in parse_urlset(get_news(client, "/news-sitemap2.xml"))] == [
        url_of(site, 3)]


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("mariadb", marks=pytest.mark.mariadb)])
def test_equal_dates_across_a_page_boundary(make_app: MakeApp, backend: str) -> None:
    """Posts sharing one post_date_gmt split across pages by ID, none lost or repeated
    (table prefix wpx_)."""
    site = Site(timezone="Europe/Berlin", now=NOW, prefix="wpx_")
    ids = [site.post(f"Same {n}", date=NOW - timedelta(hours=2)) for n in range(3)]
    app = make_app(site, backend, NOW=str(int(NOW.timestamp())), ENTRIES_PER_PAGE=2)
    client = app.test_client()
    pages = [[u.loc for u in parse_urlset(get_news(client, path))]
             for path in ("/news-sitemap.xml", "/news-sitemap2.xml")]
    assert pages == [[url_of(site, ids[2]), url_of(site, ids[1])], [url_of(site, ids[0])]]


# --- empty, headers, fields ----------------------------------------------------------------


def test_empty_news_sitemap_is_an_empty_urlset(make_app: MakeApp) -> None:
    """Without fresh posts /news-sitemap.xml is a valid empty <urlset>, absent from the index."""
    site = berlin_site()
    site.post("Old", date=NOW - timedelta(days=3))
    client = make_app(site, NOW=str(int(NOW.timestamp()))).test_client()
    get_empty_news(client)
    assert all("news-sitemap" not in loc
               for loc, _ in parse_index(client.get("/sitemap_index.xml").data))


def test_cache_headers(make_app: MakeApp) -> None:
    """The news sitemap is cacheable for five minutes and carries the sitemap headers."""
    site = berlin_site()
    site.post("Story", date=NOW - timedelta(hours=1))
    resp = make_app(site, NOW=str(int(NOW.timestamp()))).test_client().get("/news-sitemap.xml")
    assert resp.headers["Cache-Control"] == "public, max-age=300"
    assert resp.headers["Content-Type"] == "application/xml; charset=utf-8"
    assert resp.headers["X-Robots-Tag"] == "noindex, follow"
    assert b'href="//example.test/news-sitemap.xsl"' in resp.data


def test_fields_of_one_entry(make_app: MakeApp) -> None:
    """Name (blogname decoded), language from WPLANG, W3C date and a cleaned title."""
    site = berlin_site()
    site.option("blogname", "Tom &amp; Jerry&#8217;s Zeitung")
    site.option("WPLANG", "de_DE")
    pid = site.post("Neu: <em>Größe</em> &amp; Maß", date=datetime(2026, 3, 30, 9, 15, 7,
                                                                  tzinfo=UTC))
    client = make_app(site, NOW=str(int(NOW.timestamp()))).test_client()
    assert news_fields(get_news(client)) == [{
        "loc": url_of(site, pid), "name": "Tom & Jerry\u2019s Zeitung", "language": "de",
        "publication_date": "2026-03-30T09:15:07+00:00", "title": "Neu: Größe & Maß"}]


def test_news_name_setting_wins(make_app: MakeApp) -> None:
    """news_name from the settings replaces the blogname."""
    site = berlin_site()
    site.post("Story", date=NOW - timedelta(hours=1))
    client = make_app(site, NOW=str(int(NOW.timestamp())), NEWS_NAME="The Daily").test_client()
    assert news_fields(get_news(client))[0]["name"] == "The Daily"


def test_news_post_types_setting(make_app: MakeApp) -> None:
    """news_post_types = page lists fresh pages instead of posts."""
    site = berlin_site()
    site.post("Story", date=NOW - timedelta(hours=1))
    page = site.post("Notice", post_type="page", date=NOW - timedelta(hours=2))
    locs = served_locs(make_app, site, NEWS_POST_TYPES="page")
    assert locs == [url_of(site, page)]


def test_post_type_named_news_moves_it(make_app: MakeApp) -> None:
    """With a post type 'news', the news sitemap is yoast-news-sitemap.xml, as in Yoast."""
    site = berlin_site()
    site.post("Story", date=NOW - timedelta(hours=1))
    app = make_app(site, NOW=str(int(NOW.timestamp())),
                   POST_TYPES={"news": {"rewrite_slug": "news"}})
    client = app.test_client()
    assert len(parse_urlset(get_news(client, "/yoast-news-sitemap.xml"))) == 1
    get_empty_news(client)


# --- pure functions ------------------------------------------------------------------------


@pytest.mark.parametrize(("locale", "language"), [
    ("en_US", "en"), ("en_GB", "en"), ("de_DE", "de"), ("de_DE_formal", "de"),
    ("de_CH_informal", "de"), ("pt_BR", "pt"), ("pt_PT_ao90", "pt"), ("fr_FR", "fr"),
    ("zh_CN", "zh-cn"), ("zh_SG", "zh-cn"), ("zh_TW", "zh-tw"), ("zh_HK", "zh-tw"),
    ("zh", "zh-cn"), ("ja", "ja"), ("ast", "ast"), ("haw_US", "haw"), ("nb_NO", "nb"),
    ("es-MX", "es"), ("", "en"), ("x", "en"), ("1234", "en"),
])
def test_news_language(locale: str, language: str) -> None:
    """WordPress locales map to Google News language codes."""
    assert news_language(locale) == language


@pytest.mark.parametrize(("stored", "title"), [
    ("Tom & Jerry 5 <3 Sitemaps", "Tom & Jerry 5 <3 Sitemaps"),
    ("a <b>bold</b> move", "a bold move"),
    ("Caf&eacute; &amp; &#8220;quotes&#8221;", "Café & \u201cquotes\u201d"),
    ("&lt;b&gt; is text", "<b> is text"),
    ("x<script>alert(1)</script>y", "xy"),
    ("  spaced  ", "spaced"),
])
def test_news_title(stored: str, title: str) -> None:
    """Titles lose their tags (a bare '<' is text) and have entities decoded."""
    assert news_title(stored) == title

