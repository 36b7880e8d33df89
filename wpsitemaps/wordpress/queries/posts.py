"""SQL for posts: eligibility, page bounds (keyset), page rows and their batched relations.

Every relation of a page (meta, attachments, parents, categories, authors) is fetched with
one `IN (...)` query per kind, never one query per post.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from collections.abc import Sequence
from datetime import datetime
from typing import Any
from typing import NamedTuple

from sqlalchemy import ColumnElement
from sqlalchemy import Connection
from sqlalchemy import and_
from sqlalchemy import case
from sqlalchemy import exists
from sqlalchemy import false
from sqlalchemy import func
from sqlalchemy import or_
from sqlalchemy import select
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.visitors import InternalTraversal
from sqlalchemy.types import Boolean

from wpsitemaps.entries import PageBound
from wpsitemaps.wordpress.dates import latest
from wpsitemaps.wordpress.dates import utc
from wpsitemaps.wordpress.plugintables import aioseo_posts
from wpsitemaps.wordpress.queries.rows import PostRow
from wpsitemaps.wordpress.queries.rows import WPDate
from wpsitemaps.wordpress.schema import WPTables
from wpsitemaps.wordpress.seoplugins import AIOSEO
from wpsitemaps.wordpress.seoplugins import EVERY
from wpsitemaps.wordpress.seoplugins import RANK_MATH
from wpsitemaps.wordpress.seoplugins import SEOPRESS
from wpsitemaps.wordpress.seoplugins import TSF
from wpsitemaps.wordpress.seoplugins import YOAST
from wpsitemaps.wordpress.seoplugins import SeoChoice

IN_CHUNK = 1000
# What a post sitemap reads post_content for: images (content.images._MAY_HAVE_IMAGES, upper
# case too for binary collations) and <!--nextpage--> parts. Other rows get '' from SQL, so
# their content never crosses the wire (most posts of a site have neither).
CONTENT_MARKERS = ("<img", "<IMG", "[gallery", "wp:gallery", "<!--nextpage-->")


def chunks(ids: Iterable[int]) -> Iterable[list[int]]:
    """Split id lists so IN (...) stays a sane size."""
    items = sorted(set(ids))
    for start in range(0, len(items), IN_CHUNK):
        yield items[start:start + IN_CHUNK]


# The plugins whose markers explain names (NOINDEX_PLUGINS) and noindexed() tests, from the
# same rules: post meta (seoplugins.py says which plugins count on a site).
NOINDEX_PLUGINS = (YOAST, RANK_MATH, AIOSEO, SEOPRESS, TSF)
# Post meta canonical overrides, per plugin; where no known plugin is active only Yoast's and
# Rank Math's count, as before issue #24.
CANONICAL_META = {YOAST: "_yoast_wpseo_canonical", RANK_MATH: "rank_math_canonical_url",
                  SEOPRESS: "_seopress_robots_canonical", TSF: "_genesis_canonical_uri"}
CANONICAL_KEYS = tuple(CANONICAL_META.values())  # every key, for readers of raw meta
FALLBACK_CANONICAL = (YOAST, RANK_MATH)


def canonical_keys(seo: SeoChoice = EVERY) -> tuple[str, ...]:
    """The post meta keys whose canonical override counts on the site."""
    names = FALLBACK_CANONICAL if seo.fallback else seo.active
    return tuple(CANONICAL_META[n] for n in names if n in CANONICAL_META)


def _meta_rules(t: WPTables, seo: SeoChoice) -> list[tuple[str, ColumnElement[bool]]]:
    """(plugin, meta row condition) for each counting plugin's post meta noindex marker.

    Yoast `_yoast_wpseo_meta-robots-noindex` = '1' ('2' forces index), Rank Math
    `rank_math_robots` (serialized array) containing 'noindex', All in One SEO 3.x
    `_aioseop_noindex` = 'on' (only where no known plugin is active: AIOSEO 4 never reads
    it), SEOPress `_seopress_robots_index` = 'yes', The SEO Framework `_genesis_noindex` =
    '1' ('-1' forces index).
    """
    m = t.postmeta
    rules = {
        YOAST: and_(m.c.meta_key == "_yoast_wpseo_meta-robots-noindex", m.c.meta_value == "1"),
        RANK_MATH: and_(m.c.meta_key == "rank_math_robots", m.c.meta_value.like("%noindex%")),
        SEOPRESS: and_(m.c.meta_key == "_seopress_robots_index", m.c.meta_value == "yes"),
        TSF: and_(m.c.meta_key == "_genesis_noindex", m.c.meta_value == "1"),
    }
    if seo.fallback:
        rules[AIOSEO] = and_(m.c.meta_key == "_aioseop_noindex", m.c.meta_value == "on")
    return [(name, rules[name]) for name in NOINDEX_PLUGINS
            if name in rules and seo.counts(name)]


def _aioseo_noindexed(t: WPTables) -> ColumnElement[bool]:
    """EXISTS an AIOSEO 4 row noindexing the post: robots_default = 0 AND robots_noindex = 1
    (all-in-one-seo-pack 4.9.9 `app/Common/Sitemap/Query.php` `posts()`)."""
    ap = aioseo_posts(table_prefix(t))
    return exists().where(ap.c.post_id == t.posts.c.ID, ap.c.robots_default == 0,
                          ap.c.robots_noindex == 1)


def noindexed(t: WPTables, seo: SeoChoice = EVERY,
              plugin: str | None = None) -> ColumnElement[bool]:
    """Whether a counting SEO plugin (or the one named) marks the post noindex: one EXISTS
    over its post meta, plus AIOSEO 4's own table where AIOSEO runs and it is readable."""
    p, m = t.posts, t.postmeta
    rules = [cond for name, cond in _meta_rules(t, seo) if plugin in (None, name)]
    found: list[ColumnElement[bool]] = []
    if rules:
        found.append(exists().where(m.c.post_id == p.c.ID, or_(*rules)))
    if seo.runs(AIOSEO) and AIOSEO not in seo.unreadable and plugin in (None, AIOSEO):
        found.append(_aioseo_noindexed(t))
    return or_(*found) if found else false()


def reads_aioseo(seo: SeoChoice) -> bool:
    """Whether AIOSEO 4's table counts: AIOSEO runs and its table could be read."""
    return seo.runs(AIOSEO) and AIOSEO not in seo.unreadable


def has_canonical(t: WPTables, seo: SeoChoice = EVERY) -> ColumnElement[bool]:
    """EXISTS a non-empty canonical override of a counting plugin (post meta, or AIOSEO 4's
    `canonical_url`: AIOSEO's own sitemap keeps such posts, a sitemap should not)."""
    p, m = t.posts, t.postmeta
    keys = canonical_keys(seo)
    found: list[ColumnElement[bool]] = []
    if keys:
        found.append(exists().where(m.c.post_id == p.c.ID, m.c.meta_key.in_(keys),
                                    m.c.meta_value != ""))
    if reads_aioseo(seo):
        ap = aioseo_posts(table_prefix(t))
        found.append(exists().where(ap.c.post_id == p.c.ID, ap.c.canonical_url.is_not(None),
                                    ap.c.canonical_url != ""))
    return or_(*found) if found else false()


def aioseo_canonicals(conn: Connection, t: WPTables, ids: Iterable[int]) -> dict[int, str]:
    """{post ID: AIOSEO 4 canonical_url} of the posts that have a non-empty one."""
    ap = aioseo_posts(table_prefix(t))
    out: dict[int, str] = {}
    for chunk in chunks(ids):
        for pid, value in conn.execute(select(ap.c.post_id, ap.c.canonical_url).where(
                ap.c.post_id.in_(chunk), ap.c.canonical_url.is_not(None),
                ap.c.canonical_url != "")):
            out[int(pid)] = str(value)
    return out


def in_terms(t: WPTables, term_ids: Sequence[int]) -> ColumnElement[bool]:
    """EXISTS a relation of the post to one of the terms (by term_id, any taxonomy)."""
    tr, tt = t.term_relationships, t.term_taxonomy
    return exists().where(tr.c.object_id == t.posts.c.ID,
                          tt.c.term_taxonomy_id == tr.c.term_taxonomy_id,
                          tt.c.term_id.in_(list(term_ids)))


def table_prefix(t: WPTables) -> str:
    """The site's table prefix (`wp_`, `wp_2_`), from its posts table."""
    return str(t.posts.name)[:-len("posts")]


class NoIndex(ColumnElement[Any]):
    """A column the planner must not use an index for (SQLite: unary plus), so that a page
    query walks the primary key from its first ID instead of sorting every row of a type."""

    inherit_cache = True

    def __init__(self, column: ColumnElement[Any]) -> None:
        self.column = column
        self.type = column.type


@compiles(NoIndex)
def _no_index_default(element: NoIndex, compiler: Any, **kw: Any) -> str:
    # MySQL/MariaDB get FORCE INDEX (PRIMARY) instead (page_rows).
    text: str = compiler.process(element.column, **kw)
    return text


@compiles(NoIndex, "sqlite")
def _no_index_sqlite(element: NoIndex, compiler: Any, **kw: Any) -> str:
    text: str = compiler.process(element.column, **kw)
    return "+" + text


Clauses = list[tuple[str, ColumnElement[bool]]]


def published_clauses(t: WPTables, post_types: Sequence[str], keyset: bool = False) -> Clauses:
    """The named clauses of published(): ('type', ...), ('status', ...), ('password', ...)."""
    p = t.posts
    ptype: ColumnElement[Any] = NoIndex(p.c.post_type) if keyset else p.c.post_type
    status: ColumnElement[Any] = NoIndex(p.c.post_status) if keyset else p.c.post_status
    return [("type", ptype.in_(list(post_types))), ("status", status == "publish"),
            ("password", p.c.post_password == "")]


def published(t: WPTables, post_types: Sequence[str], keyset: bool = False,
              ) -> ColumnElement[bool]:
    """Published, not password-protected posts of the given types.

    keyset=True: for page queries that walk IDs (see NoIndex).
    """
    return and_(*(cond for _, cond in published_clauses(t, post_types, keyset)))


def listable_clauses(t: WPTables, post_types: Sequence[str], keep_canonical: Sequence[int] = (),
                     exclude_ids: Sequence[int] = (), keyset: bool = False,
                     canonical: bool = True, seo: SeoChoice = EVERY,
                     excluded: Sequence[int] = (), excluded_terms: Sequence[int] = ()) -> Clauses:
    """The sitemap condition as named clauses, ANDed by listable() and evaluated one by one
    for a single post by `wpsitemaps explain` (so both read the same rules).

    Names: type, status, password (published_clauses), noindex, canonical, first_link (the
    front page and posts page, listed as first links instead), excluded (IDs the SEO
    plugin's sitemap settings leave out). canonical=False leaves the canonical rule out, for
    callers that settle it in Python on the rows they read (the post type pages). `seo`:
    whose markers count (seoplugins.py).
    """
    p = t.posts
    clauses = [*published_clauses(t, post_types, keyset), ("noindex", ~noindexed(t, seo))]
    if excluded:
        clauses.append(("excluded", p.c.ID.not_in(list(excluded))))
    if excluded_terms:
        clauses.append(("excluded_term", ~in_terms(t, excluded_terms)))
    if canonical:
        canonical_ok = ~has_canonical(t, seo)
        if keep_canonical:
            canonical_ok = or_(canonical_ok, p.c.ID.in_(list(keep_canonical)))
        clauses.append(("canonical", canonical_ok))
    if exclude_ids:
        clauses.append(("first_link", p.c.ID.not_in(list(exclude_ids))))
    return clauses


def listable(t: WPTables, post_types: Sequence[str], keep_canonical: Sequence[int] = (),
             exclude_ids: Sequence[int] = (), keyset: bool = False,
             canonical: bool = True, seo: SeoChoice = EVERY,
             excluded: Sequence[int] = (), excluded_terms: Sequence[int] = (),
             ) -> ColumnElement[bool]:
    """The full sitemap condition: published, indexable, no foreign canonical (see
    listable_clauses for canonical=False)."""
    return and_(*(cond for _, cond in listable_clauses(t, post_types, keep_canonical,
                                                        exclude_ids, keyset, canonical, seo,
                                                        excluded, excluded_terms)))


def evaluate(conn: Connection, t: WPTables, clauses: Clauses, post_id: int) -> dict[str, bool]:
    """{clause name: whether it holds} for one post: one SELECT of every clause."""
    p = t.posts
    if not clauses:
        return {}
    stmt = select(*(cond.label(f"c{i}") for i, (_, cond) in enumerate(clauses))).where(
        p.c.ID == post_id)
    row = conn.execute(stmt).first()
    if row is None:
        return {name: False for name, _ in clauses}
    return {name: bool(value) for (name, _), value in zip(clauses, row, strict=True)}


class PageSpan(NamedTuple):
    """One page of an ID-ordered listing: its first ID, its newest dates (UTC or None), its
    last ID and how many rows it holds."""

    first_id: int
    max_modified: datetime | None
    max_date: datetime | None
    last_id: int = 0
    row_count: int = 0

    @property
    def bound(self) -> PageBound:
        """The PageBound of a content sitemap: lastmod = newest of both dates."""
        return PageBound(self.first_id, latest(self.max_modified, self.max_date))


def page_bounds(conn: Connection, t: WPTables, where: ColumnElement[bool],
                per_page: int) -> list[PageSpan]:
    """One PageSpan per page of `per_page` rows, from one ID-ordered pass."""
    p = t.posts
    rn = func.row_number().over(order_by=p.c.ID).label("rn")
    inner = select(p.c.ID, p.c.post_modified_gmt, p.c.post_date_gmt, rn).where(where).subquery()
    page_no = ((inner.c.rn - 1) // per_page).label("page_no")
    stmt = (select(func.min(inner.c.ID), func.max(inner.c.post_modified_gmt),
                   func.max(inner.c.post_date_gmt), func.max(inner.c.ID), func.count())
            .group_by(page_no).order_by(page_no))
    return [PageSpan(int(first), utc(modified), utc(date), int(last), int(count))
            for first, modified, date, last, count in conn.execute(stmt)]


def page_bounds_in_ranges(conn: Connection, t: WPTables, where: ColumnElement[bool],
                          per_page: int, span: int) -> list[PageSpan]:
    """page_bounds() walked through the primary key in ranges of `span` IDs, the rows folded
    into pages here: for a condition no index serves (the video candidates' patterns in
    post_content), one statement over the whole site would run past the driver's read
    timeout on a large site; each of these reads one range."""
    p = t.posts
    out: list[PageSpan] = []
    count = first = last = 0
    modified: datetime | None = None
    dated: datetime | None = None
    for low in range(0, max_id(conn, t) + 1, span):
        stmt = (select(p.c.ID, p.c.post_modified_gmt, p.c.post_date_gmt)
                .where(where, p.c.ID >= low, p.c.ID < low + span).order_by(p.c.ID)
                # the range of the primary key, not every row of the type per range
                .with_hint(p, "FORCE INDEX (PRIMARY)", "mysql")
                .with_hint(p, "FORCE INDEX (PRIMARY)", "mariadb")
                .execution_options(paged=True))  # per-row rules, see wordpress.db._paged
        for pid, mod, date in conn.execute(stmt):
            if count == 0:
                first, modified, dated = int(pid), None, None
            modified, dated = latest(modified, utc(mod)), latest(dated, utc(date))
            last = int(pid)
            count += 1
            if count == per_page:
                out.append(PageSpan(first, modified, dated, last, count))
                count = 0
    if count:
        out.append(PageSpan(first, modified, dated, last, count))
    return out


def post_columns(t: WPTables, with_content: bool = True) -> list[ColumnElement[Any]]:
    """The columns of a post row as every page query reads them (one list for all)."""
    p = t.posts
    cols: list[ColumnElement[Any]] = [
        p.c.ID, p.c.post_type, p.c.post_name, p.c.post_date, p.c.post_date_gmt,
        p.c.post_modified_gmt, p.c.post_parent, p.c.post_author, p.c.post_title,
        p.c.post_excerpt]
    return [*cols, p.c.post_content] if with_content else cols


class HoldsMarker(ColumnElement[bool]):
    """Whether a content column holds a CONTENT_MARKERS string (in any case)."""

    inherit_cache = True
    _traverse_internals = [("column", InternalTraversal.dp_clauseelement)]
    type = Boolean()

    def __init__(self, column: ColumnElement[Any]) -> None:
        self.column = column


@compiles(HoldsMarker)
def _holds_marker_like(element: HoldsMarker, compiler: Any, **kw: Any) -> str:
    # SQLite's LIKE ignores ASCII case; binary collations have "<IMG" listed as well.
    like = or_(*(element.column.like(f"%{m}%") for m in CONTENT_MARKERS))
    text: str = compiler.process(like, **kw)
    return text


@compiles(HoldsMarker, "mysql")
@compiles(HoldsMarker, "mariadb")
def _holds_marker_regexp(element: HoldsMarker, compiler: Any, **kw: Any) -> str:
    # One PCRE pass instead of five collation-aware LIKE scans of each post_content, which
    # cost more than the bytes they saved; the same rows (docs/performance.md).
    text: str = compiler.process(element.column.regexp_match(MARKER_PATTERN), **kw)
    return text


MARKER_PATTERN = "(?i)" + "|".join(re.escape(m) for m in dict.fromkeys(
    m.lower() for m in CONTENT_MARKERS))


def marked_content(t: WPTables) -> ColumnElement[Any]:
    """post_content where it holds a CONTENT_MARKERS string, else '' (decided in SQL)."""
    c = t.posts.c.post_content
    return case((HoldsMarker(c), c), else_="").label("post_content")


def marked_columns(t: WPTables) -> list[ColumnElement[Any]]:
    """post_columns() with marked_content() for post_content (what a page reads)."""
    return [*post_columns(t, with_content=False), marked_content(t)]


def page_rows(conn: Connection, t: WPTables, where: ColumnElement[bool], first_id: int,
              limit: int, with_content: bool = True, before_id: int | None = None,
              marked_only: bool = False) -> list[PostRow]:
    """The rows of one page: keyset from first_id (up to before_id), ID ascending.

    marked_only: post_content only where marked_content() finds a marker, '' elsewhere.
    """
    p = t.posts
    if with_content and marked_only:
        cols = marked_columns(t)
    else:
        cols = post_columns(t, with_content=with_content)
    keys = [p.c.ID >= first_id] + ([p.c.ID < before_id] if before_id is not None else [])
    stmt = (select(*cols).where(where, *keys).order_by(p.c.ID).limit(limit)
            .with_hint(p, "FORCE INDEX (PRIMARY)", "mysql")
            .with_hint(p, "FORCE INDEX (PRIMARY)", "mariadb")
            .execution_options(paged=True))  # see wordpress.db._paged
    return list(conn.execute(stmt))


def rows_by_id(conn: Connection, t: WPTables, ids: Iterable[int],
               with_content: bool = True, marked_only: bool = False) -> list[PostRow]:
    """Post rows (same columns as page_rows, marked_only as there) for given IDs."""
    p = t.posts
    cols = marked_columns(t) if with_content and marked_only else post_columns(t, with_content)
    out: list[PostRow] = []
    for chunk in chunks(ids):
        out.extend(conn.execute(select(*cols).where(p.c.ID.in_(chunk)).order_by(p.c.ID)))
    return out


def meta_lists(conn: Connection, t: WPTables, ids: Iterable[int],
               keys: Sequence[str]) -> dict[int, dict[str, list[str]]]:
    """{post_id: {meta_key: [meta_value, ...] by meta_id}} for the given keys."""
    m = t.postmeta
    out: dict[int, dict[str, list[str]]] = defaultdict(dict)
    for chunk in chunks(ids):
        # NoIndex: look rows up by post_id; the meta_key index would visit every post's key.
        rows = conn.execute(select(m.c.post_id, m.c.meta_key, m.c.meta_value)
                            .where(m.c.post_id.in_(chunk),
                                   NoIndex(m.c.meta_key).in_(list(keys)))
                            .order_by(m.c.meta_id)
                            .execution_options(paged=True))  # see wordpress.db._paged
        for post_id, key, value in rows:
            out[int(post_id)].setdefault(str(key), []).append(
                "" if value is None else str(value))
    return out


def first_values(lists: dict[int, dict[str, list[str]]]) -> dict[int, dict[str, str]]:
    """meta_lists() reduced to the first value of each key (get_post_meta(..., true))."""
    return {pid: {k: v[0] for k, v in keys.items()} for pid, keys in lists.items()}


def meta_values(conn: Connection, t: WPTables, ids: Iterable[int],
                keys: Sequence[str]) -> dict[int, dict[str, str]]:
    """{post_id: {meta_key: first meta_value}} for the given keys."""
    return defaultdict(dict, first_values(meta_lists(conn, t, ids, keys)))


def canonical_candidates(conn: Connection, t: WPTables, post_type: str,
                         within: ColumnElement[bool], seo: SeoChoice = EVERY) -> list[Any]:
    """(ID, canonical) of published posts of a type that carry a canonical override and
    match `within` (the news window, one post): paged, so no filter is built from every
    override of the type (see wordpress.db._paged)."""
    p, m = t.posts, t.postmeta
    stmt = (select(p.c.ID, m.c.meta_value).join(m, m.c.post_id == p.c.ID)
            .where(published(t, [post_type]), m.c.meta_key.in_(canonical_keys(seo)),
                   m.c.meta_value != "", within)
            .execution_options(paged=True))
    rows = list(conn.execute(stmt))
    if reads_aioseo(seo):
        ap = aioseo_posts(table_prefix(t))
        rows += list(conn.execute(
            select(p.c.ID, ap.c.canonical_url).join(ap, ap.c.post_id == p.c.ID)
            .where(published(t, [post_type]), ap.c.canonical_url.is_not(None),
                   ap.c.canonical_url != "", within)
            .execution_options(paged=True)))
    return rows


def attachment_files(conn: Connection, t: WPTables, ids: Iterable[int]) -> dict[int, str]:
    """{attachment ID: _wp_attached_file} for existing attachments."""
    p, m = t.posts, t.postmeta
    out: dict[int, str] = {}
    for chunk in chunks(ids):
        rows = conn.execute(select(m.c.post_id, m.c.meta_value)
                            .join(p, p.c.ID == m.c.post_id)
                            .where(m.c.post_id.in_(chunk),
                                   NoIndex(m.c.meta_key) == "_wp_attached_file",
                                   p.c.post_type == "attachment"))
        for post_id, value in rows:
            if value:
                out.setdefault(int(post_id), str(value))
    return out


def attached_images(conn: Connection, t: WPTables,
                    parent_ids: Iterable[int]) -> dict[int, list[int]]:
    """{parent ID: image attachment IDs} by menu_order, ID (what [gallery] shows)."""
    p = t.posts
    out: dict[int, list[int]] = defaultdict(list)
    for chunk in chunks(parent_ids):
        rows = conn.execute(select(p.c.post_parent, p.c.ID)
                            .where(p.c.post_parent.in_(chunk), p.c.post_type == "attachment",
                                   p.c.post_status == "inherit",
                                   p.c.post_mime_type.like("image/%"))
                            .order_by(p.c.post_parent, p.c.menu_order, p.c.ID))
        for parent, aid in rows:
            out[int(parent)].append(int(aid))
    return out


def parents(conn: Connection, t: WPTables, ids: Iterable[int]) -> dict[int, tuple[str, int]]:
    """{ID: (post_name, post_parent)} for ancestor lookups (get_page_uri)."""
    p = t.posts
    out: dict[int, tuple[str, int]] = {}
    for chunk in chunks(ids):
        for pid, name, parent in conn.execute(
                select(p.c.ID, p.c.post_name, p.c.post_parent).where(p.c.ID.in_(chunk))):
            out[int(pid)] = (str(name or ""), int(parent or 0))
    return out


def max_id(conn: Connection, t: WPTables) -> int:
    """The highest post ID of any type (the end of the primary key: one index step)."""
    return int(conn.execute(select(func.max(t.posts.c.ID))).scalar() or 0)


def max_modified(conn: Connection, t: WPTables, post_type: str) -> WPDate:
    """MAX(post_modified_gmt) of all published rows of a type (Yoast's first-link lastmod)."""
    p = t.posts
    return conn.execute(select(func.max(p.c.post_modified_gmt))
                        .where(p.c.post_type == post_type,
                               p.c.post_status == "publish")).scalar()


def odd_slugs(conn: Connection, t: WPTables, post_types: Sequence[str]) -> list[PostRow]:
    """Listable posts of the types whose post_name may keep a URL from reaching them
    (empty, or holding '.', '#', '?', '&' or an escaped dot: permalinks.post_problem()
    decides), by ID: a short list, as WordPress itself never stores such a slug."""
    p = t.posts
    name = p.c.post_name
    odd = or_(name == "", name.contains(".", autoescape=True), name.contains("#", autoescape=True),
              name.contains("?", autoescape=True), name.contains("&", autoescape=True),
              name.ilike("%\\%2e%", escape="\\"))
    stmt = (select(*post_columns(t, with_content=False))
            .where(listable(t, post_types), odd).order_by(p.c.ID))
    return list(conn.execute(stmt))


def listable_count(conn: Connection, t: WPTables, post_types: Sequence[str]) -> tuple[int, int]:
    """(how many, lowest ID) of the listable posts of the types (0, 0 when none)."""
    p = t.posts
    row = conn.execute(select(func.count(), func.min(p.c.ID))
                       .where(listable(t, post_types))).one()
    return int(row[0] or 0), int(row[1] or 0)
