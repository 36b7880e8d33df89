"""The engine: one per app (the web layer keeps one connection per request on `g`).

Read-only by construction: SQLite files are opened with mode=ro, and MySQL/MariaDB sessions
are switched to READ ONLY transactions on connect, so even a bug cannot write to WordPress.
"""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

from sqlalchemy import Engine
from sqlalchemy import create_engine
from sqlalchemy import event
from sqlalchemy.engine import make_url
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

    event.listen(engine, "before_cursor_execute", _paged, retval=True)
    return engine


def _paged(conn: Any, _cursor: Any, statement: str, parameters: Any, context: Any,
           _executemany: bool) -> tuple[str, Any]:
    """Statements marked `paged=True` get plans whose cost follows the page on MariaDB.

    Two of MariaDB's optimisations read every matching row of the site to save work on a
    pass over the whole site, which is what a page query must not do:
    * exists_to_in turns `NOT EXISTS (meta of this post ...)` into a subquery materialized
      over the whole site, so a page of 1,000 posts read every noindex row of the site;
      kept correlated, the rule is one post_id lookup per row of the page;
    * rowid_filter builds, before the join, a filter from a range of another index: for
      the canonical overrides of a page's ID range it read every override of the type
      through the meta_key index (5,502 rows for the index at 2,000 posts, 9,729 at 20,000).
    """
    options = getattr(context, "execution_options", None) or {}
    if options.get("paged") and getattr(conn.dialect, "is_mariadb", False):
        statement = ("SET STATEMENT optimizer_switch='exists_to_in=off,rowid_filter=off' "
                     f"FOR {statement}")
    return statement, parameters
