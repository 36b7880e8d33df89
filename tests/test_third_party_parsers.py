"""Real sitemap consumers read our output: ultimate-sitemap-parser, Scrapy (its parser and a
SitemapSpider crawl) and advertools, each reporting no error on any served index: the
`.xml` tree from robots.txt, the `.xml.gz` tree, and `/sitemap.xml(.gz)`'s redirects."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.request import urlopen

import pytest
from flask import Flask
from flask.testing import FlaskClient
from scrapy.utils.sitemap import Sitemap as ScrapySitemap
from usp.objects.sitemap import InvalidSitemap
from usp.tree import sitemap_tree_for_homepage
from usp.web_client.abstract_client import AbstractWebClient
from usp.web_client.abstract_client import AbstractWebClientResponse
from usp.web_client.abstract_client import AbstractWebClientSuccessResponse
from usp.web_client.abstract_client import WebClientErrorResponse
from werkzeug.serving import make_server

from tests.conftest import PEER_CONFIG
from tests.support.serving import free_port
from tests.support.sitemaps import parse_index
from tests.support.sitemaps import parse_urlset
from tests.support.sitemaps import path_of
from wpsitemaps import create_app

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
        # The URL after redirects, as usp's own requests client reports it.
        final = f"{HOME.rstrip('/')}{resp.request.path}" if resp.history else url
        return _Response(final, resp)


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


def invalid(tree: Any) -> list[str]:
    """The reasons usp gives for every sitemap of a tree it could not use."""
    return [s.reason for s in tree.all_sitemaps() if isinstance(s, InvalidSitemap)]


def test_ultimate_sitemap_parser_finds_no_invalid_sitemap(peer_app: Flask) -> None:
    """usp as a user runs it (robots.txt, then its known paths: `/sitemap_index.xml.gz`,
    `/sitemap.xml.gz` -> 301, `/sitemap.xml` -> 301) reports no invalid sitemap: before, every
    sitemap of the `.gz` index was a "recursion" under the `.xml` one's parents."""
    client = peer_app.test_client()
    tree = sitemap_tree_for_homepage(HOME, web_client=FlaskWebClient(client))
    assert invalid(tree) == []
    assert {page.url for page in tree.all_pages()} == our_locs(client)
    assert any(s.url.endswith("/sitemap_index.xml.gz") for s in tree.all_sitemaps())


@pytest.fixture
def live(peer_url: str) -> Iterator[str]:
    """The peer site served over HTTP on a free port (its home URL there), in a thread."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    app = create_app({"TESTING": True, "DATABASE_URL": peer_url, **PEER_CONFIG,
                      "HOME_URL": base})
    server = make_server("127.0.0.1", port, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield base
    finally:
        server.shutdown()
        thread.join()


def live_locs(base: str) -> set[str]:
    """Our own reading of every <loc> the index lists, over HTTP."""
    with urlopen(base + "/sitemap_index.xml") as resp:
        index = parse_index(resp.read())
    out: set[str] = set()
    for loc, _ in index:
        with urlopen(loc) as resp:
            out.update(u.loc for u in parse_urlset(resp.read()))
    return out


def test_usp_over_http_finds_no_invalid_sitemap(live: str) -> None:
    """usp with its own HTTP client (real redirects) reports no invalid sitemap."""
    tree = sitemap_tree_for_homepage(live + "/")
    assert invalid(tree) == []
    assert {page.url for page in tree.all_pages()} == live_locs(live)


@pytest.mark.parametrize("start", ["/robots.txt", "/sitemap_index.xml.gz",
                                   "/sitemap_index.xml"])
def test_advertools_reads_every_index_without_errors(live: str, start: str) -> None:
    """advertools' sitemap_to_df from robots.txt, the `.gz` index and the `.xml` index: no
    row with an error, the same URLs as we list."""
    import advertools

    frame = advertools.sitemap_to_df(live + start, max_workers=2)
    errors = frame["errors"].dropna().tolist() if "errors" in frame else []
    assert errors == []
    assert set(frame["loc"]) == live_locs(live)


SPIDER = """
import json
from scrapy.spiders import SitemapSpider

class Spider(SitemapSpider):
    name = "wpsitemaps"
    sitemap_urls = {starts!r}
    found = []

    def sitemap_filter(self, entries):
        if entries.type == "urlset":
            self.found.extend(e["loc"] for e in entries)
            return []
        return entries

    def closed(self, reason):
        stats = self.crawler.stats.get_stats()
        with open({out!r}, "w") as fh:
            json.dump({{"found": self.found, "stats": {{k: v for k, v in stats.items()
                       if isinstance(v, (int, str))}}}}, fh)
"""


def test_scrapy_sitemap_spider_crawls_without_errors(live: str, tmp_path: Path) -> None:
    """A Scrapy SitemapSpider started from robots.txt and `/sitemap.xml.gz` (-> 301 -> the
    `.gz` index) logs no error and no invalid sitemap, and finds every URL we list."""
    out = tmp_path / "crawl.json"
    spider = tmp_path / "spider.py"
    spider.write_text(SPIDER.format(starts=[live + "/robots.txt", live + "/sitemap.xml.gz"],
                                    out=str(out)))
    proc = subprocess.run([sys.executable, "-m", "scrapy", "runspider", str(spider),
                           "-s", "LOG_LEVEL=INFO", "-s", "ROBOTSTXT_OBEY=False",
                           "-s", "TELNETCONSOLE_ENABLED=False"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(out.read_text())
    stats = result["stats"]
    assert stats.get("log_count/ERROR", 0) == 0, proc.stderr[-3000:]
    assert "Ignoring invalid sitemap" not in proc.stderr
    assert stats.get("downloader/response_status_count/200", 0) > 3
    assert set(result["found"]) == live_locs(live)
