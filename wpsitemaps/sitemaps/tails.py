"""The live tail of the index (issue #13): the last page of each post type read now.

The index is built from page bounds kept in the shared cache for `cache_ttl` seconds,
because knowing every page's newest date takes a pass over the site. New posts get the
highest IDs, so publishing changes the last page of its type: reading that one page's
dates now (a query bounded by the page) lets the index show a new post within the page
store's window plus one revalidation. Changes to older pages wait for the cache.
"""

from __future__ import annotations

from functools import singledispatch

from wpsitemaps.entries import PageBound
from wpsitemaps.sitemaps.providers.base import Provider
from wpsitemaps.sitemaps.providers.posts import PostTypeProvider
from wpsitemaps.wordpress.dates import latest
from wpsitemaps.wordpress.dates import utc
from wpsitemaps.wordpress.queries import fingerprint as qf


@singledispatch
def live_bounds(provider: Provider) -> list[PageBound]:
    """The provider's page bounds as the index lists them (NotReady passes through)."""
    return provider.bounds


@live_bounds.register
def _post_type(provider: PostTypeProvider) -> list[PageBound]:
    bounds = list(provider.bounds)
    if not bounds:
        return bounds
    site = provider.site
    last = bounds[-1]
    rows = qf.page_keys(provider.conn, site.tables, provider.range_condition(last.first_key),
                        last.first_key, site.settings.entries_per_page)
    lastmod = latest(*(latest(utc(r.post_modified_gmt), utc(r.post_date_gmt)) for r in rows))
    if len(bounds) == 1:
        lastmod = latest(lastmod, *(e.lastmod for e in provider.first_links))
    if rows:
        bounds[-1] = PageBound(last.first_key, lastmod)
    return bounds
