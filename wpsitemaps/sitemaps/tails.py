"""The live tail of the index (issue #13): posts newer than the cached page bounds.

The index is built from page bounds kept in the shared cache for `cache_ttl` seconds,
because knowing every page's newest date takes a pass over the site. The last page of each
post type records up to which post ID and when that pass looked (`PageBound.seen_to`,
`seen_at`); the index reads now the listed rows above that ID (a new post) or dated since
then (a draft published under the ID it got when it was started), through the primary key
and the `type_status_date` index: ranges that hold only what changed since the pass,
whatever the site's size. They date the type's last page, so a new post shows within the
page store's window plus one revalidation. Other changes to rows the pass saw (an update,
a trashed post, a backdated publication) wait for the bounds cache, on every page alike.
"""

from __future__ import annotations

from dataclasses import replace
from functools import singledispatch

from wpsitemaps.entries import PageBound
from wpsitemaps.sitemaps.providers.base import Provider
from wpsitemaps.sitemaps.providers.posts import PostTypeProvider
from wpsitemaps.sitemaps.providers.posts import post_lastmod
from wpsitemaps.wordpress.dates import latest


@singledispatch
def live_bounds(provider: Provider) -> list[PageBound]:
    """The provider's page bounds as the index lists them (NotReady passes through)."""
    return provider.bounds


@live_bounds.register
def _post_type(provider: PostTypeProvider) -> list[PageBound]:
    bounds = list(provider.bounds)
    if not bounds:
        return bounds
    last = bounds[-1]
    rows = provider.newer_than(last, provider.site.settings.entries_per_page)
    lastmod = latest(last.lastmod, *(post_lastmod(r) for r in rows))
    if len(bounds) == 1:
        lastmod = latest(lastmod, *(e.lastmod for e in provider.first_links))
    bounds[-1] = replace(last, lastmod=lastmod)
    return bounds
