"""SQL for Yoast SEO's indexables table, read only by `wpsitemaps check --compare-yoast`.

`{prefix}yoast_indexable` is created by Yoast's migration
src/config/migrations/20171228151840_WpYoastIndexable.php (Yoast-dist/wordpress-seo):
`permalink` mediumtext, `object_id` int unsigned, `object_type` varchar(32) ('post', 'term',
'user', 'home-page', 'post-type-archive', 'date-archive', 'system-page'), `object_sub_type`
varchar(32) (post type or taxonomy), `post_status`, `is_protected`, `canonical` and
`is_robots_noindex` among others; `has_public_posts` was added by
20200420073606_AddColumnsToIndexables.php. Only these columns are declared.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import BigInteger
from sqlalchemy import Boolean
from sqlalchemy import Column
from sqlalchemy import Connection
from sqlalchemy import MetaData
from sqlalchemy import String
from sqlalchemy import Table
from sqlalchemy import Text
from sqlalchemy import select

from wpsitemaps.config import PREFIX_RE

LISTED_TYPES = ("post", "term", "user", "home-page", "post-type-archive")


def indexable_table(prefix: str) -> Table:
    """The indexables table of a site's prefix (the columns the comparison reads)."""
    if not PREFIX_RE.match(prefix):
        raise ValueError(f"invalid table prefix {prefix!r}")
    return Table(prefix + "yoast_indexable", MetaData(),
                 Column("id", BigInteger, primary_key=True),
                 Column("permalink", Text),
                 Column("object_id", BigInteger),
                 Column("object_type", String(32)),
                 Column("object_sub_type", String(32)),
                 Column("post_status", String(191)),
                 Column("is_protected", Boolean),
                 Column("is_robots_noindex", Boolean),
                 Column("has_public_posts", Boolean),
                 Column("canonical", Text))


def indexables(conn: Connection, prefix: str) -> list[Any]:
    """(object_type, object_sub_type, object_id, permalink, post_status, is_protected,
    is_robots_noindex, canonical, has_public_posts) of every indexable of a listed kind."""
    t = indexable_table(prefix)
    stmt = (select(t.c.object_type, t.c.object_sub_type, t.c.object_id, t.c.permalink,
                   t.c.post_status, t.c.is_protected, t.c.is_robots_noindex, t.c.canonical,
                   t.c.has_public_posts)
            .where(t.c.object_type.in_(LISTED_TYPES))
            .order_by(t.c.object_type, t.c.object_sub_type, t.c.object_id))
    return list(conn.execute(stmt))
