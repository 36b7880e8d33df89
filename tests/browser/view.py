"""A sitemap page open in Chromium, as a person uses it: read rows, type, click.

The page is either the document itself (a navigation: the server's HTML) or the sitemap in the
lane's full-size iframe (the browser's own XSLT); every query runs in that document.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from tests.browser.cdp import Page
from tests.browser.site import FRAME_PATH

# The document under test: the iframe's when there is one.
DOC = ("(document.getElementById('view') ? document.getElementById('view').contentDocument"
       " : document)")


@dataclass(frozen=True)
class Mode:
    """How the page is rendered: by the server (XSLT on or off in Chromium) or the browser."""

    id: str
    xslt: bool
    framed: bool

    def url(self, base: str, path: str) -> str:
        """The address to open for a sitemap path in this mode."""
        return f"{base}{FRAME_PATH}?src={quote(path)}" if self.framed else base + path


SERVER_XSLT_ON = Mode("server-html-xslt-on", xslt=True, framed=False)
SERVER_XSLT_OFF = Mode("server-html-xslt-off", xslt=False, framed=False)
BROWSER_XSLT = Mode("browser-xslt", xslt=True, framed=True)
MODES = [SERVER_XSLT_ON, SERVER_XSLT_OFF, BROWSER_XSLT]


class View:
    """One sitemap page in one mode."""

    def __init__(self, page: Page, mode: Mode) -> None:
        self.page = page
        self.mode = mode

    def open(self, base: str, path: str, *, ready: str = "'.tools'",
             settle: bool = True) -> None:
        """Open a sitemap and wait until `ready` (a CSS selector as JS) is in its document
        and the pager has settled (a browser's XSLT fills it after fetching the index, which
        moves everything below it: a click aimed before that would miss)."""
        self.page.goto(self.mode.url(base, path))
        self.page.wait_for(f"{DOC} && {DOC}.readyState === 'complete'"
                           f" && {DOC}.querySelector({ready})"
                           + (f" && !{DOC}.querySelector('nav.pager:not([data-pages])')"
                              if settle else ""))

    def js(self, expression: str) -> Any:
        """Evaluate with `d` bound to the document under test."""
        return self.page.evaluate(f"(function (d) {{ return {expression}; }})({DOC})")

    def rows(self) -> list[dict[str, str]]:
        """The table's body rows a person sees (not hidden), in order: href and cell texts."""
        return list(self.js(
            "Array.prototype.filter.call(d.querySelectorAll('main table tbody tr'),"
            " function (r) { return r.getClientRects().length > 0; }).map(function (r) {"
            " var a = r.querySelector('td.url a, td.title a, td.page a');"
            " var o = {href: a ? a.getAttribute('href') : ''};"
            " Array.prototype.forEach.call(r.cells, function (c) {"
            "   o[c.className.split(' ').pop()] = c.textContent.replace(/\\s+/g, ' ').trim(); });"
            " return o; })"))

    def text(self, selector: str) -> str:
        """Whitespace-normalised text of the first match ('' if none)."""
        found = self.js(f"(d.querySelector({json.dumps(selector)}) || {{textContent: ''}})"
                        ".textContent.replace(/\\s+/g, ' ').trim()")
        return str(found)

    def count(self, selector: str) -> int:
        """How many elements match."""
        return int(self.js(f"d.querySelectorAll({json.dumps(selector)}).length"))

    def click(self, selector: str) -> None:
        """A real mouse click in the middle of the first match."""
        x, y = self.js(
            f"(function (el) {{ el.scrollIntoView({{block: 'center'}});"
            " var r = el.getBoundingClientRect(), f = document.getElementById('view');"
            " var o = f ? f.getBoundingClientRect() : {left: 0, top: 0};"
            " return [o.left + r.left + r.width / 2, o.top + r.top + r.height / 2];"
            f" }})(d.querySelector({json.dumps(selector)}))")
        self.page.click(x, y)

    def type_into(self, selector: str, text: str) -> None:
        """Click into a field, then type, key by key."""
        self.click(selector)
        assert self.js(f"d.activeElement === d.querySelector({json.dumps(selector)})"), (
            f"the click did not focus {selector}")
        self.page.type_text(text)

    def header(self, label: str) -> str:
        """A CSS selector for the sort button of the column headed `label`."""
        index = self.js(
            "Array.prototype.map.call(d.querySelectorAll('main table thead th'),"
            " function (th) { return th.textContent.trim().toLowerCase(); })"
            f".indexOf({json.dumps(label.lower())})")
        assert index >= 0, f"no column {label!r}"
        return f"main table thead th:nth-child({index + 1}) button.sort"
