"""Real WordPress 6.1 links odd slugs to somewhere else, and the service leaves them out.

Oracle variant a (written by WordPress, tests/oracle/README.md) gets, by SQL as an import
would write them, a post without slug, slugs with dot segments and '#', an author without
nicename and a category without slug; tests/oracle/unlinkable.php asks WordPress for their
URLs. Those URLs are the home URL, '/author/', '/topics/' or paths a client resolves
elsewhere, so none reaches its object; the service lists none of them and `check` names them.
An unknown structure tag stays in every post's URL as it is (opt-in lane, PHP and MariaDB).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import require_mariadb
from tests.support import oracle_data
from tests.support import wpdb
from tests.support.sitemaps import assert_valid
from tests.support.sitemaps import fetch_all
from tests.support.sitemaps import parse_urlset
from wpsitemaps import create_app
from wpsitemaps.check import run_check
from wpsitemaps.config import load_settings

pytestmark = [
    pytest.mark.wordpress,
    pytest.mark.mariadb,
    pytest.mark.skipif(os.environ.get("WPSITEMAPS_WORDPRESS_TESTS") != "1",
                       reason="runs PHP and WordPress; set WPSITEMAPS_WORDPRESS_TESTS=1"),
]
LINKS_PHP = Path(__file__).resolve().parent / "oracle" / "unlinkable.php"
HOME = "https://a.example.test"


@pytest.fixture(scope="module")
def odd_db() -> Iterator[tuple[str, dict[str, int]]]:
    """Variant a in MariaDB with /%postname%/ and one odd object of each kind."""
    if not (shutil.which("php") and Path("/usr/share/wordpress/wp-settings.php").exists()):
        pytest.fail("WPSITEMAPS_WORDPRESS_TESTS=1 but php or /usr/share/wordpress is missing")
    require_mariadb()
    name = wpdb.create_mariadb("unlinkable", oracle_data.dump("a"))
    try:
        with wpdb.root_conn(name) as con, con.cursor() as cur:
            cur.execute("SELECT ID FROM wp_posts WHERE post_type = 'post' AND "
                        "post_status = 'publish' AND post_password = '' ORDER BY ID LIMIT 3")
            posts = [int(r[0]) for r in cur.fetchall()]
            cur.execute("SELECT ID FROM wp_posts WHERE post_type = 'page' AND "
                        "post_status = 'publish' AND post_parent = 0 ORDER BY ID LIMIT 1")
            page = int(cur.fetchone()[0])
            cur.execute("SELECT DISTINCT post_author FROM wp_posts WHERE post_type = 'post' "
                        "AND post_status = 'publish' ORDER BY post_author LIMIT 1")
            author = int(cur.fetchone()[0])
            cur.execute("SELECT t.term_id FROM wp_terms t JOIN wp_term_taxonomy tt USING "
                        "(term_id) WHERE tt.taxonomy = 'category' AND tt.count > 0 "
                        "AND tt.parent = 0 ORDER BY t.term_id LIMIT 1")
            category = int(cur.fetchone()[0])
            for pid, slug in zip(posts, ("", "a/../b", "x#y"), strict=True):
                cur.execute("UPDATE wp_posts SET post_name = %s WHERE ID = %s", (slug, pid))
            cur.execute("UPDATE wp_posts SET post_name = '..' WHERE ID = %s", (page,))
            cur.execute("UPDATE wp_users SET user_nicename = '' WHERE ID = %s", (author,))
            cur.execute("UPDATE wp_terms SET slug = '' WHERE term_id = %s", (category,))
            set_structure(cur, "/%postname%/")
            con.commit()
        yield name, {"empty": posts[0], "dots": posts[1], "hash": posts[2], "page": page,
                     "author": author, "category": category}
    finally:
        wpdb.drop_mariadb(name)


def set_structure(cur: Any, structure: str) -> None:
    """permalink_structure as the settings screen stores it (rules are not read for links)."""
    cur.execute("UPDATE wp_options SET option_value = %s WHERE option_name = "
                "'permalink_structure'", (structure,))


def wordpress_links(name: str) -> dict[str, Any]:
    """What unlinkable.php prints: WordPress's own URLs for the database."""
    proc = subprocess.run(["php", str(LINKS_PHP), name, "wp_", "a.example.test"],
                          capture_output=True, text=True, check=True)
    return dict(json.loads(proc.stdout))


def served_locs(name: str) -> list[str]:
    """Every <loc> the service lists for the database but the sitemaps' first links."""
    app = create_app({"TESTING": True, "DATABASE_URL": wpdb.mariadb_url(name),
                      **oracle_data.site_config("a")})
    locs: list[str] = []
    for path, body in fetch_all(app.test_client()).items():
        assert_valid(body, path)
        if path != "/sitemap_index.xml":
            found = [url.loc for url in parse_urlset(body)]
            locs.extend(found[1:] if path in ("/post-sitemap.xml", "/page-sitemap.xml")
                        else found)
    return locs


def test_wordpress_links_odd_slugs_elsewhere(odd_db: tuple[str, dict[str, int]]) -> None:
    """get_permalink() & co. give the home URL, '/author/', the bare category base, and
    paths with dot segments or a fragment for the odd objects."""
    name, ids = odd_db
    wp = wordpress_links(name)
    assert wp["home"] == f"{HOME}/"
    assert wp["posts"][str(ids["empty"])] == f"{HOME}/"
    assert wp["posts"][str(ids["dots"])] == f"{HOME}/a/../b/"
    assert wp["posts"][str(ids["hash"])] == f"{HOME}/x#y/"
    assert wp["posts"][str(ids["page"])] == f"{HOME}/../"
    assert wp["users"][str(ids["author"])] == f"{HOME}/author/"
    assert wp["terms"][str(ids["category"])] == f"{HOME}/topics/"


def test_service_lists_none_of_them(odd_db: tuple[str, dict[str, int]]) -> None:
    """The sitemaps list every other WordPress URL of posts, pages, authors and categories,
    and none of the odd objects' URLs."""
    name, ids = odd_db
    wp = wordpress_links(name)
    locs = set(served_locs(name))
    odd = {wp["posts"][str(ids[k])] for k in ("empty", "dots", "hash", "page")}
    odd |= {wp["users"][str(ids["author"])], wp["terms"][str(ids["category"])]}
    assert not odd & locs
    others = {url for url in wp["posts"].values() if url not in odd}
    assert others and others <= locs


def test_check_names_them(odd_db: tuple[str, dict[str, int]]) -> None:
    """`wpsitemaps check` prints a line for each kind of odd object, with its ID."""
    name, ids = odd_db
    lines: list[str] = []
    env = {"WPSITEMAPS_DATABASE_URL": wpdb.mariadb_url(name)}
    assert run_check(load_settings(environ=env), lines.append) == 0
    text = "\n".join(lines)
    for kind, problem, key in (("post", "empty slug", "empty"),
                               ("post", "dot segment in slug", "dots"),
                               ("post", "'#' in slug", "hash"),
                               ("page", "dot segment in slug", "page"),
                               ("category", "empty slug", "category"),
                               ("author", "empty slug", "author")):
        assert (f"finding       {kind}: 1 left out of the sitemaps, no URL reaches it "
                f"({problem}); e.g. ID {ids[key]}; fix it in WordPress" in text), text


def test_unknown_tag_stays_in_wordpress_urls(odd_db: tuple[str, dict[str, int]]) -> None:
    """WordPress leaves '%bogus%' in every post's URL; the service lists no post then."""
    name, ids = odd_db
    with wpdb.root_conn(name) as con, con.cursor() as cur:
        set_structure(cur, "/%bogus%/%postname%/")
        con.commit()
    try:
        wp = wordpress_links(name)
        locs = served_locs(name)
    finally:
        with wpdb.root_conn(name) as con, con.cursor() as cur:
            set_structure(cur, "/%postname%/")
            con.commit()
    post_urls = [url for pid, url in wp["posts"].items() if "/%bogus%/" in url]
    assert len(post_urls) >= 3 and str(ids["hash"]) in wp["posts"]
    assert not [loc for loc in locs if "bogus" in loc]
