"""SQL, and only SQL: what the site-level change check reads (issue #26).

When the tables a site's sitemaps read last changed, as cheaply as the database tells it:

* MariaDB/MySQL: `information_schema.TABLES.UPDATE_TIME` of those tables, in one statement,
  with the server's clock. InnoDB keeps it in memory, at 1-second granularity: NULL after a
  restart (or when the table left the dictionary cache) means unknown, never "unchanged";
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

from wpsitemaps.wordpress.plugintables import wpml_tables
from wpsitemaps.wordpress.schema import WPTables


@dataclass(frozen=True)
class TableStamps:
    """When each table last changed (None: unknown), and the clock they compare with."""

    stamps: tuple[tuple[str, object], ...]
    now: float
    newest: float | None  # the latest of the stamps (None: none, or one is unknown)


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
        newest = max(known) if len(known) == len(stamps) else None
        return TableStamps(stamps, float(rows[0][2]), newest)
    if dialect == "sqlite":
        return _file_stamps(conn.engine.url.database)
    return None


def _file_stamps(path: str | None) -> TableStamps | None:
    if not path or path == ":memory:" or path.startswith("file:"):
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
