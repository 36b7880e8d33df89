"""Checks on one listed URL: status, redirect, canonical, noindex (meta and header)."""

from __future__ import annotations

from html.parser import HTMLParser
from urllib.parse import urljoin

from wpsitemaps.audit.http import Fetched

ROBOTS_META_NAMES = ("robots", "googlebot")


class HeadScanner(HTMLParser):
    """Collect <link rel=canonical> and robots <meta> from an HTML page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.canonicals: list[str] = []
        self.robots: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        """Record canonical links and robots meta directives."""
        values = {k.lower(): (v or "") for k, v in attrs}
        if tag == "link" and "canonical" in values.get("rel", "").lower().split():
            self.canonicals.append(values.get("href", "").strip())
        elif tag == "meta" and values.get("name", "").lower() in ROBOTS_META_NAMES:
            self.robots.append(values.get("content", ""))


def has_noindex(directives: str, agent: str = "googlebot") -> bool:
    """Whether robots directives (meta content or X-Robots-Tag) say noindex for us.

    X-Robots-Tag may scope a directive to a crawler (`googlebot: noindex`); unscoped ones
    apply to all. `none` means `noindex, nofollow`.
    """
    scope = None
    for raw in directives.split(","):
        part = raw.strip().lower()
        if ":" in part and not part.startswith(("unavailable_after", "max-")):
            scope, _, part = (p.strip() for p in part.partition(":"))
        if part in ("noindex", "none") and scope in (None, agent, "*"):
            return True
    return False


def page_problems(loc: str, page: Fetched) -> list[tuple[str, str]]:
    """(kind, detail) problems of a fetched listed URL; empty when it is fine."""
    if page.error:
        return [("unreachable", page.error)]
    if 300 <= page.status < 400:
        return [("redirect", f"{page.status} to {page.headers.get('Location', '?')}")]
    if page.status != 200:
        return [("status", f"answered {page.status}, not 200")]
    out: list[tuple[str, str]] = []
    for value in page.headers.get_all("X-Robots-Tag") or []:
        if has_noindex(value):
            out.append(("noindex-header", f"X-Robots-Tag: {value}"))
    if (page.headers.get_content_type() or "") != "text/html":
        return out
    scanner = HeadScanner()
    scanner.feed(page.body.decode(page.headers.get_content_charset() or "utf-8", "replace"))
    scanner.close()
    for content in scanner.robots:
        if has_noindex(content):
            out.append(("noindex-meta", f'<meta name="robots" content="{content}">'))
    if not scanner.canonicals:
        out.append(("canonical-missing", "no <link rel=\"canonical\">"))
    elif urljoin(loc, scanner.canonicals[0]) != loc:
        out.append(("canonical-mismatch", f"canonical is {scanner.canonicals[0]}"))
    return out
