"""The libxslt engine behind web/xslt.py: compiled stylesheets and the transform itself.

Kept apart so that lxml (about 6 MB of a worker's memory) is loaded on the first HTML view,
not by every worker that only serves XML. Stylesheets are compiled once per process and
run with no network, no file writes and no document() reads; they get one extension
function, `wps:display-url` (web/display.py).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from lxml import etree

from wpsitemaps.paths import STYLESHEETS
from wpsitemaps.paths import XSL_DIR
from wpsitemaps.web.display import display_url

# The namespace the stylesheets bind to `wps:`; they test function-available() first.
EXT_NS = "urn:wpsitemaps:xslt"

# Nothing read from the network or a file while transforming: our stylesheets need no
# document() and no output documents, so everything is denied at run time.
ACCESS = etree.XSLTAccessControl(read_file=False, write_file=False, create_dir=False,
                                 read_network=False, write_network=False)

_lock = threading.Lock()


class _XslDirOnly(etree.Resolver):  # type: ignore[misc]
    """Compile-time loads (xsl:include/import) may only read files inside xsl/."""

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = root.resolve()

    def resolve(self, url: str, pubid: str | None, context: Any) -> Any:
        """Serve files under xsl/; refuse anything else (the compile fails)."""
        path = Path(url.removeprefix("file://")).resolve()
        if "://" not in url.removeprefix("file://") and path.is_relative_to(self.root):
            return self.resolve_filename(str(path), context)
        raise etree.XSLTParseError(f"refused to load {url!r}: only files in xsl/ are allowed")


def safe_parser() -> etree.XMLParser:
    """An XML parser that never touches the network and never expands entities."""
    return etree.XMLParser(no_network=True, resolve_entities=False, load_dtd=False,
                           huge_tree=False, remove_blank_text=False)


def compile_stylesheet(path: Path, root: Path = XSL_DIR) -> etree.XSLT:
    """Compile one stylesheet with the safe parser and the run-time access control."""
    parser = safe_parser()
    parser.resolvers.add(_XslDirOnly(root))
    doc = etree.parse(str(path), parser)
    return etree.XSLT(doc, access_control=ACCESS,
                      extensions={(EXT_NS, "display-url"): _display_url})


def _display_url(context: Any, value: Any) -> str:
    """XPath wps:display-url(string): the URL as an address bar shows it."""
    if isinstance(value, list):  # a node-set: XPath's string() of it is its first node's text
        value = value[0] if value else ""
        value = value if isinstance(value, str) else "".join(value.itertext())
    return display_url(str(value))


@lru_cache(maxsize=len(STYLESHEETS))
def stylesheet(kind: str) -> etree.XSLT:
    """The compiled stylesheet for a sitemap kind ("main", "video", "news"), once per process."""
    try:
        name = STYLESHEETS[kind]
    except KeyError:
        raise ValueError(f"unknown sitemap kind {kind!r}") from None
    return compile_stylesheet(XSL_DIR / name, XSL_DIR)


def transform(xml: bytes, stylesheet_name: str,
              params: Mapping[str, str] | None = None) -> bytes:
    """Apply the kind's stylesheet to a sitemap document and return UTF-8 HTML.

    `params` are string parameters of the stylesheet (web/display.py: view_params).
    """
    xslt = stylesheet(stylesheet_name)
    doc = etree.fromstring(xml, safe_parser()).getroottree()
    quoted = {key: etree.XSLT.strparam(value) for key, value in (params or {}).items()}
    # An XSLT object is not safe to run from several threads at once (lxml docs).
    with _lock:
        result = xslt(doc, **quoted)
    if xslt.error_log and result.getroot() is None:
        raise ValueError(f"XSLT failed: {xslt.error_log}")
    out: bytes = bytes(result)
    return out
