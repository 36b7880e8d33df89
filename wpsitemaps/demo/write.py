"""Writers of the demo database: an SQLite file, or multi-row INSERT text for MariaDB/MySQL.

Both consume demo.generate() through small per-table buffers, so memory stays flat however
many posts are written (`mysql_sql(size=1_000_000) | mariadb db` is how the benchmark loads).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from wpsitemaps.demo.generate import generate
from wpsitemaps.demo.model import COLUMNS
from wpsitemaps.demo.model import DEFAULT_HOME
from wpsitemaps.demo.model import DEFAULT_NOW
from wpsitemaps.demo.model import DemoSpec
from wpsitemaps.demo.model import Row
from wpsitemaps.paths import MIGRATIONS_DIR

SQLITE_DDL = MIGRATIONS_DIR / "sqlite" / "wordpress-6.1-core.sql"
MYSQL_DDL = MIGRATIONS_DIR / "mysql" / "wordpress-6.1-core.sql"



def batches(spec: DemoSpec, rows: int = 2000,
            max_bytes: int = 1_000_000) -> Iterator[tuple[str, list[Row]]]:
    """(table, rows) groups of at most `rows` rows or about `max_bytes` of text per table."""
    buffers: dict[str, list[Row]] = {table: [] for table in COLUMNS}
    sizes: dict[str, int] = dict.fromkeys(COLUMNS, 0)
    for table, row in generate(spec):
        buffer = buffers[table]
        buffer.append(row)
        if table in ("posts", "postmeta", "options"):
            sizes[table] += sum(len(v) for v in row if isinstance(v, str))
        if len(buffer) >= rows or sizes[table] >= max_bytes:
            yield table, buffer
            buffers[table], sizes[table] = [], 0
    for table, buffer in buffers.items():
        if buffer:
            yield table, buffer


def _ddl(path: Path, prefix: str, quote: str) -> str:
    """Our migrations/ DDL with the table prefix swapped in."""
    return path.read_text(encoding="utf-8").replace(f"{quote}wp_", f"{quote}{prefix}")


def write_sqlite(path: str | Path, size: int = 300, seed: int = 1, *, now: int = DEFAULT_NOW,
                 home: str = DEFAULT_HOME, prefix: str = "wp_") -> Path:
    """Write the demo database to a new SQLite file (replaced atomically) and return its path."""
    target = Path(path)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    con = sqlite3.connect(tmp)
    try:
        con.execute("PRAGMA journal_mode = OFF")
        con.execute("PRAGMA synchronous = OFF")
        con.executescript(_ddl(SQLITE_DDL, prefix, '"'))
        spec = DemoSpec(size=size, seed=seed, now=now, home=home)
        for table, rows in batches(spec):
            cols = COLUMNS[table]
            con.executemany(f'INSERT INTO "{prefix}{table}" ({", ".join(cols)}) '
                            f'VALUES ({", ".join("?" * len(cols))})', rows)
        con.commit()
    finally:
        con.close()
    os.replace(tmp, target)
    return target


def _quote(text: str) -> str:
    """A MySQL string literal. Newlines may stay raw; backslash, quote, NUL and ^Z may not.

    Chained str.replace() is several times faster than str.translate() on long content.
    """
    return ("'" + text.replace("\\", "\\\\").replace("'", "\\'").replace("\0", "\\0")
            .replace("\x1a", "\\Z") + "'")


def _values(row: Row) -> str:
    """A row as a MySQL VALUES tuple (ints bare, strings quoted and escaped)."""
    return "(" + ",".join([str(v) if type(v) is int else _quote(str(v))  # noqa: E721
                           for v in row]) + ")"


def mysql_sql(size: int = 300, seed: int = 1, *, now: int = DEFAULT_NOW,
              home: str = DEFAULT_HOME, prefix: str = "wp_",
              include_ddl: bool = True) -> Iterator[str]:
    """SQL text for the `mariadb` client: the DDL, then multi-row INSERTs, in chunks."""
    yield ("/*!40101 SET NAMES utf8mb4 */;\nSET FOREIGN_KEY_CHECKS = 0;\n"
           "SET UNIQUE_CHECKS = 0;\nSET AUTOCOMMIT = 0;\n")
    if include_ddl:
        yield _ddl(MYSQL_DDL, prefix, "`") + "\n"
    spec = DemoSpec(size=size, seed=seed, now=now, home=home)
    for table, rows in batches(spec, rows=1000):
        cols = ",".join(f"`{c}`" for c in COLUMNS[table])
        values = ",\n".join([_values(row) for row in rows])
        yield f"INSERT INTO `{prefix}{table}` ({cols}) VALUES\n{values};\n"
    yield "COMMIT;\n"
