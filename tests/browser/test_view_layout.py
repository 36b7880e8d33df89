"""The browser view's layout in real Chromium at 1280 px and on a 375 px phone: the video
table's page links stay readable (few line wraps, no sideways scrolling), and an empty
sitemap says so in a sentence instead of showing a bare table header."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from tests.browser.cdp import Browser
from tests.browser.site import live_server
from tests.browser.view import MODES
from tests.browser.view import Mode
from tests.browser.view import View
from tests.support.builder import Site

# (width, height, mobile): a laptop window and an iPhone-sized phone.
VIEWPORTS = {"desktop-1280": (1280, 800, False), "phone-375": (375, 812, True)}
# The most lines one page URL (about 100 characters here) may take.
MAX_LINES = {"desktop-1280": 2, "phone-375": 3}
PATHS = ["/video-sitemap.xml", "/news-sitemap.xml"]
DESCRIPTION = ("A long description of the video, the way editors write them for search: what "
               "is shown, who speaks, where it was filmed and why it matters to our readers, "
               "in two or three full sentences that take up room in the table.")


def video_site(home: str) -> Site:
    """Four video posts with dated URLs of about 100 characters and long descriptions;
    nothing published in the last two days, so the news sitemap is empty."""
    site = Site(home=home, permalink_structure="/%year%/%monthnum%/%day%/%postname%/")
    up = site.options["siteurl"] + "/wp-content/uploads/"
    for n in range(1, 5):
        clip = site.attachment(f"2026/11/clip-{n}.mp4", mime="video/mp4",
                               metadata={"length": 95 * n, "width": 1280, "height": 720})
        poster = site.attachment(f"2026/11/poster-{n}.jpg")
        site.post(f"Behind the scenes of our workshop, part {n}",
                  name=f"behind-the-scenes-of-our-annual-community-workshop-part-{n}",
                  date=site.now - timedelta(days=3 + n), excerpt=DESCRIPTION,
                  content=f'[video width="1280" height="720" mp4="{up}2026/11/clip-{n}.mp4"]'
                          "[/video]",
                  meta={"_thumbnail_id": str(poster)})
        site.rows["posts"][clip - 1]["post_parent"] = site._ids["posts"]
    return site


@pytest.fixture(scope="module")
def layout_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real app serving video_site on 127.0.0.1:<free port>."""
    with live_server(Path(tmp_path_factory.mktemp("layout")), video_site, PATHS) as url:
        yield url


@pytest.fixture(scope="module")
def layout_browsers(chromium_bin: str) -> Iterator[dict[bool, Browser]]:
    """One Chromium per XSLT setting for this module."""
    started = {xslt: Browser(chromium_bin, xslt=xslt) for xslt in (True, False)}
    yield started
    for browser in started.values():
        browser.close()


@pytest.fixture(params=[(m, v) for m in MODES for v in VIEWPORTS],
                ids=[f"{m.id}-{v}" for m in MODES for v in VIEWPORTS])
def sized_view(request: pytest.FixtureRequest,
               layout_browsers: dict[bool, Browser]) -> Iterator[tuple[View, str]]:
    """A fresh tab in one rendering mode, at one viewport size (device metrics emulated)."""
    mode, size = request.param
    assert isinstance(mode, Mode)
    width, height, mobile = VIEWPORTS[size]
    page = layout_browsers[mode.xslt].new_page()
    page.call("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 2 if mobile else 1,
        "mobile": mobile})
    try:
        yield View(page, mode), size
    finally:
        page.close()


def test_video_page_links_are_readable(sized_view: tuple[View, str], layout_url: str) -> None:
    """Each video's page URL wraps over at most 2 lines at 1280 px (4 on a phone), and the
    page never scrolls sideways."""
    view, size = sized_view
    view.open(layout_url, "/video-sitemap.xml")
    lines = view.js("Array.prototype.map.call(d.querySelectorAll('td.page a.loc'),"
                    " function (a) { return a.getClientRects().length; })")
    assert len(lines) == 4
    assert max(lines) <= MAX_LINES[size], lines
    overflow = view.js("d.documentElement.scrollWidth - d.documentElement.clientWidth")
    assert overflow <= 0, overflow


def test_empty_news_view_says_so(sized_view: tuple[View, str], layout_url: str) -> None:
    """The news sitemap without recent articles shows a sentence saying why, and no table."""
    view, _ = sized_view
    view.open(layout_url, "/news-sitemap.xml", ready="'p.empty'")
    assert view.count("main table") == 0
    assert view.text("p.empty") == (
        "No article was published in the last two days, so this news sitemap is empty "
        "for now. It lists the next article as soon as it is published.")
