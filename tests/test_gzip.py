"""`.xml.gz` twins and Content-Encoding: gzip negotiation (q-values, Vary, ETags, 304)."""

from __future__ import annotations

import gzip
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.support.sitemaps import assert_valid
from tests.support.sitemaps import path_of
from wpsitemaps.serving.variants import gzip_bytes
from wpsitemaps.web.accept import gzip_quality
from wpsitemaps.web.gzip import add_vary

PATHS = ["/post-sitemap.xml", "/page-sitemap.xml", "/category-sitemap.xml",
         "/author-sitemap.xml"]


@pytest.mark.parametrize("path", PATHS)
def test_gz_twin_decompresses_to_identical_xml(client: FlaskClient, path: str) -> None:
    """`….xml.gz` is a gzip file of exactly the bytes `….xml` answers."""
    plain = client.get(path)
    packed = client.get(path + ".gz")
    assert packed.status_code == 200
    assert gzip.decompress(packed.data) == plain.data


def test_gz_index_lists_the_gz_sitemaps(client: FlaskClient) -> None:
    """`sitemap_index.xml.gz` is the index with each sitemap's `.xml.gz`: the same bytes but
    for `.gz` after each `.xml` loc, a valid index, and each listed file is gzip."""
    plain = client.get("/sitemap_index.xml").data
    packed = client.get("/sitemap_index.xml.gz")
    assert packed.headers["Content-Type"] == "application/gzip"
    listing = gzip.decompress(packed.data)
    assert_valid(listing)
    assert listing == plain.replace(b".xml</loc>", b".xml.gz</loc>")
    locs = re.findall(r"<loc>([^<]+)</loc>", listing.decode())
    assert locs and all(loc.endswith("-sitemap.xml.gz") for loc in locs)
    for loc in locs:
        assert client.get(path_of(loc)).data[:2] == b"\x1f\x8b", loc


def test_gz_twin_headers(client: FlaskClient) -> None:
    """The twin is application/gzip without Content-Encoding, with the XML's Last-Modified."""
    plain = client.get("/post-sitemap.xml")
    packed = client.get("/post-sitemap.xml.gz", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Type"] == "application/gzip"
    assert "Content-Encoding" not in packed.headers
    assert packed.headers["Last-Modified"] == plain.headers["Last-Modified"]


def test_gz_twin_is_deterministic(client: FlaskClient) -> None:
    """Two requests give the same bytes (mtime 0), hence the same ETag."""
    first, second = client.get("/post-sitemap.xml.gz"), client.get("/post-sitemap.xml.gz")
    assert first.data == second.data and first.headers["ETag"] == second.headers["ETag"]


def test_gz_twin_answers_304(client: FlaskClient) -> None:
    """The twin honours If-None-Match with its own ETag."""
    etag = client.get("/post-sitemap.xml.gz").headers["ETag"]
    again = client.get("/post-sitemap.xml.gz", headers={"If-None-Match": etag})
    assert again.status_code == 304


def test_gz_of_unknown_sitemap_is_404(client: FlaskClient) -> None:
    """No twin for a sitemap that does not exist."""
    assert client.get("/nope-sitemap.xml.gz").status_code == 404


def test_gz_redirect_keeps_suffix(client: FlaskClient) -> None:
    """`post-sitemap1.xml.gz` redirects to `post-sitemap.xml.gz` like the XML does."""
    resp = client.get("/post-sitemap1.xml.gz")
    assert resp.status_code == 301 and resp.headers["Location"].endswith("/post-sitemap.xml.gz")


def test_encoded_when_accepted(client: FlaskClient) -> None:
    """Accept-Encoding: gzip gives a gzip-encoded body of the same XML."""
    plain = client.get("/post-sitemap.xml")
    resp = client.get("/post-sitemap.xml", headers={"Accept-Encoding": "br, gzip"})
    assert resp.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(resp.data) == plain.data


@pytest.mark.parametrize("header", ["gzip;q=0", "gzip;q=0, *", "*;q=0", "br, deflate",
                                    "identity", ""])
def test_identity_when_gzip_refused(client: FlaskClient, header: str) -> None:
    """q=0, a list without gzip or *, and no header all give the identity body."""
    resp = client.get("/post-sitemap.xml", headers={"Accept-Encoding": header})
    assert "Content-Encoding" not in resp.headers
    assert resp.data.startswith(b"<?xml")


@pytest.mark.parametrize(("header", "q"), [
    ("gzip", 1.0), ("GZIP;Q=0.5", 0.5), ("*", 1.0), ("br;q=1, *;q=0.2", 0.2),
    ("gzip;q=0, *", 0.0), ("x-gzip", 1.0), ("gzip;q=abc", 0.0), (None, 0.0),
])
def test_gzip_quality(header: str | None, q: float) -> None:
    """Accept-Encoding q-values: explicit gzip beats *, bad q-values refuse."""
    assert gzip_quality(header) == q


def test_vary_on_both_variants(client: FlaskClient) -> None:
    """Identity and gzip answers both carry Vary: Accept-Encoding."""
    for header in ("gzip", "identity"):
        resp = client.get("/post-sitemap.xml", headers={"Accept-Encoding": header})
        assert "Accept-Encoding" in resp.headers["Vary"]


def test_vary_is_appended_not_replaced(app: Flask) -> None:
    """A Vary set by another hook keeps its fields."""
    with app.test_request_context():
        resp = app.response_class("x")
        resp.headers["Vary"] = "Sec-Fetch-Dest, Sec-Fetch-Mode"
        add_vary(resp, "Accept-Encoding")
        add_vary(resp, "accept-encoding")
    assert resp.headers["Vary"] == "Sec-Fetch-Dest, Sec-Fetch-Mode, Accept-Encoding"


def test_gzip_etag_differs_from_identity(client: FlaskClient) -> None:
    """The gzip variant has its own strong ETag (RFC 9110: different bytes, different tag)."""
    plain = client.get("/post-sitemap.xml").headers["ETag"]
    packed = client.get("/post-sitemap.xml", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["ETag"] != plain
    assert not packed.headers["ETag"].startswith("W/")


def test_304_with_gzip_etag(client: FlaskClient) -> None:
    """If-None-Match with the gzip ETag gives 304 when gzip is still accepted."""
    etag = client.get("/post-sitemap.xml", headers={"Accept-Encoding": "gzip"}).headers["ETag"]
    resp = client.get("/post-sitemap.xml",
                      headers={"Accept-Encoding": "gzip", "If-None-Match": etag})
    assert resp.status_code == 304
    assert resp.headers["ETag"] == etag and "Accept-Encoding" in resp.headers["Vary"]


def test_gzip_etag_does_not_validate_identity(client: FlaskClient) -> None:
    """The gzip ETag from a client that now refuses gzip gets a full identity 200."""
    etag = client.get("/post-sitemap.xml", headers={"Accept-Encoding": "gzip"}).headers["ETag"]
    resp = client.get("/post-sitemap.xml", headers={"If-None-Match": etag})
    assert resp.status_code == 200 and resp.data.startswith(b"<?xml")


def test_identity_etag_does_not_validate_gzip(client: FlaskClient) -> None:
    """The identity ETag from a client that now takes gzip gets the gzip variant in a full
    200 with its own tag (RFC 9110 13.1.2: the selected representation's tag is compared)."""
    etag = client.get("/post-sitemap.xml").headers["ETag"]
    resp = client.get("/post-sitemap.xml",
                      headers={"Accept-Encoding": "gzip", "If-None-Match": etag})
    assert resp.status_code == 200 and resp.headers["Content-Encoding"] == "gzip"
    assert resp.headers["ETag"] == etag[:-1] + '-gzip"'
    assert gzip.decompress(resp.data) == client.get("/post-sitemap.xml").data


@pytest.mark.parametrize("path", ["/robots.txt", "/main-sitemap.xsl", "/rss.xml"])
def test_identity_etag_does_not_validate_gzip_elsewhere(client: FlaskClient,
                                                        path: str) -> None:
    """The same for every other encoded answer: identity tag + gzip is a 200 in gzip, and
    the gzip tag revalidates it."""
    etag = client.get(path).headers["ETag"]
    resp = client.get(path, headers={"Accept-Encoding": "gzip", "If-None-Match": etag})
    assert resp.status_code == 200 and resp.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(resp.data) == client.get(path).data
    again = client.get(path, headers={"Accept-Encoding": "gzip",
                                      "If-None-Match": resp.headers["ETag"]})
    assert again.status_code == 304 and again.headers["ETag"] == resp.headers["ETag"]


def test_identity_etag_validates_identity_copy(client: FlaskClient) -> None:
    """Without gzip the identity tag revalidates the identity copy."""
    etag = client.get("/post-sitemap.xml").headers["ETag"]
    resp = client.get("/post-sitemap.xml", headers={"If-None-Match": etag})
    assert resp.status_code == 304 and resp.headers["ETag"] == etag


def test_robots_txt_is_encoded_too(client: FlaskClient) -> None:
    """Text responses are compressed as well."""
    resp = client.get("/robots.txt", headers={"Accept-Encoding": "gzip"})
    assert gzip.decompress(resp.data).startswith(b"User-agent: *")


def test_errors_are_not_encoded(client: FlaskClient) -> None:
    """404s stay plain."""
    resp = client.get("/nope-sitemap.xml", headers={"Accept-Encoding": "gzip"})
    assert resp.status_code == 404 and "Content-Encoding" not in resp.headers


@pytest.mark.parametrize("name", ["rss.xml", "atom.xml"])
def test_feed_gz_is_a_gzip_file_of_the_feed(client: FlaskClient, name: str) -> None:
    """`/rss.xml.gz` and `/atom.xml.gz` are gzip files of exactly the feed's bytes, sent
    like every `.xml.gz` (application/gzip, no Content-Encoding), with their own 304."""
    resp = client.get(f"/{name}.gz", headers={"Accept-Encoding": "gzip"})
    assert resp.status_code == 200
    assert resp.headers["Content-Type"] == "application/gzip"
    assert "Content-Encoding" not in resp.headers
    assert gzip.decompress(resp.data) == client.get(f"/{name}").data
    again = client.get(f"/{name}.gz", headers={"If-None-Match": resp.headers["ETag"]})
    assert again.status_code == 304


def test_every_listed_gz_is_gzip(client: FlaskClient) -> None:
    """The `.gz` of the index and of every sitemap it lists starts with gzip's magic bytes."""
    index = client.get("/sitemap_index.xml").get_data(as_text=True)
    paths = ["/sitemap_index.xml"] + [
        "/" + loc.split("/", 3)[3] for loc in re.findall(r"<loc>([^<]+)</loc>", index)]
    for path in paths:
        resp = client.get(path + ".gz")
        assert resp.status_code == 200 and resp.data[:2] == b"\x1f\x8b", path
        assert resp.headers["Content-Type"] == "application/gzip", path


def test_gzip_bytes_has_zero_mtime() -> None:
    """The gzip header's MTIME field is zero, so output depends on the input only."""
    assert gzip_bytes(b"abc")[4:8] == b"\0\0\0\0"
