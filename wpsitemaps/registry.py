"""Sitemap name -> provider, in index order: post types, taxonomies, authors, video, news."""

from __future__ import annotations

from wpsitemaps.providers.base import Provider
from wpsitemaps.providers.news import NewsProvider
from wpsitemaps.providers.posts import PostTypeProvider
from wpsitemaps.providers.taxonomies import TaxonomyProvider
from wpsitemaps.providers.users import AuthorProvider
from wpsitemaps.providers.users import authors_disabled
from wpsitemaps.providers.video import VideoProvider
from wpsitemaps.site import SiteContext


def providers(site: SiteContext) -> list[Provider]:
    """Every sitemap the site serves, in index order (Yoast's type-level switches applied)."""
    out: list[Provider] = []
    for ctype in site.types.post_types:
        if not site.options.yoast_on(f"noindex-{ctype.name}"):
            out.append(PostTypeProvider(ctype))
    for ctype in site.types.taxonomies:
        if not site.options.yoast_on(f"noindex-tax-{ctype.name}"):
            out.append(TaxonomyProvider(ctype))
    if not authors_disabled(site):
        out.append(AuthorProvider())
    # Video sitemap (issue #4): the videos of the listed post types' entries.
    out.append(VideoProvider(tuple(p for p in out if isinstance(p, PostTypeProvider))))
    # News sitemap (issue #5), last. Yoast News SEO renames it 'yoast-news' when a post type
    # called 'news' would take news-sitemap.xml; the index lists it only while it has entries.
    news_name = "yoast-news" if site.types.post_type("news") is not None else "news"
    out.append(NewsProvider(news_name))
    return out


def lookup(site: SiteContext, name: str) -> Provider | None:
    """The provider serving `{name}-sitemap.xml`, if any."""
    return next((p for p in providers(site) if p.name == name), None)
