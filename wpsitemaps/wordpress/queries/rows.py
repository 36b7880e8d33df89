"""The rows the queries hand out, read by name, typed as the drivers give them.

Fixed-shape queries return these NamedTuples; queries of post rows, whose columns vary with
the caller (`post_columns()`, `marked_columns()`), return SQLAlchemy `Row`s, read by the
same names. Values are what the drivers give: text columns may be NULL, and WordPress's
date columns (declared as strings, schema.py) come back as `str` from SQLite and as
`datetime` from PyMySQL; wordpress.dates normalises them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from typing import NamedTuple
from typing import TypeAlias

from sqlalchemy import Row

WPDate = str | datetime | None  # a *_gmt / post_date column as the driver returns it
# A row of wp_posts with the columns its query selected (post_columns(), marked_columns(),
# the key columns of queries.fingerprint), read by name: r.ID, r.post_type, ...
PostRow: TypeAlias = Row[*tuple[Any, ...]]


class TermRow(NamedTuple):
    """A term of one taxonomy (queries.terms.taxonomy_terms)."""

    term_id: int
    term_taxonomy_id: int
    slug: str | None
    parent: int | None
    posts: int | None  # term_taxonomy.count: its published objects, as WordPress counts them


class AuthorRow(NamedTuple):
    """A listed author and the newest post_modified_gmt of their posts (queries.users)."""

    ID: int
    user_nicename: str | None
    modified: WPDate


class UserRow(NamedTuple):
    """One user (queries.lookup.user)."""

    ID: int
    user_login: str | None
    user_nicename: str | None
    display_name: str | None


class TermTaxonomyRow(NamedTuple):
    """A term_id's entry in one taxonomy (queries.lookup.term_taxonomies)."""

    taxonomy: str | None
    slug: str | None
    name: str | None


class MetaRow(NamedTuple):
    """One post meta row (queries.lookup.meta)."""

    meta_key: str | None
    meta_value: str | None


class LanguageTermRow(NamedTuple):
    """A Polylang language term, post or term language (queries.languages)."""

    taxonomy: str | None
    term_id: int
    term_taxonomy_id: int
    slug: str | None
    name: str | None
    term_group: int | None
    description: str | None


class WPMLLanguageRow(NamedTuple):
    """A language WPML knows (queries.wpml.languages)."""

    code: str | None
    english_name: str | None
    default_locale: str | None
    tag: str | None
    active: int | None


class IndexableRow(NamedTuple):
    """One of Yoast SEO's indexables (queries.yoast.indexables)."""

    object_type: str | None
    object_sub_type: str | None
    object_id: int | None
    permalink: str | None
    post_status: str | None
    is_protected: bool | None
    is_robots_noindex: bool | None
    canonical: str | None
    has_public_posts: bool | None


class HomeRow(NamedTuple):
    """A network site's `home` option (queries.network.homes)."""

    blog_id: int
    home: str | None
