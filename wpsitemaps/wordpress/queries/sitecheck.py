"""SQL, and only SQL: what the site-level change check reads (issue #26).

When the tables a site's sitemaps read last changed, as cheaply as the database tells it:

* MariaDB/MySQL: `information_schema.TABLES.UPDATE_TIME` of those tables, in one statement,
  with the server's clock. InnoDB keeps it in memory, at 1-second granularity, and it is
  NULL for a table not written since it was loaded into the dictionary cache (a restart,
  or an eviction from that cache, which forgets a write). So with a NULL the statement also
  reads how many table definitions the server has loaded (`Opened_table_definitions`): an
  eviction and reload moves it, and a NULL then counts as "not written since" only while it
  stays put;
* SQLite: the database file's and its write-ahead log's identity, size and modification
  time (every commit writes one of them), with the local clock;
* anything else: unknown.

The options are not among them (WordPress writes transients there all the time): the check
reads the options the site reads instead (wordpress.options.read_options).
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Connection
from sqlalchemy import bindparam
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from wpsitemaps.wordpress.plugintables import wpml_tables
from wpsitemaps.wordpress.schema import WPTables


@dataclass(frozen=True)
class TableStamps:
    """When each table last changed (None: unknown), and the clock they compare with."""

    stamps: tuple[tuple[str, object], ...]
    now: float
    newest: float | None  # the latest of the known stamps (None: none known)
    unknown: bool = False  # a table's stamp is NULL (not written since it was loaded)
    loads: int | None = None  # the server's count of table definitions loaded


def watched(tables: WPTables, prefix: str) -> list[str]:
    """The tables whose writes can change a sitemap of the site (options aside)."""
    wpml = wpml_tables(prefix)
    return sorted({t.name for t in (tables.posts, tables.postmeta, tables.terms,
                                    tables.term_taxonomy, tables.term_relationships,
                                    tables.termmeta, tables.users, tables.usermeta,
                                    wpml.translations, wpml.languages)})


def table_stamps(conn: Connection, names: Sequence[str]) -> TableStamps | None:
    """When the tables `names` last changed, or None when this database cannot say."""
    dialect = conn.dialect.name
    if dialect in ("mysql", "mariadb"):
        rows = conn.execute(text(
            "SELECT TABLE_NAME, UNIX_TIMESTAMP(UPDATE_TIME), UNIX_TIMESTAMP(NOW(6)) "
            "FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() "
            "AND TABLE_NAME IN :names").bindparams(bindparam("names", expanding=True)),
            {"names": list(names)}).all()
        if not rows:
            return None
        stamps = tuple(sorted((str(r[0]), None if r[1] is None else float(r[1]))
                              for r in rows))
        known = [s for _, s in stamps if s is not None]
        unknown = len(known) < len(stamps)
        return TableStamps(stamps, float(rows[0][2]), max(known, default=None), unknown,
                           _loads(conn) if unknown else None)
    if dialect == "sqlite":
        # The engine opens the file through a URI (read-only): ask SQLite where it is.
        path = conn.execute(text(
            "SELECT file FROM pragma_database_list WHERE name = 'main'")).scalar()
        return _file_stamps(str(path) if path else None)
    return None


def _loads(conn: Connection) -> int | None:
    """Opened_table_definitions (None: not readable here)."""
    where = ("information_schema.GLOBAL_STATUS" if getattr(conn.dialect, "is_mariadb", False)
             else "performance_schema.global_status")
    try:  # a user without access to it: NULLs stay unknown
        value = conn.execute(text(f"SELECT VARIABLE_VALUE FROM {where} "
                                  "WHERE VARIABLE_NAME = 'Opened_table_definitions'")).scalar()
    except DBAPIError:
        return None
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _file_stamps(path: str | None) -> TableStamps | None:
    if not path:  # an in-memory or temporary database
        return None
    found: list[tuple[str, object]] = []
    mtimes: list[int] = []
    for name in (path, path + "-wal", path + "-journal"):
        try:
            st = os.stat(name)
        except FileNotFoundError:
            continue
        found.append((name, (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)))
        mtimes.append(st.st_mtime_ns)
    if not found:
        return None
    return TableStamps(tuple(found), time.time(), max(mtimes) / 1e9)
