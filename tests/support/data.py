"""Seed data for the default `app` fixture: a small, ordinary WordPress site."""

from __future__ import annotations

from tests.support.builder import Site


def small_site() -> Site:
    """Three published posts, a page, a draft and a private post."""
    site = Site()
    news = site.term("News", "category", slug="news")
    site.post("First post", name="first-post", terms=(news,))
    site.post("Second post", name="second-post")
    site.post("Third post", name="third-post")
    site.post("About", post_type="page", name="about")
    site.post("Secret draft", status="draft")
    site.post("Private thoughts", status="private", name="private-thoughts")
    return site
