"""Sitemap name -> provider, in index order: post types, taxonomies, authors, video, news.

Names are unique, as WP_Sitemaps_Registry::add_provider() refuses a taken name: the first
claimant keeps `{name}-sitemap.xml`, in Yoast's order (its router asks the post type
provider, then taxonomies, then authors). The add-on sitemaps follow Yoast's own renames:
Video SEO serves `yoast-video-sitemap.xml` when a post type `video` exists
(video_sitemap_basename()), News SEO `yoast-news-sitemap.xml` when a post type `news`
exists (news_sitemap_basename()); we also rename them when a taxonomy or the author sitemap
took the name, where Yoast would serve two documents at one URL. A taxonomy whose name a
post type already took cannot be served at all (Yoast serves the post type there): it is
left out and said loudly in the log, once.
"""

from __future__ import annotations

import logging

from sqlalchemy import Connection

from wpsitemaps.cache.values import Values
from wpsitemaps.memo import memoized
from wpsitemaps.sitemaps.providers.authors import AuthorProvider
from wpsitemaps.sitemaps.providers.authors import authors_disabled
from wpsitemaps.sitemaps.providers.base import Provider
from wpsitemaps.sitemaps.providers.news import NewsProvider
from wpsitemaps.sitemaps.providers.posts import PostTypeProvider
from wpsitemaps.sitemaps.providers.taxonomies import TaxonomyProvider
from wpsitemaps.sitemaps.providers.video import VideoProvider
from wpsitemaps.wordpress.site import SiteContext

log = logging.getLogger(__name__)
_warned: set[tuple[str, str]] = set()


class Registry:
    """The sitemaps of one site for one request (or command): built once, looked up by name."""

    def __init__(self, conn: Connection, site: SiteContext,
                 values: Values | None = None) -> None:
        self.conn = conn
        self.site = site
        self.values = values or Values()

    @memoized
    def post_types(self) -> tuple[PostTypeProvider, ...]:
        """The post type sitemaps (the SEO plugins' type-level switches applied)."""
        site = self.site
        return tuple(PostTypeProvider(self.conn, site, self.values, ctype)
                     for ctype in site.types.post_types
                     if site.seo_lists_type(ctype.name))

    @memoized
    def providers(self) -> list[Provider]:
        """Every sitemap the site serves, in index order, each name once."""
        conn, site, values = self.conn, self.site, self.values
        out: list[Provider] = list(self.post_types)
        taken = {p.name for p in out}
        for ctype in site.types.taxonomies:
            if not site.seo_lists_type(ctype.name, taxonomy=True):
                continue
            if ctype.name in taken:
                _warn_once(site, ctype.name)
                continue
            out.append(TaxonomyProvider(conn, site, values, ctype))
            taken.add(ctype.name)
        if not authors_disabled(site):
            if "author" in taken:
                _warn_once(site, "author")
            else:
                out.append(AuthorProvider(conn, site, values))
                taken.add("author")
        # Video sitemap (issue #4): the videos of the listed post types' entries.
        video = self._addon_name("video", taken)
        out.append(VideoProvider(conn, site, values, self.post_types, video))
        # News sitemap (issue #5), last; the index lists it only while it has entries.
        news = self._addon_name("news", taken | {video})
        out.append(NewsProvider(conn, site, values, self.post_types, news))
        return out

    def _addon_name(self, name: str, taken: set[str]) -> str:
        """`name`, or Yoast's `yoast-{name}` when a post type of that name exists (registered,
        even if noindexed) or another sitemap took it."""
        if self.site.types.post_type(name) is not None or name in taken:
            return f"yoast-{name}"
        return name

    def lookup(self, name: str) -> Provider | None:
        """The provider serving `{name}-sitemap.xml`, if any."""
        return next((p for p in self.providers if p.name == name), None)

    def post_type(self, name: str) -> PostTypeProvider | None:
        """The provider of post type `name`, if it is listed."""
        return next((p for p in self.post_types if p.name == name), None)


def _warn_once(site: SiteContext, name: str) -> None:
    """Log (once per site and name) a sitemap that cannot be served under its name."""
    if (site.key, name) not in _warned:
        _warned.add((site.key, name))
        what = "the author sitemap" if name == "author" else f"taxonomy {name!r}"
        log.warning("%s is not served: the post type %r already serves %s-sitemap.xml "
                    "(as in Yoast SEO)", what, name, name)
