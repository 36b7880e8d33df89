"""SQLAlchemy Core tables for the WordPress core tables (multisite's too), with a runtime
table prefix.

Only the columns we read are declared (no reflection: start-up makes no round trip, and
columns added by plugins do not matter). Date columns are declared as strings because
WordPress stores the zero date '0000-00-00 00:00:00', which no datetime type can hold;
dates.py normalises whatever the driver hands back.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from sqlalchemy import BigInteger
from sqlalchemy import Column
from sqlalchemy import Integer
from sqlalchemy import MetaData
from sqlalchemy import String
from sqlalchemy import Table
from sqlalchemy import Text

from wpsitemaps.config import PREFIX_RE


@dataclass(frozen=True)
class WPTables:
    """The tables of one WordPress site (multisite: users on the base prefix)."""

    metadata: MetaData
    posts: Table
    postmeta: Table
    terms: Table
    term_taxonomy: Table
    term_relationships: Table
    termmeta: Table
    users: Table
    usermeta: Table
    options: Table


def _posts(md: MetaData, name: str) -> Table:
    return Table(
        name, md,
        Column("ID", BigInteger, primary_key=True),
        Column("post_author", BigInteger),
        Column("post_date", String(19)),
        Column("post_date_gmt", String(19)),
        Column("post_content", Text),
        Column("post_title", Text),
        Column("post_excerpt", Text),
        Column("post_status", String(20)),
        Column("post_password", String(255)),
        Column("post_name", String(200)),
        Column("post_modified", String(19)),
        Column("post_modified_gmt", String(19)),
        Column("post_parent", BigInteger),
        Column("guid", String(255)),
        Column("menu_order", Integer),
        Column("post_type", String(20)),
        Column("post_mime_type", String(100)),
    )


def _meta(md: MetaData, name: str, owner: str, id_col: str = "meta_id") -> Table:
    return Table(
        name, md,
        Column(id_col, BigInteger, primary_key=True),
        Column(owner, BigInteger),
        Column("meta_key", String(255)),
        Column("meta_value", Text),
    )


def _options(md: MetaData, name: str) -> Table:
    return Table(
        name, md,
        Column("option_id", BigInteger, primary_key=True),
        Column("option_name", String(191)),
        Column("option_value", Text),
    )


def options_table(prefix: str) -> Table:
    """A site's options table alone (a network reads every site's `home` in one UNION)."""
    if not PREFIX_RE.match(prefix):
        raise ValueError(f"invalid table prefix {prefix!r}")
    return _options(MetaData(), prefix + "options")


@functools.lru_cache(maxsize=256)
def build_tables(prefix: str = "wp_", base_prefix: str | None = None) -> WPTables:
    """Return the tables for a prefix (cached per prefix; each set has its own MetaData).

    Bounded: a network of thousands of sites must not keep every site's tables forever.
    """
    for value in (prefix, base_prefix or prefix):
        if not PREFIX_RE.match(value):
            raise ValueError(f"invalid table prefix {value!r}")
    users_prefix = base_prefix or prefix
    md = MetaData()
    return WPTables(
        metadata=md,
        posts=_posts(md, prefix + "posts"),
        postmeta=_meta(md, prefix + "postmeta", "post_id"),
        terms=Table(
            prefix + "terms", md,
            Column("term_id", BigInteger, primary_key=True),
            Column("name", String(200)),
            Column("slug", String(200)),
            Column("term_group", BigInteger),
        ),
        term_taxonomy=Table(
            prefix + "term_taxonomy", md,
            Column("term_taxonomy_id", BigInteger, primary_key=True),
            Column("term_id", BigInteger),
            Column("taxonomy", String(32)),
            Column("parent", BigInteger),
            Column("count", BigInteger),
            # Polylang keeps language data and translation groups here (serialized).
            Column("description", Text),
        ),
        term_relationships=Table(
            prefix + "term_relationships", md,
            Column("object_id", BigInteger, primary_key=True),
            Column("term_taxonomy_id", BigInteger, primary_key=True),
        ),
        termmeta=_meta(md, prefix + "termmeta", "term_id"),
        users=Table(
            users_prefix + "users", md,
            Column("ID", BigInteger, primary_key=True),
            Column("user_login", String(60)),
            Column("user_nicename", String(50)),
            Column("display_name", String(250)),
        ),
        usermeta=_meta(md, users_prefix + "usermeta", "user_id", id_col="umeta_id"),
        options=_options(md, prefix + "options"),
    )


@dataclass(frozen=True)
class NetworkTables:
    """The network-wide tables, on the base prefix."""

    metadata: MetaData
    blogs: Table
    site: Table
    sitemeta: Table


@functools.lru_cache(maxsize=16)
def network_tables(base_prefix: str) -> NetworkTables:
    """The network tables of a base prefix (only the columns we read)."""
    if not PREFIX_RE.match(base_prefix):
        raise ValueError(f"invalid table prefix {base_prefix!r}")
    md = MetaData()
    blogs = Table(
        base_prefix + "blogs", md,
        Column("blog_id", BigInteger, primary_key=True),
        Column("site_id", BigInteger),
        Column("domain", String(200)),
        Column("path", String(100)),
        *(Column(flag, Integer) for flag in ("public", "archived", "mature", "spam", "deleted")),
    )
    site = Table(base_prefix + "site", md, Column("id", BigInteger, primary_key=True),
                 Column("domain", String(200)), Column("path", String(100)))
    sitemeta = Table(base_prefix + "sitemeta", md, Column("meta_id", BigInteger, primary_key=True),
                     Column("site_id", BigInteger), Column("meta_key", String(255)),
                     Column("meta_value", Text))
    return NetworkTables(md, blogs, site, sitemeta)
