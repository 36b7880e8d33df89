#!/usr/bin/env python3
"""Regenerate the oracle fixtures: real WordPress writes each variant's database and truth.

    python3 tests/oracle/generate.py [--out DIR] [VARIANT ...]   # default: all, into fixtures

Needs php-cli, php-mysql, Debian's `wordpress` package (/usr/share/wordpress) and MariaDB on
127.0.0.1:3306 (root, no password). For each variant it creates a fresh database, runs
generate.php's install, settings, content and truth phases (one PHP process each, like
separate requests), then writes tests/fixtures/oracle/<variant>.sql (mysqldump) and
<variant>.truth.json. --out writes elsewhere (into a per-process database name).
"""

from __future__ import annotations

import argparse
import os
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


def generate(variant: str, out: Path = OUT, prefix_db: str = "wpsm_oracle_") -> None:
    """Build one variant from an empty database and write its dump and truth into `out`."""
    db = f"{prefix_db}{os.getpid()}_{variant}" if out != OUT else prefix_db + variant
    _sql(f"DROP DATABASE IF EXISTS `{db}`")
    _sql(f"CREATE DATABASE `{db}` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci")
    out.mkdir(parents=True, exist_ok=True)
    truth = out / f"{variant}.truth.json"
    for phase in ("install", "settings", "content"):
        _php(phase, variant, db)
    _php("truth", variant, db, truth)
    dump = subprocess.run([_client("mariadb-dump", "mysqldump"), "-h", HOST, "-P", PORT,
                           "-uroot", "--skip-dump-date", "--skip-comments", db],
                          check=True, capture_output=True)
    (out / f"{variant}.sql").write_bytes(dump.stdout)
    _sql(f"DROP DATABASE `{db}`")
    print(f"{variant}: {truth.stat().st_size} bytes truth, {len(dump.stdout)} bytes dump")


def main(argv: list[str]) -> None:
    """Parse [--out DIR] [VARIANT ...] and generate."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("variants", nargs="*", metavar="VARIANT", help=" ".join(VARIANTS))
    args = parser.parse_args(argv)
    unknown = set(args.variants) - set(VARIANTS)
    if unknown:
        parser.error(f"unknown variant(s): {', '.join(sorted(unknown))}")
    for name in args.variants or VARIANTS:
        generate(name, args.out)


if __name__ == "__main__":
    main(sys.argv[1:])
