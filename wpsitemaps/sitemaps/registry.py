"""Sitemap name -> provider, in index order: post types, taxonomies, authors, video, news."""

from __future__ import annotations

from functools import cached_property

from sqlalchemy import Connection

from wpsitemaps.sitemaps.bounds import SharedCache
from wpsitemaps.sitemaps.providers.authors import AuthorProvider
from wpsitemaps.sitemaps.providers.authors import authors_disabled
from wpsitemaps.sitemaps.providers.base import Provider
from wpsitemaps.sitemaps.providers.news import NewsProvider
from wpsitemaps.sitemaps.providers.posts import PostTypeProvider
from wpsitemaps.sitemaps.providers.taxonomies import TaxonomyProvider
from wpsitemaps.sitemaps.providers.video import VideoProvider
from wpsitemaps.wordpress.site import SiteContext


class Registry:
    """The sitemaps of one site for one request (or command): built once, looked up by name."""

    def __init__(self, conn: Connection, site: SiteContext,
                 shared: SharedCache | None = None) -> None:
        self.conn = conn
        self.site = site
        self.shared = shared or SharedCache()

    @cached_property
    def post_types(self) -> tuple[PostTypeProvider, ...]:
        """The post type sitemaps (Yoast's type-level noindex switches applied)."""
        site = self.site
        return tuple(PostTypeProvider(self.conn, site, self.shared, ctype)
                     for ctype in site.types.post_types
                     if not site.options.yoast_on(f"noindex-{ctype.name}"))

    @cached_property
    def providers(self) -> list[Provider]:
        """Every sitemap the site serves, in index order."""
        conn, site, shared = self.conn, self.site, self.shared
        out: list[Provider] = list(self.post_types)
        for ctype in site.types.taxonomies:
            if not site.options.yoast_on(f"noindex-tax-{ctype.name}"):
                out.append(TaxonomyProvider(conn, site, shared, ctype))
        if not authors_disabled(site):
            out.append(AuthorProvider(conn, site, shared))
        # Video sitemap (issue #4): the videos of the listed post types' entries.
        out.append(VideoProvider(conn, site, shared, self.post_types))
        # News sitemap (issue #5), last. Yoast News SEO renames it 'yoast-news' when a post
        # type called 'news' would take news-sitemap.xml; the index lists it only while it
        # has entries.
        news_name = "yoast-news" if site.types.post_type("news") is not None else "news"
        out.append(NewsProvider(conn, site, shared, self.post_types, news_name))
        return out

    def lookup(self, name: str) -> Provider | None:
        """The provider serving `{name}-sitemap.xml`, if any."""
        return next((p for p in self.providers if p.name == name), None)

    def post_type(self, name: str) -> PostTypeProvider | None:
        """The provider of post type `name`, if it is listed."""
        return next((p for p in self.post_types if p.name == name), None)
