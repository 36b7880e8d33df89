"""The browser view in real Chromium: filter, sort, pager, decoded URLs and news ages.

Each test runs in three renderings: the server's HTML with Chromium's XSLT on and with it off
(a navigation), and the browser's own XSLT (the sitemap in an iframe). Typing and clicking
are real input events (tests/browser/cdp.py).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from datetime import UTC
from datetime import datetime
from urllib.parse import quote

import pytest
from lxml import etree

from tests.browser.cdp import Browser
from tests.browser.cdp import Page
from tests.browser.conftest import NS
from tests.browser.conftest import fetch
from tests.browser.site import NON_LATIN
from tests.browser.view import BROWSER_XSLT
from tests.browser.view import MODES
from tests.browser.view import SERVER_XSLT_OFF
from tests.browser.view import SERVER_XSLT_ON
from tests.browser.view import Mode
from tests.browser.view import View
from tests.support.builder import Site
from wpsitemaps.paths import XSL_DIR
from wpsitemaps.web.display import display_url

NEWS_WINDOW = 48 * 3600


@pytest.fixture(scope="session")
def browsers(chromium_bin: str) -> Iterator[dict[bool, Browser]]:
    """One DevTools-driven Chromium per XSLT setting, started on first use."""
    started: dict[bool, Browser] = {}

    class Lazy(dict[bool, Browser]):
        def __missing__(self, xslt: bool) -> Browser:
            started[xslt] = self[xslt] = Browser(chromium_bin, xslt=xslt)
            return started[xslt]

    yield Lazy()
    for browser in started.values():
        browser.close()


@pytest.fixture(params=MODES, ids=[m.id for m in MODES])
def view(request: pytest.FixtureRequest, browsers: dict[bool, Browser]) -> Iterator[View]:
    """A fresh tab in the mode under test."""
    mode: Mode = request.param
    page: Page = browsers[mode.xslt].new_page()
    try:
        yield View(page, mode)
    finally:
        page.close()


def locs(base_url: str, path: str) -> list[str]:
    """The <loc> of every <url> of a served sitemap, in document order."""
    root = etree.fromstring(fetch(base_url + path)[2])
    return [str(t).strip() for t in root.xpath("sm:url/sm:loc/text()", namespaces=NS)]


def test_filter_box_narrows_the_rows(view: View, base_url: str) -> None:
    """Typing 'photo' into the filter box leaves exactly the rows whose URL holds it."""
    all_locs = locs(base_url, "/post-sitemap.xml")
    view.open(base_url, "/post-sitemap.xml")
    assert [r["href"] for r in view.rows()] == all_locs
    view.type_into("input.filter", "photo")
    left = [r["href"] for r in view.rows()]
    assert left == [loc for loc in all_locs if "photo" in loc] and len(left) == 3
    assert view.text(".tools output") == f"3 of {len(all_locs)} rows"


def test_filter_matches_decoded_characters(view: View, base_url: str) -> None:
    """Typing Chinese characters finds the post whose loc holds them percent-escaped."""
    view.open(base_url, "/post-sitemap.xml")
    view.type_into("input.filter", "北京")
    assert [r["href"] for r in view.rows()] == [
        loc for loc in locs(base_url, "/post-sitemap.xml") if NON_LATIN["北京新闻"] in loc]


def test_urls_shown_decoded_links_exact(view: View, base_url: str) -> None:
    """Every URL cell shows the decoded URL while its link is the exact loc."""
    view.open(base_url, "/post-sitemap.xml")
    rows = view.rows()
    assert [r["href"] for r in rows] == locs(base_url, "/post-sitemap.xml")
    assert [r["url"] for r in rows] == [display_url(r["href"]) for r in rows]
    assert f"{base_url}/北京新闻/" in [r["url"] for r in rows]


def test_header_click_sorts_by_date_both_ways(view: View, base_url: str) -> None:
    """Clicking 'Last modified' sorts oldest first; clicking again, newest first."""
    root = etree.fromstring(fetch(base_url + "/post-sitemap.xml")[2])
    dated = [(datetime.fromisoformat(u.findtext("sm:lastmod", namespaces=NS)).timestamp(), i,
              u.findtext("sm:loc", namespaces=NS)) for i, u in
             enumerate(root.iterfind("sm:url", NS)) if u.find("sm:lastmod", NS) is not None]
    assert len({t for t, _, _ in dated}) >= 3, "needs distinct dates to show an order"
    view.open(base_url, "/post-sitemap.xml")
    dated_rows = len(dated)
    view.click(view.header("Last modified"))
    assert [r["href"] for r in view.rows()][-dated_rows:] == [
        loc for _, _, loc in sorted(dated)]
    view.click(view.header("Last modified"))
    assert [r["href"] for r in view.rows()][:dated_rows] == [
        loc for _, _, loc in sorted(dated, key=lambda d: (-d[0], d[1]))]
    assert view.js("d.querySelector('th[aria-sort]').textContent.trim()") == "Last modified"
    assert view.js("d.querySelector('th[aria-sort]').getAttribute('aria-sort')") == "descending"


def test_header_click_sorts_numbers(view: View, base_url: str) -> None:
    """Clicking 'Images' orders rows by their image count, as numbers."""
    view.open(base_url, "/post-sitemap.xml")
    view.click(view.header("Images"))
    counts = [int(r["images"]) for r in view.rows()]
    assert counts == sorted(counts) and counts[0] != counts[-1]
    view.click(view.header("#"))
    assert [int(r["num"]) for r in view.rows()] == list(range(1, len(counts) + 1))


def test_sort_keeps_the_filter(view: View, base_url: str) -> None:
    """Sorting a filtered table reorders the rows left and shows no hidden one."""
    view.open(base_url, "/post-sitemap.xml")
    view.type_into("input.filter", "photo")
    view.click(view.header("URL"))
    view.click(view.header("URL"))
    assert [r["href"].rsplit("-", 1)[-1] for r in view.rows()] == ["3/", "2/", "1/"]


def test_pager_page_one_of_two_and_next(view: View, base_url: str) -> None:
    """Page 1 says 'Page 1 of 2' and its next link, clicked, opens page 2 saying 'Page 2 of 2'."""
    view.open(base_url, "/post-sitemap.xml", ready="'nav.pager .where'")
    assert view.text("nav.pager .where") == "Page 1 of 2"
    assert view.count("nav.pager a[rel=prev]") == 0
    view.click("nav.pager a[rel=next]")
    view.page.wait_for("(function (d) { return d && /post-sitemap2\\.xml$/.test(d.URL)"
                       " && d.querySelector('nav.pager .where'); })"
                       "(document.getElementById('view') ? "
                       "document.getElementById('view').contentDocument : document)")
    assert view.text("nav.pager .where") == "Page 2 of 2"
    assert view.count("nav.pager a[rel=next]") == 0
    assert view.js("d.querySelector('nav.pager a[rel=prev]').href") == (
        base_url + "/post-sitemap.xml")
    assert [r["href"] for r in view.rows()] == locs(base_url, "/post-sitemap2.xml")


def test_single_page_sitemap_has_no_pager(view: View, base_url: str) -> None:
    """A sitemap of one page shows no page numbers."""
    view.open(base_url, "/page-sitemap.xml")
    view.page.wait_for("(function (d) { return d.querySelector('nav.pager[data-pages]'); })"
                       "(document.getElementById('view') ? "
                       "document.getElementById('view').contentDocument : document)")
    assert view.text("nav.pager") == ""


def age(seconds: float) -> str:
    """The stylesheet's and the script's duration format."""
    s = max(0, int(seconds))
    return (f"{s // 3600} h " if s >= 3600 else "") + f"{s % 3600 // 60} min"


def news_dates(base_url: str) -> list[float]:
    """Publication times of the served news sitemap, in order."""
    root = etree.fromstring(fetch(base_url + "/news-sitemap.xml")[2])
    return [datetime.fromisoformat(str(t)).timestamp() for t in root.xpath(
        "sm:url/news:news/news:publication_date/text()", namespaces=NS)]


@pytest.mark.parametrize("view", [SERVER_XSLT_ON, SERVER_XSLT_OFF], indirect=True,
                         ids=lambda m: m.id)
def test_news_ages_on_the_server_clock(view: View, base_url: str) -> None:
    """The server's page shows each article's age and when it leaves, on the site's clock."""
    pubs = news_dates(base_url)
    now = Site.now.timestamp()
    view.open(base_url, "/news-sitemap.xml")
    rows = view.rows()
    assert [r["age"] for r in rows] == [age(now - p) for p in pubs]
    assert [r["leaves"] for r in rows] == [
        datetime.fromtimestamp(p + NEWS_WINDOW, UTC).strftime("%Y-%m-%d %H:%M UTC ")
        + (f"in {age(p + NEWS_WINDOW - now)}" if p + NEWS_WINDOW > now else "due now")
        for p in pubs]
    assert "Ages as of 2026-11-29 12:00 UTC" in view.text(".window")


@pytest.mark.parametrize("view", [BROWSER_XSLT], indirect=True, ids=lambda m: m.id)
def test_news_ages_on_the_browser_clock(view: View, base_url: str) -> None:
    """The browser's XSLT gets no server clock: the script counts ages on the browser's."""
    pubs = news_dates(base_url)
    before = view.page.evaluate("Date.now() / 1000")
    view.open(base_url, "/news-sitemap.xml")
    after = view.page.evaluate("Date.now() / 1000")
    for row, pub in zip(view.rows(), pubs, strict=True):
        assert row["age"] in {age(before - pub), age(after - pub)}
        assert row["leaves"].startswith(
            datetime.fromtimestamp(pub + NEWS_WINDOW, UTC).strftime("%Y-%m-%d %H:%M UTC"))
    assert "this browser's clock" in view.text(".window")


@pytest.mark.parametrize("xslt", [True, False], ids=["xslt-on", "xslt-off"])
def test_server_page_complete_without_javascript(browsers: dict[bool, Browser],
                                                 base_url: str, xslt: bool) -> None:
    """With JavaScript off the server's page lists every row, decoded, with its pager."""
    view = View(browsers[xslt].new_page(javascript=False),
                SERVER_XSLT_ON if xslt else SERVER_XSLT_OFF)
    try:
        view.open(base_url, "/post-sitemap.xml", ready="'table'")
        rows = view.rows()
        assert [r["href"] for r in rows] == locs(base_url, "/post-sitemap.xml")
        assert [r["url"] for r in rows] == [display_url(r["href"]) for r in rows]
        assert view.count("input.filter") == 0
        assert view.text("nav.pager .where") == "Page 1 of 2"
    finally:
        view.page.close()


def test_browser_xslt_without_javascript(browsers: dict[bool, Browser], base_url: str) -> None:
    """A browser running the XSLT with JavaScript off lists every row, URLs as escaped in
    the loc, and no page numbers (the index link still leads to every page)."""
    view = View(browsers[True].new_page(javascript=False), BROWSER_XSLT)
    try:
        view.open(base_url, "/post-sitemap.xml", ready="'table'", settle=False)
        rows = view.rows()
        assert [r["href"] for r in rows] == locs(base_url, "/post-sitemap.xml")
        assert [r["url"] for r in rows] == [r["href"] for r in rows]
        assert view.count("input.filter") == 0
        assert view.text("nav.pager") == ""
        assert view.count("a.back") == 1
    finally:
        view.page.close()


# Characters from several scripts and the kinds the rule keeps escaped, as UTF-8 escapes.
SAMPLES = ["北", "京", "мир", "é", "ß", "ह", "ع", "😀", "\u200b", "\u202e", "\u00a0", "\u2028",
           "\u0085", "\ue000", "a", " ", "/", "%", "?"]
BAD = ["%ff", "%c0%af", "%ed%a0%80", "%e5%8c", "%80"]


def sample_urls(count: int = 400) -> list[str]:
    """Seeded random URLs mixing escaped characters, ASCII escapes and invalid bytes."""
    rng = random.Random(16)
    pieces = [quote(s, safe="") for s in SAMPLES] + BAD + ["%E5%8C%97", "-", "x"]
    return ["https://ex.test/" + "".join(rng.choice(pieces) for _ in range(rng.randint(1, 8)))
            for _ in range(count)]


def test_script_decodes_like_the_server(browsers: dict[bool, Browser]) -> None:
    """The inline script's decoding equals web/display.py's on 400 tricky URLs."""
    source = (XSL_DIR / "main-sitemap.xsl").read_text(encoding="utf-8")
    script = re.search(r"<script><!\[CDATA\[(.*?)\]\]></script>", source, re.DOTALL)
    assert script is not None
    urls = sample_urls()
    page = browsers[True].new_page()
    try:
        shown = page.evaluate(
            f"(function (urls) {{ urls.forEach(function (u) {{"
            " var s = document.createElement('span'); s.className = 'loc'; s.textContent = u;"
            " document.body.appendChild(s); });"
            f" {script.group(1)};"
            " return Array.prototype.map.call(document.querySelectorAll('.loc'),"
            f" function (s) {{ return s.textContent; }}); }})({json.dumps(urls)})")
    finally:
        page.close()
    assert shown == [display_url(u) for u in urls]
    assert sum(s != u for s, u in zip(shown, urls, strict=True)) > 100
