"""The engine: one per app (the web layer keeps one connection per request on `g`).

Read-only by construction: SQLite files are opened with mode=ro, and MySQL/MariaDB sessions
are switched to READ ONLY transactions on connect, so even a bug cannot write to WordPress.

Bounded in time (issue #22): every connection and statement gets what is left of its work's
deadline (wordpress.limits) as its connect, read and write timeouts and as a server-side
statement limit, lock waits give up after a second, and a database that went silent or
holds a lock is left to the breaker (wordpress.breaker) instead of being waited on by every
request.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import zlib
from functools import partial
from typing import Any

from sqlalchemy import Engine
from sqlalchemy import create_engine
from sqlalchemy import event
from sqlalchemy.engine import ExceptionContext
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from wpsitemaps.config import Settings
from wpsitemaps.metrics import DATABASE_ERRORS
from wpsitemaps.wordpress.breaker import Breaker
from wpsitemaps.wordpress.breaker import Replay
from wpsitemaps.wordpress.limits import HOUSEKEEPING
from wpsitemaps.wordpress.limits import LOCK_WAIT
from wpsitemaps.wordpress.limits import SLACK
from wpsitemaps.wordpress.limits import Limits
from wpsitemaps.wordpress.limits import TimeSpent
from wpsitemaps.wordpress.limits import failure
from wpsitemaps.wordpress.limits import remaining
from wpsitemaps.wordpress.limits import spent
from wpsitemaps.wordpress.limits import within
from wpsitemaps.wordpress.outage import Outage

log = logging.getLogger(__name__)
PAGED_SWITCH = "optimizer_switch='exists_to_in=off,rowid_filter=off'"


def _decode(raw: bytes) -> str:
    """Decode TEXT from SQLite, replacing invalid UTF-8 instead of raising."""
    return raw.decode("utf-8", "replace")


def make_engine(settings: Settings, breaker: Breaker | None = None,
                outage: Outage | None = None) -> Engine:
    """Create the engine for the configured database (no connection is made yet); with a
    breaker, a database that goes silent or holds a lock is probed instead of waited on;
    with an outage log, the first statement that succeeds ends a run of failures."""
    limits = Limits(settings.db_timeout, settings.db_background_timeout)
    url = make_url(settings.database_url)
    if url.get_backend_name() == "sqlite":
        engine = _sqlite_engine(url.database or "", limits, breaker)
    else:
        engine = _mysql_engine(settings, limits, breaker)
    guard = Guard(limits, breaker, sqlite=url.get_backend_name() == "sqlite")
    event.listen(engine, "before_cursor_execute", guard.before_execute, retval=True)
    event.listen(engine, "handle_error", guard.on_error)
    if breaker is not None:
        breaker.probe = partial(probe, engine, limits)
    if outage is not None:
        event.listen(engine, "after_cursor_execute", lambda *_args: outage.answered())
    return engine


def _sqlite_engine(path: str, limits: Limits, breaker: Breaker | None) -> Engine:
    """SQLite, read-only, one connection per use (NullPool)."""

    def connect() -> sqlite3.Connection:
        if breaker is not None:
            breaker.refuse()
        left = remaining(limits)
        if left <= 0:
            raise TimeSpent("the time for the database is spent")
        # mode=ro: the WordPress database is never written, not even by accident. The
        # busy timeout is SQLite's lock wait (a writer holding the file).
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False,
                              timeout=min(LOCK_WAIT, left))
        # SQLite stores whatever bytes it is given; broken UTF-8 must not crash a page.
        con.text_factory = _decode
        # SQLite has no statement time limit: its VM asks this every 10,000 instructions
        # and stops the statement ("interrupted") once the work's deadline has passed.
        con.set_progress_handler(spent, 10_000)
        sqlite_functions(con)
        return con

    return create_engine("sqlite://", creator=connect, poolclass=NullPool)


def sqlite_functions(con: sqlite3.Connection) -> None:
    """MariaDB's CRC32() and CONCAT_WS(), which SQLite lacks (3.44 added CONCAT_WS), so the
    page fingerprints' aggregates (queries/fingerprint.py) run as one statement on both.
    Deterministic: the same arguments give the same value in every process."""
    con.create_function("crc32", 1, _crc32, deterministic=True)
    con.create_function("concat_ws", -1, _concat_ws, deterministic=True)


def _text(value: Any) -> str:
    # MariaDB's string form of a value: integers and text as such, bytes as UTF-8.
    if isinstance(value, bytes):
        return value.decode("utf-8", "surrogateescape")
    return str(value)


def _crc32(value: Any) -> int | None:
    if value is None:
        return None
    return zlib.crc32(_text(value).encode("utf-8", "surrogatepass"))


def _concat_ws(separator: Any, *values: Any) -> str | None:
    if separator is None:
        return None
    return _text(separator).join(_text(v) for v in values if v is not None)


def _mysql_engine(settings: Settings, limits: Limits, breaker: Breaker | None) -> Engine:
    """MySQL/MariaDB through PyMySQL, pooled, with pre-ping and the read-only session."""
    url = make_url(settings.database_url)
    if "charset" not in url.query:
        url = url.update_query_dict({"charset": "utf8mb4"})
    engine = create_engine(
        url,
        pool_pre_ping=True,
        # Below MySQL's default wait_timeout (28800 s) and typical proxy idle limits.
        pool_recycle=settings.pool_recycle,
        pool_size=5,
        max_overflow=5,
        pool_timeout=limits.request,
        connect_args={"connect_timeout": limits.request, "read_timeout": limits.request,
                      "write_timeout": limits.request},
    )

    @event.listens_for(engine, "do_connect")
    def _bounded(_dialect: Any, _rec: Any, _cargs: Any, cparams: dict[str, Any]) -> None:
        if breaker is not None:
            breaker.refuse()
        left = min(remaining(limits), limits.request)
        if left <= 0:
            raise TimeSpent("the time for the database is spent")
        # The handshake and the session set-up below are read with read_timeout.
        cparams.update(connect_timeout=left, read_timeout=left, write_timeout=left)

    @event.listens_for(engine, "connect")
    def _session(dbapi_conn: Any, _record: Any) -> None:
        with dbapi_conn.cursor() as cur:
            cur.execute("SET SESSION TRANSACTION READ ONLY")
            cur.execute(f"SET SESSION lock_wait_timeout = {int(LOCK_WAIT)}")

    @event.listens_for(engine, "reset")
    def _between(dbapi_conn: Any, _record: Any, _state: Any) -> None:
        # The rollback on return and the next checkout's ping run with these timeouts, not
        # with whatever was left of the last statement's deadline.
        socket_timeouts(dbapi_conn, HOUSEKEEPING)

    return engine


def socket_timeouts(dbapi_conn: Any, seconds: float) -> None:
    """Set a PyMySQL connection's read and write timeouts. PyMySQL applies these attributes
    before every socket operation and has no public setter for an open connection."""
    if hasattr(dbapi_conn, "_read_timeout") and hasattr(dbapi_conn, "_write_timeout"):
        dbapi_conn._read_timeout = dbapi_conn._write_timeout = seconds


class Guard:
    """The statement hooks: refuse while the breaker is open or the deadline has passed, add
    the time limits, and trip the breaker on a silence or a held lock."""

    def __init__(self, limits: Limits, breaker: Breaker | None, sqlite: bool) -> None:
        self.limits, self.breaker, self.sqlite = limits, breaker, sqlite
        self._last = threading.local()  # this thread's last statement, for the probe

    def before_execute(self, conn: Any, _cursor: Any, statement: str, parameters: Any,
                       context: Any, executemany: bool) -> tuple[str, Any]:
        """before_cursor_execute: the statement as sent, with its limits."""
        if self.breaker is not None:
            self.breaker.refuse()
        left = remaining(self.limits)
        if left <= 0:
            raise TimeSpent("the time for the database is spent")
        options = getattr(context, "execution_options", None) or {}
        paged = bool(options.get("paged"))
        if not executemany:
            self._last.replay = Replay(statement, parameters,
                                       bool(getattr(context, "no_parameters", False)), paged)
        if self.sqlite:
            return statement, parameters
        socket_timeouts(conn.connection.dbapi_connection, left + SLACK)
        # is_mariadb is known once the first connection has read the server's version.
        mariadb = bool(getattr(conn.dialect, "is_mariadb", False))
        return limited(statement, left, paged, mariadb), parameters

    def on_error(self, ctx: ExceptionContext) -> None:
        """handle_error: a silence or a held lock trips the breaker (a slow statement, a
        refused connection or a missing table do not: they cost this request only)."""
        why = failure(ctx.original_exception)
        DATABASE_ERRORS.labels(kind=why or "other").inc()
        if self.breaker is None or why not in ("silent", "locked"):
            return
        replay = None
        if why == "locked" and ctx.execution_context is not None:
            replay = getattr(self._last, "replay", None)
        self.breaker.trip(why, replay)


def limited(statement: str, seconds: float, paged: bool, mariadb: bool) -> str:
    """The statement with a server-side time limit (and, on MariaDB, the paged plan).

    Statements marked `paged=True` get plans whose cost follows the page on MariaDB: two of
    its optimisations read every matching row of the site to save work on a pass over the
    whole site, which is what a page query must not do:
    * exists_to_in turns `NOT EXISTS (meta of this post ...)` into a subquery materialized
      over the whole site, so a page of 1,000 posts read every noindex row of the site;
      kept correlated, the rule is one post_id lookup per row of the page;
    * rowid_filter builds, before the join, a filter from a range of another index: for
      the canonical overrides of a page's ID range it read every override of the type
      through the meta_key index (5,502 rows for the index at 2,000 posts, 9,729 at 20,000).
    MySQL takes MAX_EXECUTION_TIME as an optimizer hint on SELECTs only.
    """
    if mariadb:
        limit = f"max_statement_time={max(seconds, 0.001):.3f}"
        sets = f"{PAGED_SWITCH}, {limit}" if paged else limit
        return f"SET STATEMENT {sets} FOR {statement}"
    head = statement.lstrip()
    if head[:6].upper() != "SELECT":
        return statement
    cut = len(statement) - len(head) + 6
    hint = f" /*+ MAX_EXECUTION_TIME({max(1, int(seconds * 1000))}) */"
    return statement[:cut] + hint + statement[cut:]


def probe(engine: Engine, limits: Limits, replay: Replay | None) -> None:
    """Ask the database once within a request's time: the statement that met a lock again
    (only the same tables can show the lock is gone), else SELECT 1."""
    with within(limits.request), engine.connect() as conn:
        if replay is None:
            conn.exec_driver_sql("SELECT 1")
            return
        conn = conn.execution_options(paged=replay.paged, no_parameters=replay.no_parameters)
        if replay.no_parameters:
            conn.exec_driver_sql(replay.statement)
        else:
            conn.exec_driver_sql(replay.statement, replay.parameters)
