"""A deterministic generator of a realistic WordPress 6.1 database (`wpsitemaps demo`).

`generate(spec)` streams `(table, row)` pairs, rows being tuples in the column order of
migrations/*/wordpress-6.1-core.sql, in the order WordPress would have written them. Nothing
is collected: memory stays flat whatever `size` (the number of public posts) is, so the
benchmark can pipe a million posts into MariaDB (see demo_write.py for the writers).

Every row that must never reach a sitemap (drafts, private, password-protected, future,
trashed, auto-drafts, revisions, noindexed) carries "DEMO-HIDDEN" in its title.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from wpsitemaps.demo_content import COMMENT_CONTENT
from wpsitemaps.demo_content import paragraphs
from wpsitemaps.demo_options import core_options
from wpsitemaps.demo_wp import BERLIN
from wpsitemaps.demo_wp import mysql_date
from wpsitemaps.demo_wp import php_serialize
from wpsitemaps.demo_wp import sanitize_title

Row = tuple[Any, ...]
DEFAULT_NOW = 1795969443  # 2026-11-29T16:24:03Z, peer-small's clock; the CLI uses the wall clock
DEFAULT_HOME = "http://127.0.0.1:8000"
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


def _users(em: Emitter) -> Iterator[tuple[str, Row]]:
    """wp_users and wp_usermeta rows, as wp_insert_user() writes them."""
    registered = mysql_date(em.install)
    for uid, (login, role, first, last, display, level) in enumerate(USERS, start=1):
        salt = "".join(em.rng.choice("./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
                                     "qrstuvwxyz") for _ in range(31))
        url = em.spec.home if uid == ADMIN else ""
        yield "users", (uid, login, f"$P$B{salt}", login, f"{login}@example.org", url,
                        registered, "", 0, display)
        meta = [("nickname", login), ("first_name", first), ("last_name", last),
                ("description", f"Bio of {display}" if uid != ADMIN else ""),
                ("rich_editing", "true"), ("syntax_highlighting", "true"),
                ("comment_shortcuts", "false"), ("admin_color", "fresh"), ("use_ssl", "0"),
                ("show_admin_bar_front", "true"), ("locale", ""),
                ("wp_capabilities", php_serialize({role: True})),
                ("wp_user_level", str(level)), ("dismissed_wp_pointers", "")]
        if uid == ADMIN:
            meta.append(("show_welcome_panel", "1"))
        for key, value in meta:
            yield "usermeta", (em.new_id("usermeta"), uid, key, value)


def _terms() -> Iterator[tuple[str, Row]]:
    """wp_terms rows (wp_insert_term(): slug from sanitize_title of the decoded name)."""
    for term_id, name, _tax, _parent, _desc in TERMS:
        yield "terms", (term_id, name, sanitize_title(name.replace("&amp;", "&")), 0)
    yield "termmeta", (1, 5, "rank_math_robots", php_serialize(["index", "follow"]))


def _term_taxonomy(em: Emitter) -> Iterator[tuple[str, Row]]:
    """wp_term_taxonomy rows with the counts WordPress maintains (written last)."""
    for term_id, _name, taxonomy, parent, description in TERMS:
        yield "term_taxonomy", (term_id, term_id, taxonomy, description, parent,
                                em.counts[term_id])


def _options(em: Emitter, names: Iterator[tuple[str, str, str]]) -> Iterator[tuple[str, Row]]:
    """wp_options rows."""
    for name, value, autoload in names:
        yield "options", (em.new_id("options"), name, value, autoload)


def _comment(em: Emitter) -> Iterator[tuple[str, Row]]:
    """The comment wp_install_defaults() writes on "Hello world!"."""
    gmt, local = mysql_date(em.install), em.local(em.install)
    yield "comments", (1, 1, "A WordPress Commenter", "wapuu@wordpress.example",
                       "https://wordpress.org/", "", local, gmt, COMMENT_CONTENT, 0, "1", "",
                       "comment", 0, 0)


def generate(spec: DemoSpec) -> Iterator[tuple[str, Row]]:
    """Stream every row of the demo database as (table without prefix, row tuple)."""
    from wpsitemaps.demo_pages import events
    from wpsitemaps.demo_pages import install_posts
    from wpsitemaps.demo_pages import pages
    from wpsitemaps.demo_posts import posts

    if spec.size < 1:
        raise ValueError("size must be at least 1 (the install's 'Hello world!')")
    em = Emitter(spec)
    yield from _options(em, core_options(spec))
    yield from _users(em)
    yield from _terms()
    yield from install_posts(em)
    yield from _comment(em)
    yield from posts(em)
    yield from events(em)
    yield from pages(em)
    yield from _options(em, iter([
        ("sticky_posts", php_serialize([em.sticky] if em.sticky else []), "yes"),
        ("demo_generated_at", str(spec.now), "yes"),
        ("demo_generator", php_serialize({"size": spec.size, "seed": spec.seed,
                                          "now": spec.now}), "yes"),
    ]))
    yield from _term_taxonomy(em)


def table_rows(spec: DemoSpec, table: str) -> Iterator[Row]:
    """The rows of one table (a filter over generate(); each call regenerates)."""
    if table not in COLUMNS:
        raise KeyError(table)
    return (row for name, row in generate(spec) if name == table)
