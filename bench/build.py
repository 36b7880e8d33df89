"""Build the benchmark databases in MariaDB from the demo generator (bulk multi-row INSERTs).

    python bench/build.py --size 100000            # wpsm_bench_100k
    python bench/build.py --size 1000000           # wpsm_bench_1m
    python bench/build.py --size 1000000 --verify  # only print the shape of an existing one

The SQL text of wpsitemaps.demo.write.mysql_sql() (FOREIGN_KEY_CHECKS, UNIQUE_CHECKS and
AUTOCOMMIT off, one COMMIT at the end) is piped into the `mariadb` client, so generation (one
Python process: the generator is one seeded random stream, it cannot be split by ID range
without changing its output) overlaps with the server's inserts on the other CPU.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from wpsitemaps.demo.write import mysql_sql  # noqa: E402

APP_PORT = 8765  # the home URL of the benchmark databases: where bench.py serves the app
MYSQL = ["mariadb", "-h127.0.0.1", "-uroot"]


def db_name(size: int) -> str:
    """The fixed database name of a size: wpsm_bench_100k, wpsm_bench_1m, wpsm_bench_5000."""
    if size % 1_000_000 == 0:
        return f"wpsm_bench_{size // 1_000_000}m"
    if size % 1000 == 0:
        return f"wpsm_bench_{size // 1000}k"
    return f"wpsm_bench_{size}"


def sql(statement: str, db: str | None = None) -> str:
    """Run one statement with the mariadb client; tab-separated output without headers."""
    cmd = [*MYSQL, "-N", "-B", "-e", statement] + ([db] if db else [])
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def build(size: int, db: str, seed: int = 1, now: int | None = None,
          home: str = f"http://127.0.0.1:{APP_PORT}") -> float:
    """Drop and create `db`, load `size` public posts into it; returns seconds taken."""
    started = time.monotonic()
    sql(f"DROP DATABASE IF EXISTS `{db}`")
    sql(f"CREATE DATABASE `{db}` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci")
    now = int(time.time()) if now is None else now
    proc = subprocess.Popen([*MYSQL, db], stdin=subprocess.PIPE)
    assert proc.stdin is not None
    try:
        for chunk in mysql_sql(size, seed, now=now, home=home, prefix="wp_"):
            proc.stdin.write(chunk.encode("utf-8"))
    finally:
        proc.stdin.close()
    if proc.wait() != 0:
        raise RuntimeError(f"mariadb exited with {proc.returncode}")
    return time.monotonic() - started


SHAPE = {
    "published posts": "SELECT COUNT(*) FROM wp_posts WHERE post_type='post' "
                       "AND post_status='publish'",
    "posts by status": "SELECT CONCAT(post_type, '/', post_status), COUNT(*) FROM wp_posts "
                       "GROUP BY post_type, post_status ORDER BY 2 DESC",
    "attachments with _wp_attachment_metadata":
        "SELECT COUNT(*) FROM wp_postmeta WHERE meta_key='_wp_attachment_metadata'",
    "posts with a featured image": "SELECT COUNT(*) FROM wp_postmeta pm JOIN wp_posts p "
        "ON p.ID=pm.post_id WHERE pm.meta_key='_thumbnail_id' AND p.post_status='publish' "
        "AND p.post_type='post'",
    "published posts with inline <img": "SELECT COUNT(*) FROM wp_posts WHERE post_type='post' "
        "AND post_status='publish' AND post_content LIKE '%<img %'",
    "published posts with a video embed": "SELECT COUNT(*) FROM wp_posts WHERE "
        "post_type='post' AND post_status='publish' AND (post_content LIKE '%youtube.com%' "
        "OR post_content LIKE '%vimeo.com%' OR post_content LIKE '%[video %')",
    "terms by taxonomy": "SELECT taxonomy, COUNT(*), SUM(count) FROM wp_term_taxonomy "
                         "GROUP BY taxonomy",
    "term relationships": "SELECT COUNT(*) FROM wp_term_relationships",
    "authors with published posts": "SELECT COUNT(DISTINCT post_author) FROM wp_posts "
        "WHERE post_type='post' AND post_status='publish'",
    "users": "SELECT COUNT(*) FROM wp_users",
    "postmeta rows": "SELECT COUNT(*) FROM wp_postmeta",
    "data + index size (MB)": "SELECT ROUND(SUM(data_length+index_length)/1048576) FROM "
        "information_schema.tables WHERE table_schema=DATABASE()",
}


def shape(db: str) -> dict[str, Any]:
    """The figures that show the database has the shape the issue asks for."""
    out: dict[str, Any] = {}
    for label, query in SHAPE.items():
        rows = [line.split("\t") for line in sql(query, db).splitlines()]
        out[label] = rows[0][0] if len(rows) == 1 and len(rows[0]) == 1 else rows
    return out


def main() -> None:
    """Parse arguments, build (unless --verify), print the shape as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--size", type=int, default=100_000, help="public posts")
    parser.add_argument("--db", default=None, help="database name (default from --size)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--verify", action="store_true", help="do not build, only check")
    args = parser.parse_args()
    db = args.db or db_name(args.size)
    if not args.verify:
        seconds = build(args.size, db, args.seed)
        print(f"built {db} ({args.size} public posts) in {seconds:.0f} s", flush=True)
    print(json.dumps({"database": db, **shape(db)}, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
