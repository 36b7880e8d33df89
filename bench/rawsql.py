"""The raw SQL cost of a post sitemap page, run with pymysql directly (no app code).

One page of 1,000 posts needs: the posts themselves (keyset from the page's first ID, with
post_content, whose inline images the page lists), their own meta (featured image, Yoast
noindex/canonical), their image attachments, and the attachment meta that gives each image's
file, sizes and alt text. Only execute + fetchall is timed; the Python that collects IDs
between the queries is not.
"""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import Sequence
from typing import Any

import pymysql

PUBLISHED = "p.post_type='post' AND p.post_status='publish' AND p.post_password=''"
POSTS = ("SELECT ID, post_name, post_date, post_date_gmt, post_modified_gmt, post_parent, "
         "post_author, post_title, post_excerpt, post_content FROM wp_posts p "
         f"WHERE {PUBLISHED} AND ID >= %s ORDER BY ID LIMIT %s")
OWN_META = ("SELECT post_id, meta_key, meta_value FROM wp_postmeta WHERE post_id IN ({ids}) "
            "AND meta_key IN ('_thumbnail_id', '_yoast_wpseo_meta-robots-noindex', "
            "'_yoast_wpseo_canonical') ORDER BY meta_id")
CHILDREN = ("SELECT post_parent, ID FROM wp_posts WHERE post_parent IN ({ids}) "
            "AND post_type='attachment' AND post_status='inherit' "
            "AND post_mime_type LIKE 'image/%%' ORDER BY post_parent, menu_order, ID")
ATT_META = ("SELECT post_id, meta_key, meta_value FROM wp_postmeta WHERE post_id IN ({ids}) "
            "AND meta_key IN ('_wp_attached_file', '_wp_attachment_metadata', "
            "'_wp_attachment_image_alt') ORDER BY meta_id")
WP_IMAGE = re.compile(r"wp-image-(\d+)")


def connect(db: str, host: str = "127.0.0.1", user: str = "root",
            password: str = "") -> pymysql.connections.Connection:  # type: ignore[type-arg]
    """A plain pymysql connection, utf8mb4, as the app's driver uses."""
    return pymysql.connect(host=host, user=user, password=password, database=db,
                           charset="utf8mb4", autocommit=True)


def page_first_ids(cur: Any, pages: Sequence[int], per_page: int) -> dict[int, int]:
    """{page number: first published post ID} (an untimed OFFSET query, setup only)."""
    out = {}
    for page in pages:
        cur.execute(f"SELECT ID FROM wp_posts p WHERE {PUBLISHED} ORDER BY ID LIMIT 1 OFFSET %s",
                    ((page - 1) * per_page,))
        row = cur.fetchone()
        if row:
            out[page] = int(row[0])
    return out


def _timed(cur: Any, sql: str, args: Any = None) -> tuple[float, list[Any]]:
    """(ms, rows) of one statement."""
    start = time.perf_counter()
    cur.execute(sql, args)
    rows = list(cur.fetchall())
    return (time.perf_counter() - start) * 1000, rows


def _in(ids: set[int]) -> str:
    """An IN list of integers (never empty)."""
    return ",".join(str(i) for i in sorted(ids)) or "0"


def page_once(cur: Any, first_id: int, per_page: int) -> float:
    """ms of the four statements one post sitemap page needs."""
    total, posts = _timed(cur, POSTS, (first_id, per_page))
    ids = {int(r[0]) for r in posts}
    ms, meta = _timed(cur, OWN_META.format(ids=_in(ids)))
    total += ms
    ms, kids = _timed(cur, CHILDREN.format(ids=_in(ids)))
    total += ms
    images = {int(r[1]) for r in kids}
    images |= {int(v) for _p, k, v in meta if k == "_thumbnail_id" and str(v).isdigit()}
    for row in posts:
        images.update(int(i) for i in WP_IMAGE.findall(row[-1] or ""))
    ms, _att = _timed(cur, ATT_META.format(ids=_in(images)))
    return total + ms


def page_cost(db: str, pages: Sequence[int], per_page: int = 1000,
              n: int = 20) -> dict[int, float]:
    """{page number: median ms of its raw SQL over n runs} after one warm-up run."""
    con = connect(db)
    try:
        with con.cursor() as cur:
            firsts = page_first_ids(cur, pages, per_page)
            out = {}
            for page, first in firsts.items():
                page_once(cur, first, per_page)
                out[page] = statistics.median(page_once(cur, first, per_page)
                                              for _ in range(n))
            return out
    finally:
        con.close()


def published_count(db: str) -> int:
    """Published, unprotected posts of type post (what the post sitemap pages over)."""
    con = connect(db)
    try:
        with con.cursor() as cur:
            cur.execute(f"SELECT COUNT(*) FROM wp_posts p WHERE {PUBLISHED}")
            row = cur.fetchone()
            return int(row[0]) if row else 0
    finally:
        con.close()


def listable_count(db: str) -> int:
    """Published posts that no SEO meta keeps out (what the app's post sitemap lists)."""
    con = connect(db)
    try:
        with con.cursor() as cur:
            cur.execute(f"SELECT COUNT(*) FROM wp_posts p WHERE {PUBLISHED} AND NOT EXISTS "
                        "(SELECT 1 FROM wp_postmeta m WHERE m.post_id = p.ID AND ("
                        "(m.meta_key = '_yoast_wpseo_meta-robots-noindex' AND m.meta_value = '1')"
                        " OR (m.meta_key IN ('_yoast_wpseo_canonical', 'rank_math_canonical_url')"
                        " AND m.meta_value != '')))")
            row = cur.fetchone()
            return int(row[0]) if row else 0
    finally:
        con.close()
