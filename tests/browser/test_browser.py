"""Real headless Chromium shows every sitemap kind as a table, with and without its XSLT."""

from __future__ import annotations

from urllib.parse import urljoin
from urllib.parse import urlsplit

import lxml.html
import pytest

from tests.browser import chromium
from tests.browser.conftest import SITEMAPS
from tests.browser.conftest import expected_for
from tests.browser.conftest import fetch

# Which <td> holds the row's link, per stylesheet kind (see xsl/*.xsl).
LINK_CELL = {"main": "url", "video": "page", "news": "title"}
MODES = [pytest.param(True, id="xslt-on"), pytest.param(False, id="xslt-off")]
# Routes not on main yet: strict, so these fail (XPASS) the day the route arrives and the
# mark must go.
PENDING: dict[str, str] = {}
PATHS = [pytest.param(p, marks=pytest.mark.xfail(strict=True, reason=PENDING[p]))
         if p in PENDING else p for p in SITEMAPS]
HarnessCache = dict[bool, dict[str, lxml.html.HtmlElement]]


def row_links(dom: str, kind: str) -> list[str]:
    """The hrefs of the link cell of every body row of the rendered table."""
    page = lxml.html.document_fromstring(dom)
    rows = page.xpath("//table/tbody/tr")
    cell = LINK_CELL[kind]
    links: list[str] = [href for row in rows
                        for href in row.xpath(f"td[contains(@class,'{cell}')]/a/@href")]
    assert len(links) == len(rows), "every row holds exactly one link"
    return links


@pytest.mark.parametrize("xslt", MODES)
@pytest.mark.parametrize("path", PATHS)
def test_navigation_renders_table(chromium_bin: str, base_url: str, path: str,
                                  xslt: bool) -> None:
    """A navigation shows the table with one row per entry, linking each loc."""
    expected = expected_for(base_url, path)
    assert expected.links, f"{path} must hold entries for this test to mean anything"
    dom = chromium.dump_dom(chromium_bin, base_url + path, xslt=xslt)
    assert row_links(dom, expected.kind) == expected.links


@pytest.mark.parametrize("path", [p for p in PATHS if p != "/sitemap_index.xml"])
def test_back_link_reaches_the_index(chromium_bin: str, base_url: str, path: str) -> None:
    """The rendered page's back link resolves, from the sitemap's URL, to the index."""
    expected_for(base_url, path)
    page = lxml.html.document_fromstring(chromium.dump_dom(chromium_bin, base_url + path,
                                                           xslt=False))
    hrefs = page.xpath("//a[@class='back']/@href")
    assert [urljoin(base_url + path, h) for h in hrefs] == [base_url + "/sitemap_index.xml"]
    assert fetch(base_url + "/sitemap_index.xml")[0] == 200


def test_index_links_work(base_url: str) -> None:
    """Every sitemap the index links to answers 200 with XML."""
    expected = expected_for(base_url, "/sitemap_index.xml")
    assert len(expected.links) >= 2
    for link in expected.links:
        status, headers, _ = fetch(link)
        assert (link, status) == (link, 200)
        assert headers["Content-Type"].startswith("application/xml")


@pytest.mark.parametrize("path", PATHS)
def test_non_navigation_gets_xml_with_stylesheet_pi(base_url: str, path: str) -> None:
    """Without Sec-Fetch navigation headers the answer is XML carrying the stylesheet PI."""
    status, headers, body = fetch(base_url + path)
    kind = SITEMAPS[path]
    assert status == 200
    assert headers["Content-Type"].startswith("application/xml")
    href = f"//{urlsplit(base_url).netloc}/{kind}-sitemap.xsl"
    assert body.split(b"\n")[1] == f'<?xml-stylesheet type="text/xsl" href="{href}"?>'.encode()
    assert "Sec-Fetch-Dest" in headers.get("Vary", "")


@pytest.fixture(scope="session")
def harness_runs() -> HarnessCache:
    """One harness run per mode, shared by the per-URL tests."""
    return {}


def client_section(chromium_bin: str, harness_url: str, runs: HarnessCache, xslt: bool,
                   path: str) -> lxml.html.HtmlElement:
    """What the iframe harness saw for one URL (the harness runs once per mode)."""
    if xslt not in runs:
        dom = chromium.dump_dom(chromium_bin, harness_url, xslt=xslt,
                                extra=("--virtual-time-budget=30000",))
        page = lxml.html.document_fromstring(dom)
        assert page.xpath("//body/@data-done") == ["1"], "harness did not finish"
        runs[xslt] = {s.get("data-url"): s for s in page.xpath("//section")}
    return runs[xslt][path]


@pytest.mark.parametrize("path", PATHS)
def test_browser_xslt_renders_xml_in_iframe(chromium_bin: str, base_url: str, harness_url: str,
                                            harness_runs: HarnessCache, path: str) -> None:
    """Loaded in an iframe (not a navigation) the XML is turned into the table by the browser."""
    section = client_section(chromium_bin, harness_url, harness_runs, True, path)
    expected = expected_for(base_url, path)
    assert section.get("data-raw-starts-with-pi") == "true"
    assert section.get("data-root") == "html"
    html = lxml.html.tostring(section, encoding="unicode")
    assert row_links(f"<html><body>{html}</body></html>", expected.kind) == expected.links


@pytest.mark.parametrize("path", PATHS)
def test_without_browser_xslt_iframe_shows_raw_xml(chromium_bin: str, base_url: str,
                                                   harness_url: str,
                                                   harness_runs: HarnessCache,
                                                   path: str) -> None:
    """With XSLT disabled an iframe stays XML: only the server's transform makes the table."""
    assert expected_for(base_url, path).links
    section = client_section(chromium_bin, harness_url, harness_runs, False, path)
    assert section.xpath(".//table") == []
    assert section.get("data-root") in ("sitemapindex", "urlset")
    assert section.get("data-raw-starts-with-pi") == "true"


def hreflang_cells(section: lxml.html.HtmlElement) -> list[list[str]]:
    """The hreflang codes shown in each row's Languages cell."""
    return [[a.text_content().strip() for a in row.xpath("td[contains(@class,'hreflang')]/a")]
            for row in section.xpath(".//table/tbody/tr")]


def test_hreflang_shown_by_server_and_browser(chromium_bin: str, base_url: str,
                                              harness_url: str,
                                              harness_runs: HarnessCache) -> None:
    """The language homes' hreflang links show, rendered by the server and by the browser."""
    served = lxml.html.document_fromstring(
        chromium.dump_dom(chromium_bin, base_url + "/post-sitemap.xml", xslt=False))
    client = client_section(chromium_bin, harness_url, harness_runs, True, "/post-sitemap.xml")
    for page in (served, client):
        cells = hreflang_cells(page)
        assert ["en", "de"] in cells and [] in cells, cells
