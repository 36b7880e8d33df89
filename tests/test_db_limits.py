"""Time limits on the database (issue #22): the settings, the statement limits as sent, the
engine stopping a statement that outlives its work's deadline, on MariaDB and SQLite, and
what a request that ran out of time leaves to the background refresh."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.exc import DBAPIError

from tests.conftest import require_mariadb
from tests.support.builder import Site
from tests.support.sitemaps import assert_valid
from tests.test_outage import assert_unavailable
from tests.test_outage import outage_site
from wpsitemaps import create_app
from wpsitemaps.config import ConfigError
from wpsitemaps.config import load_settings
from wpsitemaps.web.context import service_of
from wpsitemaps.wordpress.db import limited
from wpsitemaps.wordpress.db import make_engine
from wpsitemaps.wordpress.limits import DatabaseUnavailable
from wpsitemaps.wordpress.limits import within

# A statement that runs for seconds on SQLite: a count to 50 million.
SQLITE_LONG = ("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
               "WHERE i < 50000000) SELECT count(*) FROM n")


def test_time_settings_defaults() -> None:
    """A request waits 4 s on the database in all, the background 600 s, and stored copies
    are served for 6 hours past cache_ttl while the database fails."""
    settings = load_settings({"DATABASE_URL": "sqlite:///x"}, environ={})
    assert (settings.db_timeout, settings.db_background_timeout) == (4.0, 600.0)
    assert settings.stale_if_error == 21_600


def test_time_settings_from_environment() -> None:
    """The limits are read from WPSITEMAPS_DB_TIMEOUT and its neighbours."""
    settings = load_settings({"DATABASE_URL": "sqlite:///x"}, environ={
        "WPSITEMAPS_DB_TIMEOUT": "2.5", "WPSITEMAPS_DB_BACKGROUND_TIMEOUT": "90",
        "WPSITEMAPS_STALE_IF_ERROR": "0"})
    assert (settings.db_timeout, settings.db_background_timeout) == (2.5, 90.0)
    assert settings.stale_if_error == 0


@pytest.mark.parametrize("key,value", [("DB_TIMEOUT", 0), ("DB_TIMEOUT", "soon"),
                                       ("DB_BACKGROUND_TIMEOUT", -1),
                                       ("STALE_IF_ERROR", -5)])
def test_time_settings_refuse_nonsense(key: str, value: object) -> None:
    """No limit of zero (there is no 'wait forever'), no words, no negative seconds."""
    with pytest.raises(ConfigError, match=key):
        load_settings({"DATABASE_URL": "sqlite:///x", key: value}, environ={})


def test_time_settings_are_not_per_site() -> None:
    """The limits belong to the database, not to one site of a network."""
    with pytest.raises(ConfigError, match="cannot be set per site"):
        load_settings({"DATABASE_URL": "sqlite:///x", "SITES": {"2": {"db_timeout": 9}}},
                      environ={})


def test_mariadb_statement_limit() -> None:
    """On MariaDB a statement carries what is left of its time as max_statement_time, with
    the paged plan's switches when it is a page query."""
    assert limited("SELECT 1", 2.5, False, True) == (
        "SET STATEMENT max_statement_time=2.500 FOR SELECT 1")
    assert limited("SELECT 1", 2.5, True, True) == (
        "SET STATEMENT optimizer_switch='exists_to_in=off,rowid_filter=off', "
        "max_statement_time=2.500 FOR SELECT 1")


def test_statement_limit_is_never_zero() -> None:
    """A sliver of time left is a millisecond, never 0 (MariaDB's and MySQL's 'no limit')."""
    assert "max_statement_time=0.001 " in limited("SELECT 1", 0.0001, False, True)
    assert "MAX_EXECUTION_TIME(1)" in limited("SELECT 1", 0.0001, False, False)


def test_mysql_statement_limit() -> None:
    """On MySQL a SELECT carries the MAX_EXECUTION_TIME hint (milliseconds); other
    statements are left as they are."""
    assert limited("  SELECT a FROM t", 1.25, True, False) == (
        "  SELECT /*+ MAX_EXECUTION_TIME(1250) */ a FROM t")
    assert limited("SHOW TABLES", 1.25, False, False) == "SHOW TABLES"


def test_sqlite_statement_interrupted_at_deadline(tmp_path: Path) -> None:
    """SQLite has no statement limit: the engine interrupts a statement once its work's
    deadline has passed."""
    url = Site().write_sqlite(tmp_path / "wp.sqlite")
    engine = make_engine(load_settings({"DATABASE_URL": url}, environ={}))
    start = time.monotonic()
    with pytest.raises(DBAPIError, match="interrupted"), within(0.5), \
            engine.connect() as conn:
        conn.exec_driver_sql(SQLITE_LONG)
    assert time.monotonic() - start < 1.5
    engine.dispose()


def test_no_statement_after_deadline(tmp_path: Path) -> None:
    """Once its time is spent, work sends no further statement to the database."""
    url = Site().write_sqlite(tmp_path / "wp.sqlite")
    engine = make_engine(load_settings({"DATABASE_URL": url}, environ={}))
    with engine.connect() as conn, within(0.05):
        conn.exec_driver_sql("SELECT 1")
        time.sleep(0.1)
        with pytest.raises(DatabaseUnavailable):
            conn.exec_driver_sql("SELECT 1")
    engine.dispose()


@pytest.mark.mariadb
def test_mariadb_stops_statement_at_deadline(write_site: Callable[..., str]) -> None:
    """MariaDB itself stops a statement that outlives its work's deadline (max_statement_time),
    and the connection stays usable."""
    require_mariadb()
    url = write_site(Site(), "mariadb")
    engine = make_engine(load_settings({"DATABASE_URL": url}, environ={}))
    try:
        with engine.connect() as conn:
            start = time.monotonic()
            with pytest.raises(DBAPIError, match="max_statement_time"), within(0.5):
                conn.exec_driver_sql("SELECT SLEEP(3)")
            assert time.monotonic() - start < 1.5
            assert conn.exec_driver_sql("SELECT 1").scalar() == 1
    finally:
        engine.dispose()


def test_request_out_of_time_leaves_the_work_to_the_refresh(tmp_path: Path) -> None:
    """A request that runs out of its time computing a cold value (here page bounds made
    slow) answers 503 and starts the background refresh, which computes the value with its
    longer limit, so that the next requests are served."""
    path = tmp_path / "wp.sqlite"
    outage_site().write_sqlite(path)
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{path}",
                      "NOW": "option:test_now", "ENTRIES_PER_PAGE": 8, "DB_TIMEOUT": 0.3})

    def slow_in_requests(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        # The bounds' window query takes 0.5 s, except in the refresh's own thread.
        if "row_number" in statement.lower() and \
                threading.current_thread().name != "wpsitemaps-refresh":
            time.sleep(0.5)

    event.listen(service_of(app).engine, "before_cursor_execute", slow_in_requests)
    client = app.test_client()
    assert_unavailable(client.get("/post-sitemap.xml"))
    deadline = time.monotonic() + 10
    while (resp := client.get("/post-sitemap.xml")).status_code != 200:
        assert time.monotonic() < deadline, resp.status_code
        time.sleep(0.2)
    assert_valid(resp.data, "/post-sitemap.xml")
