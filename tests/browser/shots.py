"""Take the README screenshots: `python -m tests.browser.shots [docs/screenshots]`.

Starts the browser lane's site on 127.0.0.1, then shoots one PNG per sitemap kind with
Chromium's XSLT turned off, so what is shown is the server-side rendering browsers will get,
and one of the post sitemap after typing into its filter box and sorting a column (driven
over DevTools, tests/browser/cdp.py). A kind the app does not serve yet is shot from
tests/test_xslt.py's sample document instead. The lane's site has a Chinese post title:
without a CJK font (Debian: fonts-noto-cjk) Chromium draws it as empty boxes.
"""

from __future__ import annotations

import base64
import sys
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

from tests import test_xslt
from tests.browser import chromium
from tests.browser.cdp import Browser
from tests.browser.site import browser_site
from tests.browser.site import live_server
from tests.browser.view import SERVER_XSLT_OFF
from tests.browser.view import View

SAMPLES = {"/video-sitemap.xml": (test_xslt.VIDEOS, "video"),
           "/news-sitemap.xml": (test_xslt.NEWS_DOC, "news")}
DESKTOP, PHONE = "1000,800", "390,844"
SHOTS = {"sitemap-index.png": ("/sitemap_index.xml", DESKTOP),
         "post-sitemap.png": ("/post-sitemap.xml", DESKTOP),
         "video-sitemap.png": ("/video-sitemap.xml", DESKTOP),
         "news-sitemap.png": ("/news-sitemap.xml", DESKTOP),
         "video-sitemap-phone.png": ("/video-sitemap.xml", PHONE)}
FILTERED = "post-sitemap-filtered.png"
MAX_BYTES = 150_000


def main(argv: list[str]) -> int:
    """Write the screenshots into the given directory (default docs/screenshots)."""
    out = Path(argv[1] if len(argv) > 1 else "docs/screenshots")
    out.mkdir(parents=True, exist_ok=True)
    binary = chromium.find()
    if binary is None:
        print("chromium is not installed (apt-get install -y chromium)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp, \
            live_server(Path(tmp), browser_site, []) as base:
        for name, (path, size) in SHOTS.items():
            url = base + path
            if not _served(url):
                if path not in SAMPLES:
                    print(f"{path}: not served (404), no screenshot", file=sys.stderr)
                    continue
                url = _sample_page(Path(tmp), path)
                print(f"{path}: not served (404), shooting the sample document", file=sys.stderr)
            target = chromium.screenshot(binary, url, out / name, xslt=False, size=size)
            size = target.stat().st_size
            print(f"{target}: {size} bytes")
            if size > MAX_BYTES:
                print(f"{target} is over {MAX_BYTES} bytes", file=sys.stderr)
                return 1
        target = _filtered_shot(binary, base, out / FILTERED)
        print(f"{target}: {target.stat().st_size} bytes")
    return 0


def _filtered_shot(binary: str, base: str, out: Path) -> Path:
    """The post sitemap after typing 'photo' into the filter and sorting by date."""
    width, height = (int(n) for n in DESKTOP.split(","))
    with Browser(binary, xslt=False, size=DESKTOP) as browser:
        view = View(browser.new_page(), SERVER_XSLT_OFF)
        view.page.call("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        view.open(base, "/post-sitemap.xml")
        view.type_into("input.filter", "photo")
        view.click(view.header("Last modified"))
        view.js("d.activeElement.blur()")
        shot = view.page.call("Page.captureScreenshot", {"format": "png"})
    out.write_bytes(base64.b64decode(shot["data"]))
    return out


def _sample_page(tmp: Path, path: str) -> str:
    """Write the server-side rendering of a sample document; returns its file:// URL."""
    from wpsitemaps.web import xslt

    xml, kind = SAMPLES[path]
    page = tmp / f"{kind}.html"
    page.write_bytes(xslt.transform(xml, kind))
    return page.as_uri()


def _served(url: str) -> bool:
    """True when the URL answers 200."""
    try:
        with urllib.request.urlopen(url, timeout=30) as resp:
            return bool(resp.status == 200)
    except urllib.error.HTTPError:
        return False


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
