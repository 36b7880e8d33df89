"""The browser view made by the stylesheets: decoded URLs, pager, news ages, shared parts."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from collections.abc import Iterator
from datetime import datetime
from datetime import timedelta
from pathlib import Path

import lxml.html
import pytest
from flask import Flask
from lxml import etree

from tests.support.builder import Site
from tests.test_xslt import HEAD
from tests.test_xslt import NEWS
from tests.test_xslt import SM
from tests.test_xslt import _news
from wpsitemaps import create_app
from wpsitemaps.paths import STYLESHEETS
from wpsitemaps.paths import XSL_DIR
from wpsitemaps.web import libxslt
from wpsitemaps.web import xslt

NAVIGATE = {"Sec-Fetch-Dest": "document", "Sec-Fetch-Mode": "navigate"}
SHARED = ["show-url", "pager", "ui-style", "ui-script"]
CHINESE = "https://ex.test/2026/10/%e5%8c%97%e4%ba%ac/"


def urlset(*locs: str) -> bytes:
    """A plain content sitemap of these locs."""
    return (HEAD + f"<urlset {SM}>" + "".join(f"<url><loc>{loc}</loc></url>" for loc in locs)
            + "</urlset>").encode()


def page(xml: bytes, kind: str = "main", **params: str) -> lxml.html.HtmlElement:
    """The server's rendering, parsed."""
    return lxml.html.document_fromstring(xslt.transform(xml, kind, params))


def browser_page(xml: bytes, kind: str = "main") -> lxml.html.HtmlElement:
    """What a browser's XSLT makes of it: the same stylesheet without wps:display-url."""
    style = etree.XSLT(etree.parse(str(XSL_DIR / STYLESHEETS[kind])))
    return lxml.html.document_fromstring(bytes(style(etree.fromstring(xml))))


def text(node: lxml.html.HtmlElement, path: str) -> list[str]:
    """Whitespace-normalised text of each match."""
    return [" ".join(n.text_content().split()) for n in node.xpath(path)]


def test_server_shows_decoded_url_and_links_the_loc() -> None:
    """The server's page shows the URL decoded and links the exact loc."""
    html = page(urlset(CHINESE))
    link = html.xpath("//tbody//a[@class='loc']")[0]
    assert (link.get("href"), link.text_content().strip()) == (
        CHINESE, "https://ex.test/2026/10/北京/")


def test_browser_xslt_writes_the_loc_for_the_script() -> None:
    """Without the server's function the cell holds the loc as is (the script decodes it)."""
    link = browser_page(urlset(CHINESE)).xpath("//tbody//a[@class='loc']")[0]
    assert link.text_content().strip() == CHINESE


def test_pager_shows_page_of_pages_and_neighbours() -> None:
    """Given page 2 of 3 the page says so and links both neighbours."""
    html = page(urlset("https://ex.test/a/"), page="2", pages="3",
                **{"prev-url": "post-sitemap.xml", "next-url": "post-sitemap3.xml"})
    assert text(html, "//nav[@class='pager']/span") == ["Page 2 of 3"]
    assert html.xpath("//nav/a[@rel='prev']/@href") == ["post-sitemap.xml"]
    assert html.xpath("//nav/a[@rel='next']/@href") == ["post-sitemap3.xml"]


def test_single_page_pager_is_empty_and_marked_done() -> None:
    """One page shows no pager, and tells the script the server decided (data-pages=1)."""
    html = page(urlset("https://ex.test/a/"))
    assert html.xpath("//nav[@class='pager']/@data-pages") == ["1"]
    assert text(html, "//nav[@class='pager']") == [""]


def test_browser_xslt_leaves_the_pager_to_the_script() -> None:
    """A browser's XSLT leaves the pager unmarked, for the script to fill from the index."""
    nav = browser_page(urlset("https://ex.test/a/")).xpath("//nav[@class='pager']")[0]
    assert (nav.get("data-pages"), nav.get("data-index")) == (None, "sitemap_index.xml")


def test_shared_templates_identical_in_every_stylesheet() -> None:
    """The view's templates are the same in main-, video- and news-sitemap.xsl."""
    copies: dict[str, set[str]] = {name: set() for name in SHARED}
    for filename in STYLESHEETS.values():
        source = (XSL_DIR / filename).read_text(encoding="utf-8")
        for name in SHARED:
            found = re.findall(rf'<xsl:template name="{name}">.*?</xsl:template>', source,
                               re.DOTALL)
            assert len(found) == 1, f"{filename} lacks template {name}"
            copies[name].update(found)
    assert {name: len(found) for name, found in copies.items()} == dict.fromkeys(SHARED, 1)


NOW = "1795969443"  # 2026-11-29T16:24:03Z


def news_row(date: str) -> dict[str, str]:
    """Render one article published at `date` on NOW's clock; its cells by class."""
    xml = (HEAD + f"<urlset {SM} {NEWS}>" + _news("https://ex.test/a/", "A", date, "en")
           + "</urlset>").encode()
    row = page(xml, "news", now=NOW).xpath("//tbody/tr")[0]
    return {td.get("class").split()[-1]: " ".join(td.text_content().split())
            for td in row} | {"sort": row.xpath("td[@data-label='Published']/@data-sort")[0]}


@pytest.mark.parametrize("date", [
    "2026-11-29T16:24:03+00:00", "2026-11-28T23:00:00+01:00", "2026-11-28T01:30:00-05:30",
    "2026-11-29T09:30:05.123Z", "2026-11-28T10:00Z", "2024-02-29T23:59:59+00:00",
    "2000-03-01T00:00:00+14:00", "1970-01-01T00:00:00Z", "2100-12-31T12:00:00-12:00",
])
def test_publication_date_read_as_unix_time(date: str) -> None:
    """The stylesheet's own date arithmetic gives Python's Unix time for W3C datetimes."""
    expected = int(datetime.fromisoformat(date.replace("Z", "+00:00")).timestamp())
    # libxml2 writes numbers past 2**31 in exponent form (4.1339808e+09): same value.
    assert float(news_row(date)["sort"]) == expected


def test_news_age_and_departure() -> None:
    """An article 6 h 54 min old leaves 48 h after publication, in 41 h 5 min."""
    row = news_row("2026-11-29T09:30:00+00:00")
    assert row["age"] == "6 h 54 min"
    assert row["leaves"] == "2026-12-01 09:30 UTC in 41 h 5 min"


def test_news_offset_converted_to_utc_for_departure() -> None:
    """A publication date with an offset leaves at the right UTC minute, across a month."""
    assert news_row("2026-11-30T00:30:00+02:00")["leaves"].startswith("2026-12-01 22:30 UTC")


def test_news_article_at_the_window_edge_is_due() -> None:
    """Exactly 48 hours old: zero minutes left, shown as due now."""
    row = news_row("2026-11-27T16:24:03+00:00")
    assert (row["age"], row["leaves"]) == ("48 h 0 min", "2026-11-29 16:24 UTC due now")


def test_news_clock_stated() -> None:
    """The page says which clock the ages are counted on."""
    xml = (HEAD + f"<urlset {SM} {NEWS}>" + _news("https://ex.test/a/", "A",
                                                     "2026-11-29T09:30:00Z", "en")
           + "</urlset>").encode()
    assert "Ages as of 2026-11-29 16:24 UTC" in text(page(xml, "news", now=NOW),
                                                     "//p[@class='window']")[0]


def test_route_renders_page_n_of_n(make_app: Callable[..., Flask]) -> None:
    """A navigation to page 2 of a 3-page post sitemap shows the pager with its neighbours."""
    site = Site()
    for n in range(5):
        site.post(f"Post {n}", name=f"post-{n}", date=site.now - timedelta(days=n + 1))
    client = make_app(site, ENTRIES_PER_PAGE=2).test_client()
    html = lxml.html.document_fromstring(client.get("/post-sitemap2.xml", headers=NAVIGATE).data)
    assert text(html, "//nav[@class='pager']/span") == ["Page 2 of 3"]
    assert html.xpath("//nav/a/@href") == ["post-sitemap.xml", "post-sitemap3.xml"]


def test_route_passes_the_site_clock_to_the_news_view(make_app: Callable[..., Flask]) -> None:
    """The news page counts ages on the clock that chose its 48-hour window."""
    site = Site()
    site.post("Fresh", name="fresh", date=site.now - timedelta(hours=3, minutes=20))
    client = make_app(site).test_client()
    html = lxml.html.document_fromstring(client.get("/news-sitemap.xml", headers=NAVIGATE).data)
    assert text(html, "//tbody/tr/td[contains(@class,'age')]") == ["3 h 20 min"]


def _new_process_caches() -> None:
    """Forget what a process compiles and reads once (as a restarted worker starts)."""
    libxslt.stylesheet.cache_clear()
    xslt.view_version.cache_clear()


@pytest.fixture
def deploy_stylesheets(tmp_path: Path,
                       monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str, str], None]]:
    """Factory: deploy a copy of xsl/ with one text of main-sitemap.xsl replaced, as a
    release restarts its workers; the real xsl/ is back after the test."""
    def deploy(old: str, new: str) -> None:
        deployed = tmp_path / "xsl"
        shutil.copytree(XSL_DIR, deployed)
        main = deployed / "main-sitemap.xsl"
        source = main.read_text(encoding="utf-8")
        assert old in source
        main.write_text(source.replace(old, new), encoding="utf-8")
        monkeypatch.setattr(libxslt, "XSL_DIR", deployed)
        monkeypatch.setattr(xslt, "XSL_DIR", deployed)
        _new_process_caches()

    yield deploy
    monkeypatch.undo()
    _new_process_caches()


def test_stylesheet_deploy_shows_at_once(write_site: Callable[[Site, str], str], tmp_path: Path,
                                         deploy_stylesheets: Callable[[str, str], None]) -> None:
    """After a stylesheet deploy the browser view of a stored page is the new stylesheet's
    at once, not the HTML the old one left in the store."""
    site = Site()
    site.post("Post", name="post", date=site.now - timedelta(days=1))
    config = {"TESTING": True, "DATABASE_URL": write_site(site, "sqlite"),
              "NOW": "option:test_now", "STORE": str(tmp_path / "pages")}
    before = create_app(config).test_client().get("/post-sitemap.xml", headers=NAVIGATE)
    assert list((tmp_path / "pages").rglob("post-sitemap.xml.html*"))  # the view is stored
    deploy_stylesheets("XML Sitemap</xsl:otherwise>", "Deployed Sitemap</xsl:otherwise>")
    after = create_app(config).test_client().get("/post-sitemap.xml", headers=NAVIGATE)
    titles = [text(lxml.html.document_fromstring(r.data), "//title")[0] for r in (before, after)]
    assert titles == ["XML Sitemap", "Deployed Sitemap"]


EMPTY_VIEWS = {
    "/news-sitemap.xml": ("news", "No article was published in the last two days, so this "
                          "news sitemap is empty for now. It lists the next article as soon "
                          "as it is published."),
    "/video-sitemap.xml": ("video", "No published page of this site has a video that can be "
                           "listed right now, so this video sitemap is empty."),
    "/post-sitemap.xml": ("main", "This sitemap lists no URL right now: nothing of this kind "
                          "is published, or all of it is kept out of search engines."),
    "/sitemap_index.xml": ("main", "This index lists no sitemap: nothing on this site can be "
                           "listed right now (nothing is published yet, or the site asks "
                           "search engines not to index it)."),
}


@pytest.mark.parametrize("path", list(EMPTY_VIEWS))
def test_empty_view_says_so(make_app: Callable[..., Flask], path: str) -> None:
    """An empty sitemap (no recent news, no video; a private site) says so in a sentence,
    in the server's HTML and in a browser's XSLT of the served XML, with no bare table."""
    site = Site()
    site.post("Old news", name="old-news", date=site.now - timedelta(days=5))
    if path in ("/post-sitemap.xml", "/sitemap_index.xml"):
        site.option("blog_public", "0")
    client = make_app(site).test_client()
    kind, sentence = EMPTY_VIEWS[path]
    served = client.get(path, headers=NAVIGATE)
    assert served.status_code == 200 and served.mimetype == "text/html"
    xml = client.get(path)
    assert xml.mimetype == "application/xml" and len(etree.fromstring(xml.data)) == 0
    for html in (lxml.html.document_fromstring(served.data), browser_page(xml.data, kind)):
        assert html.xpath("//table") == []
        assert text(html, "//p[@class='empty']") == [sentence]
