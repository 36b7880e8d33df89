"""/rss.xml and /atom.xml: the newest listable articles, read back by feedparser and checked
against the Atom RELAX NG schema of RFC 4287."""

from __future__ import annotations

import calendar
import html
import re
import sqlite3
from datetime import datetime
from datetime import timedelta
from pathlib import Path
from typing import Any

import feedparser
import pytest
from click.testing import CliRunner
from flask import Flask
from lxml import etree

from tests.conftest import PEER_CONFIG
from tests.support.builder import Site
from wpsitemaps import create_app
from wpsitemaps.cli import main
from wpsitemaps.config import ConfigError
from wpsitemaps.demo.wp import php_serialize
from wpsitemaps.demo.write import write_sqlite
from wpsitemaps.sitemaps.feeds import parse_feed_config

ATOM_RNG = Path(__file__).parent / "fixtures" / "atom" / "rfc4287.rng"
ATOM = {"a": "http://www.w3.org/2005/Atom"}
TAG = re.compile(r"<[A-Za-z/][^>]*>")


@pytest.fixture(scope="module")
def peer(peer_sqlite_url: str) -> Flask:
    """peer-small, configured as its README says."""
    return create_app({"TESTING": True, "DATABASE_URL": peer_sqlite_url, **PEER_CONFIG})


def read(app: Flask, path: str) -> Any:
    """The feed as feedparser reads it (strict: a malformed feed fails here)."""
    resp = app.test_client().get(path)
    assert resp.status_code == 200
    parsed = feedparser.parse(resp.data)
    assert not parsed.bozo, parsed.get("bozo_exception")
    return parsed


def stamp(value: str) -> int:
    """A truth date ('2026-11-29T16:24:03+00:00') as Unix time."""
    return int(datetime.fromisoformat(value).timestamp())


def newest(truth: dict[str, Any], n: int = 20) -> list[dict[str, Any]]:
    """The truth's n newest post-sitemap entries by post_date_gmt, then ID."""
    rows = sorted(truth["post_types"]["post"]["entries"],
                  key=lambda e: (e["post_date_gmt"], e["id"]), reverse=True)
    return rows[:n]


@pytest.mark.parametrize("path", ["/rss.xml", "/atom.xml"])
def test_items_are_the_twenty_newest_listed_posts(peer: Flask, truth: dict[str, Any],
                                                  path: str) -> None:
    """Both feeds hold exactly the truth's 20 newest post-sitemap entries, newest first."""
    parsed = read(peer, path)
    expected = newest(truth)
    assert [e.link for e in parsed.entries] == [e["loc"] for e in expected]


@pytest.mark.parametrize("path", ["/rss.xml", "/atom.xml"])
def test_every_field_reads_back(peer: Flask, truth: dict[str, Any], path: str) -> None:
    """Title, ID, dates and author read back as the database holds them."""
    parsed = read(peer, path)
    for entry, row in zip(parsed.entries, newest(truth), strict=True):
        assert entry.title == TAG.sub("", row["title_raw"]).strip()
        assert entry.id == f"tag:127.0.0.1,2000-01-01:blog1/post/{row['id']}"
        assert calendar.timegm(entry.published_parsed) == stamp(row["post_date_gmt"])
        if path == "/atom.xml":
            modified = max(row["post_modified_gmt"], row["post_date_gmt"])
            assert calendar.timegm(entry.updated_parsed) == stamp(modified)
        assert entry.author
        assert entry.summary and "<" not in entry.summary
    assert parsed.feed.title == truth["blogname"]


def test_rss_guid_is_not_a_permalink(peer: Flask) -> None:
    """RSS guids are marked isPermaLink="false" (feedparser: guidislink is False)."""
    parsed = read(peer, "/rss.xml")
    assert parsed.version == "rss20"
    assert all(not e.guidislink for e in parsed.entries)


def test_atom_validates_against_rfc4287(peer: Flask) -> None:
    """The Atom feed validates against RFC 4287's schema and its Schematron rules."""
    doc = etree.fromstring(peer.test_client().get("/atom.xml").data)
    schema = etree.RelaxNG(etree.parse(str(ATOM_RNG)))
    assert schema.validate(doc), schema.error_log
    assert feedparser.parse(etree.tostring(doc)).version == "atom10"
    for entry in doc.iterfind("a:entry", ATOM):
        assert entry.find("a:link[@rel='alternate']", ATOM) is not None
        assert entry.find("a:author", ATOM) is not None or doc.find("a:author", ATOM) is not None


def test_schema_rejects_an_invalid_feed() -> None:
    """The committed schema is strict enough to refuse a feed without id and updated."""
    schema = etree.RelaxNG(etree.parse(str(ATOM_RNG)))
    bad = etree.fromstring(b'<feed xmlns="http://www.w3.org/2005/Atom"><title>x</title></feed>')
    assert not schema.validate(bad)


@pytest.mark.parametrize(("path", "kind"), [("/rss.xml", "application/rss+xml"),
                                            ("/atom.xml", "application/atom+xml")])
def test_headers_and_conditional_requests(peer: Flask, path: str, kind: str) -> None:
    """Content-Type, ETag and Last-Modified are sent; both conditionals answer 304."""
    client = peer.test_client()
    resp = client.get(path)
    assert resp.headers["Content-Type"] == f"{kind}; charset=utf-8"
    assert resp.headers["Last-Modified"] == "Sun, 29 Nov 2026 16:24:03 GMT"
    etag = resp.headers["ETag"]
    assert client.get(path, headers={"If-None-Match": etag}).status_code == 304
    since = {"If-Modified-Since": resp.headers["Last-Modified"]}
    assert client.get(path, headers=since).status_code == 304


def test_noindexed_and_canonicalised_posts_stay_out(peer: Flask, truth: dict[str, Any],
                                                    peer_sqlite_url: str) -> None:
    """Published posts the sitemaps exclude, newer than the feed's oldest item, are absent."""
    links = [e.link for e in read(peer, "/rss.xml").entries]
    oldest = newest(truth)[-1]["post_date_gmt"][:19].replace("T", " ")
    con = sqlite3.connect(peer_sqlite_url.removeprefix("sqlite:///"))
    newer = {int(r[0]) for r in con.execute(
        "SELECT ID FROM wp_posts WHERE post_type = 'post' AND post_status = 'publish' "
        "AND post_date_gmt >= ?", (oldest,))}
    excluded = [e for e in truth["excluded"] if e["id"] in newer]
    assert len(excluded) >= 2
    assert not {e["loc"] for e in excluded} & set(links)


def small(tmp_path: Path) -> tuple[Site, Path]:
    """A builder site with two posts; returns it and its SQLite path (written later)."""
    site = Site()
    site.post("Kept", name="kept", excerpt="Fish & Chips <b>bold</b> 5 < 6")
    site.post("Retracted", name="retracted")
    return site, tmp_path / "feed.sqlite"


def serve(path: Path, site: Site, **config: Any) -> Flask:
    """An app on the builder site's SQLite file."""
    url = site.write_sqlite(path)
    return create_app({"TESTING": True, "DATABASE_URL": url, "NOW": "option:test_now",
                       **config})


def test_summary_is_escaped_twice_in_rss(tmp_path: Path) -> None:
    """Plain text is HTML-escaped, then XML-escaped, and reads back as the text."""
    site, path = small(tmp_path)
    app = serve(path, site)
    body = app.test_client().get("/rss.xml").data
    assert b"<description>Fish &amp;amp; Chips bold 5 &amp;lt; 6</description>" in body
    entry = read(app, "/rss.xml").entries[0]
    assert html.unescape(entry.summary) == "Fish & Chips bold 5 < 6"
    atom = read(app, "/atom.xml").entries[0]
    assert html.unescape(atom.summary) == "Fish & Chips bold 5 < 6"


def test_retracted_post_goes_renamed_post_keeps_its_id(tmp_path: Path) -> None:
    """After unpublishing one post and renaming the other, the next feed drops the first
    and gives the second its old ID with the new title and link."""
    site, path = small(tmp_path)
    app = serve(path, site)
    before = {e.id: e for e in read(app, "/atom.xml").entries}
    con = sqlite3.connect(path)
    con.execute("UPDATE wp_posts SET post_status = 'draft' WHERE post_name = 'retracted'")
    con.execute("UPDATE wp_posts SET post_title = 'Kept, renamed', post_name = 'renamed' "
                "WHERE post_name = 'kept'")
    con.commit()
    for feed in ("/atom.xml", "/rss.xml"):
        after = {e.id: e for e in read(app, feed).entries}
        assert len(before) == 2 and len(after) == 1
        (kept_id, kept), = after.items()
        assert kept_id in before and before[kept_id].title == "Kept"
        assert (kept.title, kept.link) == ("Kept, renamed", "http://example.test/renamed/")


def test_xml_illegal_characters_never_reach_the_output(tmp_path: Path) -> None:
    """Control characters and U+FFFE in titles and text are dropped; the feed parses."""
    site = Site()
    site.post("Bell\x07 and \ufffe", name="bell", content="Tab\x0b here\x01.")
    app = serve(tmp_path / "bad.sqlite", site)
    for feed in ("/rss.xml", "/atom.xml"):
        body = app.test_client().get(feed).data
        etree.fromstring(body)
        entry = read(app, feed).entries[0]
        assert entry.title == "Bell and"
        assert html.unescape(entry.summary) == "Tab here."


def test_site_discouraging_search_engines_has_empty_feeds(tmp_path: Path) -> None:
    """blog_public = 0: both feeds are valid and empty."""
    site = Site()
    site.post("Hidden", name="hidden")
    site.option("blog_public", "0")
    app = serve(tmp_path / "private.sqlite", site)
    assert read(app, "/rss.xml").entries == []
    doc = etree.fromstring(app.test_client().get("/atom.xml").data)
    assert etree.RelaxNG(etree.parse(str(ATOM_RNG))).validate(doc)


def test_count_and_post_types_are_configurable(tmp_path: Path) -> None:
    """[feeds] count and post_types choose how many items and of which types."""
    site = Site()
    for n in range(5):
        site.post(f"Post {n}", name=f"post-{n}")
    site.post("Newest page", post_type="page", name="newest-page", date=site.now)
    app = serve(tmp_path / "conf.sqlite", site,
                FEEDS={"count": 3, "post_types": ["post", "page"]})
    titles = [e.title for e in read(app, "/rss.xml").entries]
    assert titles == ["Newest page", "Post 0", "Post 1"]


def test_robots_lists_feeds_only_when_configured(peer_sqlite_url: str, peer: Flask) -> None:
    """robots.txt names the feeds as Sitemap: lines only with [feeds] robots = true."""
    assert b"rss.xml" not in peer.test_client().get("/robots.txt").data
    app = create_app({"TESTING": True, "DATABASE_URL": peer_sqlite_url, **PEER_CONFIG,
                      "FEEDS": {"robots": True}})
    lines = app.test_client().get("/robots.txt").get_data(as_text=True).splitlines()
    assert lines[-2:] == ["Sitemap: http://127.0.0.1:8080/rss.xml",
                          "Sitemap: http://127.0.0.1:8080/atom.xml"]


def test_robots_lines_feeds_prints_head_links(peer_sqlite_url: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """`wpsitemaps robots-lines --feeds` prints the two <link rel="alternate"> tags."""
    monkeypatch.setenv("WPSITEMAPS_DATABASE_URL", peer_sqlite_url)
    result = CliRunner().invoke(main, ["robots-lines", "--feeds"])
    assert result.exit_code == 0
    assert result.output.splitlines() == [
        '<link rel="alternate" type="application/rss+xml" title="Peer News (RSS)" '
        'href="http://127.0.0.1:8080/rss.xml">',
        '<link rel="alternate" type="application/atom+xml" title="Peer News (Atom)" '
        'href="http://127.0.0.1:8080/atom.xml">']


@pytest.mark.parametrize("raw", [{"count": 0}, {"count": "20"}, {"post_types": "post"},
                                 {"robots": "yes"}, {"id_date": "last year"}, {"size": 1}])
def test_bad_feed_settings_are_refused(raw: dict[str, Any]) -> None:
    """Invalid [feeds] values stop start-up with a ConfigError naming the setting."""
    with pytest.raises(ConfigError, match="feeds"):
        parse_feed_config(raw)


def test_demo_site_feeds_read_back(tmp_path: Path) -> None:
    """The demo site's feeds hold 20 articles each, every field read back."""
    db = write_sqlite(tmp_path / "demo.sqlite", 300, 7, now=1795969443)
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{db}",
                      "NOW": "1795969443", "POST_TYPES": {"event": {"rewrite_slug": "events"}}})
    post_locs = set(re.findall(r"<loc>([^<]+)</loc>",
                               app.test_client().get("/post-sitemap.xml").get_data(True)))
    for feed in ("/rss.xml", "/atom.xml"):
        entries = read(app, feed).entries
        assert len(entries) == 20
        assert {e.link for e in entries} <= post_locs
        assert all(e.id and e.title and e.summary and e.published_parsed for e in entries)
        dates = [calendar.timegm(e.published_parsed) for e in entries]
        assert dates == sorted(dates, reverse=True)


def test_noindexed_author_name_is_not_published(tmp_path: Path) -> None:
    """A post by an author the author sitemap leaves out (Yoast noindex) names the blog."""
    site = Site()
    site.option("blogname", "Example Blog")
    hidden = site.user("hidden", "Hidden Person", wpseo_noindex_author="on")
    shown = site.user("shown", "Shown Person")
    site.post("By hidden", name="by-hidden", author=hidden)
    site.post("By shown", name="by-shown", author=shown)
    app = serve(tmp_path / "authors.sqlite", site)
    for feed in ("/rss.xml", "/atom.xml"):
        authors = [e.author for e in read(app, feed).entries]
        assert authors == ["Example Blog", "Shown Person"]


@pytest.mark.mariadb
@pytest.mark.parametrize("path", ["/rss.xml", "/atom.xml"])
def test_mariadb_serves_the_same_feeds(peer: Flask, peer_mariadb_url: str, path: str) -> None:
    """peer-small on MariaDB gives byte-identical feeds."""
    other = create_app({"TESTING": True, "DATABASE_URL": peer_mariadb_url, **PEER_CONFIG})
    assert other.test_client().get(path).data == peer.test_client().get(path).data


def test_foreign_canonicals_are_read_past_and_primary_category_followed(
        tmp_path: Path) -> None:
    """The newest posts all canonicalised elsewhere: the feed reads on past them (settled
    on the rows read, issue #13) and links like the post sitemap (Yoast primary category)."""
    site = Site(permalink_structure="/%category%/%postname%/")
    site.option("active_plugins", php_serialize(["wordpress-seo/wp-seo.php"]))
    news = site.term("News", "category", slug="news")
    world = site.term("World", "category", slug="world")
    site.post("Old", name="old", date=site.now - timedelta(days=30))
    site.post("Primary", name="primary", terms=(news, world),
              meta={"_yoast_wpseo_primary_category": str(world)},
              date=site.now - timedelta(days=20))
    for n in range(5):
        site.post(f"Copy {n}", name=f"copy-{n}", date=site.now - timedelta(hours=n),
                  meta={"_yoast_wpseo_canonical": f"https://other.test/{n}/"})
    app = serve(tmp_path / "canon.sqlite", site, FEEDS={"count": 2})
    for feed in ("/rss.xml", "/atom.xml"):
        assert [e.link for e in read(app, feed).entries] == [
            "http://example.test/world/primary/", "http://example.test/uncategorized/old/"]


def test_order_is_by_gmt_date_when_local_dates_disagree(tmp_path: Path) -> None:
    """Posts are read by their local post_date (the index WordPress has) but ranked by
    post_date_gmt: a post written at UTC-12 whose local date is the oldest is still the
    newest item when its GMT date is, even with count=1 (the reading goes on)."""
    site = Site()
    offsets = {"east": ("2026-11-29 12:00:00", "2026-11-28 22:00:00"),   # UTC+14
               "east2": ("2026-11-29 11:00:00", "2026-11-28 21:00:00"),  # UTC+14
               "west": ("2026-11-29 01:00:00", "2026-11-29 13:00:00")}   # UTC-12
    for name, (local, gmt) in offsets.items():
        pid = site.post(name, name=name)
        site.rows["posts"][pid - 1].update(post_date=local, post_date_gmt=gmt,
                                           post_modified=local, post_modified_gmt=gmt)
    app = serve(tmp_path / "tz.sqlite", site, FEEDS={"count": 1})
    assert [e.title for e in read(app, "/rss.xml").entries] == ["west"]
    app = serve(tmp_path / "tz3.sqlite", site, FEEDS={"count": 3})
    assert [e.title for e in read(app, "/atom.xml").entries] == ["west", "east", "east2"]
