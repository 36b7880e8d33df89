"""Entries to XML bytes: Jinja templates, escaping, and the stylesheet processing instruction.

Every value goes through `clean()` before Jinja escapes it: characters XML 1.0 forbids
(control characters, U+FFFE/U+FFFF, lone surrogates from broken UTF-8) are removed, never
emitted, so the output is well-formed whatever bytes sit in the database.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from datetime import UTC
from datetime import datetime
from email.utils import format_datetime
from typing import Any

from jinja2 import Environment
from jinja2 import FileSystemLoader
from jinja2 import select_autoescape

from wpsitemaps.entries import SitemapRef
from wpsitemaps.entries import UrlEntry
from wpsitemaps.paths import TEMPLATES_DIR
from wpsitemaps.wordpress.dates import w3c

XML_FORBIDDEN = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def clean(value: str) -> str:
    """Remove characters that XML 1.0 does not allow."""
    return XML_FORBIDDEN.sub("", value)


def _finalize(value: Any) -> Any:
    return clean(value) if isinstance(value, str) else value


def _w3c(value: datetime | None) -> str:
    return w3c(value) or ""


_env = Environment(
    loader=FileSystemLoader(str(TEMPLATES_DIR)),
    autoescape=select_autoescape(default=True, default_for_string=True),
    finalize=_finalize,
    keep_trailing_newline=True,
)
_env.filters["w3c"] = _w3c
# RFC 822 dates for RSS (pubDate, lastBuildDate), always in GMT.
_env.filters["rfc822"] = lambda value: format_datetime(value.astimezone(UTC), usegmt=True)
# Plain text as HTML (RSS <description>, Atom type="html"): escaped here once as HTML, then
# again by autoescaping as XML, as the RSS spec wants HTML inside XML.
_env.filters["htmltext"] = lambda value: html.escape(clean(str(value)), quote=False)


def stylesheet_href(home: str, name: str) -> str:
    """Where the XSL is: `{home}/{name}-sitemap.xsl`, scheme-relative as Yoast writes it."""
    return re.sub(r"^https?:", "", f"{home.rstrip('/')}/{name}-sitemap.xsl")


def render_urlset(entries: Sequence[UrlEntry], stylesheet: str | None) -> bytes:
    """A <urlset> document; extension namespaces only when used, no PI without a stylesheet."""
    ns = {"image": any(e.images for e in entries), "video": any(e.videos for e in entries),
          "news": any(e.news for e in entries), "xhtml": any(e.alternates for e in entries)}
    text = _env.get_template("urlset.xml").render(entries=entries, stylesheet=stylesheet, ns=ns)
    return text.encode("utf-8")


def render_index(sitemaps: Sequence[SitemapRef], stylesheet: str | None) -> bytes:
    """A <sitemapindex> document (no stylesheet PI when stylesheet is None)."""
    text = _env.get_template("sitemap_index.xml").render(sitemaps=sitemaps,
                                                          stylesheet=stylesheet)
    return text.encode("utf-8")


def render_feed(template: str, feed: Any, self_url: str) -> bytes:
    """An RSS (rss.xml) or Atom (atom.xml) document of a sitemaps.feeds.Feed."""
    text = _env.get_template(template).render(feed=feed, self_url=self_url,
                                              epoch=datetime(1970, 1, 1, tzinfo=UTC))
    return text.encode("utf-8")
