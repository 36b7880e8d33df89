#!/usr/bin/env python3
"""Regenerate the oracle fixtures: real WordPress writes each variant's database and truth.

    python3 tests/oracle/generate.py [VARIANT ...]   # default: all variants

Needs php-cli, php-mysql, Debian's `wordpress` package (/usr/share/wordpress) and MariaDB on
127.0.0.1:3306 (root, no password). For each variant it creates a fresh database, runs
generate.php's install, settings, content and truth phases (one PHP process each, like
separate requests), then writes tests/fixtures/oracle/<variant>.sql (mysqldump) and <variant>.truth.json.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "fixtures" / "oracle"
VARIANTS = ("a", "b", "c", "d", "e")
HOST, PORT = "127.0.0.1", "3306"


def _client(*names: str) -> str:
    """The first MariaDB client program found on PATH."""
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    raise SystemExit(f"none of {names} on PATH")


def _sql(statement: str) -> None:
    """Run one statement as root."""
    subprocess.run([_client("mariadb", "mysql"), "-h", HOST, "-P", PORT, "-uroot", "-e",
                    statement], check=True)


def _php(phase: str, variant: str, db: str, out: Path | None = None) -> None:
    """Run one phase of generate.php; PHP notices or warnings fail the run."""
    cmd = ["php", "-d", "display_errors=stderr", str(HERE / "generate.php"), phase, variant, db]
    if out is not None:
        cmd.append(str(out))
    proc = subprocess.run(cmd, capture_output=True, text=True)
    noise = "\n".join(line for line in (proc.stdout + proc.stderr).splitlines()
                      if line.strip() and "WordPress database error" not in line)
    if proc.returncode != 0 or (phase != "install" and noise):
        raise SystemExit(f"php {phase} {variant} failed ({proc.returncode}):\n{noise}")


def generate(variant: str, prefix_db: str = "wpsm_oracle_") -> None:
    """Build one variant from an empty database and write its dump and truth."""
    db = prefix_db + variant
    _sql(f"DROP DATABASE IF EXISTS `{db}`")
    _sql(f"CREATE DATABASE `{db}` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci")
    OUT.mkdir(parents=True, exist_ok=True)
    truth = OUT / f"{variant}.truth.json"
    for phase in ("install", "settings", "content"):
        _php(phase, variant, db)
    _php("truth", variant, db, truth)
    dump = subprocess.run([_client("mariadb-dump", "mysqldump"), "-h", HOST, "-P", PORT,
                           "-uroot", "--skip-dump-date", "--skip-comments", db],
                          check=True, capture_output=True)
    (OUT / f"{variant}.sql").write_bytes(dump.stdout)
    _sql(f"DROP DATABASE `{db}`")
    print(f"{variant}: {truth.stat().st_size} bytes truth, {len(dump.stdout)} bytes dump")


if __name__ == "__main__":
    for name in sys.argv[1:] or VARIANTS:
        generate(name)
