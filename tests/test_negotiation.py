"""Sitemap responses: HTML for a browser's top-level navigation, XML for everyone else."""

from __future__ import annotations

import lxml.html
import pytest
from flask.testing import FlaskClient

from wpsitemaps.paths import XSL_DIR
from wpsitemaps.web import xslt

NAVIGATE = {"Sec-Fetch-Dest": "document", "Sec-Fetch-Mode": "navigate",
            "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
PATHS = ["/sitemap_index.xml", "/post-sitemap.xml", "/page-sitemap.xml"]


@pytest.mark.parametrize("path", PATHS)
def test_navigation_gets_server_rendered_html(client: FlaskClient, path: str) -> None:
    """A top-level navigation gets the stylesheet applied by the server, as UTF-8 HTML."""
    resp = client.get(path, headers=NAVIGATE)
    assert resp.status_code == 200
    assert resp.headers["Content-Type"] == "text/html; charset=utf-8"
    page = lxml.html.document_fromstring(resp.data)
    assert page.xpath("//table/tbody/tr")


@pytest.mark.parametrize("path", PATHS)
def test_html_equals_the_transform_of_the_xml(client: FlaskClient, path: str) -> None:
    """The HTML is exactly what main-sitemap.xsl makes of the XML the same URL serves."""
    xml = client.get(path).data
    assert client.get(path, headers=NAVIGATE).data == xslt.transform(xml, "main")


@pytest.mark.parametrize("headers", [
    {}, {"Sec-Fetch-Dest": "iframe", "Sec-Fetch-Mode": "navigate"},
    {"Sec-Fetch-Dest": "empty", "Sec-Fetch-Mode": "cors"}, {"Sec-Fetch-Dest": "document"},
])
def test_other_requests_get_xml_with_stylesheet_pi(client: FlaskClient,
                                                   headers: dict[str, str]) -> None:
    """Without document + navigate the answer is the XML with its stylesheet PI."""
    resp = client.get("/sitemap_index.xml", headers=headers)
    assert resp.headers["Content-Type"] == "application/xml; charset=utf-8"
    assert b'<?xml-stylesheet type="text/xsl" href="//' in resp.data


@pytest.mark.parametrize("headers", [{}, NAVIGATE])
def test_both_representations_vary_and_are_noindex(client: FlaskClient,
                                                   headers: dict[str, str]) -> None:
    """XML and HTML both carry Vary on Sec-Fetch-Dest/Mode and X-Robots-Tag noindex."""
    resp = client.get("/post-sitemap.xml", headers=headers)
    assert {"Sec-Fetch-Dest", "Sec-Fetch-Mode"} <= set(resp.vary)
    assert resp.headers["X-Robots-Tag"] == "noindex, follow"


def test_html_and_xml_have_different_etags(client: FlaskClient) -> None:
    """A cached XML ETag never validates the HTML answer (and vice versa)."""
    xml = client.get("/post-sitemap.xml")
    html = client.get("/post-sitemap.xml", headers=NAVIGATE)
    assert xml.headers["ETag"] != html.headers["ETag"]
    again = client.get("/post-sitemap.xml",
                       headers={**NAVIGATE, "If-None-Match": xml.headers["ETag"]})
    assert again.status_code == 200


def test_html_conditional_request_gives_304(client: FlaskClient) -> None:
    """The HTML answer has its own ETag, which revalidates to 304."""
    first = client.get("/post-sitemap.xml", headers=NAVIGATE)
    again = client.get("/post-sitemap.xml",
                       headers={**NAVIGATE, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304


@pytest.mark.parametrize("kind", ["main", "video", "news"])
def test_stylesheets_served_as_text_xsl(client: FlaskClient, kind: str) -> None:
    """/{kind}-sitemap.xsl serves the file of xsl/ as text/xsl with caching headers."""
    resp = client.get(f"/{kind}-sitemap.xsl")
    assert resp.status_code == 200
    assert resp.headers["Content-Type"] == "text/xsl; charset=utf-8"
    assert resp.data == (XSL_DIR / f"{kind}-sitemap.xsl").read_bytes()
    assert resp.headers["ETag"] and resp.headers["Last-Modified"]
    assert resp.headers["X-Robots-Tag"] == "noindex, follow"


def test_unknown_stylesheet_is_404(client: FlaskClient) -> None:
    """Only the three stylesheets exist."""
    assert client.get("/evil-sitemap.xsl").status_code == 404
