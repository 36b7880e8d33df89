"""Tables that only some sites have, defined once beside schema.py: WPML's, Yoast's,
AIOSEO's and WooCommerce's attribute table.

They exist only where the plugin is (or was) installed, so callers check for them before
reading (queries/wpml.py, headless/queries.py, queries/yoast.py). As in schema.py, only the
columns we read are declared, and each prefix's set has its own MetaData.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from sqlalchemy import BigInteger
from sqlalchemy import Boolean
from sqlalchemy import Column
from sqlalchemy import Integer
from sqlalchemy import MetaData
from sqlalchemy import String
from sqlalchemy import Table
from sqlalchemy import Text

from wpsitemaps.config import PREFIX_RE


@dataclass(frozen=True)
class WPMLTables:
    """WPML's tables (https://wpml.org/documentation/support/wpml-tables/)."""

    translations: Table
    languages: Table


def _checked(prefix: str) -> str:
    if not PREFIX_RE.match(prefix):
        raise ValueError(f"invalid table prefix {prefix!r}")
    return prefix


@functools.lru_cache(maxsize=64)
def wpml_tables(prefix: str) -> WPMLTables:
    """`{prefix}icl_translations` (one row per translatable element: `element_type` is
    `post_<type>` or `tax_<taxonomy>`, `element_id` the post ID or term_taxonomy_id, `trid`
    the translation group) and `{prefix}icl_languages`."""
    md = MetaData()
    translations = Table(_checked(prefix) + "icl_translations", md,
                         Column("translation_id", BigInteger, primary_key=True),
                         Column("element_type", String(60)),
                         Column("element_id", BigInteger),
                         Column("trid", BigInteger),
                         Column("language_code", String(7)),
                         Column("source_language_code", String(7)))
    languages = Table(prefix + "icl_languages", md,
                      Column("id", Integer, primary_key=True),
                      Column("code", String(7)),
                      Column("english_name", String(128)),
                      Column("default_locale", String(35)),
                      Column("tag", String(35)),
                      Column("active", Integer))
    return WPMLTables(translations, languages)


@functools.lru_cache(maxsize=64)
def yoast_indexable(prefix: str) -> Table:
    """Yoast SEO's `{prefix}yoast_indexable` (the columns `check --compare-yoast` reads)."""
    return Table(_checked(prefix) + "yoast_indexable", MetaData(),
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


@functools.lru_cache(maxsize=64)
def aioseo_posts(prefix: str) -> Table:
    """All in One SEO 4's `{prefix}aioseo_posts`: one row per post it has settings for
    (all-in-one-seo-pack 4.9.9 `app/Common/Models/Post.php`, created by
    `Main/Updates.php` `addInitialCustomTablesForV4()`)."""
    return Table(_checked(prefix) + "aioseo_posts", MetaData(),
                 Column("id", BigInteger, primary_key=True),
                 Column("post_id", BigInteger),
                 Column("canonical_url", Text),
                 Column("robots_default", Integer),
                 Column("robots_noindex", Integer))


@functools.lru_cache(maxsize=64)
def woocommerce_attributes(prefix: str) -> Table:
    """WooCommerce's `{prefix}woocommerce_attribute_taxonomies`: one row per product
    attribute, the `pa_{attribute_name}` taxonomies (plugintypes.py)."""
    return Table(_checked(prefix) + "woocommerce_attribute_taxonomies", MetaData(),
                 Column("attribute_id", BigInteger, primary_key=True),
                 Column("attribute_name", String(200)),
                 Column("attribute_public", Integer))
