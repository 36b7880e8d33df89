"""A post type's pages as served now: the cached page bounds plus the rows newer than them.

The page bounds come from one pass over every listed row of the type, kept `cache_ttl`
seconds (cache/values.py). A post published after that pass must be listed at once, and
the index must never date a page by rows that no page lists (issue #22). So the pages are
derived per request from the cached bounds and the tail: the listed rows the pass could not
see, read through ranges that hold only what changed since it (read_tail()).

* A tail row whose ID is inside a page's range (a draft published under the ID it got as a
  draft) is on that page; page 1 also takes those below its first ID.
* The rows past the last page's last ID fill that page up to `entries_per_page` rows (the
  pass counted how many it had), then go on new pages of `entries_per_page` each, which
  the index lists and the page route serves at once.

That is what the next pass computes (pages cut by the same rule: ID order, the canonical
rule not settled), so a page keeps its rows when the bounds are refreshed. A row the tail
cannot see (published with a date over PUBLISH_LAG old, listed by a noindex removed) waits
for that refresh: docs/performance.md, "The freshness bound".
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from datetime import timedelta
from typing import Any

from sqlalchemy import ColumnElement
from sqlalchemy import Connection

from wpsitemaps.entries import PageBound
from wpsitemaps.wordpress.dates import latest
from wpsitemaps.wordpress.dates import local_floor
from wpsitemaps.wordpress.queries import fingerprint as qfp
from wpsitemaps.wordpress.site import SiteContext

# How long after its date a post may go live: WP-Cron publishes a scheduled post when a
# visit (or the system cron) runs it, later than its post_date. Rows dated this much before
# the bounds were read are read again with the rows newer than the bounds.
PUBLISH_LAG = timedelta(hours=1)


def read_tail(conn: Connection, site: SiteContext, where: ColumnElement[bool],
              bounds: Sequence[PageBound]) -> list[Any]:
    """Key columns of the rows matching `where` that the pass of `bounds` could not see,
    ID-ordered: every one above the highest post ID it saw (the primary key's range), and
    every one dated since it ran less PUBLISH_LAG, whatever its ID (type_status_date's
    range); after a pass that found no row, every row (the same index: what is there now)."""
    if not bounds:
        return qfp.page_keys(conn, site.tables, where, 0, None)
    last = bounds[-1]
    rows: dict[int, Any] = {}
    if last.seen_to is not None:
        above = qfp.page_keys(conn, site.tables, where, last.seen_to + 1, None)
        rows.update((int(r.ID), r) for r in above)
    if last.seen_at is not None:
        start = last.seen_at - PUBLISH_LAG
        local_from = local_floor(site.options.zone, start, max(site.now, start))
        since = qfp.published_since(conn, site.tables, where, start, local_from)
        rows.update((int(r.ID), r) for r in since)
    return [rows[k] for k in sorted(rows)]


def walked_to(bounds: Sequence[PageBound]) -> int | None:
    """The highest ID the pass put on a page (0: none); rows up to it are read by walking
    the pages' ranges, those above it from the tail. None: unknown, walk on."""
    return bounds[-1].last_key if bounds else 0


def extended(bounds: Sequence[PageBound], fresh: Sequence[int], size: int) -> list[PageBound]:
    """`bounds` with the IDs past the highest the pass listed (`fresh`, ascending) put on
    the last page up to `size` rows (its `row_count`; none when unknown) and on new pages of
    `size` rows after it."""
    room = 0
    if bounds and bounds[-1].row_count is not None:
        room = max(size - bounds[-1].row_count, 0)
    extra = fresh[room:]
    return [*bounds, *(PageBound(extra[i]) for i in range(0, len(extra), size))]


def page_of(first_keys: Sequence[int], key: int) -> int:
    """The 0-based index of the page whose range holds `key`, given the pages' first keys
    (page 1 also holds the keys below its first one)."""
    return max(bisect_right(first_keys, key) - 1, 0)


def dated(pages: Sequence[PageBound], rows: Sequence[tuple[int, datetime | None]],
          first: datetime | None = None) -> list[PageBound]:
    """The pages with each one's lastmod raised by the (ID, lastmod) of the listed tail rows
    in its range, and page 1's by `first` (its first links)."""
    mods = [b.lastmod for b in pages]
    keys = [b.first_key for b in pages]
    for key, lastmod in rows:
        i = page_of(keys, key)
        mods[i] = latest(mods[i], lastmod)
    if mods:
        mods[0] = latest(mods[0], first)
    return [replace(b, lastmod=m) for b, m in zip(pages, mods, strict=True)]


def range_end(pages: Sequence[PageBound], page: int) -> int | None:
    """Where page `page`'s ID range ends (exclusive): the next page's first ID, None for the
    last page."""
    return pages[page].first_key if page < len(pages) else None


def walk_end(pages: Sequence[PageBound], page: int, walked: int | None) -> int | None:
    """Where the walk of page `page` stops (exclusive): its range end, never past the
    highest ID the pass listed (`walked`; the rows above it are the tail's).

    Walking on to the end of the table would read every row of other types created after
    this type's last post (111,085 rows for the last post page at 1,000,000 posts, where
    the events came last), which grows with the site."""
    end = range_end(pages, page)
    if walked is None:
        return end
    return walked + 1 if end is None else min(end, walked + 1)


def off_walk(tail: Sequence[Any], pages: Sequence[PageBound], page: int,
             walked: int | None) -> list[Any]:
    """The rows of `tail` on page `page` that its walk does not read: above `walked`, and
    on page 1 below its first ID."""
    first, end = pages[page - 1].first_key, range_end(pages, page)
    return [r for r in tail
            if (page == 1 or int(r.ID) >= first) and (end is None or int(r.ID) < end)
            and (int(r.ID) < first or (walked is not None and int(r.ID) > walked))]
