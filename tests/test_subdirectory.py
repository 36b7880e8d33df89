"""WordPress in a sub-directory (home http://example.test/blog): every route answers under
/blog as well as at the root, whichever the proxy sends; robots.txt stays at the root."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask

from tests.support.builder import Site
from tests.support.sitemaps import assert_valid
from tests.support.sitemaps import parse_index
from tests.support.sitemaps import parse_urlset


@pytest.fixture
def blog(make_app: Callable[..., Flask]) -> Flask:
    """A site whose home URL is http://example.test/blog."""
    site = Site(home="http://example.test/blog")
    site.post("First post", name="first-post")
    site.post("About", post_type="page", name="about")
    return make_app(site)


PATHS = ["/sitemap_index.xml", "/post-sitemap.xml", "/page-sitemap.xml",
         "/sitemap_index.xml.gz", "/post-sitemap.xml.gz", "/main-sitemap.xsl"]


@pytest.mark.parametrize("path", PATHS)
def test_routes_answer_under_the_home_path(blog: Flask, path: str) -> None:
    """/blog/… answers the same bytes as the root path."""
    client = blog.test_client()
    under, root = client.get("/blog" + path), client.get(path)
    assert under.status_code == 200 and under.data == root.data


def test_index_lists_sitemaps_under_the_home_path(blog: Flask) -> None:
    """The index names /blog/… sitemaps, and a crawler following them gets 200 and XML."""
    client = blog.test_client()
    index = client.get("/blog/sitemap_index.xml")
    locs = [loc for loc, _ in parse_index(index.data)]
    assert locs[:2] == ["http://example.test/blog/post-sitemap.xml",
                        "http://example.test/blog/page-sitemap.xml"]
    assert all(loc.startswith("http://example.test/blog/") for loc in locs)
    for loc in locs:
        resp = client.get(loc.removeprefix("http://example.test"))
        assert resp.status_code == 200
        assert_valid(resp.data, loc)
        assert all(u.loc.startswith("http://example.test/blog/")
                   for u in parse_urlset(resp.data))


def test_alias_redirects_under_the_home_path(blog: Flask) -> None:
    """/blog/sitemap.xml redirects to /blog/sitemap_index.xml, keeping the prefix."""
    resp = blog.test_client().get("/blog/sitemap.xml")
    assert resp.status_code == 301 and resp.headers["Location"] == "/blog/sitemap_index.xml"


def test_page_one_redirect_keeps_the_prefix(blog: Flask) -> None:
    """/blog/post-sitemap1.xml redirects to /blog/post-sitemap.xml."""
    resp = blog.test_client().get("/blog/post-sitemap1.xml")
    assert resp.headers["Location"] == "/blog/post-sitemap.xml"


def test_robots_txt_only_at_the_root(blog: Flask) -> None:
    """/robots.txt answers (naming /blog/sitemap_index.xml), /blog/robots.txt is 404."""
    client = blog.test_client()
    root = client.get("/robots.txt")
    assert b"Sitemap: http://example.test/blog/sitemap_index.xml" in root.data
    assert client.get("/blog/robots.txt").status_code == 404


def test_other_prefixes_are_404(blog: Flask) -> None:
    """A path under another directory is not the site's: 404."""
    client = blog.test_client()
    assert client.get("/news/sitemap_index.xml").status_code == 404
    assert client.get("/blogs/sitemap_index.xml").status_code == 404


def test_api_answers_under_the_home_path(blog: Flask) -> None:
    """The headless API answers under /blog as at the root."""
    client = blog.test_client()
    assert client.get("/blog/api/sitemap").data == client.get("/api/sitemap").data
