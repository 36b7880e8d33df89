"""HOME_URL behind a proxy: the database names an internal host, the sitemaps the public one."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask

from tests.support.builder import Site
from tests.support.sitemaps import assert_valid
from tests.support.sitemaps import parse_urlset

PUBLIC = "https://www.example.org"


def internal_site() -> Site:
    """A site stored under http://internal.local with an attachment and an inline image."""
    site = Site(home="http://internal.local")
    photo = site.attachment("2026/11/photo.jpg")
    site.post("With images", name="with-images", meta={"_thumbnail_id": str(photo)},
              content='<p><img src="http://internal.local/wp-content/uploads/2026/11/inline.jpg">'
                      '<img src="/wp-content/uploads/2026/11/relative.jpg"></p>')
    return site


def test_locs_and_images_use_the_public_home(make_app: Callable[..., Flask]) -> None:
    """Permalinks, the featured image and inline images on the internal host move to HOME_URL."""
    app = make_app(internal_site(), HOME_URL=PUBLIC)
    body = app.test_client().get("/post-sitemap.xml").data
    assert_valid(body)
    urls = {u.loc: u.images for u in parse_urlset(body)}
    assert urls[f"{PUBLIC}/with-images/"] == [
        f"{PUBLIC}/wp-content/uploads/2026/11/photo.jpg",
        f"{PUBLIC}/wp-content/uploads/2026/11/inline.jpg",
        f"{PUBLIC}/wp-content/uploads/2026/11/relative.jpg",
    ]
    assert b"internal.local" not in body


def test_index_and_stylesheet_use_the_public_home(make_app: Callable[..., Flask]) -> None:
    """The index's locs and the stylesheet instruction name the public host."""
    body = make_app(internal_site(), HOME_URL=PUBLIC).test_client().get("/sitemap_index.xml").data
    assert b"internal.local" not in body
    assert b'href="//www.example.org/main-sitemap.xsl"' in body
    assert f"<loc>{PUBLIC}/post-sitemap.xml</loc>".encode() in body
