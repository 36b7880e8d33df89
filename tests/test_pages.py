"""Paging: exact page sizes, keyset boundaries, exclusions across boundaries, the index."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask

from tests.support.builder import Site
from tests.support.sitemaps import assert_valid
from tests.support.sitemaps import parse_index
from tests.support.sitemaps import parse_urlset


def site_with_posts(n: int, prefix: str = "wp_") -> Site:
    """A site with n published posts named p-1..p-n."""
    site = Site(prefix=prefix)
    for i in range(1, n + 1):
        site.post(f"Post {i}", name=f"p-{i}")
    return site


def post_locs(app: Flask, page: int) -> list[str]:
    """The post locs of one post sitemap page (the home first link left out)."""
    path = "/post-sitemap.xml" if page == 1 else f"/post-sitemap{page}.xml"
    resp = app.test_client().get(path)
    assert resp.status_code == 200, path
    assert_valid(resp.data, path)
    return [u.loc for u in parse_urlset(resp.data) if u.loc != "http://example.test/"]


@pytest.mark.parametrize(("posts", "sizes"), [
    (0, []), (1, [1]), (999, [999]), (1000, [1000]), (1001, [1000, 1]), (2000, [1000, 1000]),
])
def test_page_sizes(make_app: Callable[..., Flask], posts: int, sizes: list[int]) -> None:
    """Pages hold exactly 1,000 posts except the last, and the index lists each page."""
    app = make_app(site_with_posts(posts))
    index = parse_index(app.test_client().get("/sitemap_index.xml").data)
    post_pages = [loc for loc, _ in index if "/post-sitemap" in loc]
    assert len(post_pages) == len(sizes)
    assert [len(post_locs(app, n)) for n in range(1, len(sizes) + 1)] == sizes
    assert app.test_client().get(f"/post-sitemap{max(len(sizes), 1) + 1}.xml").status_code == 404


def test_empty_type_is_valid_empty_urlset(make_app: Callable[..., Flask]) -> None:
    """The first page of a known type with no entries is a valid, empty urlset."""
    app = make_app(site_with_posts(0))
    resp = app.test_client().get("/post-sitemap.xml")
    assert resp.status_code == 200
    assert_valid(resp.data)
    assert parse_urlset(resp.data) == []


def test_pages_are_ordered_by_id_and_disjoint(make_app: Callable[..., Flask]) -> None:
    """Page 2 starts right after page 1 ends, in ID order."""
    app = make_app(site_with_posts(2000), ENTRIES_PER_PAGE=1000)
    first, second = post_locs(app, 1), post_locs(app, 2)
    assert first[0].endswith("/p-1/") and first[-1].endswith("/p-1000/")
    assert second[0].endswith("/p-1001/") and second[-1].endswith("/p-2000/")


def test_exclusions_across_boundary_keep_pages_full(make_app: Callable[..., Flask]) -> None:
    """Drafts, noindexed and protected posts around the boundary do not shorten page 1."""
    site = Site()
    for i in range(1, 1021):
        if 995 <= i <= 1005:
            kind = i % 3
            if kind == 0:
                site.post(f"Hidden {i}", status="draft")
            elif kind == 1:
                site.post(f"Hidden {i}", name=f"hidden-{i}",
                          meta={"_yoast_wpseo_meta-robots-noindex": "1"})
            else:
                site.post(f"Hidden {i}", name=f"hidden-{i}", password="secret")
        else:
            site.post(f"Post {i}", name=f"p-{i}")
    app = make_app(site)
    first, second = post_locs(app, 1), post_locs(app, 2)
    # 1,020 posts, 11 of them hidden (995..1005): 1,009 listed.
    assert (len(first), len(second)) == (1000, 9)
    assert not any("hidden" in loc for loc in first + second)


def test_custom_page_size(make_app: Callable[..., Flask]) -> None:
    """ENTRIES_PER_PAGE changes the page size."""
    app = make_app(site_with_posts(5), ENTRIES_PER_PAGE=2)
    assert [len(post_locs(app, n)) for n in (1, 2, 3)] == [2, 2, 1]


def test_other_table_prefix(make_app: Callable[..., Flask]) -> None:
    """A wpx_ prefix reads wpx_posts and friends."""
    app = make_app(site_with_posts(3, prefix="wpx_"), TABLE_PREFIX="wpx_")
    assert [loc.rsplit("/", 2)[1] for loc in post_locs(app, 1)] == ["p-1", "p-2", "p-3"]


def test_zero_dates_print_no_lastmod(make_app: Callable[..., Flask]) -> None:
    """A published post whose dates are zero dates gets no <lastmod> (never 0000-00-00)."""
    site = Site()
    pid = site.post("Zero", name="zero")
    row = site.rows["posts"][pid - 1]
    row["post_date_gmt"] = row["post_modified_gmt"] = "0000-00-00 00:00:00"
    app = make_app(site)
    body = app.test_client().get("/post-sitemap.xml").data
    assert_valid(body)
    urls = {u.loc: u.lastmod for u in parse_urlset(body)}
    assert urls["http://example.test/zero/"] is None
    assert b"0000" not in body


def test_private_site_serves_empty_sitemaps(make_app: Callable[..., Flask]) -> None:
    """blog_public = 0: the index and every sitemap are empty (and valid)."""
    site = site_with_posts(3)
    site.option("blog_public", "0")
    client = make_app(site).test_client()
    assert parse_index(client.get("/sitemap_index.xml").data) == []
    resp = client.get("/post-sitemap.xml")
    assert resp.status_code == 200 and parse_urlset(resp.data) == []


@pytest.mark.mariadb
def test_page_boundary_on_mariadb(make_app: Callable[..., Flask]) -> None:
    """The 1,001-post boundary is the same on MariaDB."""
    app = make_app(site_with_posts(1001), backend="mariadb")
    assert [len(post_locs(app, n)) for n in (1, 2)] == [1000, 1]
