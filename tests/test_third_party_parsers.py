"""Real sitemap consumers read our output: ultimate-sitemap-parser and Scrapy's parser."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from scrapy.utils.sitemap import Sitemap as ScrapySitemap
from usp.tree import sitemap_tree_for_homepage
from usp.web_client.abstract_client import AbstractWebClient
from usp.web_client.abstract_client import AbstractWebClientResponse
from usp.web_client.abstract_client import AbstractWebClientSuccessResponse
from usp.web_client.abstract_client import WebClientErrorResponse

from tests.support.sitemaps import parse_index
from tests.support.sitemaps import parse_urlset
from tests.support.sitemaps import path_of

HOME = "http://127.0.0.1:8080/"


class _Response(AbstractWebClientSuccessResponse):
    def __init__(self, url: str, resp: Any) -> None:
        self._url, self._resp = url, resp

    def status_code(self) -> int:
        return int(self._resp.status_code)

    def status_message(self) -> str:
        return str(self._resp.status)

    def header(self, case_insensitive_name: str) -> str | None:
        value = self._resp.headers.get(case_insensitive_name)
        return None if value is None else str(value)

    def raw_data(self) -> bytes:
        return bytes(self._resp.data)

    def url(self) -> str:
        return self._url


class FlaskWebClient(AbstractWebClient):
    """usp's HTTP client, answered by the Flask test client (no sockets)."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def set_max_response_data_length(self, max_response_data_length: int | None) -> None:
        """Not needed here."""

    def get(self, url: str) -> AbstractWebClientResponse:
        resp = self.client.get(path_of(url), follow_redirects=True)
        if resp.status_code != 200:
            return WebClientErrorResponse(f"HTTP {resp.status_code}", retryable=False)
        return _Response(url, resp)


def our_locs(client: FlaskClient) -> set[str]:
    """Every <loc> of every sitemap the index lists, read with our own parser."""
    out: set[str] = set()
    for loc, _ in parse_index(client.get("/sitemap_index.xml").data):
        out.update(u.loc for u in parse_urlset(client.get(path_of(loc)).data))
    return out


def test_ultimate_sitemap_parser_finds_the_same_urls(peer_app: Flask) -> None:
    """usp, starting from /sitemap_index.xml, reads exactly the URLs we list."""
    client = peer_app.test_client()
    tree = sitemap_tree_for_homepage(HOME, web_client=FlaskWebClient(client), use_robots=False,
                                     extra_known_paths={"sitemap_index.xml"})
    found = {page.url for page in tree.all_pages()}
    assert found == our_locs(client)
    assert len(found) > 50


def test_scrapy_parser_finds_the_same_urls(peer_app: Flask) -> None:
    """Scrapy's Sitemap class reads the index and each sitemap with the same URLs."""
    client = peer_app.test_client()
    index = ScrapySitemap(client.get("/sitemap_index.xml").data)
    assert index.type == "sitemapindex"
    found: set[str] = set()
    for entry in index:
        sitemap = ScrapySitemap(client.get(path_of(entry["loc"])).data)
        assert sitemap.type == "urlset"
        found.update(e["loc"] for e in sitemap)
    assert found == our_locs(client)
