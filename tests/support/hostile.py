"""A WordPress site full of hostile data, for tests that every response stays valid.

Control characters XML forbids, `]]>`, markup, 5,000-character slugs and URLs, script and data
URLs as image sources, corrupt PHP-serialized values, out-of-range and non-ASCII numbers, zero
dates and duplicate rows: everything a decade-old database or a careless plugin may hold.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.support.builder import ZERO
from tests.support.builder import Site

CTRL = "\x00\x01\x08\x0b\x0c\x1b\x7f\ufffe\uffff"
NASTY = f"a{CTRL}]]><b>&amp;&lt;\"'</b>"
LONG = "x" * 5000
HUGE_ID = "9" * 25
# Substrings that must never reach a sitemap.
FORBIDDEN_OUTPUT = ("]]>", "<b>", "<script", "<h1")
# A normal post, to show that the hostile rows did not take the good ones down with them.
GOOD_SLUG = "good-post"

BAD_SERIALIZED = ('a:2:{s:3:"abc";', 'a:1:{s:99:"x";s:1:"y";}', "O:8:\"stdClass\":0:{}",
                  "s:-1:\"\";", "a:1:{i:0;" + "a:1:{i:0;" * 500 + "}" * 500 + "}", "b:2;")


def _sources() -> list[str]:
    """Image sources a hostile post content may hold."""
    return ["javascript:alert(1)", "data:image/png;base64,AAAA", "JaVaScRiPt:alert(1)",
            " javascript:x", f"/wp-content/uploads/{LONG}.jpg", f"/wp-content/uploads/{NASTY}.jpg",
            "/wp-content/uploads/]]>.jpg", "http://[::1", "//", "vbscript:x", "file:///etc/passwd",
            "/wp-content/uploads/ok\x00.jpg"]


def hostile_content() -> str:
    """post_content with hostile images, galleries, shortcodes and markup."""
    imgs = "".join(f'<img src="{s}" class="wp-image-{n}">' for n, s in enumerate(_sources()))
    return (f"<p>{NASTY}</p>{imgs}<img src=\"/x.jpg\" class=\"wp-image-{HUGE_ID}\">"
            f"[gallery ids=\"{HUGE_ID},-1,x,²\"]<!-- wp:gallery {{\"ids\":[{HUGE_ID}]}} -->"
            f"<![CDATA[ {NASTY} ]]><script>alert(1)</script><!--nextpage-->{CTRL}")


def _hostile_posts(site: Site, terms: tuple[int, ...], author: int) -> None:
    """Posts and pages whose every text field is hostile."""
    content = hostile_content()
    for n, slug in enumerate([NASTY, LONG, "]]>", "<b>html</b>", f"ctrl-{CTRL}", "%zz%",
                              "javascript:alert(1)", "..%2f..%2f", "/", " ", "日本語"]):
        site.post(f"{NASTY} title {n}", name=slug, terms=terms, author=author, content=content,
                  excerpt=NASTY, meta={"_thumbnail_id": HUGE_ID})
        site.post(f"<h1>{NASTY}</h1>", post_type="page", name=slug, content=content)
    odd_meta = {"_thumbnail_id": "²", "_yoast_wpseo_primary_category": "²",
                "_yoast_wpseo_canonical": NASTY, "_yoast_wpseo_meta-robots-noindex": NASTY,
                "rank_math_robots": BAD_SERIALIZED[0], "rank_math_canonical_url": LONG,
                "_wp_attachment_metadata": BAD_SERIALIZED[1]}
    site.post("Odd meta", name="odd-meta", terms=terms, meta=odd_meta, content=content)
    zero = site.post("Zero dates", name="zero-dates", terms=terms)
    row = site.rows["posts"][-1]
    assert row["ID"] == zero
    row.update(post_date_gmt=ZERO, post_modified_gmt=ZERO, post_date=ZERO, post_modified=ZERO)
    bad_dates = site.post("Bad dates", name="bad-dates", terms=terms)
    site.rows["posts"][-1].update(post_date_gmt="2026-13-45 99:99:99",
                                  post_modified_gmt="garbage", post_date="")
    assert site.rows["posts"][-1]["ID"] == bad_dates


def _deep_pages(site: Site) -> None:
    """Twelve nested pages with 190-character slugs: a URI far past 2,048 characters."""
    parent = 0
    for n in range(12):
        parent = site.post(f"Deep {n}", post_type="page", name=f"{n:02d}" + "d" * 188,
                           parent=parent)


def _hostile_attachments(site: Site, parent: int) -> None:
    """Attachments with hostile files and corrupt metadata."""
    for n, file in enumerate([f"2026/01/{NASTY}.jpg", f"2026/01/{LONG}.jpg", "javascript:x",
                              "data:image/png;base64,AAAA", "", "/etc/passwd", "../../x.jpg"]):
        aid = site.attachment(file, parent=parent)
        site.postmeta(aid, "_wp_attachment_metadata", BAD_SERIALIZED[n % len(BAD_SERIALIZED)])
    site.postmeta(parent, "_thumbnail_id", str(aid))
    site.postmeta(parent, "_thumbnail_id", HUGE_ID)  # the same key twice


def _hostile_options(site: Site) -> None:
    """Corrupt serialized options and hostile bases."""
    for name in ("wpseo_titles", "wpseo_taxonomy_meta", "rewrite_rules", "active_plugins",
                 "wpseo", "sidebars_widgets"):
        site.options[name] = BAD_SERIALIZED[len(name) % len(BAD_SERIALIZED)]
    site.options["category_base"] = NASTY
    site.options["tag_base"] = LONG
    site.options["page_on_front"] = HUGE_ID
    site.options["page_for_posts"] = "²"
    site.options["default_category"] = "-5"
    site.options["upload_url_path"] = NASTY


def hostile_site() -> Site:
    """The whole hostile site: posts, pages, terms, users, attachments, options, duplicates."""
    site = Site(permalink_structure="/%category%/%author%/%postname%/")
    cat = site.term(NASTY, "category", slug=NASTY)
    child = site.term(LONG, "category", slug=LONG, parent=cat)
    tag = site.term("<script>alert(1)</script>", "post_tag", slug="]]>")
    loop_a = site.term("Loop A", "category", slug="loop-a")
    loop_b = site.term("Loop B", "category", slug="loop-b", parent=loop_a)
    for tt in site.rows["term_taxonomy"]:
        if tt["term_taxonomy_id"] == loop_a:
            tt["parent"] = loop_b  # a parent cycle, which WordPress itself cannot write
    site.termmeta(cat, "rank_math_robots", BAD_SERIALIZED[0])
    author = site.user(f"evil{CTRL}", display_name=NASTY)
    site.rows["users"][-1]["user_nicename"] = NASTY
    long_author = site.user("long", display_name=LONG)
    site.rows["users"][-1]["user_nicename"] = LONG
    site.usermeta(author, "wpseo_noindex_author", BAD_SERIALIZED[2])
    terms = (cat, child, tag, loop_b)
    _hostile_posts(site, terms, author)
    site.post("Long author", name="long-author", author=long_author, terms=(cat,))
    good = site.post("Good post", name=GOOD_SLUG, terms=(cat,))
    site.post("Same slug", name=GOOD_SLUG, terms=(cat,))  # duplicate slug, as imports leave
    site.term("News again", "category", slug=NASTY)  # duplicate term slug
    _deep_pages(site)
    site.postmeta(good, "_yoast_wpseo_meta-robots-noindex", "0")
    site.postmeta(good, "_yoast_wpseo_meta-robots-noindex", "0")  # duplicate meta
    _hostile_attachments(site, good)
    _hostile_options(site)
    return site


# VARCHAR sizes of WordPress's MySQL schema; strict mode refuses longer values.
MYSQL_SIZES = {"posts": {"post_name": 200, "guid": 255}, "terms": {"name": 200, "slug": 200},
               "users": {"user_nicename": 50, "display_name": 250, "user_login": 60}}


def clip_for_mysql(site: Site) -> Site:
    """Cut VARCHAR values to MySQL's sizes (SQLite keeps whatever it is given)."""
    for table, sizes in MYSQL_SIZES.items():
        for row in site.rows[table]:
            for column, size in sizes.items():
                row[column] = row[column][:size]
    for row in site.rows["posts"]:
        for column in ("post_date", "post_date_gmt", "post_modified", "post_modified_gmt"):
            if not row[column][:4].isdigit() or row[column][5:7] > "12":
                row[column] = ZERO  # MySQL refuses impossible dates; the zero date it takes
    return site


# Invalid UTF-8 can only be stored where the database does not check it (SQLite).
INVALID_UTF8 = b"bad-\xff\xfe\xc3(\xed\xa0\x80-\x80"


def poison_sqlite(path: Path) -> None:
    """Overwrite text columns with invalid UTF-8 bytes stored as TEXT."""
    con = sqlite3.connect(path)
    updates = [
        ("wp_posts", "post_name", "post_name = 'odd-meta'"),
        ("wp_posts", "post_title", "1"),
        ("wp_posts", "post_content", "post_type = 'page'"),
        ("wp_posts", "guid", "post_type = 'attachment'"),
        ("wp_terms", "slug", "term_id = 1"),
        ("wp_terms", "name", "1"),
        ("wp_users", "user_nicename", "ID = 1"),
        ("wp_users", "display_name", "1"),
        ("wp_postmeta", "meta_value", "meta_key = '_wp_attached_file'"),
        ("wp_options", "option_value", "option_name IN ('blogname', 'upload_path')"),
    ]
    for table, column, where in updates:
        con.execute(f"UPDATE {table} SET {column} = CAST(? AS TEXT) || {column} WHERE {where}",
                    (INVALID_UTF8,))
    con.execute("INSERT INTO wp_postmeta (post_id, meta_key, meta_value) "
                "SELECT ID, '_thumbnail_id', CAST(? AS TEXT) FROM wp_posts", (b"\xff1",))
    con.commit()
    con.close()
