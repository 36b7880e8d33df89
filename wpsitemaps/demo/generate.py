"""A deterministic generator of a realistic WordPress 6.1 database (`wpsitemaps demo`).

`generate(spec)` streams `(table, row)` pairs, rows being tuples in the column order of
migrations/*/wordpress-6.1-core.sql, in the order WordPress would have written them. Nothing
is collected: memory stays flat whatever `size` (the number of public posts) is, so the
benchmark can pipe a million posts into MariaDB (see demo/write.py for the writers).

Every row that must never reach a sitemap (drafts, private, password-protected, future,
trashed, auto-drafts, revisions, noindexed) carries "DEMO-HIDDEN" in its title.
"""

from __future__ import annotations

from collections.abc import Iterator

from wpsitemaps.demo.content import COMMENT_CONTENT
from wpsitemaps.demo.model import ADMIN
from wpsitemaps.demo.model import COLUMNS
from wpsitemaps.demo.model import FORMAT
from wpsitemaps.demo.model import TERMS
from wpsitemaps.demo.model import USERS
from wpsitemaps.demo.model import DemoSpec
from wpsitemaps.demo.model import Emitter
from wpsitemaps.demo.model import Row
from wpsitemaps.demo.options import core_options
from wpsitemaps.demo.pages import events
from wpsitemaps.demo.pages import install_posts
from wpsitemaps.demo.pages import pages
from wpsitemaps.demo.posts import posts
from wpsitemaps.demo.wp import mysql_date
from wpsitemaps.demo.wp import php_serialize
from wpsitemaps.demo.wp import sanitize_title


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
                                          "now": spec.now, "format": FORMAT}), "yes"),
    ]))
    yield from _term_taxonomy(em)


def table_rows(spec: DemoSpec, table: str) -> Iterator[Row]:
    """The rows of one table (a filter over generate(); each call regenerates)."""
    if table not in COLUMNS:
        raise KeyError(table)
    return (row for name, row in generate(spec) if name == table)
