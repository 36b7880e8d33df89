"""Which WordPress rows mean which changes: a row of a site's table -> `Change` values.

Pure functions shared by the sources that see rows (the binary log). A table is named by
the network's base prefix, the blog_id for sites 2.. (`wp_2_posts`), and WordPress's own
table name; `users` and `usermeta` belong to the whole network (blog_id 1).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from wpsitemaps.changes.model import Change

SITE_TABLES = frozenset({"posts", "postmeta", "terms", "term_taxonomy", "term_relationships",
                         "options"})
NETWORK_TABLES = frozenset({"users", "usermeta"})
# Rows WordPress writes while nothing a sitemap shows changed: an editor's lock, revisions,
# login sessions, screen settings, transients and the cron queue. Over-reporting only costs
# a re-render; these would cost one per keystroke or page view.
NOISE_POST_META = frozenset({"_edit_lock", "_edit_last", "_encloseme", "_pingme",
                             "_wp_desired_post_slug"})
NOISE_POST_TYPES = frozenset({"revision", "customize_changeset", "oembed_cache"})
NOISE_USER_META = re.compile(r"^(session_tokens|.*user-settings(-time)?|"
                             r".*dashboard_quick_press_last_post_id|community-events-location|"
                             r"last_update|wc_last_active)$")
# The options the sitemaps read (exact names, or prefixes ending in '*'); the companion
# plugin (wordpress/wpsitemaps-notify.php) sends the same list. Others are not changes:
# plugins write options on page views (counters, locks, caches), and each change of an
# option makes every document be checked again.
SITEMAP_OPTIONS = ("permalink_structure", "category_base", "tag_base", "home", "siteurl",
                   "blog_public", "active_plugins", "show_on_front", "page_on_front",
                   "page_for_posts", "timezone_string", "gmt_offset", "posts_per_page",
                   "wpsitemaps_registry", "wpseo*", "rank-math-options-*", "rank_math_*",
                   "aioseo_options*", "seopress_*", "autodescription-site-settings",
                   "polylang", "icl_sitepress_settings")
_SITE_NUMBER = re.compile(r"^([1-9][0-9]*)_(.+)$")


@dataclass(frozen=True)
class TableName:
    """A table of the WordPress install: which site, which of WordPress's tables."""

    blog_id: int
    table: str


def parse_table(name: str, base_prefix: str) -> TableName | None:
    """`wp_posts` -> (1, posts), `wp_3_postmeta` -> (3, postmeta), `wp_users` -> (1, users);
    None for a table the sitemaps do not read or of another install."""
    if not name.startswith(base_prefix):
        return None
    rest = name[len(base_prefix):]
    numbered = _SITE_NUMBER.match(rest)
    if numbered and numbered.group(2) in SITE_TABLES and int(numbered.group(1)) >= 2:
        return TableName(int(numbered.group(1)), numbered.group(2))
    if rest in SITE_TABLES or rest in NETWORK_TABLES:
        return TableName(1, rest)
    return None


def row_changes(table: TableName, row: Mapping[str, Any], seen_at: float) -> list[Change]:
    """What one row (its values before or after the write) says changed."""
    blog, kind = table.blog_id, table.table
    if kind == "posts":
        post_type = _text(row.get("post_type"))
        if post_type in NOISE_POST_TYPES:
            return []
        return [Change("post", _id(row, "ID"), post_type=post_type, blog_id=blog,
                       seen_at=seen_at)]
    if kind == "postmeta":
        if _text(row.get("meta_key")) in NOISE_POST_META:
            return []
        return [Change("post", _id(row, "post_id"), blog_id=blog, seen_at=seen_at)]
    if kind == "terms":
        # wp_terms holds name and slug, keyed by term_id: the taxonomy is not in the row.
        # WordPress 4.3+ keeps one term_taxonomy row per term_id, so taxonomy None with the
        # term_id says "the term whose term_id is this".
        return [Change("term", _id(row, "term_id"), blog_id=blog, seen_at=seen_at)]
    if kind == "term_taxonomy":
        return [Change("term", _id(row, "term_taxonomy_id"), taxonomy=_text(row.get("taxonomy")),
                       blog_id=blog, seen_at=seen_at)]
    if kind == "term_relationships":
        return [Change("post", _id(row, "object_id"), blog_id=blog, seen_at=seen_at),
                Change("term", _id(row, "term_taxonomy_id"), blog_id=blog, seen_at=seen_at)]
    if kind == "users":
        return [Change("user", _id(row, "ID"), seen_at=seen_at)]
    if kind == "usermeta":
        if NOISE_USER_META.match(_text(row.get("meta_key")) or ""):
            return []
        return [Change("user", _id(row, "user_id"), seen_at=seen_at)]
    if kind == "options":
        name = _text(row.get("option_name"))
        if not name or not sitemap_option(name):
            return []
        return [Change("option", option=name, blog_id=blog, seen_at=seen_at)]
    return []


def sitemap_option(name: str) -> bool:
    """Whether the sitemaps read the option `name` (SITEMAP_OPTIONS)."""
    return any(name.startswith(o[:-1]) if o.endswith("*") else name == o
               for o in SITEMAP_OPTIONS)


def unique(changes: Iterable[Change]) -> list[Change]:
    """Each change once, first seen first (Change compares without its time)."""
    return list(dict.fromkeys(changes))


def _id(row: Mapping[str, Any], column: str) -> int:
    """An id column (unsigned BIGINT in WordPress); 0 when the row lacks it."""
    value = row.get(column)
    return int(value) if isinstance(value, int) and value >= 0 else 0


def _text(value: Any) -> str | None:
    """A text column: the binary log gives VARCHAR as str, some types as bytes."""
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return value if isinstance(value, str) else None
