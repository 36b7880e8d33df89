"""Sitemap documents against the bundled XSDs (wpsitemaps/xsd/), with lxml, offline.

Mirrors the shared validator's approach (/work/shared/xsd/validate.py): a wrapper schema
per root element imports the core and every extension schema, remote schema URLs resolve
to the bundled copies, DOCTYPEs are refused and entities never expanded.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from lxml import etree

XSD_DIR = Path(__file__).resolve().parent.parent / "xsd"
SM = "http://www.sitemaps.org/schemas/sitemap/0.9"
WRAPPER = {"urlset": "urlset-all.xsd", "sitemapindex": "sitemapindex-all.xsd"}
LOCAL = {
    "http://www.w3.org/2001/xml.xsd": "xml.xsd",
    "http://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd": "sitemap.xsd",
    "http://www.sitemaps.org/schemas/sitemap/0.9/siteindex.xsd": "siteindex.xsd",
    "http://www.google.com/schemas/sitemap-image/1.1/sitemap-image.xsd": "sitemap-image.xsd",
    "http://www.google.com/schemas/sitemap-video/1.1/sitemap-video.xsd": "sitemap-video.xsd",
    "http://www.google.com/schemas/sitemap-news/0.9/sitemap-news.xsd": "sitemap-news.xsd",
    "http://www.w3.org/2002/08/xhtml/xhtml1-strict.xsd": "xhtml1-strict.xsd",
}
_schemas: dict[str, Any] = {}
# The audit validates in worker threads; libxml2 compiling two schemas at once can fail
# to resolve xml:lang (seen in the full test run), so compilation is serialised.
_compile_lock = threading.Lock()


class _LocalResolver(etree.Resolver):  # type: ignore[misc]
    """Answer the remote schema imports from the bundled files."""

    def resolve(self, url: str, pubid: str, context: Any) -> Any:
        """The bundled copy of a known schema URL, else None (lxml then refuses)."""
        if url in LOCAL:
            return self.resolve_filename(str(XSD_DIR / LOCAL[url]), context)
        return None


def schema(root_name: str) -> Any:
    """The compiled wrapper schema for `urlset` or `sitemapindex` (cached)."""
    with _compile_lock:
        if root_name not in _schemas:
            parser = etree.XMLParser(no_network=True)
            parser.resolvers.add(_LocalResolver())
            doc = etree.parse(str(XSD_DIR / WRAPPER[root_name]), parser)
            _schemas[root_name] = etree.XMLSchema(doc)
        return _schemas[root_name]


def parse(data: bytes) -> Any:
    """Parse a sitemap safely: no entities, no network, DOCTYPE refused (ValueError)."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise ValueError(f"not well-formed XML: {exc}") from None
    if root.getroottree().docinfo.doctype:
        raise ValueError("has a DOCTYPE; sitemaps must not")
    return root


def xsd_errors(root: Any, limit: int = 5) -> list[str]:
    """XSD messages for a parsed document (at most `limit`, then a count of the rest)."""
    name = etree.QName(root)
    if name.namespace != SM or name.localname not in WRAPPER:
        return [f"root element is {{{name.namespace}}}{name.localname}, "
                "expected urlset or sitemapindex in the sitemaps.org 0.9 namespace"]
    checker = schema(name.localname)
    if checker.validate(root):
        return []
    errors = [f"line {e.line}: {e.message}" for e in checker.error_log]
    extra = [f"... and {len(errors) - limit} more XSD errors"] if len(errors) > limit else []
    return errors[:limit] + extra
