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

from sqlalchemy import Connection
from sqlalchemy import select

from wpsitemaps.wordpress.plugintables import yoast_indexable
from wpsitemaps.wordpress.queries.rows import IndexableRow

LISTED_TYPES = ("post", "term", "user", "home-page", "post-type-archive")


def indexables(conn: Connection, prefix: str) -> list[IndexableRow]:
    """(object_type, object_sub_type, object_id, permalink, post_status, is_protected,
    is_robots_noindex, canonical, has_public_posts) of every indexable of a listed kind."""
    t = yoast_indexable(prefix)
    stmt = (select(t.c.object_type, t.c.object_sub_type, t.c.object_id, t.c.permalink,
                   t.c.post_status, t.c.is_protected, t.c.is_robots_noindex, t.c.canonical,
                   t.c.has_public_posts)
            .where(t.c.object_type.in_(LISTED_TYPES))
            .order_by(t.c.object_type, t.c.object_sub_type, t.c.object_id))
    return list(map(IndexableRow._make, conn.execute(stmt)))
