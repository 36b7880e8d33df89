"""Helpers to read served sitemaps in tests (parse, validate, collect)."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from typing import Any
from xml.etree import ElementTree as ET

from flask.testing import FlaskClient

from tests.support import wpdb

SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
IMAGE = "{http://www.google.com/schemas/sitemap-image/1.1}"
VIDEO = "{http://www.google.com/schemas/sitemap-video/1.1}"
NEWS = "{http://www.google.com/schemas/sitemap-news/0.9}"

_spec = importlib.util.spec_from_file_location("sitemap_validate", wpdb.VALIDATE)
assert _spec is not None and _spec.loader is not None
validator: Any = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(validator)


EMPTY_ROOT_ERROR = "Missing child element(s)"


def assert_valid(body: bytes, name: str = "response") -> None:
    """Fail unless validate.py --google accepts the document.

    An empty <urlset>/<sitemapindex> (a known type with no entries, a private site) is the
    one exception: sitemap.xsd requires at least one child, so for a document without
    children the only error allowed is exactly that one (see README, "Empty sitemaps").
    """
    ok, messages = validator.validate_bytes(body, name, google=True, quiet=True)
    if not ok and _is_empty_document(body):
        assert len(messages) == 1 and EMPTY_ROOT_ERROR in messages[0], messages
        return
    assert ok, "\n".join(messages)


def _is_empty_document(body: bytes) -> bool:
    root = ET.fromstring(body)
    return root.tag in (SM + "urlset", SM + "sitemapindex") and len(root) == 0


@dataclass
class Url:
    """One parsed <url>."""

    loc: str
    lastmod: str | None
    images: list[str]
    element: ET.Element


def parse_urlset(body: bytes) -> list[Url]:
    """The <url> elements of a urlset."""
    root = ET.fromstring(body)
    assert root.tag == SM + "urlset", root.tag
    out = []
    for url in root.findall(SM + "url"):
        lastmod = url.find(SM + "lastmod")
        out.append(Url(url.findtext(SM + "loc") or "",
                       lastmod.text if lastmod is not None else None,
                       [i.findtext(IMAGE + "loc") or "" for i in url.findall(IMAGE + "image")],
                       url))
    return out


def parse_index(body: bytes) -> list[tuple[str, str | None]]:
    """(loc, lastmod) of each <sitemap> of an index."""
    root = ET.fromstring(body)
    assert root.tag == SM + "sitemapindex", root.tag
    return [(s.findtext(SM + "loc") or "", s.findtext(SM + "lastmod"))
            for s in root.findall(SM + "sitemap")]


def path_of(url: str) -> str:
    """The path of an absolute URL (test clients take paths)."""
    return "/" + url.split("/", 3)[3]


def fetch_all(client: FlaskClient, base_url: str = "http://localhost") -> dict[str, bytes]:
    """The index and every sitemap page it lists, validated, by path (requested on the
    host of `base_url`)."""
    index = client.get("/sitemap_index.xml", base_url=base_url)
    assert index.status_code == 200
    assert_valid(index.data, "/sitemap_index.xml")
    out = {"/sitemap_index.xml": index.data}
    for loc, _ in parse_index(index.data):
        resp = client.get(path_of(loc), base_url=base_url)
        assert resp.status_code == 200, loc
        assert_valid(resp.data, loc)
        out[path_of(loc)] = resp.data
    return out
