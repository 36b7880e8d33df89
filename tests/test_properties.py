"""Property tests: the renderer turns any text into well-formed XML, and the permalink
builders turn any stored values into URLs that are either listable (and then schema-valid)
or rejected cleanly."""

from __future__ import annotations

from datetime import UTC
from datetime import datetime

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from lxml import etree

from tests.support.sitemaps import IMAGE
from tests.support.sitemaps import NEWS
from tests.support.sitemaps import SM
from tests.support.sitemaps import VIDEO
from tests.support.sitemaps import assert_valid
from wpsitemaps.content.urls import encode_url
from wpsitemaps.content.urls import is_listable
from wpsitemaps.entries import ImageEntry
from wpsitemaps.entries import NewsEntry
from wpsitemaps.entries import SitemapRef
from wpsitemaps.entries import UrlEntry
from wpsitemaps.entries import VideoEntry
from wpsitemaps.sitemaps.render import clean
from wpsitemaps.sitemaps.render import render_index
from wpsitemaps.sitemaps.render import render_urlset
from wpsitemaps.wordpress import permalinks
from wpsitemaps.wordpress.contenttypes import ContentType

HOSTILE = st.sampled_from(["]]>", "<![CDATA[", "&amp;", "<b>x</b>", "\x00", "\x1b", "\ufffe",
                           "\ud800", "\r\n", "\r", "'\"", "{{ x }}", "{% raw %}", "%zz", "?>"])
texts = st.one_of(st.text(), st.lists(st.one_of(st.text(max_size=5), HOSTILE)).map("".join))
dates = st.one_of(st.none(), st.datetimes(timezones=st.just(UTC)))


def expected(value: str) -> str:
    """What a parser reads back: forbidden characters gone, line ends normalised (XML 2.11;
    in attributes, 3.3.3 also turns tabs and line ends into spaces)."""
    return clean(value).replace("\r\n", "\n").replace("\r", "\n")


maybe = st.one_of(st.none(), texts)
videos = st.builds(VideoEntry, thumbnail_loc=texts, title=texts, description=texts,
                   content_loc=maybe, player_loc=maybe, uploader=maybe, uploader_info=maybe,
                   tags=st.lists(texts, max_size=3).map(tuple))
news = st.builds(NewsEntry, publication_name=texts, language=texts,
                 publication_date=st.datetimes(timezones=st.just(UTC)), title=texts)
entries = st.builds(UrlEntry, loc=texts, lastmod=dates,
                    images=st.lists(st.builds(ImageEntry, loc=texts), max_size=3).map(tuple),
                    videos=st.lists(videos, max_size=2).map(tuple),
                    news=st.one_of(st.none(), news))


@settings(max_examples=300, deadline=None)
@given(st.lists(entries, max_size=4), texts)
def test_urlset_is_well_formed(items: list[UrlEntry], stylesheet: str) -> None:
    """Any text in any field renders to XML that lxml parses, each value read back intact."""
    root = etree.fromstring(render_urlset(items, stylesheet))
    urls = root.findall(SM + "url")
    assert len(urls) == len(items)
    for element, entry in zip(urls, items, strict=True):
        assert (element.findtext(SM + "loc") or "") == expected(entry.loc)
        locs = [i.findtext(IMAGE + "loc") or "" for i in element.findall(IMAGE + "image")]
        assert locs == [expected(i.loc) for i in entry.images]
        titles = [v.findtext(VIDEO + "title") or "" for v in element.findall(VIDEO + "video")]
        assert titles == [expected(v.title) for v in entry.videos]
        uploaders = element.findall(f"{VIDEO}video/{VIDEO}uploader")
        assert [u.get("info") for u in uploaders] == [
            expected(v.uploader_info).replace("\n", " ").replace("\t", " ")
            if v.uploader_info else None
            for v in entry.videos if v.uploader]
        if entry.news:
            assert element.findtext(f"{NEWS}news/{NEWS}title") == expected(entry.news.title) \
                or not expected(entry.news.title)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.builds(SitemapRef, loc=texts, lastmod=dates), max_size=5), texts)
def test_index_is_well_formed(refs: list[SitemapRef], stylesheet: str) -> None:
    """Any text in an index renders to XML that lxml parses, each loc read back intact."""
    root = etree.fromstring(render_index(refs, stylesheet))
    locs = [s.findtext(SM + "loc") or "" for s in root.findall(SM + "sitemap")]
    assert locs == [expected(r.loc) for r in refs]


slugs = st.one_of(texts, st.text(alphabet="abc-/%", max_size=30), st.just("x" * 3000))
homes = st.one_of(st.sampled_from(["http://example.test", "https://example.test/blog",
                                   "http://[::1]:8080", "https://bücher.example/wp",
                                   "http://example.test/a b", "", "javascript:alert(1)",
                                   "http://example.test/[x]"]), texts)
structures = st.one_of(st.sampled_from(["", "/%postname%/", "/%year%/%monthnum%/%postname%",
                                        "/index.php/%category%/%postname%/", "/%post_id%",
                                        "/%author%/%postname%/"]), texts)
bases = st.one_of(st.none(), texts, st.sampled_from(["events", "blog/category", ""]))
ctypes = st.builds(ContentType, name=st.sampled_from(["post", "page", "event", "category"]),
                   base=bases, hierarchical=st.booleans(), builtin=st.booleans(),
                   query_var=texts, archive=st.one_of(st.none(), texts),
                   has_archive=st.booleans())
sites = st.builds(permalinks.LinkSite, home=homes, structure=structures,
                  show_on_front=st.sampled_from(["posts", "page", ""]),
                  page_on_front=st.integers(0, 5))
posts = st.builds(permalinks.PostLink, id=st.integers(1, 2**63 - 1), post_type=st.sampled_from(
    ["post", "page", "event"]), name=slugs, date=st.one_of(texts, st.just("2026-01-02 03:04:05")),
    uri=slugs, category=slugs, author=slugs)


def assert_listable_or_rejected(url: str) -> None:
    """encode_url() makes it listable and schema-valid, or is_listable() says no."""
    loc = encode_url(url)
    assert encode_url(loc) == loc
    if is_listable(loc):
        body = render_urlset([UrlEntry(loc, datetime(2026, 1, 1, tzinfo=UTC),
                                       (ImageEntry(loc),))], "//x/main-sitemap.xsl")
        assert_valid(body, loc[:80])


@settings(max_examples=300, deadline=None)
@given(sites, ctypes, posts, st.integers(2, 10**6))
def test_post_urls(site: permalinks.LinkSite, ctype: ContentType, post: permalinks.PostLink,
                   page: int) -> None:
    """post_url(), paged_url() and archive_url() never raise and give listable or rejected
    URLs."""
    url = permalinks.post_url(site, ctype, post)
    assert_listable_or_rejected(url)
    assert_listable_or_rejected(permalinks.paged_url(site, post, url, page))
    archive = permalinks.archive_url(site, ctype)
    if archive is not None:
        assert_listable_or_rejected(archive)


@settings(max_examples=300, deadline=None)
@given(sites, ctypes, st.integers(1, 2**63 - 1), slugs, st.lists(slugs, max_size=3))
def test_term_and_author_urls(site: permalinks.LinkSite, ctype: ContentType, object_id: int,
                              slug: str, ancestors: list[str]) -> None:
    """term_url() and author_url() never raise and give listable or rejected URLs."""
    assert_listable_or_rejected(permalinks.term_url(site, ctype, object_id, slug,
                                                    tuple(ancestors)))
    assert_listable_or_rejected(permalinks.author_url(site, ctype, object_id, slug))
