"""The demo site's cast and shapes: users, terms, the row type, columns, the spec and the
emitter that numbers rows (shared by the generator and its parts; no rows are made here)."""


from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from wpsitemaps.demo.content import paragraphs
from wpsitemaps.demo.wp import BERLIN
from wpsitemaps.demo.wp import mysql_date

Row = tuple[Any, ...]
DEFAULT_NOW = 1795969443  # 2026-11-29T16:24:03Z, peer-small's clock; the CLI uses the wall clock
DEFAULT_HOME = "http://127.0.0.1:8000"
# Bumped whenever the generator writes other rows for the same size and seed, so that a demo
# file cached by an older version is made again (2: the leftover SEO meta of issue #24).
FORMAT = 2
YEAR = 365 * 86400

COLUMNS: dict[str, tuple[str, ...]] = {
    "commentmeta": ("meta_id", "comment_id", "meta_key", "meta_value"),
    "comments": ("comment_ID", "comment_post_ID", "comment_author", "comment_author_email",
                 "comment_author_url", "comment_author_IP", "comment_date", "comment_date_gmt",
                 "comment_content", "comment_karma", "comment_approved", "comment_agent",
                 "comment_type", "comment_parent", "user_id"),
    "links": ("link_id", "link_url", "link_name", "link_image", "link_target",
              "link_description", "link_visible", "link_owner", "link_rating", "link_updated",
              "link_rel", "link_notes", "link_rss"),
    "options": ("option_id", "option_name", "option_value", "autoload"),
    "postmeta": ("meta_id", "post_id", "meta_key", "meta_value"),
    "posts": ("ID", "post_author", "post_date", "post_date_gmt", "post_content", "post_title",
              "post_excerpt", "post_status", "comment_status", "ping_status", "post_password",
              "post_name", "to_ping", "pinged", "post_modified", "post_modified_gmt",
              "post_content_filtered", "post_parent", "guid", "menu_order", "post_type",
              "post_mime_type", "comment_count"),
    "term_relationships": ("object_id", "term_taxonomy_id", "term_order"),
    "term_taxonomy": ("term_taxonomy_id", "term_id", "taxonomy", "description", "parent",
                      "count"),
    "termmeta": ("meta_id", "term_id", "meta_key", "meta_value"),
    "terms": ("term_id", "name", "slug", "term_group"),
    "usermeta": ("umeta_id", "user_id", "meta_key", "meta_value"),
    "users": ("ID", "user_login", "user_pass", "user_nicename", "user_email", "user_url",
              "user_registered", "user_activation_key", "user_status", "display_name"),
}

# (login, role, first name, last name, display name as stored, user level)
USERS = (
    ("admin", "administrator", "", "", "admin", 10),
    ("anna", "editor", "Anna", "Müller", "Anna Müller", 7),
    ("bob", "author", "Bob", "O'Brien", "Bob O'Brien &amp; Co", 2),
    ("chen", "author", "Wei", "Chen", "陈伟", 2),
    ("dora", "contributor", "Dora", "Draft", "Dora Draft", 1),
    ("sam", "subscriber", "Sam", "Subscriber", "Sam Subscriber", 0),
)
ADMIN, ANNA, BOB, CHEN, DORA = 1, 2, 3, 4, 5
KSES_AUTHORS = frozenset({BOB, CHEN, DORA})  # no unfiltered_html: & is stored as &amp;

# (term_id = term_taxonomy_id, name as stored, taxonomy, parent, description)
TERMS = (
    (1, "Uncategorized", "category", 0, ""), (2, "News", "category", 0, "All the news"),
    (3, "World", "category", 2, ""), (4, "Europe", "category", 3, ""),
    (5, "Local", "category", 2, ""), (6, "Tech", "category", 0, ""),
    (7, "Gadgets", "category", 6, ""), (8, "Kultur &amp; Gesellschaft", "category", 0, ""),
    (9, "新闻", "category", 0, ""), (10, "Новости", "category", 0, ""),
    (11, "Empty Category", "category", 0, ""),
    (12, "WordPress", "post_tag", 0, ""), (13, "Sitemaps", "post_tag", 0, ""),
    (14, "SEO", "post_tag", 0, ""), (15, "Größe", "post_tag", 0, ""),
    (16, "标签", "post_tag", 0, ""), (17, "Тег", "post_tag", 0, ""),
    (18, "😀 Emoji", "post_tag", 0, ""), (19, "A &amp; B", "post_tag", 0, ""),
    (20, "Unused Tag", "post_tag", 0, ""),
    (21, "Jazz", "genre", 0, ""), (22, "Rock", "genre", 0, ""),
    (23, "Klassik &amp; Oper", "genre", 0, ""), (24, "Empty Genre", "genre", 0, ""),
    (25, "post-format-video", "post_format", 0, ""),
)
POST_CATEGORIES = (1, 3, 4, 5, 6, 7, 8, 9, 10)
POST_TAGS = tuple(range(12, 20))
GENRES = (21, 22, 23)
VIDEO_FORMAT = 25


@dataclass(frozen=True)
class DemoSpec:
    """What to generate: `size` public posts, from `seed`, as of `now` (Unix time)."""

    size: int = 300
    seed: int = 1
    now: int = DEFAULT_NOW
    home: str = DEFAULT_HOME
    blogname: str = "Demo News"


class Emitter:
    """Mutable state of one run: the random stream, ID counters and term counts."""

    def __init__(self, spec: DemoSpec) -> None:
        self.spec = spec
        self.rng = random.Random(spec.seed)
        self.ids: Counter[str] = Counter()
        self.counts: Counter[int] = Counter()
        self.pool = paragraphs(self.rng, 64)
        self.install = spec.now - 3 * YEAR
        self.uploads = spec.home.rstrip("/") + "/wp-content/uploads/"
        self.sticky = 0

    def new_id(self, table: str) -> int:
        """The next AUTO_INCREMENT value of a table."""
        self.ids[table] += 1
        return self.ids[table]

    def meta(self, post_id: int, key: str, value: str) -> tuple[str, Row]:
        """One wp_postmeta row."""
        return "postmeta", (self.new_id("postmeta"), post_id, key, value)

    def relate(self, object_id: int, tt_id: int, counted: bool) -> tuple[str, Row]:
        """A term relationship; _update_post_term_count() counts published objects only."""
        if counted:
            self.counts[tt_id] += 1
        return "term_relationships", (object_id, tt_id, 0)

    def local(self, ts: float) -> str:
        """post_date: site local time (Europe/Berlin)."""
        return mysql_date(ts, BERLIN)


