"""SQL behind type discovery and `check`: WooCommerce's attribute table, which taxonomies have
terms on published posts of given types, and what has published content at all."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection
from sqlalchemy import exists
from sqlalchemy import func
from sqlalchemy import inspect
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError

from wpsitemaps.wordpress.causes import denied
from wpsitemaps.wordpress.limits import transient
from wpsitemaps.wordpress.plugintables import woocommerce_attributes
from wpsitemaps.wordpress.schema import WPTables


def table_prefix(t: WPTables) -> str:
    """The site's table prefix, read back from its options table's name."""
    return t.options.name[: -len("options")]


def attribute_taxonomies(conn: Connection, t: WPTables) -> list[tuple[str, bool]] | None:
    """(attribute_name, attribute_public = 1) of `{prefix}woocommerce_attribute_taxonomies`
    by attribute_id; None when the table does not exist or the user may not read it.

    Optional: the caller then falls back to WooCommerce's cached copy of the table (an
    option). A missing GRANT must not turn every request into a 503 (issue #25); start-up and
    `check` name it (wordpress/readiness.py). Outages and time limits still raise.
    """
    attrs = woocommerce_attributes(table_prefix(t))
    try:
        if not inspect(conn).has_table(attrs.name):
            return None
        rows = conn.execute(select(attrs.c.attribute_name, attrs.c.attribute_public)
                            .order_by(attrs.c.attribute_id)).all()
    except SQLAlchemyError as exc:
        if transient(exc) or not denied(exc):
            raise
        return None
    return [(str(n), str(p).strip() == "1") for n, p in rows if n]


def taxonomies_on_published(conn: Connection, t: WPTables, taxonomies: Sequence[str],
                            post_types: Sequence[str]) -> set[str]:
    """The taxonomies having a term on a published post of one of `post_types` (one EXISTS
    per taxonomy, which stops at the first hit)."""
    tt, tr, p = t.term_taxonomy, t.term_relationships, t.posts
    out: set[str] = set()
    for taxonomy in taxonomies:
        hit = exists(select(tr.c.object_id)
                     .join(tt, tt.c.term_taxonomy_id == tr.c.term_taxonomy_id)
                     .join(p, p.c.ID == tr.c.object_id)
                     .where(tt.c.taxonomy == taxonomy, p.c.post_status == "publish",
                            p.c.post_type.in_(list(post_types))))
        if conn.execute(select(hit)).scalar():
            out.add(taxonomy)
    return out


def published_by_type(conn: Connection, t: WPTables) -> dict[str, int]:
    """{post_type: published rows} (uses the type_status_date index)."""
    p = t.posts
    rows = conn.execute(select(p.c.post_type, func.count()).where(p.c.post_status == "publish")
                        .group_by(p.c.post_type))
    return {str(name): int(n) for name, n in rows}


def used_terms_by_taxonomy(conn: Connection, t: WPTables) -> dict[str, int]:
    """{taxonomy: terms with count > 0}."""
    tt = t.term_taxonomy
    rows = conn.execute(select(tt.c.taxonomy, func.count()).where(tt.c.count > 0)
                        .group_by(tt.c.taxonomy))
    return {str(name): int(n) for name, n in rows}
