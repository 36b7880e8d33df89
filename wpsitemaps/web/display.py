"""What the browser view shows beyond the XML itself: decoded URLs, the pager, the clock.

Pure functions, used by the server-side XSLT (web/xslt.py) as an extension function and as
stylesheet parameters. The inline script of xsl/*.xsl does the same for browsers that run the
XSLT themselves; tests/browser/ checks both give the same text.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime

# A run of percent-escapes; decoded as a whole so multi-byte UTF-8 sequences stay together.
_ESCAPES = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
# Characters an address bar keeps escaped because they hide or fake what the URL is:
# controls, format characters (bidi overrides, zero-width joiners), spaces and line
# separators, surrogates, private-use and unassigned code points.
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp"})


def display_url(url: str) -> str:
    """The URL as an address bar shows it: escaped UTF-8 of visible non-ASCII turned into text.

    ASCII escapes (%20, %2F, %3F, %25...) stay: decoding them would change what the URL means.
    Invalid UTF-8 stays escaped. The result is only for reading; links keep the exact loc.
    """
    return _ESCAPES.sub(lambda m: _decode_run(m.group()), url)


def _decode_run(run: str) -> str:
    """Decode one run of %XX escapes, byte sequence by byte sequence."""
    data = bytes.fromhex(run.replace("%", ""))
    out: list[str] = []
    i = 0
    while i < len(data):
        size = _sequence_length(data[i])
        chunk = data[i:i + size]
        char = _visible_char(chunk) if size > 1 else None
        if char is None:
            size = 1
            out.append(run[3 * i:3 * i + 3])
        else:
            out.append(char)
        i += size
    return "".join(out)


def _sequence_length(lead: int) -> int:
    """Bytes in the UTF-8 sequence a lead byte starts (1 for ASCII and stray bytes)."""
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF4:
        return 4
    return 1


def _visible_char(chunk: bytes) -> str | None:
    """The character a complete UTF-8 sequence encodes, or None if invalid or hidden."""
    try:
        char = chunk.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(char) != 1 or unicodedata.category(char) in _HIDDEN:
        return None
    return char


def page_file(name: str, page: int) -> str:
    """File name of a sitemap page, relative to the index: post-sitemap.xml, post-sitemap2.xml."""
    return f"{name}-sitemap{'' if page == 1 else page}.xml"


def view_params(name: str | None = None, page: int = 1, pages: int = 0,
                now: datetime | None = None) -> dict[str, str]:
    """Stylesheet parameters for the server-side rendering: the pager and the clock.

    The XML does not say which page of how many it is (nor what time it is), and XSLT 1.0
    cannot read the document's URL, so the route, which knows both, passes them in.
    """
    params: dict[str, str] = {}
    if name is not None and pages > 1:
        params.update({"page": str(page), "pages": str(pages),
                       "prev-url": page_file(name, page - 1) if page > 1 else "",
                       "next-url": page_file(name, page + 1) if page < pages else ""})
    if now is not None:
        params["now"] = str(int(now.timestamp()))
    return params
