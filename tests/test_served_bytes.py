"""Every document served for peer-small is byte-identical to the committed copy.

The copies in tests/fixtures/served/peer-small/ were written by this test before the layout
change of issue #14; a refactor must not change a byte of what a crawler or browser gets.
A change that is meant to alter output regenerates them with WPSITEMAPS_UPDATE_SERVED=1 and
shows the diff in its commit.
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest
from flask import Flask

from tests.conftest import PEER_CONFIG
from wpsitemaps import create_app

SERVED = Path(__file__).parent / "fixtures" / "served" / "peer-small"
BROWSER = {"Sec-Fetch-Dest": "document", "Sec-Fetch-Mode": "navigate"}
PATHS = ["/sitemap_index.xml", "/post-sitemap.xml", "/page-sitemap.xml", "/event-sitemap.xml",
         "/category-sitemap.xml", "/post_tag-sitemap.xml", "/genre-sitemap.xml",
         "/author-sitemap.xml", "/video-sitemap.xml", "/news-sitemap.xml", "/robots.txt",
         "/main-sitemap.xsl", "/video-sitemap.xsl", "/news-sitemap.xsl"]


@pytest.fixture(scope="module")
def app(peer_sqlite_url: str) -> Flask:
    """peer-small on SQLite, configured as its README says."""
    return create_app({"TESTING": True, "DATABASE_URL": peer_sqlite_url, **PEER_CONFIG})


def _file(path: str, variant: str) -> Path:
    return SERVED / (path.strip("/").replace("/", "_") + variant)


def _check(path: Path, body: bytes) -> None:
    if os.environ.get("WPSITEMAPS_UPDATE_SERVED"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(body)
    assert path.exists(), f"no committed copy of {path.name}"
    assert body == path.read_bytes(), f"{path.name} differs from the committed bytes"


@pytest.mark.parametrize("path", PATHS)
def test_document_bytes_unchanged(app: Flask, path: str) -> None:
    """The plain response body equals the committed one, byte for byte."""
    resp = app.test_client().get(path)
    assert resp.status_code == 200
    _check(_file(path, ""), resp.data)


@pytest.mark.parametrize("path", [p for p in PATHS if p.endswith("-sitemap.xml")])
def test_browser_rendering_unchanged(app: Flask, path: str) -> None:
    """The server-side XSLT rendering for a browser navigation equals the committed one."""
    resp = app.test_client().get(path, headers=BROWSER)
    assert resp.status_code == 200
    _check(_file(path, ".html"), resp.data)


@pytest.mark.parametrize("path", ["/sitemap_index.xml", "/post-sitemap.xml"])
def test_gzip_twin_unchanged(app: Flask, path: str) -> None:
    """The .xml.gz twin decompresses to the plain document's bytes (the index's lists each
    sitemap's .xml.gz: otherwise the same bytes)."""
    resp = app.test_client().get(path + ".gz")
    assert resp.status_code == 200
    body = gzip.decompress(resp.data)
    if path == "/sitemap_index.xml":
        assert body.count(b".xml.gz</loc>") == body.count(b"</loc>") > 0
        body = body.replace(b".xml.gz</loc>", b".xml</loc>")
    _check(_file(path, ""), body)
