"""Page fingerprints (issue #13): a digest of everything a page's bytes are built from.

A stored page is served again while its fingerprint is unchanged, so a fingerprint must
change whenever a fresh render would differ, and must cost what one page costs, not what
the site costs. Each provider kind has its own (singledispatch, so providers stay as they
are); a provider without one gives None and its pages are always rendered.

Every fingerprint starts with the site's part: this code's render version (package version
and templates), the settings, every wp_options value read (a permalink structure or Yoast
switch change gives every page a new fingerprint), and the site key. Then:

* post types: the page's rows (ID, type, slug, dates, parent, author) as the page query
  selects them (status, password and noindex rules included) and its rows of the tail
  (sitemaps/tails.py), where its ID range ends, their canonical, thumbnail and primary
  category meta, the URLs of those whose type's links read other rows
  (ancestors, %category%, %product_cat%, %author%, language directories: resolved live),
  their attachments, and page 1's first links;
  for a type whose links read nothing but the row (and no AIOSEO canonicals), the database
  hashes the page's rows and what hangs off them (queries/fingerprint.py: COUNT and SUM of
  CRC32 per part, issue #26) and sends one row per part instead of the rows;
* video: the same over the page's candidate rows, plus Yoast Video meta, tags and authors;
* news: the same over every row of the 48-hour window (small by nature);
* taxonomies and authors: the page's entries themselves, sliced from the list the value
  cache holds (no query: that list is what the page is rendered from);
* the index: the references it lists (page bounds from the value cache).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Sequence
from functools import lru_cache
from functools import singledispatch
from importlib import metadata
from typing import Any

from sqlalchemy import Connection

from wpsitemaps.entries import PageBound
from wpsitemaps.entries import SitemapRef
from wpsitemaps.paths import TEMPLATES_DIR
from wpsitemaps.sitemaps.links import link_lookups
from wpsitemaps.sitemaps.links import links_by_type
from wpsitemaps.sitemaps.providers.authors import AuthorProvider
from wpsitemaps.sitemaps.providers.base import Provider
from wpsitemaps.sitemaps.providers.news import NewsProvider
from wpsitemaps.sitemaps.providers.posts import META_KEYS
from wpsitemaps.sitemaps.providers.posts import PostTypeProvider
from wpsitemaps.sitemaps.providers.taxonomies import TaxonomyProvider
from wpsitemaps.sitemaps.providers.video import VideoProvider
from wpsitemaps.sitemaps.videos import POST_KEYS as VIDEO_META_KEYS
from wpsitemaps.wordpress.queries import fingerprint as qfp
from wpsitemaps.wordpress.queries import posts as qp
from wpsitemaps.wordpress.queries import video as qv
from wpsitemaps.wordpress.queries.rows import PostRow
from wpsitemaps.wordpress.site import SiteContext


def digest(*parts: Any) -> str:
    """A stable hex digest of plain values (repr of tuples, dates, strings and numbers)."""
    return hashlib.sha256(repr(parts).encode("utf-8", "surrogatepass")).hexdigest()[:40]


@lru_cache(maxsize=1)
def render_version() -> str:
    """This code's version and templates: a deploy that changes output changes every page."""
    try:
        version = metadata.version("wpsitemaps")
    except metadata.PackageNotFoundError:
        version = "unknown"
    files = sorted(TEMPLATES_DIR.glob("*"))
    return digest(version, [(f.name, f.read_bytes()) for f in files if f.is_file()])


def site_part(site: SiteContext) -> str:
    """The part every fingerprint of a site shares: code, settings, options, site key, and
    whose SEO markers count (a plugin table that became readable changes it too)."""
    options = tuple(sorted(site.options.raw.items()))
    return digest(render_version(), repr(site.settings), options, site.key, site.options.home,
                  repr(site.seo))


def empty_fingerprint(site: SiteContext, name: str) -> str:
    """An empty page 1 (no entries, or blog_public = 0)."""
    return digest(site_part(site), name, "empty", site.options.blog_public)


def index_fingerprint(site: SiteContext, refs: Sequence[SitemapRef]) -> str:
    """The index: exactly the references it lists (built from the cached page bounds).

    Taken from the list the render uses, not from the providers again: a background
    refresh that lands between the two must not pair new bounds with an old list.
    """
    return digest(site_part(site), "index", tuple(refs))


@singledispatch
def page_fingerprint(provider: Provider, page: int, bound: PageBound) -> str | None:
    """The fingerprint of one page of a provider; None: this kind cannot be revalidated."""
    return None


@page_fingerprint.register
def _post_type(provider: PostTypeProvider, page: int, bound: PageBound) -> str | None:
    conn, site = provider.conn, provider.site
    # The rows the page reads (its ID range as far as its walk goes, canonical overrides
    # not yet settled; every row of the range, or a page's worth when it has no end), its
    # rows of the tail, their canonical values, which decide in Python which of them are
    # listed, and where its range ends (the tail moves the last page's end).
    size, keys = site.settings.entries_per_page, (*META_KEYS, *qp.CANONICAL_KEYS)
    stop, end = provider.walk_end(page), provider.range_end(page)
    limit = 2 * size if stop is None else None
    walks = stop is None or bound.first_key < stop
    tail = provider.tail_rows(page)
    parts: list[Any]
    if link_lookups(site, provider.ctype).any() or qp.reads_aioseo(site.seo):
        # Its links read other rows (ancestors, terms, authors), or its canonicals live in
        # AIOSEO's table: resolved from the rows, as before.
        rows = (qfp.page_keys(conn, site.tables, provider.page_condition, bound.first_key,
                              limit, stop) if walks else [])
        parts = [_rows(rows), _post_deps(conn, site, rows, keys)]
        ids = [int(r.ID) for r in rows]
    else:
        # A URL that is a function of the row and the options: the database hashes the
        # rows and what hangs off them, one row per component (issue #26).
        digest_row = (qfp.page_digest(conn, site.tables, provider.page_condition,
                                      bound.first_key, limit, stop) if walks else None)
        parts, ids = [digest_row, _range_digests(conn, site, digest_row, keys)], []
    parts += [_rows(tail), _post_deps(conn, site, tail, keys)]
    if qp.reads_aioseo(site.seo):  # AIOSEO 4's canonicals live in its table
        ids += [int(r.ID) for r in tail]
        parts.append(sorted(qp.aioseo_canonicals(conn, site.tables, ids).items()))
    if page == 1:
        parts.append(provider.first_links)
    return digest(site_part(site), provider.name, page, bound.first_key, end, parts)


def _range_digests(conn: Connection, site: SiteContext, page: tuple[Any, ...] | None,
                   meta_keys: Sequence[str]) -> list[Any]:
    """_post_deps() as aggregates over the page's ID range (min..max of its rows), in one
    statement: meta, attached images with their files, featured images with theirs."""
    if page is None or not page[0]:
        return []
    t, lo, hi = site.tables, int(page[1]), int(page[2])
    # The range's meta is read whole by the post_id index anyway: its attachments' meta
    # comes with it at no extra row read.
    keys = (*meta_keys, *qfp.ATTACHMENT_KEYS)
    return list(qfp.range_digest(conn, t, lo, hi, keys))


@page_fingerprint.register
def _video(provider: VideoProvider, page: int, bound: PageBound) -> str | None:
    conn, site = provider.conn, provider.site
    rows = qfp.page_keys(conn, site.tables, provider.condition, bound.first_key,
                        site.settings.entries_per_page)
    ids = [int(r.ID) for r in rows]
    parts = [_rows(rows), _post_deps(conn, site, rows, (*VIDEO_META_KEYS, *META_KEYS,
                                                          *qp.CANONICAL_KEYS)),
             sorted(qv.tag_names(conn, site.tables, ids).items()),
             sorted(qv.authors(conn, site.tables, {int(r.post_author or 0) for r in rows})
                    .items())]
    return digest(site_part(site), provider.name, page, bound.first_key, parts)


@page_fingerprint.register
def _news(provider: NewsProvider, page: int, bound: PageBound) -> str | None:
    conn, site = provider.conn, provider.site
    rows = qfp.newest_keys(conn, site.tables, provider.condition)
    parts = [_rows(rows), _post_deps(conn, site, rows, META_KEYS)]
    return digest(site_part(site), provider.name, page, bound.first_key, parts)


@page_fingerprint.register(TaxonomyProvider)
@page_fingerprint.register(AuthorProvider)
def _listed(provider: Provider, page: int, bound: PageBound) -> str | None:
    # The page is a slice of the list the value cache holds: its entries are the input.
    return digest(site_part(provider.site), provider.name, page,
                  provider.entries(page, bound))


def _rows(rows: Sequence[PostRow]) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in rows]


def _post_deps(conn: Connection, site: SiteContext, rows: Sequence[PostRow],
               meta_keys: Sequence[str]) -> list[Any]:
    """What the rows' entries read besides the rows: meta, attachments, URL lookups."""
    if not rows:
        return []
    t = site.tables
    ids = [int(r.ID) for r in rows]
    lo, hi = min(ids), max(ids)
    meta_rows = qfp.meta_range(conn, t, lo, hi, meta_keys)
    return [meta_rows, qfp.attachment_marks(conn, t, lo, hi),
            _link_lookups(conn, site, rows, meta_rows)]


def _link_lookups(conn: Connection, site: SiteContext, rows: Sequence[PostRow],
                  meta_rows: list[tuple[Any, ...]]) -> list[Any]:
    """The links of the rows whose type's links read more than the row and the options
    (sitemaps.links.link_lookups: ancestors, %category%, %product_cat%, %author%, language
    directories), resolved now. A plain /%postname%/ URL of a flat type is a function of
    the row and the options, both in the fingerprint already."""
    meta: dict[int, dict[str, str]] = defaultdict(dict)
    for post_id, key, value in meta_rows:
        meta[int(post_id)].setdefault(str(key), "" if value is None else str(value))
    types = {str(r.post_type) for r in rows}
    needs = {name for name in types if (ctype := site.types.post_type(name)) is not None
             and link_lookups(site, ctype).any()}
    looked_up = [r for r in rows if str(r.post_type) in needs]
    return sorted(links_by_type(conn, site, looked_up, meta).items())
