"""Which buckets of the change ledger a document depends on (issue #26, changes.ledger).

A stored document records them with its render; while none of their heads moved (and an
event source is live) its bytes are served without asking the database. Each provider kind
has its own rule (singledispatch, as fingerprints do); a kind without one depends on every
change of the site.
"""

from __future__ import annotations

from functools import singledispatch

from wpsitemaps.changes.ledger import clock_dep
from wpsitemaps.changes.ledger import listed_deps
from wpsitemaps.changes.ledger import post_page_deps
from wpsitemaps.entries import PageBound
from wpsitemaps.sitemaps.links import link_lookups
from wpsitemaps.sitemaps.providers.authors import AuthorProvider
from wpsitemaps.sitemaps.providers.base import Provider
from wpsitemaps.sitemaps.providers.news import NewsProvider
from wpsitemaps.sitemaps.providers.posts import PostTypeProvider
from wpsitemaps.sitemaps.providers.taxonomies import TaxonomyProvider

INDEX_DEPS = tuple(listed_deps("content"))  # the index: dated by every change
# Seconds a stored news page is served as current without being checked, whatever the
# sources say: a post leaves the news sitemap at most this long after its 48 hours, also
# with a `cache_ttl` of hours (with an event source).
NEWS_CLOCK = 300


@singledispatch
def page_deps(provider: Provider, page: int, bound: PageBound | None) -> tuple[str, ...]:
    """The buckets page `page` (bound None: an empty page 1) depends on; news, video and
    any other kind: every change (content)."""
    return tuple(listed_deps("content"))


@page_deps.register
def _post_type(provider: PostTypeProvider, page: int,
               bound: PageBound | None) -> tuple[str, ...]:
    if bound is None:
        return tuple(listed_deps("content"))
    lookups = link_lookups(provider.site, provider.ctype).any()
    return tuple(post_page_deps(provider.name, bound.first_key, provider.range_end(page),
                                page, lookups))


@page_deps.register
def _news(provider: NewsProvider, page: int, bound: PageBound | None) -> tuple[str, ...]:
    # Every change, and the clock: a post leaves the 48 hours without any change.
    return (*listed_deps("content"), clock_dep(NEWS_CLOCK))


@page_deps.register
def _terms(provider: TaxonomyProvider, page: int, bound: PageBound | None) -> tuple[str, ...]:
    return tuple(listed_deps("terms"))


@page_deps.register
def _authors(provider: AuthorProvider, page: int, bound: PageBound | None) -> tuple[str, ...]:
    return tuple(listed_deps("authors"))
