"""HTTP behaviour of the sitemap routes: status codes, redirects, headers, conditionals."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from tests.support.sitemaps import assert_valid

# The 301/404 table of docs/sitemaps.md; each row is tested here.
ROUTES = [
    ("/sitemap_index.xml", 200, None),
    ("/sitemap.xml", 301, "/sitemap_index.xml"),
    ("/post-sitemap.xml", 200, None),
    ("/post-sitemap1.xml", 301, "/post-sitemap.xml"),
    ("/post-sitemap0.xml", 301, "/post-sitemap.xml"),
    ("/post-sitemap2.xml", 404, None),
    ("/post-sitemap02.xml", 404, None),
    ("/post-sitemap-1.xml", 404, None),
    ("/post-sitemapx.xml", 404, None),
    ("/nosuchtype-sitemap.xml", 404, None),
    ("/Post-sitemap.xml", 404, None),
    ("/post-sitemap.xml/", 404, None),
    ("/post-sitemap.xmlx", 404, None),
    ("/page-sitemap.xml", 200, None),
    ("/category-sitemap.xml", 200, None),
    ("/post_tag-sitemap.xml", 200, None),
    ("/author-sitemap.xml", 200, None),
    ("/attachment-sitemap.xml", 404, None),
    ("/revision-sitemap.xml", 404, None),
    ("/post_format-sitemap.xml", 404, None),
    ("/nav_menu-sitemap.xml", 404, None),
    ("/wp-sitemap.xml", 404, None),
]


@pytest.mark.parametrize(("path", "status", "location"), ROUTES)
def test_route_table(client: FlaskClient, path: str, status: int, location: str | None) -> None:
    """Each route answers the status (and redirect target) of the docs table."""
    resp = client.get(path)
    assert resp.status_code == status
    if location is not None:
        assert resp.headers["Location"] == location
    if status == 404:
        assert resp.mimetype == "text/plain"
        assert len(resp.data) < 200


def test_sitemap_headers(client: FlaskClient) -> None:
    """Sitemaps carry the content type, robots, cache, Last-Modified and strong ETag headers."""
    resp = client.get("/post-sitemap.xml")
    assert resp.headers["Content-Type"] == "application/xml; charset=utf-8"
    assert resp.headers["X-Robots-Tag"] == "noindex, follow"
    assert resp.headers["Cache-Control"] == "public, max-age=300"
    assert resp.headers["Last-Modified"]
    etag = resp.headers["ETag"]
    assert etag.startswith('"') and not etag.startswith("W/")
    assert resp.headers["X-Content-Type-Options"] == "nosniff"


def test_if_none_match_gives_304(client: FlaskClient) -> None:
    """A matching If-None-Match answers 304 without a body."""
    etag = client.get("/post-sitemap.xml").headers["ETag"]
    resp = client.get("/post-sitemap.xml", headers={"If-None-Match": etag})
    assert resp.status_code == 304
    assert resp.data == b""


def test_if_modified_since_gives_304(client: FlaskClient) -> None:
    """If-Modified-Since at the Last-Modified date answers 304."""
    last = client.get("/sitemap_index.xml").headers["Last-Modified"]
    resp = client.get("/sitemap_index.xml", headers={"If-Modified-Since": last})
    assert resp.status_code == 304


def test_stale_etag_gives_200(client: FlaskClient) -> None:
    """A different ETag gets the full document."""
    resp = client.get("/post-sitemap.xml", headers={"If-None-Match": '"stale"'})
    assert resp.status_code == 200 and resp.data


def test_head_has_headers_and_no_body(client: FlaskClient) -> None:
    """HEAD answers like GET without the body."""
    get = client.get("/post-sitemap.xml")
    head = client.head("/post-sitemap.xml")
    assert head.status_code == 200 and head.data == b""
    assert head.headers["ETag"] == get.headers["ETag"]
    assert head.headers["Content-Length"] == str(len(get.data))


def test_post_is_405(client: FlaskClient) -> None:
    """Only GET and HEAD are allowed."""
    assert client.post("/post-sitemap.xml").status_code == 405


def test_stylesheet_instruction(client: FlaskClient) -> None:
    """Every document starts with the XML declaration and the stylesheet PI."""
    for path in ("/sitemap_index.xml", "/post-sitemap.xml"):
        lines = client.get(path).data.decode().splitlines()
        assert lines[0] == '<?xml version="1.0" encoding="UTF-8"?>'
        pi = '<?xml-stylesheet type="text/xsl" href="//example.test/main-sitemap.xsl"?>'
        assert lines[1] == pi


def test_every_response_validates(client: FlaskClient) -> None:
    """The index and each sitemap pass validate.py --google."""
    for path in ("/sitemap_index.xml", "/post-sitemap.xml", "/page-sitemap.xml",
                 "/category-sitemap.xml", "/author-sitemap.xml"):
        assert_valid(client.get(path).data, path)
