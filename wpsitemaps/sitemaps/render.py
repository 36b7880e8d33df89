"""Entries to XML bytes: Jinja templates, escaping, and the stylesheet processing instruction.

Every value goes through `clean()` before Jinja escapes it: characters XML 1.0 forbids
(control characters, U+FFFE/U+FFFF, lone surrogates from broken UTF-8) are removed, never
emitted, so the output is well-formed whatever bytes sit in the database.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from collections.abc import Sequence
from datetime import UTC
from datetime import datetime
from email.utils import format_datetime
from typing import Any

from jinja2 import Environment
from jinja2 import FileSystemLoader
from jinja2 import select_autoescape
from markupsafe import escape

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
    if not ns["video"] and not ns["news"]:
        return plain_urlset(entries, stylesheet, ns).encode("utf-8")
    return _encoded(_env.get_template("urlset.xml").generate(
        entries=entries, stylesheet=stylesheet, ns=ns))


def _encoded(pieces: Iterator[str], batch: int = 2048) -> bytes:
    """The UTF-8 bytes of a template's output, encoded in batches as it is generated.

    Template.render() joins every piece into one str first: for a 1 MB video page that is
    a list of some 100,000 strings plus a str of up to 4 bytes per character, the largest
    peak of a worker's memory (issue #13: 80 MB per worker)."""
    out = bytearray()
    buffer: list[str] = []
    for piece in pieces:
        buffer.append(piece)
        if len(buffer) >= batch:
            out += "".join(buffer).encode("utf-8")
            buffer.clear()
    out += "".join(buffer).encode("utf-8")
    return bytes(out)


NAMESPACES = {"image": ' xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"',
              "video": ' xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"',
              "news": ' xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"',
              "xhtml": ' xmlns:xhtml="http://www.w3.org/1999/xhtml"'}


def _text(value: str) -> str:
    """What the template makes of a string: clean(), then autoescaped (markupsafe)."""
    return str(escape(clean(value)))


def plain_urlset(entries: Sequence[UrlEntry], stylesheet: str | None,
                 ns: dict[str, bool]) -> str:
    """urlset.xml for entries without videos or news (every content and taxonomy page),
    written out directly, as the template was the largest cost of a page's render
    (docs/performance.md, "Design notes"). The same characters as the template
    (tests/test_render_plain.py holds them equal)."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n']
    if stylesheet:
        out.append(f'<?xml-stylesheet type="text/xsl" href="{_text(stylesheet)}"?>\n')
    out.append('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"')
    out.extend(NAMESPACES[name] for name in ("image", "video", "news", "xhtml") if ns[name])
    out.append(">")
    for e in entries:
        out.append(f"\n\t<url>\n\t\t<loc>{_text(e.loc)}</loc>")
        if e.lastmod:
            out.append(f"\n\t\t<lastmod>{_text(_w3c(e.lastmod))}</lastmod>")
        for a in e.alternates:
            out.append(f'\n\t\t<xhtml:link rel="alternate" hreflang="{_text(a.hreflang)}" '
                       f'href="{_text(a.href)}"/>')
        for i in e.images:
            out.append(f"\n\t\t<image:image>\n\t\t\t<image:loc>{_text(i.loc)}</image:loc>"
                       "\n\t\t</image:image>")
        out.append("\n\t</url>")
    out.append("\n</urlset>\n")
    return "".join(out)


def render_index(sitemaps: Sequence[SitemapRef], stylesheet: str | None) -> bytes:
    """A <sitemapindex> document (no stylesheet PI when stylesheet is None)."""
    text = _env.get_template("sitemap_index.xml").render(sitemaps=sitemaps,
                                                          stylesheet=stylesheet)
    return text.encode("utf-8")


GZ_LOC_RE = re.compile(rb"(<loc>[^<]*\.xml)(</loc>)")


def gz_listing(index: bytes) -> bytes:
    """The index as its `.xml.gz` file lists: each sitemap's `.xml.gz` instead of its `.xml`
    (only the locs change; the template writes one `<loc>` per sitemap, all `.xml`)."""
    return GZ_LOC_RE.sub(rb"\1.gz\2", index)


def render_feed(template: str, feed: Any, self_url: str, hubs: Sequence[str] = ()) -> bytes:
    """An RSS (rss.xml) or Atom (atom.xml) document of a sitemaps.feeds.Feed; `hubs` are
    the WebSub hubs it names (rel="hub", beside its rel="self")."""
    text = _env.get_template(template).render(feed=feed, self_url=self_url, hubs=hubs,
                                              epoch=datetime(1970, 1, 1, tzinfo=UTC))
    return text.encode("utf-8")
