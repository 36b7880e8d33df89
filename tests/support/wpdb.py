"""Test databases: the shared WordPress dump in SQLite and MariaDB, and generated sites.

MariaDB databases get a per-process name so parallel test runs never collide.
"""

from __future__ import annotations

import os
import secrets
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pymysql

REPO = Path(__file__).resolve().parents[2]
# ../shared beside the checkout (CI lays it there); from a git worktree, the nearest one above.
SHARED = Path(os.environ.get("WPSITEMAPS_SHARED") or next(
    (p / "shared" for p in REPO.parents if (p / "shared" / "wordpress").is_dir()),
    REPO.parent / "shared"))
PEER_SQL = SHARED / "wordpress" / "peer-small.sql"
PEER_TRUTH = SHARED / "wordpress" / "peer-small.truth.json"
SHOP_SQL = SHARED / "wordpress" / "shop-small.sql"
SHOP_TRUTH = SHARED / "wordpress" / "shop-small.truth.json"
PLL_SQL = SHARED / "wordpress" / "pll-small.sql"
PLL_TRUTH = SHARED / "wordpress" / "pll-small.truth.json"
LOAD_SQLITE = SHARED / "wordpress" / "load_sqlite.py"
VALIDATE = SHARED / "xsd" / "validate.py"
SQLITE_DDL = REPO / "migrations" / "sqlite" / "wordpress-6.1-core.sql"
MYSQL_DDL = REPO / "migrations" / "mysql" / "wordpress-6.1-core.sql"
MARIADB_HOST = os.environ.get("WPSITEMAPS_TEST_MARIADB_HOST", "127.0.0.1")
MARIADB_PORT = int(os.environ.get("WPSITEMAPS_TEST_MARIADB_PORT", "3306"))
# The SELECT-only user the app reads test databases through: one per test process (parallel
# runs on one server never share or drop each other's), a random password (a test run must not
# leave a known login on whatever server it finds), dropped at the end (drop_read_only_user,
# called by the session fixture in conftest.py).
RO_USER = f"wpsm_ro_{os.getpid()}"
RO_PASSWORD = secrets.token_urlsafe(24)


def load_peer_sqlite(path: Path, dump: Path = PEER_SQL) -> Path:
    """Convert a shared dump (peer-small by default) into an SQLite file with the loader."""
    subprocess.run([sys.executable, str(LOAD_SQLITE), str(dump), str(path)],
                   check=True, capture_output=True)
    return path


def load_dump_sqlite(sql: Path, path: Path) -> Path:
    """Convert any of the shared dumps into an SQLite file with the shared loader."""
    subprocess.run([sys.executable, str(LOAD_SQLITE), str(sql), str(path)],
                   check=True, capture_output=True)
    return path


def sqlite_with_schema(path: Path, prefix: str = "wp_") -> Path:
    """Create an empty WordPress database (our migrations/ DDL) in an SQLite file."""
    ddl = SQLITE_DDL.read_text(encoding="utf-8").replace('"wp_', f'"{prefix}')
    con = sqlite3.connect(path)
    con.executescript(ddl)
    con.close()
    return path


def mariadb_reachable() -> bool:
    """Whether the MariaDB server answers as root without a password."""
    try:
        pymysql.connect(host=MARIADB_HOST, port=MARIADB_PORT, user="root", password="",
                        connect_timeout=2).close()
        return True
    except pymysql.MySQLError:
        return False


def root_conn(database: str | None = None) -> pymysql.connections.Connection:  # type: ignore[type-arg]
    """A root connection for setting test databases up (never used by the app)."""
    return pymysql.connect(host=MARIADB_HOST, port=MARIADB_PORT, user="root", password="",
                           database=database, charset="utf8mb4", autocommit=True)


def mariadb_name(label: str) -> str:
    """A database name unique to this test process."""
    return f"wpsm_{os.getpid()}_{label}"


def create_mariadb(label: str, sql: Path | str | None = None, prefix: str = "wp_") -> str:
    """Create a fresh database, load a dump file or our DDL, and grant the read-only user."""
    name = mariadb_name(label)
    with root_conn() as con, con.cursor() as cur:
        cur.execute(f"DROP DATABASE IF EXISTS `{name}`")
        cur.execute(f"CREATE DATABASE `{name}` CHARACTER SET utf8mb4 "
                    "COLLATE utf8mb4_unicode_520_ci")
        cur.execute(f"CREATE USER IF NOT EXISTS '{RO_USER}'@'%' IDENTIFIED BY '{RO_PASSWORD}'")
        cur.execute(f"GRANT SELECT ON `{name}`.* TO '{RO_USER}'@'%'")
    if sql is None:
        sql = MYSQL_DDL.read_text(encoding="utf-8").replace("`wp_", f"`{prefix}")
    elif isinstance(sql, Path):
        sql = sql.read_text(encoding="utf-8")
    client = shutil.which("mariadb") or shutil.which("mysql") or "mariadb"
    subprocess.run([client, "-h", MARIADB_HOST, "-P", str(MARIADB_PORT), "-uroot",
                    "--default-character-set=utf8mb4", name],
                   input=sql.encode("utf-8"), check=True, capture_output=True)
    return name


def create_mariadb_streamed(label: str, chunks: Iterable[str]) -> str:
    """Create a fresh database and pipe SQL text (with its own DDL) into it chunk by chunk,
    as bench/build.py does; grants the read-only user."""
    name = create_mariadb(label, "SELECT 1;")
    client = shutil.which("mariadb") or shutil.which("mysql") or "mariadb"
    proc = subprocess.Popen([client, "-h", MARIADB_HOST, "-P", str(MARIADB_PORT), "-uroot",
                             "--default-character-set=utf8mb4", name], stdin=subprocess.PIPE)
    assert proc.stdin is not None
    try:
        for chunk in chunks:
            proc.stdin.write(chunk.encode("utf-8"))
    finally:
        proc.stdin.close()
    if proc.wait() != 0:
        raise RuntimeError(f"loading {name} failed")
    return name


def drop_mariadb(name: str) -> None:
    """Drop a test database."""
    with root_conn() as con, con.cursor() as cur:
        cur.execute(f"DROP DATABASE IF EXISTS `{name}`")


def drop_read_only_user() -> None:
    """Drop this process's read-only user (nothing to do when it was never created)."""
    with root_conn() as con, con.cursor() as cur:
        cur.execute(f"DROP USER IF EXISTS '{RO_USER}'@'%'")


def read_only_user_exists() -> bool:
    """Whether this process's read-only user is on the server."""
    with root_conn() as con, con.cursor() as cur:
        cur.execute("SELECT COUNT(*) FROM mysql.user WHERE User = %s", (RO_USER,))
        row = cur.fetchone()
    return bool(row and row[0])


def mariadb_url(name: str, read_only_user: bool = True) -> str:
    """SQLAlchemy URL for a test database, as the SELECT-only user by default."""
    auth = f"{RO_USER}:{RO_PASSWORD}" if read_only_user else "root"
    return f"mysql+pymysql://{auth}@{MARIADB_HOST}:{MARIADB_PORT}/{name}?charset=utf8mb4"
