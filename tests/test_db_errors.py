"""Database errors a person can cause, each as one line starting `wpsitemaps:` that names the
likely cause and the setting to change: in `check`, at `serve`'s start and in the request log
(N failed requests, one line; tracebacks at DEBUG only). Wrong password (1045), host or port
(2003), database name (1049, 1044), a missing GRANT (1142), a wrong table prefix (1146, and
1142 for a user granted table by table), an SQLite file that cannot be opened."""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import require_mariadb
from tests.support import wpdb
from tests.support.builder import Site
from wpsitemaps import cli
from wpsitemaps import create_app

USER = f"wpsm_er{os.getpid()}"
CORE = ("options", "posts", "postmeta", "terms", "term_taxonomy", "term_relationships",
        "termmeta", "users", "usermeta")


@dataclass
class Said:
    """What a command printed."""

    code: int
    lines: list[str]
    started: bool


def run(command: str, env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> Said:
    """`wpsitemaps check` or `serve` (gunicorn replaced by a flag) with these settings."""
    started: list[bool] = []
    monkeypatch.setattr(cli, "run_gunicorn", lambda *a: started.append(True))
    result = CliRunner().invoke(cli.main, [command], env={"WPSITEMAPS_STORE": "off", **env})
    return Said(result.exit_code, result.output.strip().splitlines(), bool(started))


def request_lines(url: str, caplog: pytest.LogCaptureFixture, prefix: str = "wp_",
                  requests: int = 4) -> list[logging.LogRecord]:
    """The wpsitemaps log records at INFO and above while `requests` sitemaps answer 503."""
    client = create_app({"TESTING": True, "DATABASE_URL": url, "TABLE_PREFIX": prefix,
                         "STORE": "off"}).test_client()
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="wpsitemaps"):
        statuses = {client.get("/post-sitemap.xml").status_code for _ in range(requests)}
    assert statuses == {503}
    return [r for r in caplog.records
            if r.name.startswith("wpsitemaps") and r.levelno >= logging.INFO]


def one_line(records: list[logging.LogRecord], fragment: str) -> None:
    """Exactly one record, without a traceback, naming the cause."""
    assert len(records) == 1, [r.getMessage() for r in records]
    assert records[0].exc_info is None
    assert records[0].getMessage().startswith("wpsitemaps: ")
    assert fragment in records[0].getMessage()


@pytest.fixture(scope="module")
def db() -> Iterator[str]:
    """A small site in MariaDB; its database name."""
    require_mariadb()
    site = Site()
    site.post("Hello", name="hello")
    url = site.write_mariadb("errors")
    name = url.rsplit("/", 1)[1].split("?")[0]
    yield name
    wpdb.drop_mariadb(name)


@pytest.fixture
def user() -> Iterator[str]:
    """A user name dropped after the test."""
    yield USER
    with wpdb.root_conn() as con, con.cursor() as cur:
        cur.execute(f"DROP USER IF EXISTS '{USER}'@'%'")


def make_user(db: str, tables: list[str]) -> str:
    """A user granted SELECT on these tables only; its URL."""
    with wpdb.root_conn() as con, con.cursor() as cur:
        cur.execute(f"DROP USER IF EXISTS '{USER}'@'%'")
        cur.execute(f"CREATE USER '{USER}'@'%' IDENTIFIED BY 'pw'")
        for table in tables:
            cur.execute(f"GRANT SELECT ON `{db}`.`{table}` TO '{USER}'@'%'")
    return f"mysql+pymysql://{USER}:pw@{wpdb.MARIADB_HOST}:{wpdb.MARIADB_PORT}/{db}"


def url_of(db: str, auth: str = "root", port: int = wpdb.MARIADB_PORT) -> str:
    """A MariaDB URL with these credentials."""
    return f"mysql+pymysql://{auth}@{wpdb.MARIADB_HOST}:{port}/{db}"


@pytest.mark.mariadb
def test_wrong_password(db: str, monkeypatch: pytest.MonkeyPatch,
                        caplog: pytest.LogCaptureFixture) -> None:
    """1045: 'check the user and password in database_url', everywhere in one line."""
    url = url_of(db, f"{wpdb.RO_USER}:wrong")
    for command in ("check", "serve"):
        said = run(command, {"WPSITEMAPS_DATABASE_URL": url}, monkeypatch)
        assert (said.code, said.started, len(said.lines)) == (2, False, 1)
        assert said.lines[0] == (f"wpsitemaps: the database refused user '{wpdb.RO_USER}' "
                                 "(error 1045: wrong user name or password): check the user "
                                 "and password in database_url")
    one_line(request_lines(url, caplog), "error 1045")


@pytest.mark.mariadb
def test_wrong_port(db: str, monkeypatch: pytest.MonkeyPatch,
                    caplog: pytest.LogCaptureFixture) -> None:
    """2003: `check` stops, `serve` warns and starts (it may be an outage), requests log once."""
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    # Nothing listens on `port` now.
    url = url_of(db, port=port)
    want = f"cannot reach a database server at 127.0.0.1:{port} (error 2003"
    said = run("check", {"WPSITEMAPS_DATABASE_URL": url}, monkeypatch)
    assert (said.code, len(said.lines)) == (2, 1)
    assert said.lines[0].startswith(f"wpsitemaps: {want}")
    assert "check the host and port in database_url" in said.lines[0]
    said = run("serve", {"WPSITEMAPS_DATABASE_URL": url}, monkeypatch)
    assert (said.code, said.started, len(said.lines)) == (0, True, 1)
    assert said.lines[0].startswith(f"wpsitemaps: warning: {want}")
    assert said.lines[0].endswith("starting anyway: stored documents are served, the "
                                  "others answer 503 until it answers")
    one_line(request_lines(url, caplog), want)


@pytest.mark.mariadb
def test_wrong_database_name(db: str, monkeypatch: pytest.MonkeyPatch,
                             caplog: pytest.LogCaptureFixture) -> None:
    """1049: 'check the database name in database_url'."""
    url = url_of(f"{db}_nope")
    for command in ("check", "serve"):
        said = run(command, {"WPSITEMAPS_DATABASE_URL": url}, monkeypatch)
        assert (said.code, said.started, len(said.lines)) == (2, False, 1)
        assert said.lines[0] == (f"wpsitemaps: the server at 127.0.0.1:{wpdb.MARIADB_PORT} "
                                 f"has no database '{db}_nope' (error 1049): check the "
                                 "database name in database_url")
    one_line(request_lines(url, caplog), "error 1049")


@pytest.mark.mariadb
def test_database_not_granted(db: str, user: str, monkeypatch: pytest.MonkeyPatch,
                              caplog: pytest.LogCaptureFixture) -> None:
    """1044: a user with no grant on the database: its name or the GRANTs."""
    make_user(db, [])
    url = f"mysql+pymysql://{user}:pw@{wpdb.MARIADB_HOST}:{wpdb.MARIADB_PORT}/{db}"
    said = run("check", {"WPSITEMAPS_DATABASE_URL": url}, monkeypatch)
    assert (said.code, len(said.lines)) == (2, 1)
    assert said.lines[0].startswith(f"wpsitemaps: user '{user}' may not use database '{db}' "
                                    "(error 1044): check the database name in database_url, "
                                    "or run `wpsitemaps grants")
    one_line(request_lines(url, caplog), "error 1044")


@pytest.mark.mariadb
def test_missing_grant(db: str, user: str, monkeypatch: pytest.MonkeyPatch,
                       caplog: pytest.LogCaptureFixture) -> None:
    """1142: the table and `wpsitemaps grants`."""
    url = make_user(db, [f"wp_{t}" for t in CORE if t != "posts"])
    want = (f"user '{user}' may not read table wp_posts (error 1142: missing GRANT): run "
            "`wpsitemaps grants --user USER --host HOST` and apply its GRANT lines")
    for command in ("check", "serve"):
        said = run(command, {"WPSITEMAPS_DATABASE_URL": url}, monkeypatch)
        assert (said.code, said.started, len(said.lines)) == (2, False, 1)
        assert said.lines[0] == f"wpsitemaps: {want}; needed by WordPress core"
    one_line(request_lines(url, caplog), want)


@pytest.mark.mariadb
def test_wrong_prefix(db: str, monkeypatch: pytest.MonkeyPatch,
                      caplog: pytest.LogCaptureFixture) -> None:
    """1146: 'check the table prefix', naming the prefix the database has."""
    env = {"WPSITEMAPS_DATABASE_URL": url_of(db), "WPSITEMAPS_TABLE_PREFIX": "wpx_"}
    for command in ("check", "serve"):
        said = run(command, env, monkeypatch)
        assert (said.code, said.started, len(said.lines)) == (2, False, 1)
        assert said.lines[0] == (
            "wpsitemaps: table wpx_options does not exist (error 1146): check the table "
            "prefix (table_prefix = 'wpx_', $table_prefix in wp-config.php); this database "
            "has tables with the prefix 'wp_'; needed by WordPress core (8 more required "
            "tables unreadable)")
    one_line(request_lines(url_of(db), caplog, prefix="wpx_"),
             "table wpx_options does not exist (error 1146): check the table prefix "
             "(table_prefix = 'wpx_', $table_prefix in wp-config.php)")


@pytest.mark.mariadb
def test_wrong_prefix_for_a_restricted_user(db: str, user: str,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A user granted table by table is 'denied' a table that does not exist: the line still
    says to check the prefix, not only the GRANTs."""
    url = make_user(db, [f"wp_{t}" for t in CORE])
    said = run("check", {"WPSITEMAPS_DATABASE_URL": url, "WPSITEMAPS_TABLE_PREFIX": "wpx_"},
               monkeypatch)
    assert (said.code, len(said.lines)) == (2, 1)
    assert said.lines[0].startswith(
        f"wpsitemaps: table wpx_options cannot be read by user '{user}' and is not in the "
        "tables it sees (error 1142): check the table prefix (table_prefix = 'wpx_'")
    assert "this database has tables with the prefix 'wp_'" in said.lines[0]


def test_sqlite_path_as_resolved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 caplog: pytest.LogCaptureFixture) -> None:
    """A relative SQLite path that cannot be opened is named as resolved."""
    monkeypatch.chdir(tmp_path)
    url = "sqlite:///sites/wp.sqlite"
    want = (f"cannot open the SQLite database {tmp_path}/sites/wp.sqlite (does not exist): "
            "check the path in database_url (relative paths start from the working directory)")
    said = run("check", {"WPSITEMAPS_DATABASE_URL": url}, monkeypatch)
    assert said.code == 2 and said.lines == [f"wpsitemaps: {want}"]
    said = run("serve", {"WPSITEMAPS_DATABASE_URL": url}, monkeypatch)
    assert (said.code, said.started) == (0, True)
    assert said.lines == [f"wpsitemaps: warning: {want}; starting anyway: stored documents "
                          "are served, the others answer 503 until it answers"]
    one_line(request_lines(url, caplog), want)


def test_wrong_prefix_on_sqlite(peer_sqlite_url: str, monkeypatch: pytest.MonkeyPatch,
                                caplog: pytest.LogCaptureFixture) -> None:
    """SQLite too: `serve` stops with the prefix hint, N requests log one line."""
    env = {"WPSITEMAPS_DATABASE_URL": peer_sqlite_url, "WPSITEMAPS_TABLE_PREFIX": "wpx_"}
    said = run("serve", env, monkeypatch)
    assert (said.code, said.started) == (2, False)
    assert said.lines == ["wpsitemaps: table wpx_options does not exist: check the table prefix "
                          "(table_prefix = 'wpx_', $table_prefix in wp-config.php); this "
                          "database has tables with the prefix 'wp_'; needed by WordPress "
                          "core (8 more required tables unreadable)"]
    one_line(request_lines(peer_sqlite_url, caplog, prefix="wpx_", requests=6),
             "table wpx_options does not exist: check the table prefix")


@pytest.mark.parametrize("command", [["explain", "/hello/"], ["export", "out"],
                                     ["robots-lines"]])
def test_other_commands_say_the_cause(command: list[str], tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """`explain`, `export` and `robots-lines` name the cause in one line too."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli.main, command, env={
        "WPSITEMAPS_DATABASE_URL": "sqlite:///gone.sqlite", "WPSITEMAPS_STORE": "off"})
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("wpsitemaps: ")
    assert f"cannot open the SQLite database {tmp_path}/gone.sqlite (does not exist)" in lines[0]
