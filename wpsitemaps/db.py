"""The engine (one per app), one connection per request on `g`, closed at teardown.

Read-only by construction: SQLite files are opened with mode=ro, and MySQL/MariaDB sessions
are switched to READ ONLY transactions on connect, so even a bug cannot write to WordPress.
"""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

from flask import Flask
from flask import current_app
from flask import g
from sqlalchemy import Connection
from sqlalchemy import Engine
from sqlalchemy import create_engine
from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import NullPool

from wpsitemaps.config import Settings

log = logging.getLogger(__name__)


def _decode(raw: bytes) -> str:
    """Decode TEXT from SQLite, replacing invalid UTF-8 instead of raising."""
    return raw.decode("utf-8", "replace")


def make_engine(settings: Settings) -> Engine:
    """Create the engine for the configured database (no connection is made yet)."""
    url = make_url(settings.database_url)
    if url.get_backend_name() == "sqlite":
        path = url.database or ""

        def connect() -> sqlite3.Connection:
            # mode=ro: the WordPress database is never written, not even by accident.
            con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
            # SQLite stores whatever bytes it is given; broken UTF-8 must not crash a page.
            con.text_factory = _decode
            return con

        return create_engine("sqlite://", creator=connect, poolclass=NullPool)
    if "charset" not in url.query:
        url = url.update_query_dict({"charset": "utf8mb4"})
    engine = create_engine(
        url,
        pool_pre_ping=True,
        # Below MySQL's default wait_timeout (28800 s) and typical proxy idle limits.
        pool_recycle=settings.pool_recycle,
        pool_size=5,
        max_overflow=5,
        pool_timeout=5,
        connect_args={"connect_timeout": 5, "read_timeout": 30},
    )

    @event.listens_for(engine, "connect")
    def _read_only(dbapi_conn: Any, _record: Any) -> None:
        with dbapi_conn.cursor() as cur:
            cur.execute("SET SESSION TRANSACTION READ ONLY")

    return engine


def get_conn() -> Connection:
    """Return this request's connection, opening it on first use."""
    if "wp_conn" not in g:
        engine: Engine = current_app.extensions["wpsitemaps.engine"]
        g.wp_conn = engine.connect()
    conn: Connection = g.wp_conn
    return conn


def close_conn(_exc: BaseException | None = None) -> None:
    """Close the request's connection (rolling back: we never commit)."""
    conn = g.pop("wp_conn", None)
    if conn is None:
        return
    try:
        conn.close()
    except DBAPIError as exc:
        # The database went away after the page was built: the rollback in close() fails.
        # The answer is already complete, so it must not turn into a 500 here; the broken
        # connection is discarded (the pool opens a new one).
        log.warning("discarding a connection that failed to close: %s", exc.__class__.__name__)
        if not conn.closed:
            conn.invalidate()
            conn.close()


def init_app(app: Flask, settings: Settings) -> None:
    """Create the engine and register teardown."""
    app.extensions["wpsitemaps.engine"] = make_engine(settings)
    app.teardown_appcontext(close_conn)
