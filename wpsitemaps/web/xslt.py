"""Server-side XSLT: the xsl/ stylesheets applied by libxslt for browsers that navigate.

Browsers are dropping XSLT (Chrome from 155), so for a person's top-level navigation we run
the same stylesheet the `<?xml-stylesheet?>` PI names and answer HTML. Stylesheets are
compiled once per process and run with no network, no file writes and no document() reads.
They get one extension function, `wps:display-url` (web/display.py), and the view parameters
(pager, clock); a browser running the same XSL has neither and lets the inline script do it.

lxml itself is in web/libxslt.py, imported on the first HTML view (see there).
"""

from __future__ import annotations

from collections.abc import Mapping

from werkzeug.datastructures import Headers

# Sitemap kind -> stylesheet file in xsl/ (and the URL path the PI names).
STYLESHEETS: dict[str, str] = {
    "main": "main-sitemap.xsl",
    "video": "video-sitemap.xsl",
    "news": "news-sitemap.xsl",
}


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
