"""Googlebot (no Sec-Fetch headers, HTML-first Accept) always gets valid sitemap XML."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from lxml import etree

from tests.browser.site import browser_site
from tests.support.sitemaps import assert_valid

GOOGLEBOT = {
    "User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
}
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def crawl(client: FlaskClient) -> dict[str, Any]:
    """Fetch the index and every sitemap it lists, as Googlebot; path -> response."""
    index = client.get("/sitemap_index.xml", headers=GOOGLEBOT)
    responses = {"/sitemap_index.xml": index}
    for loc in etree.fromstring(index.data).iter(f"{SM}loc"):
        path = "/" + (loc.text or "").split("://", 1)[1].split("/", 1)[1]
        responses[path] = client.get(path, headers=GOOGLEBOT)
    return responses


def check(responses: dict[str, Any]) -> None:
    """Every response is 200 XML that validates with --google and varies on Sec-Fetch."""
    for path, resp in responses.items():
        assert resp.status_code == 200, path
        assert resp.mimetype == "application/xml", path
        assert "Sec-Fetch-Dest" in resp.headers.get("Vary", ""), path
        assert_valid(resp.data, path)


def test_googlebot_gets_valid_xml_from_peer_dump(peer_app: Flask) -> None:
    """Every sitemap of the shared dump, fetched as Googlebot, is valid XML (not HTML)."""
    responses = crawl(peer_app.test_client())
    assert len(responses) > 1, "the index lists sitemaps"
    check(responses)


def test_googlebot_gets_valid_xml_from_media_site(make_app: Callable[..., Flask]) -> None:
    """A site with images, a video and fresh news: every sitemap is valid XML for Googlebot."""
    responses = crawl(make_app(browser_site()).test_client())
    assert {"/post-sitemap.xml", "/page-sitemap.xml", "/news-sitemap.xml"} <= set(responses)
    check(responses)
