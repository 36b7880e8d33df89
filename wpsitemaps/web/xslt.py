"""Server-side XSLT: the xsl/ stylesheets applied by libxslt for browsers that navigate.

Browsers are dropping XSLT (Chrome from 155), so for a person's top-level navigation we run
the same stylesheet the `<?xml-stylesheet?>` PI names and answer HTML. Stylesheets are
compiled once per process and run with no network, no file writes and no document() reads.
They get one extension function, `wps:display-url` (web/display.py), and the view parameters
(pager, clock); a browser running the same XSL has neither and lets the inline script do it.

lxml itself is in web/libxslt.py, imported on the first HTML view (see there).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from werkzeug.datastructures import Headers

from wpsitemaps.paths import XSL_DIR

# The code that shapes the HTML besides the stylesheets: the display-url function and the
# pager's parameters, the engine, this module.
VIEW_CODE = ("display.py", "libxslt.py", "xslt.py")


@lru_cache(maxsize=1)
def view_version() -> str:
    """The version of the browser view: the xsl/ files, the code that shapes the HTML
    (VIEW_CODE) and lxml's. A stored HTML view is bound to it, as stored XML is bound to
    the templates (sitemaps.fingerprint.render_version), so a stylesheet deploy shows at
    once. Read once per process, as the stylesheets are compiled once per process."""
    here = Path(__file__).parent
    files = sorted(XSL_DIR.glob("*")) + [here / name for name in VIEW_CODE]
    digest = hashlib.sha256()
    for path in files:
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    try:
        digest.update(metadata.version("lxml").encode())
    except metadata.PackageNotFoundError:
        pass
    return digest.hexdigest()[:16]


def wants_html(headers: Headers | Mapping[str, str]) -> bool:
    """True only for a browser's top-level navigation (Sec-Fetch-Dest + Sec-Fetch-Mode)."""
    dest = (headers.get("Sec-Fetch-Dest") or "").strip().lower()
    mode = (headers.get("Sec-Fetch-Mode") or "").strip().lower()
    return dest == "document" and mode == "navigate"


def transform(xml: bytes, stylesheet_name: str,
              params: Mapping[str, str] | None = None) -> bytes:
    """Apply the kind's stylesheet to a sitemap document and return UTF-8 HTML.

    `params` are string parameters of the stylesheet (web/display.py: view_params).
    """
    from wpsitemaps.web import libxslt  # lxml on first use: see web/libxslt.py

    return libxslt.transform(xml, stylesheet_name, params)
