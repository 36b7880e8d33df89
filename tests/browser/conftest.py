"""Fixtures of the browser lane: Chromium, the live app and what its sitemaps hold."""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from lxml import etree

from tests.browser import chromium
from tests.browser.site import HARNESS_PATH
from tests.browser.site import browser_site
from tests.browser.site import live_server
from tests.conftest import IN_CI

NS = {"sm": "http://www.sitemaps.org/schemas/sitemap/0.9",
      "video": "http://www.google.com/schemas/sitemap-video/1.1",
      "news": "http://www.google.com/schemas/sitemap-news/0.9"}
# Sitemap path -> stylesheet kind; the lane covers one of each kind.
SITEMAPS = {"/sitemap_index.xml": "main", "/post-sitemap.xml": "main",
            "/post-sitemap2.xml": "main",
            "/video-sitemap.xml": "video", "/news-sitemap.xml": "news"}
# Per kind, the locs the stylesheet links from its table rows, one per row, in order
# (the video table has one row per video, linking the page that holds it).
ROW_LINKS = {"main": "sm:sitemap/sm:loc | sm:url/sm:loc",
             "video": "sm:url/video:video/../sm:loc",
             "news": "sm:url[news:news]/sm:loc"}


@dataclass(frozen=True)
class Expected:
    """What a sitemap's XML says its page must show: one link per row, in order."""

    path: str
    kind: str
    links: list[str]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Everything under tests/browser/ carries the browser marker."""
    for item in items:
        if "tests/browser/" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def chromium_bin() -> str:
    """Debian's chromium; skip the lane without it, except in CI where that is a failure."""
    binary = chromium.find()
    if binary is None:
        if IN_CI:
            pytest.fail("chromium is required in CI (apt-get install -y chromium)")
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    return binary


@pytest.fixture(scope="session")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real app serving the lane's site on 127.0.0.1:<free port>."""
    with live_server(tmp_path_factory.mktemp("browser"), browser_site,
                     list(SITEMAPS)) as url:
        yield url


def fetch(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """GET without any Sec-Fetch headers (not a navigation); returns status, headers, body."""
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, dict(resp.headers.items()), resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers.items()), exc.read()


def expected_for(base_url: str, path: str) -> Expected:
    """Read the sitemap as XML and list the links its HTML table must have."""
    status, _, body = fetch(base_url + path)
    if status == 404:
        pytest.fail(f"{path} answers 404: the route is missing")
    root = etree.fromstring(body)
    kind = SITEMAPS[path]
    if kind == "video":
        videos = root.xpath("sm:url/video:video", namespaces=NS)
        links = [v.getparent().findtext("sm:loc", namespaces=NS).strip() for v in videos]
    else:
        links = [n.text.strip() for n in root.xpath(ROW_LINKS[kind], namespaces=NS)]
    return Expected(path, kind, links)


@pytest.fixture(scope="session")
def harness_url(base_url: str) -> str:
    """The same-origin page that loads every sitemap in an iframe and with fetch()."""
    return base_url + HARNESS_PATH
