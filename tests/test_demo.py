"""The demo generator: deterministic, shaped like peer-small's rows, hidden rows marked."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
import tracemalloc
from collections import Counter
from datetime import UTC
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from tests.conftest import require_mariadb
from tests.support import wpdb
from wpsitemaps.demo.generate import generate
from wpsitemaps.demo.model import COLUMNS
from wpsitemaps.demo.model import DemoSpec
from wpsitemaps.demo.wp import sanitize_title
from wpsitemaps.demo.write import batches
from wpsitemaps.demo.write import mysql_sql
from wpsitemaps.demo.write import write_sqlite
from wpsitemaps.wordpress.phpdata import as_dict
from wpsitemaps.wordpress.phpdata import unserialize

SIZE = 300
NOW = 1795969443
DATE_RE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$")
PUBLIC_TYPES = ("post", "page", "event")
NOINDEX = "_yoast_wpseo_meta-robots-noindex"


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> sqlite3.Connection:
    """The default-size demo database in SQLite."""
    path = write_sqlite(tmp_path_factory.mktemp("demo") / "demo.sqlite", SIZE, 7, now=NOW)
    return sqlite3.connect(path)


@pytest.fixture(scope="module")
def peer_db(peer_sqlite_url: str) -> sqlite3.Connection:
    """peer-small loaded by the shared loader."""
    return sqlite3.connect(peer_sqlite_url.removeprefix("sqlite:///"))


def public_ids(con: sqlite3.Connection) -> set[int]:
    """IDs of rows a sitemap may list: published, no password, not noindexed by Yoast (the
    active plugin; Rank Math's and AIOSEO 3's leftover noindex meta do not count, issue #24),
    no canonical override pointing away from the site."""
    rows = con.execute(
        "SELECT ID FROM wp_posts WHERE post_type IN ('post','page','event') "
        "AND post_status = 'publish' AND post_password = '' AND ID NOT IN "
        f"(SELECT post_id FROM wp_postmeta WHERE (meta_key = '{NOINDEX}' AND meta_value = '1')"
        " OR (meta_key = '_yoast_wpseo_canonical'"
        "     AND meta_value NOT LIKE 'http://127.0.0.1:8000/%'))")
    return {r[0] for r in rows}


def leftovers(con: sqlite3.Connection) -> int:
    """Published posts whose only noindex is Rank Math's or AIOSEO 3's (not active)."""
    row = con.execute("SELECT COUNT(DISTINCT post_id) FROM wp_postmeta WHERE "
                      "(meta_key = 'rank_math_robots' AND meta_value LIKE '%noindex%') OR "
                      "(meta_key = '_aioseop_noindex' AND meta_value = 'on')").fetchone()
    return int(row[0])


def metadata(con: sqlite3.Connection, mime: str) -> list[dict[Any, Any]]:
    """Parsed _wp_attachment_metadata of the attachments of one MIME type."""
    rows = con.execute("SELECT m.meta_value FROM wp_postmeta m JOIN wp_posts p ON p.ID = "
                       "m.post_id WHERE m.meta_key = '_wp_attachment_metadata' "
                       "AND p.post_mime_type = ?", (mime,))
    return [as_dict(unserialize(r[0])) for r in rows]


def test_same_seed_gives_identical_database_bytes(tmp_path: Path) -> None:
    """Two runs with the same size, seed and clock write byte-identical SQLite files."""
    a = write_sqlite(tmp_path / "a.sqlite", 120, 42, now=NOW).read_bytes()
    b = write_sqlite(tmp_path / "b.sqlite", 120, 42, now=NOW).read_bytes()
    assert a == b


def test_other_seed_gives_other_rows() -> None:
    """A different seed changes the content."""
    a = list(generate(DemoSpec(size=50, seed=1, now=NOW)))
    b = list(generate(DemoSpec(size=50, seed=2, now=NOW)))
    assert a != b


def test_tables_and_columns_equal_peer_small(demo_db: sqlite3.Connection,
                                             peer_db: sqlite3.Connection) -> None:
    """Every table has peer-small's columns in peer-small's order."""
    for table in COLUMNS:
        ours = [r[1] for r in demo_db.execute(f"PRAGMA table_info(wp_{table})")]
        theirs = [r[1] for r in peer_db.execute(f"PRAGMA table_info(wp_{table})")]
        assert ours == theirs == list(COLUMNS[table]), table


def test_no_nulls_where_peer_small_has_none(demo_db: sqlite3.Connection) -> None:
    """No column of any generated row is NULL (WordPress writes '' or 0 instead)."""
    for table, cols in COLUMNS.items():
        where = " OR ".join(f'"{c}" IS NULL' for c in cols)
        assert demo_db.execute(f"SELECT COUNT(*) FROM wp_{table} WHERE {where}").fetchone() \
            == (0,), table


def test_dates_are_mysql_datetimes_zero_only_for_floating_statuses(
        demo_db: sqlite3.Connection) -> None:
    """Dates look like MySQL DATETIMEs; only drafts, pending and auto-drafts have zero GMT."""
    rows = demo_db.execute("SELECT ID, post_status, post_date, post_date_gmt, post_modified, "
                           "post_modified_gmt FROM wp_posts").fetchall()
    for pid, status, *dates in rows:
        assert all(DATE_RE.match(d) for d in dates)
        if pid == 3:
            continue  # wp_install_defaults() gives its draft privacy page real dates
        floating = status in ("draft", "pending", "auto-draft")
        assert (dates[1] == "0000-00-00 00:00:00") == floating, (status, dates)


def test_local_dates_are_berlin_time_of_gmt_dates(demo_db: sqlite3.Connection) -> None:
    """post_date is post_date_gmt in Europe/Berlin, as WordPress stores it."""
    berlin = ZoneInfo("Europe/Berlin")
    rows = demo_db.execute("SELECT post_date, post_date_gmt FROM wp_posts "
                           "WHERE post_date_gmt != '0000-00-00 00:00:00'").fetchall()
    for local, gmt in rows:
        moment = datetime.fromisoformat(gmt).replace(tzinfo=UTC).astimezone(berlin)
        assert moment.strftime("%Y-%m-%d %H:%M:%S") == local


def test_image_metadata_has_wordpress_keys(demo_db: sqlite3.Connection,
                                           peer_db: sqlite3.Connection) -> None:
    """Image metadata parses and uses exactly the keys peer-small's images use."""
    peer = metadata(peer_db, "image/jpeg")
    ours = metadata(demo_db, "image/jpeg")
    assert ours
    top = {frozenset(m) for m in peer}
    size_keys = {frozenset(s) for m in peer for s in m["sizes"].values()}
    meta_keys = {frozenset(m["image_meta"]) for m in peer}
    for m in ours:
        assert frozenset(m) in top
        assert {frozenset(s) for s in m["sizes"].values()} <= size_keys
        assert frozenset(m["image_meta"]) in meta_keys


def test_large_size_is_1024x683_for_landscape_uploads(demo_db: sqlite3.Connection) -> None:
    """A 1200x800 upload gets WordPress's -1024x683 'large' file."""
    sizes = [m["sizes"]["large"] for m in metadata(demo_db, "image/jpeg")
             if (m["width"], m["height"]) == (1200, 800)]
    assert sizes and all(s["file"].endswith("-1024x683.jpg") for s in sizes)


def test_video_metadata_has_wordpress_keys(demo_db: sqlite3.Connection,
                                           peer_db: sqlite3.Connection) -> None:
    """mp4 metadata parses and has peer-small's keys, including length/width/height."""
    peer = {frozenset(m) for m in metadata(peer_db, "video/mp4")}
    ours = metadata(demo_db, "video/mp4")
    assert ours
    for m in ours:
        assert frozenset(m) in peer
        assert m["length"] > 0 and m["width"] > 0 and m["height"] > 0


def test_attached_file_matches_guid(demo_db: sqlite3.Connection) -> None:
    """_wp_attached_file is the guid's path below uploads/ (or its -scaled copy)."""
    rows = demo_db.execute("SELECT p.guid, m.meta_value FROM wp_posts p JOIN wp_postmeta m "
                           "ON m.post_id = p.ID AND m.meta_key = '_wp_attached_file'").fetchall()
    assert rows
    for guid, file in rows:
        original = guid.split("/wp-content/uploads/", 1)[1]
        assert file in (original, original.replace(".jpg", "-scaled.jpg"))


def test_counts_by_type_and_status(demo_db: sqlite3.Connection) -> None:
    """`size` public posts plus those with leftover meta of plugins the site no longer runs
    (listed, issue #24), and every hidden kind of post is present."""
    counts = Counter(demo_db.execute("SELECT post_type, post_status FROM wp_posts"))
    public_posts = public_ids(demo_db) & {r[0] for r in demo_db.execute(
        "SELECT ID FROM wp_posts WHERE post_type = 'post'")}
    assert len(public_posts) == SIZE + leftovers(demo_db) and leftovers(demo_db) >= 2
    for status in ("draft", "pending", "private", "future", "trash", "auto-draft"):
        assert counts["post", status] >= 2, status
    assert counts["page", "publish"] >= 10 and counts["event", "publish"] >= 4
    editable = sum(n for (t, s), n in counts.items()
                   if t in PUBLIC_TYPES and s != "auto-draft")
    assert counts["revision", "inherit"] == editable - 3  # install rows have none


def test_password_and_noindex_published_posts_exist(demo_db: sqlite3.Connection) -> None:
    """Some published posts are password-protected and some are Yoast noindex."""
    password = demo_db.execute("SELECT COUNT(*) FROM wp_posts WHERE post_status = 'publish' "
                               "AND post_password != ''").fetchone()[0]
    noindex = demo_db.execute(f"SELECT COUNT(*) FROM wp_postmeta WHERE meta_key = '{NOINDEX}' "
                              "AND meta_value = '1'").fetchone()[0]
    assert password >= 2 and noindex >= 2


def test_seo_plugin_meta_comes_in_realistic_proportions(demo_db: sqlite3.Connection) -> None:
    """About 1 in 8 public posts has a self-canonical override; foreign canonicals and Rank
    Math and AIOSEO noindex posts exist too (each a hidden kind)."""
    def count(where: str) -> int:
        return int(demo_db.execute(f"SELECT COUNT(*) FROM wp_postmeta WHERE {where}")
                   .fetchone()[0])
    own = count("meta_key IN ('_yoast_wpseo_canonical', 'rank_math_canonical_url') "
                "AND meta_value LIKE 'http://127.0.0.1:8000/%'")
    assert SIZE * 0.12 <= own <= SIZE * 0.2
    assert count("meta_key = 'rank_math_canonical_url'") >= 3
    assert count("meta_key = '_yoast_wpseo_canonical' AND meta_value LIKE 'https://syndi%'") >= 2
    assert count("meta_key = 'rank_math_robots' AND meta_value LIKE '%noindex%'") >= 2
    assert count("meta_key = '_aioseop_noindex' AND meta_value = 'on'") >= 2


def test_self_canonical_overrides_are_the_posts_own_urls(demo_db: sqlite3.Connection) -> None:
    """Each canonical override on the site is its post's /%postname%/ permalink."""
    rows = demo_db.execute(
        "SELECT p.post_name, m.meta_value FROM wp_postmeta m JOIN wp_posts p ON p.ID = "
        "m.post_id WHERE m.meta_key IN ('_yoast_wpseo_canonical', 'rank_math_canonical_url') "
        "AND m.meta_value LIKE 'http://127.0.0.1:8000/%'").fetchall()
    assert rows and all(url == f"http://127.0.0.1:8000/{name}/" for name, url in rows)


def test_every_non_public_row_is_marked(demo_db: sqlite3.Connection) -> None:
    """Each non-public post, page, event, revision and auto-draft has DEMO-HIDDEN in its title."""
    public = public_ids(demo_db)
    rows = demo_db.execute("SELECT ID, post_title FROM wp_posts "
                           "WHERE post_type != 'attachment'").fetchall()
    hidden = [(i, t) for i, t in rows if i not in public]
    assert len(hidden) > SIZE
    assert all("DEMO-HIDDEN" in t for _, t in hidden)


def test_no_public_row_is_marked(demo_db: sqlite3.Connection) -> None:
    """No public row has the marker in its title, slug or content."""
    public = public_ids(demo_db)
    rows = demo_db.execute("SELECT ID, post_title || post_name || post_content FROM wp_posts")
    assert not [i for i, text in rows if i in public and "demo-hidden" in text.lower()]


def test_slugs_are_made_like_wordpress(demo_db: sqlite3.Connection) -> None:
    """Slugs follow sanitize_title(); drafts have none; trash and revisions are suffixed."""
    rows = demo_db.execute("SELECT ID, post_title, post_name, post_status, post_type, "
                           "post_parent FROM wp_posts").fetchall()
    for pid, title, name, status, ptype, parent in rows:
        if ptype == "revision":
            assert name == f"{parent}-revision-v1"
        elif pid == 3:
            assert name == "privacy-policy"  # wp_install_defaults() names it
        elif status in ("draft", "pending", "auto-draft"):
            assert name == ""
        elif status == "trash":
            assert name == sanitize_title(title) + "__trashed"
        else:
            assert name == sanitize_title(title), (pid, title)
    assert any(n.startswith("%e5%8c%97") for _, _, n, *_ in rows)


def test_sanitize_title_reproduces_peer_small_slugs(peer_db: sqlite3.Connection) -> None:
    """sanitize_title() gives WordPress's slug for every peer-small title (not renamed)."""
    rows = peer_db.execute("SELECT post_title, post_name FROM wp_posts WHERE post_title != '' "
                           "AND post_name != '' AND post_status NOT IN ('inherit', 'trash') "
                           "AND post_name NOT LIKE '%-renamed'").fetchall()
    assert len(rows) > 50
    assert [(t, n) for t, n in rows if sanitize_title(t) != n] == []


def test_term_counts_are_published_relationships(demo_db: sqlite3.Connection) -> None:
    """term_taxonomy.count is the number of published objects in the term."""
    rows = demo_db.execute(
        "SELECT tt.term_taxonomy_id, tt.count, (SELECT COUNT(*) FROM wp_term_relationships r "
        "JOIN wp_posts p ON p.ID = r.object_id WHERE r.term_taxonomy_id = tt.term_taxonomy_id "
        "AND p.post_status = 'publish') FROM wp_term_taxonomy tt").fetchall()
    assert all(count == real for _, count, real in rows)
    assert sum(count for _, count, _ in rows) > SIZE


def test_recent_posts_fall_in_the_news_window(demo_db: sqlite3.Connection) -> None:
    """Six public posts are dated within the 48 hours before demo_generated_at."""
    now = int(demo_db.execute("SELECT option_value FROM wp_options "
                              "WHERE option_name = 'demo_generated_at'").fetchone()[0])
    start = datetime.fromtimestamp(now - 48 * 3600, UTC).strftime("%Y-%m-%d %H:%M:%S")
    rows = demo_db.execute("SELECT ID FROM wp_posts WHERE post_type = 'post' "
                           "AND post_date_gmt >= ?", (start,)).fetchall()
    assert now == NOW
    assert len({r[0] for r in rows} & public_ids(demo_db)) == 6


def test_rewrite_rules_match_peer_small(demo_db: sqlite3.Connection,
                                        peer_db: sqlite3.Connection) -> None:
    """rewrite_rules equal peer-small's, without its non-public peer_internal rules."""
    sql = "SELECT option_value FROM wp_options WHERE option_name = 'rewrite_rules'"
    peer = {k: v for k, v in as_dict(unserialize(peer_db.execute(sql).fetchone()[0])).items()
            if "peer_internal" not in k}
    ours = as_dict(unserialize(demo_db.execute(sql).fetchone()[0]))
    assert list(ours.items()) == list(peer.items())


def test_two_thousand_posts_are_written(tmp_path: Path) -> None:
    """A 2,000-post demo database is written whole (its speed is the benchmark's business,
    bench/: a wall-clock bound here failed on a loaded machine)."""
    path = tmp_path / "big.sqlite"
    write_sqlite(path, 2000, 1, now=NOW)
    con = sqlite3.connect(path)
    published = con.execute("SELECT COUNT(*) FROM wp_posts WHERE post_type = 'post' AND "
                            "post_status = 'publish' AND post_title NOT LIKE '%DEMO-HIDDEN%'"
                            ).fetchone()[0]
    extra = leftovers(con)
    con.close()
    assert published == 2000 + extra


def _peak(size: int) -> int:
    """Peak traced memory while streaming `size` posts through 100-row table buffers."""
    tracemalloc.start()
    for _ in batches(DemoSpec(size=size, now=NOW), rows=100, max_bytes=100_000):
        pass
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def test_memory_stays_flat_in_size() -> None:
    """Ten times more posts do not need noticeably more memory (rows are streamed)."""
    small, big = _peak(100), _peak(1000)
    assert big < small * 1.5


@pytest.mark.mariadb
def test_mysql_text_loads_into_mariadb_with_sqlite_counts(tmp_path: Path) -> None:
    """The INSERT text loads into MariaDB with SQLite's row counts and identical text."""
    require_mariadb()
    name = wpdb.create_mariadb("demo", "".join(mysql_sql(200, 3, now=NOW)))
    try:
        con = sqlite3.connect(write_sqlite(tmp_path / "d.sqlite", 200, 3, now=NOW))
        with wpdb.root_conn(name) as my, my.cursor() as cur:
            for table in COLUMNS:
                cur.execute(f"SELECT COUNT(*) FROM wp_{table}")
                mariadb_count = cur.fetchone()[0]
                sqlite_count = con.execute(f"SELECT COUNT(*) FROM wp_{table}").fetchone()[0]
                assert mariadb_count == sqlite_count, table
            for sql in ("SELECT ID, post_title, post_content, post_name FROM wp_posts "
                        "ORDER BY ID", "SELECT meta_id, meta_value FROM wp_postmeta "
                        "ORDER BY meta_id"):
                cur.execute(sql)
                assert list(cur.fetchall()) == con.execute(sql).fetchall()
    finally:
        wpdb.drop_mariadb(name)


def test_cli_generate_only_writes_the_database(tmp_path: Path) -> None:
    """`wpsitemaps demo --generate-only --db FILE` exits 0 and writes a demo database."""
    db = tmp_path / "cli.sqlite"
    result = subprocess.run([sys.executable, "-m", "wpsitemaps.cli", "demo", "--generate-only",
                             "--size", "40", "--port", "8123", "--db", str(db)],
                            cwd=wpdb.REPO, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    home = sqlite3.connect(db).execute(
        "SELECT option_value FROM wp_options WHERE option_name = 'home'").fetchone()[0]
    assert home == "http://127.0.0.1:8123"
    assert "http://127.0.0.1:8123/sitemap_index.xml" in result.stdout


SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def test_demo_sitemaps_answer_and_never_show_hidden_rows(tmp_path: Path) -> None:
    """The demo's index and every sitemap it lists answer 200 without any DEMO-HIDDEN row."""
    from xml.etree import ElementTree

    from wpsitemaps import create_app
    from wpsitemaps.demo.run import environment

    home = "http://127.0.0.1:8000"
    db = write_sqlite(tmp_path / "demo.sqlite", SIZE, 7, now=NOW, home=home)
    env = environment(db, home, {})
    app = create_app({"TESTING": True, "DATABASE_URL": env["WPSITEMAPS_DATABASE_URL"],
                      "CONFIG": env["WPSITEMAPS_CONFIG"], "HOME_URL": home,
                      "NOW": "option:demo_generated_at"})
    client = app.test_client()
    index = client.get("/sitemap_index.xml")
    assert index.status_code == 200
    locs = [e.text or "" for e in ElementTree.fromstring(index.data).iter(f"{SITEMAP_NS}loc")]
    names = {loc.rsplit("/", 1)[1].split("-sitemap")[0] for loc in locs}
    assert {"post", "page", "event", "category", "post_tag", "genre", "author"} <= names
    urls = 0
    for loc in locs:
        resp = client.get(loc.removeprefix(home))
        assert resp.status_code == 200, loc
        assert "demo-hidden" not in resp.get_data(as_text=True).lower(), loc
        urls += resp.data.count(b"<url>")
    assert urls > SIZE


def test_a_demo_file_of_an_older_generator_is_made_again(tmp_path: Path) -> None:
    """A cached demo file written by a generator of another format is not current (it would
    show rows the current rules treat differently, e.g. DEMO-HIDDEN leftovers now listed)."""
    from wpsitemaps.demo.run import is_current
    from wpsitemaps.demo.wp import php_serialize

    home = "http://127.0.0.1:8000"
    path = write_sqlite(tmp_path / "demo.sqlite", 40, 3, now=NOW, home=home)
    assert is_current(path, 40, 3, home, NOW + 60)
    con = sqlite3.connect(path)
    con.execute("UPDATE wp_options SET option_value = ? WHERE option_name = 'demo_generator'",
                (php_serialize({"size": 40, "seed": 3, "now": NOW}),))
    con.commit()
    con.close()
    assert not is_current(path, 40, 3, home, NOW + 60)
