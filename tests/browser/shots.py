"""Take the README screenshots: `python -m tests.browser.shots [docs/screenshots]`.

Starts the browser lane's site on 127.0.0.1, then shoots one PNG per sitemap kind with
Chromium's XSLT turned off, so what is shown is the server-side rendering browsers will get.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from tests.browser import chromium
from tests.browser.site import browser_site
from tests.browser.site import live_server

SHOTS = {"sitemap-index.png": "/sitemap_index.xml", "post-sitemap.png": "/post-sitemap.xml",
         "video-sitemap.png": "/video-sitemap.xml", "news-sitemap.png": "/news-sitemap.xml"}
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
            live_server(Path(tmp), browser_site(), []) as base:
        for name, path in SHOTS.items():
            target = chromium.screenshot(binary, base + path, out / name, xslt=False)
            size = target.stat().st_size
            print(f"{target}: {size} bytes")
            if size > MAX_BYTES:
                print(f"{target} is over {MAX_BYTES} bytes", file=sys.stderr)
                return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
