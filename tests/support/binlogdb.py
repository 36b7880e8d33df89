"""A private MariaDB with the binary log on (row format), for the binlog change source.

The shared server on 127.0.0.1:3306 runs without a binary log (and turning it on needs a
restart); this one runs `mariadbd` on a temporary data directory and a free port for one
test session, and is stopped at the end. Needs the mariadb-server package (`.ci/run`
installs it); runs as root with --user=root, or as whoever runs the tests.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pymysql

from tests.support.wpdb import MYSQL_DDL

MARIADBD = shutil.which("mariadbd") or "/usr/sbin/mariadbd"
INSTALL_DB = shutil.which("mariadb-install-db") or "/usr/bin/mariadb-install-db"
REPL_USER = "wpsm_repl"
REPL_PASSWORD = "wpsm_repl"


@dataclass
class BinlogServer:
    """A running private server: where it listens and its process."""

    port: int
    datadir: Path
    process: subprocess.Popen[bytes]

    def root(self, database: str | None = None) -> pymysql.connections.Connection:  # type: ignore[type-arg]
        """A root connection (autocommit, as WordPress's wpdb writes)."""
        return pymysql.connect(host="127.0.0.1", port=self.port, user="root", password="",
                               database=database, charset="utf8mb4", autocommit=True)

    def stop(self) -> None:
        """Stop the server and wait for it."""
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)


def available() -> bool:
    """Whether mariadbd and mariadb-install-db are installed."""
    return Path(MARIADBD).exists() and Path(INSTALL_DB).exists()


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start(base: Path) -> BinlogServer:
    """Install a data directory under `base` and start mariadbd with the binary log on."""
    datadir = base / "data"
    user = ["--user=root"] if os.geteuid() == 0 else []
    subprocess.run([INSTALL_DB, "--no-defaults", f"--datadir={datadir}", "--skip-test-db",
                    "--auth-root-authentication-method=normal", *user],
                   check=True, capture_output=True)
    port = free_port()
    process = subprocess.Popen(
        [MARIADBD, "--no-defaults", f"--datadir={datadir}", f"--port={port}",
         "--bind-address=127.0.0.1", f"--socket={base / 'mariadbd.sock'}",
         f"--pid-file={base / 'mariadbd.pid'}", f"--log-error={base / 'error.log'}",
         f"--log-bin={datadir / 'binlog'}", "--binlog-format=ROW",
         "--binlog-row-metadata=FULL", "--server-id=1", "--skip-name-resolve",
         "--innodb-buffer-pool-size=32M", *user],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server = BinlogServer(port, datadir, process)
    deadline = time.monotonic() + 60
    while True:
        try:
            server.root().close()
            return server
        except pymysql.MySQLError:
            if process.poll() is not None or time.monotonic() > deadline:
                server.stop()
                log = (base / "error.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"mariadbd did not start:\n{log}") from None
            time.sleep(0.2)


def create_site(server: BinlogServer, name: str, prefix: str = "wp_") -> None:
    """A database with WordPress's core tables and a replica user with only the grants
    the binlog source documents."""
    ddl = MYSQL_DDL.read_text(encoding="utf-8").replace("`wp_", f"`{prefix}")
    with server.root() as con, con.cursor() as cur:
        cur.execute(f"CREATE DATABASE IF NOT EXISTS `{name}` CHARACTER SET utf8mb4")
        cur.execute(f"USE `{name}`")
        for statement in (s for s in ddl.split(";\n") if s.strip()):
            if "CREATE TABLE" in statement:
                cur.execute(statement)
        cur.execute(f"CREATE USER IF NOT EXISTS '{REPL_USER}'@'%' "
                    f"IDENTIFIED BY '{REPL_PASSWORD}'")
        cur.execute(f"GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO '{REPL_USER}'@'%'")
        # Column names when binlog_row_metadata is not FULL come from information_schema,
        # which shows a table's columns only to a user with a privilege on it.
        cur.execute(f"GRANT SELECT ON `{name}`.* TO '{REPL_USER}'@'%'")
