"""The binary log change source (changes/binlog.py) against a real MariaDB started with
`--log-bin --binlog-format=ROW`: rows written as WordPress writes them become the right
Changes within a second or two; the reader resumes where it stopped, and says when its
connection drops and when it is back."""

from __future__ import annotations

import logging
import os
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.conftest import PEER_CONFIG
from tests.support import binlogdb
from tests.support import wpdb
from tests.support.storeclock import with_clock
from tests.support.tcpproxy import TcpProxy
from wpsitemaps import create_app
from wpsitemaps.changes.binlog import BinlogConfig
from wpsitemaps.changes.binlog import BinlogSource
from wpsitemaps.changes.binlog import LocalPosition
from wpsitemaps.changes.binlog import Position
from wpsitemaps.changes.model import Change
from wpsitemaps.changes.tables import SITEMAP_OPTIONS
from wpsitemaps.changes.tables import TableName
from wpsitemaps.changes.tables import parse_table
from wpsitemaps.check import run_check
from wpsitemaps.config import load_settings
from wpsitemaps.serving import changefeed
from wpsitemaps.serving.changefeed import stop_sources
from wpsitemaps.web.context import service_of

IN_CI = os.environ.get("CI") == "true"
SCHEMA = "wpsm_binlog_site"
pytestmark = pytest.mark.mariadb


class Recorder:
    """A ChangeSink that keeps what it was handed."""

    def __init__(self) -> None:
        self.changes: list[Change] = []
        self.sources: set[str] = set()
        self.lock = threading.Lock()

    def apply_changes(self, changes: Sequence[Change], source: str) -> None:
        with self.lock:
            self.changes.extend(changes)
            self.sources.add(source)

    def wait_for(self, want: Callable[[list[Change]], bool], seconds: float = 2.0) -> bool:
        """Whether `want` holds of the changes within `seconds`."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with self.lock:
                if want(list(self.changes)):
                    return True
            time.sleep(0.02)
        return False

    def has(self, *wanted: Change, seconds: float = 2.0) -> bool:
        """Whether every wanted change arrives within `seconds`."""
        return self.wait_for(lambda got: all(w in got for w in wanted), seconds)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[binlogdb.BinlogServer]:
    """A private MariaDB with the binary log on, and a WordPress schema in it."""
    if not binlogdb.available():
        if IN_CI:
            pytest.fail("CI needs mariadbd and mariadb-install-db for the binlog tests")
        pytest.skip("mariadbd is not installed")
    running = binlogdb.start(tmp_path_factory.mktemp("binlog"))
    try:
        binlogdb.create_site(running, SCHEMA)
        binlogdb.create_site(running, SCHEMA, prefix="wp_2_")
        yield running
    finally:
        running.stop()


def config(port: int) -> BinlogConfig:
    """The replica user's view of the test site."""
    return BinlogConfig("127.0.0.1", port, binlogdb.REPL_USER, binlogdb.REPL_PASSWORD,
                        SCHEMA, "wp_", server_id=4000 + os.getpid() % 1000)


def sql(server: binlogdb.BinlogServer, *statements: str) -> None:
    """Run statements as WordPress's wpdb does (autocommit, one at a time)."""
    with server.root(SCHEMA) as con, con.cursor() as cur:
        for statement in statements:
            cur.execute(statement)


@pytest.fixture
def source(server: binlogdb.BinlogServer) -> Iterator[tuple[BinlogSource, Recorder]]:
    """A started source on the server and the sink it hands changes to."""
    sink = Recorder()
    found = BinlogSource(config(server.port), sink, LocalPosition())
    found.start()
    assert wait(lambda: found.health().healthy), found.health()
    yield found, sink
    found.stop()


def wait(cond: Callable[[], bool], seconds: float = 5.0) -> bool:
    """Whether cond() becomes true within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.02)
    return False


POST = ("INSERT INTO wp_posts (ID, post_author, post_date, post_date_gmt, post_content, "
        "post_title, post_excerpt, post_status, post_name, to_ping, pinged, post_modified, "
        "post_modified_gmt, post_content_filtered, post_type) VALUES ({id}, 1, NOW(), "
        "UTC_TIMESTAMP(), '', 'A post', '', '{status}', 'a-post-{id}', '', '', NOW(), "
        "UTC_TIMESTAMP(), '', '{type}')")


def test_posts_published_updated_and_trashed(server: binlogdb.BinlogServer,
                                             source: tuple[BinlogSource, Recorder]) -> None:
    """A draft saved, then published, then trashed (wp_insert_post's and wp_trash_post's
    writes) reports the post with its type each time, within two seconds."""
    src, sink = source
    sql(server, POST.format(id=101, status="draft", type="post"))
    assert sink.has(Change("post", 101, post_type="post"))
    sink.changes.clear()
    sql(server, "UPDATE wp_posts SET post_status = 'publish' WHERE ID = 101")
    assert sink.has(Change("post", 101, post_type="post"))
    sink.changes.clear()
    sql(server, "UPDATE wp_posts SET post_status = 'trash' WHERE ID = 101",
        "INSERT INTO wp_postmeta (post_id, meta_key, meta_value) "
        "VALUES (101, '_wp_trash_meta_status', 'publish')")
    assert sink.has(Change("post", 101, post_type="post"), Change("post", 101))
    assert sink.sources == {"binlog"}
    health = src.health()
    assert health.healthy and health.lag is not None and health.lag < 5
    assert health.detail.startswith("reading binlog.")


def test_revisions_and_edit_locks_are_not_changes(server: binlogdb.BinlogServer,
                                                  source: tuple[BinlogSource, Recorder]
                                                  ) -> None:
    """A revision row and the editor's lock (written on every autosave) change nothing a
    sitemap shows; the meta key Yoast's noindex uses does."""
    _, sink = source
    sql(server, POST.format(id=102, status="inherit", type="revision"),
        "INSERT INTO wp_postmeta (post_id, meta_key, meta_value) "
        "VALUES (7, '_edit_lock', '1764655200:1')",
        "INSERT INTO wp_postmeta (post_id, meta_key, meta_value) "
        "VALUES (8, '_yoast_wpseo_meta-robots-noindex', '1')")
    assert sink.has(Change("post", 8))
    assert Change("post", 7) not in sink.changes
    assert not [c for c in sink.changes if c.object_id == 102]


def test_terms_relationships_users_and_options(server: binlogdb.BinlogServer,
                                               source: tuple[BinlogSource, Recorder]) -> None:
    """wp_insert_term, a rename, wp_set_object_terms, a profile update and update_option:
    each reports what it touched; transients do not."""
    _, sink = source
    sql(server,
        "INSERT INTO wp_terms (term_id, name, slug, term_group) VALUES (30, 'News', 'news', 0)",
        "INSERT INTO wp_term_taxonomy (term_taxonomy_id, term_id, taxonomy, description, "
        "parent, count) VALUES (31, 30, 'category', '', 0, 0)",
        "UPDATE wp_terms SET name = 'Latest', slug = 'latest' WHERE term_id = 30",
        "INSERT INTO wp_term_relationships (object_id, term_taxonomy_id) VALUES (101, 31)",
        "UPDATE wp_term_taxonomy SET count = 1 WHERE term_taxonomy_id = 31",
        "INSERT INTO wp_users (ID, user_login, user_pass, user_nicename, user_email, "
        "user_url, user_registered, user_activation_key, user_status, display_name) "
        "VALUES (5, 'ed', 'x', 'ed', 'ed@example.test', '', NOW(), '', 0, 'Ed')",
        "UPDATE wp_users SET user_nicename = 'edward' WHERE ID = 5",
        "INSERT INTO wp_usermeta (user_id, meta_key, meta_value) "
        "VALUES (5, 'session_tokens', 'a:0:{}')",
        "INSERT INTO wp_options (option_name, option_value, autoload) "
        "VALUES ('permalink_structure', '/%postname%/', 'yes') "
        "ON DUPLICATE KEY UPDATE option_value = VALUES(option_value)",
        "INSERT INTO wp_options (option_name, option_value, autoload) "
        "VALUES ('_transient_doing_cron', '1', 'no')",
        "INSERT INTO wp_options (option_name, option_value, autoload) "
        "VALUES ('some_plugin_hit_counter', '1', 'no')")
    assert sink.has(Change("term", 30), Change("term", 31, taxonomy="category"),
                    Change("post", 101), Change("term", 31), Change("user", 5),
                    Change("option", option="permalink_structure"))
    assert [c.option for c in sink.changes if c.kind == "option"] == ["permalink_structure"]
    assert sink.changes.count(Change("user", 5)) == 2  # the insert and the rename only


def test_network_sites_get_their_blog_id(server: binlogdb.BinlogServer,
                                         source: tuple[BinlogSource, Recorder]) -> None:
    """A row of wp_2_posts is a change of site 2."""
    _, sink = source
    sql(server, POST.format(id=5, status="publish", type="page").replace("wp_posts",
                                                                         "wp_2_posts"))
    assert sink.has(Change("post", 5, post_type="page", blog_id=2))


def test_table_names_map_to_sites() -> None:
    """Prefixes, network numbers and foreign tables."""
    assert parse_table("wp_posts", "wp_") == TableName(1, "posts")
    assert parse_table("wp_12_term_taxonomy", "wp_") == TableName(12, "term_taxonomy")
    assert parse_table("wp_2_users", "wp_") is None  # users are the network's, unnumbered
    assert parse_table("wp_usermeta", "wp_") == TableName(1, "usermeta")
    assert parse_table("wp_comments", "wp_") is None
    assert parse_table("other_posts", "wp_") is None


def test_resumes_from_the_saved_position(server: binlogdb.BinlogServer) -> None:
    """Rows written while the reader was stopped are read when it starts again from the
    position it saved."""
    positions = LocalPosition()
    first = Recorder()
    src = BinlogSource(config(server.port), first, positions)
    src.start()
    assert wait(lambda: src.health().healthy)
    sql(server, POST.format(id=201, status="publish", type="post"))
    assert first.has(Change("post", 201, post_type="post"))
    src.stop()
    assert positions.position is not None
    sql(server, "UPDATE wp_posts SET post_title = 'two' WHERE ID = 201")
    second = Recorder()
    again = BinlogSource(config(server.port), second, positions)
    again.start()
    try:
        assert second.has(Change("post", 201, post_type="post"), seconds=5)
    finally:
        again.stop()


def test_a_dropped_connection_falls_back_and_recovers(
        server: binlogdb.BinlogServer, caplog: pytest.LogCaptureFixture) -> None:
    """Cut the link: unhealthy with one log line; restored: healthy again, one line, and
    the rows written meanwhile arrive."""
    caplog.set_level(logging.INFO, logger="wpsitemaps.changes.binlog")
    sink = Recorder()
    with TcpProxy("127.0.0.1", server.port) as proxy:
        src = BinlogSource(config(proxy.port), sink, LocalPosition())
        src.start()
        try:
            assert wait(lambda: src.health().healthy)
            sql(server, POST.format(id=301, status="publish", type="post"))
            assert sink.has(Change("post", 301, post_type="post"))  # a position to resume at
            proxy.down()
            assert wait(lambda: not src.health().healthy, 15)
            sql(server, "UPDATE wp_posts SET post_title = 'while down' WHERE ID = 301")
            sink.changes.clear()
            time.sleep(2.5)  # a few reconnection attempts
            proxy.up()
            assert wait(lambda: src.health().healthy, 15)
            assert sink.has(Change("post", 301, post_type="post"), seconds=5)
        finally:
            src.stop()
    lines = [r.getMessage() for r in caplog.records]
    assert len([m for m in lines if "fell back" in m]) == 1, lines
    assert len([m for m in lines if "recovered" in m]) == 1, lines


def test_unreachable_server_is_unhealthy(tmp_path: Path) -> None:
    """Nothing listening: the source says it is disconnected, and why."""
    sink = Recorder()
    src = BinlogSource(config(binlogdb.free_port()), sink, LocalPosition())
    src.start()
    try:
        assert wait(lambda: src.health().detail.startswith("disconnected"), 10)
        assert not src.health().healthy
    finally:
        src.stop()


PEER = "wpsm_binlog_peer"


@pytest.fixture(scope="module")
def peer_on_server(server: binlogdb.BinlogServer) -> str:
    """peer-small (written by real WordPress) loaded into the private server."""
    with server.root() as con, con.cursor() as cur:
        cur.execute(f"CREATE DATABASE `{PEER}` CHARACTER SET utf8mb4")
        cur.execute(f"GRANT SELECT ON `{PEER}`.* TO '{binlogdb.REPL_USER}'@'%'")
    client = shutil.which("mariadb") or "mariadb"
    subprocess.run([client, "-h", "127.0.0.1", "-P", str(server.port), "-uroot",
                    "--default-character-set=utf8mb4", PEER],
                   input=wpdb.PEER_SQL.read_bytes(), check=True, capture_output=True)
    return PEER


def test_service_serves_a_change_from_the_log(server: binlogdb.BinlogServer,
                                              peer_on_server: str, tmp_path: Path) -> None:
    """change_source = binlog: a stored page is served without the database while the log
    says nothing changed, and with the new lastmod within seconds of an UPDATE; `check`
    reports the log's settings and when the service last heard from the reader."""
    port = server.port
    config = {"TESTING": True, **PEER_CONFIG, "STORE": str(tmp_path / "pages"),
              "DATABASE_URL": f"mysql+pymysql://root@127.0.0.1:{port}/{PEER}?charset=utf8mb4",
              "CHANGE_SOURCE": "binlog", "BINLOG_SERVER_ID": 5000 + os.getpid() % 1000,
              "BINLOG_URL": f"mysql://{binlogdb.REPL_USER}:{binlogdb.REPL_PASSWORD}"
                            f"@127.0.0.1:{port}/{PEER}"}
    app = create_app(config)
    try:
        service = service_of(app)
        assert wait(lambda: "binlog" in service.change_sources
                    and service.change_sources["binlog"].healthy, 10)
        client = app.test_client()
        clock = with_clock(app)
        before = client.get("/post-sitemap.xml").data
        ledger = service.ledger
        assert ledger is not None
        head = ledger.counters.counters(ledger.key("blog1"), ["content"])
        assert head is not None
        clock.advance(60)
        assert client.get("/post-sitemap.xml").data == before
        sql_in(server, PEER, "UPDATE wp_posts SET post_modified_gmt = '2031-01-02 03:04:05' "
                             "WHERE ID = (SELECT * FROM (SELECT MIN(ID) FROM wp_posts WHERE "
                             "post_type = 'post' AND post_status = 'publish') AS first)")

        def served() -> bool:
            clock.advance(60)
            return b"2031-01-02T03:04:05+00:00" in client.get("/post-sitemap.xml").data

        started = time.monotonic()
        assert wait(served, 5)
        assert time.monotonic() - started < 3
        # The reader moved the ledger (the site check never does): the binlog told it.
        moved = ledger.counters.counters(ledger.key("blog1"), ["content"])
        assert moved is not None and moved["content"] > head["content"]
    finally:
        stop_sources()
    lines: list[str] = []
    assert run_check(load_settings(config), lines.append) == 0
    text = "\n".join(lines)
    assert "changes       events from binlog" in text
    assert re.search(r"  binlog: live, last heard \d+ s ago", text), text
    assert re.search(r"binlog +127\.0\.0\.1:\d+ as wpsm_repl: ok \(.*binlog_format ROW.*"
                     r"log_bin ON; at binlog\.\d+:\d+\)", text), text
    assert "plugin        off (no notify_secret)" in text


def sql_in(server: binlogdb.BinlogServer, database: str, statement: str) -> None:
    """One statement as root in a database of the private server."""
    with server.root(database) as con, con.cursor() as cur:
        cur.execute(statement)


def test_one_reader_per_store(server: binlogdb.BinlogServer, peer_on_server: str,
                              tmp_path: Path) -> None:
    """Two workers on one store: one holds the lease and reads the log, the other does not
    (two readers with one server_id would push each other off the server); both see the
    changes it reads through the shared ledger."""
    port = server.port
    config = {"TESTING": True, **PEER_CONFIG, "STORE": str(tmp_path / "pages"),
              "DATABASE_URL": f"mysql+pymysql://root@127.0.0.1:{port}/{PEER}?charset=utf8mb4",
              "CHANGE_SOURCE": "binlog", "BINLOG_SERVER_ID": 6000 + os.getpid() % 1000,
              "BINLOG_URL": f"mysql://{binlogdb.REPL_USER}:{binlogdb.REPL_PASSWORD}"
                            f"@127.0.0.1:{port}/{PEER}"}
    apps = [create_app(config), create_app(config)]
    try:
        runners = list(changefeed.RUNNERS[-2:])
        assert wait(lambda: any(r.health().detail.startswith("reading") for r in runners), 10)
        time.sleep(1.5)
        reading = [r for r in runners if r.health().detail.startswith("reading")]
        assert len(reading) == 1
        other = next(r for r in runners if r is not reading[0])
        assert other.health().detail == "read by another worker (store lease)"
        # The worker that does not read sees the change through the store's ledger.
        ledger = service_of(apps[runners.index(other)]).ledger
        assert ledger is not None

        def head() -> int:
            found = ledger.counters.counters(ledger.key("blog1"), ["content"])
            return found["content"] if found else -1

        before = head()
        sql_in(server, PEER, "UPDATE wp_options SET option_value = option_value + 1 "
                             "WHERE option_name = 'posts_per_page'")
        assert wait(lambda: head() > before, 3)
    finally:
        stop_sources()


def test_plugin_and_log_agree_on_options() -> None:
    """The companion plugin sends the options the binary log reader reports, no other."""
    php = (wpdb.REPO / "wordpress" / "wpsitemaps-notify.php").read_text(encoding="utf-8")
    found = re.search(r"const WPSITEMAPS_NOTIFY_OPTIONS = array\((.*?)\);", php)
    assert found is not None
    assert tuple(re.findall(r"'([^']+)'", found.group(1))) == SITEMAP_OPTIONS


def test_a_purged_position_starts_at_the_end(server: binlogdb.BinlogServer,
                                             caplog: pytest.LogCaptureFixture) -> None:
    """A saved position the server no longer has (its logs were purged while the service
    was down) is said once; reading goes on from the log's end."""
    caplog.set_level(logging.WARNING, logger="wpsitemaps.changes.binlog")
    positions = LocalPosition()
    positions.save(Position("binlog.999999", 4))
    sink = Recorder()
    src = BinlogSource(config(server.port), sink, positions)
    src.start()
    try:
        assert wait(lambda: src.health().healthy, 15)
        sql(server, POST.format(id=401, status="publish", type="post"))
        assert sink.has(Change("post", 401, post_type="post"))
        assert positions.position is not None and positions.position.file != "binlog.999999"
    finally:
        src.stop()
    assert any("no longer on the server" in r.getMessage() for r in caplog.records)


def test_service_logs_one_line_when_the_log_falls_back_and_recovers(
        server: binlogdb.BinlogServer, peer_on_server: str, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """Through the service: the link to the log drops, the source is unhealthy in
    change_sources and one warning says so; back, it is live again with one line."""
    caplog.set_level(logging.INFO, logger="wpsitemaps.changes.ledger")
    with TcpProxy("127.0.0.1", server.port) as proxy:
        config = {"TESTING": True, **PEER_CONFIG, "STORE": str(tmp_path / "pages"),
                  "DATABASE_URL": f"mysql+pymysql://root@127.0.0.1:{server.port}/{PEER}",
                  "CHANGE_SOURCE": "binlog", "BINLOG_SERVER_ID": 7000 + os.getpid() % 1000,
                  "BINLOG_URL": f"mysql://{binlogdb.REPL_USER}:{binlogdb.REPL_PASSWORD}"
                                f"@127.0.0.1:{proxy.port}/{PEER}"}
        service = service_of(create_app(config))
        try:
            def healthy() -> bool:
                found = service.change_sources.get("binlog")
                return found is not None and found.healthy

            assert wait(healthy, 10)
            proxy.down()
            assert wait(lambda: not healthy(), 15)
            assert service.change_sources["binlog"].detail.startswith("disconnected")
            time.sleep(2.5)
            proxy.up()
            assert wait(healthy, 20)
        finally:
            stop_sources()
    lines = [r.getMessage() for r in caplog.records if r.name == "wpsitemaps.changes.ledger"]
    down = [m for m in lines if "source binlog is down" in m]
    live = [m for m in lines if "source binlog is live" in m]
    assert len(down) == 1 and len(live) == 2, lines  # live at start, down, live again


def test_minimal_row_metadata_reads_names_from_information_schema(
        server: binlogdb.BinlogServer) -> None:
    """With MariaDB's default binlog_row_metadata = MINIMAL the log has no column names;
    the library reads them from information_schema (the replica user's SELECT grant)."""
    sql(server, "SET GLOBAL binlog_row_metadata = 'MINIMAL'")
    sink = Recorder()
    src = BinlogSource(config(server.port), sink, LocalPosition())
    src.start()
    try:
        assert wait(lambda: src.health().healthy)
        sql(server, POST.format(id=501, status="publish", type="page"),
            "INSERT INTO wp_options (option_name, option_value, autoload) "
            "VALUES ('page_on_front', '501', 'yes')")
        assert sink.has(Change("post", 501, post_type="page"),
                        Change("option", option="page_on_front"))
    finally:
        src.stop()
        sql(server, "SET GLOBAL binlog_row_metadata = 'FULL'")
