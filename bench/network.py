"""The network case of the benchmark (issue #17): one service for a multisite network of
1,000 sites with a few posts each.

    python bench/network.py build --sites 1000          # MariaDB wpsm_bench_network (~9 min)
    python bench/network.py run --sites 1000 --write    # figures into RESULTS.md

`build` loads the shared fixture ms-small (a real WordPress 6.1 network) and adds sites
5..N the way wpmu_create_blog() leaves them: a `wp_blogs` row at `localhost/sN/` and the
site's own tables (the seven the service reads), copied from site 2 (16 published posts,
10 pages, 3 events) with its home and siteurl set to the new path. `--backend sqlite` writes
SQLite files instead (slow: SQLite parses every table's schema on each connection).

`run` starts `wpsitemaps serve --workers 1` (default `site_cache_size` 100) and measures:
start-up (process start to the main site's first index answer) with N sites and again with
9,000 more `wp_blogs` rows (10,000 sites), the network robots.txt, the first and a repeated
request of every site's post sitemap (Host: localhost, /sN/post-sitemap.xml), and the
worker's resident memory (VmRSS) after each quarter of the sites.
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))
sys.path.insert(0, str(BENCH))

from servers import children  # noqa: E402
from servers import free_port  # noqa: E402
from servers import stop  # noqa: E402

SHARED = Path(os.environ.get("WPSITEMAPS_SHARED") or next(
    (p / "shared" for p in BENCH.parents if (p / "shared" / "wordpress").is_dir()),
    BENCH.parent.parent / "shared"))
FIXTURE = SHARED / "wordpress" / "ms-small.sql"
TABLES = ("posts", "postmeta", "options", "terms", "term_taxonomy", "term_relationships",
          "termmeta", "comments", "commentmeta", "links")
CONFIG = """\
now = "option:peer_generated_at"
[post_types.event]
rewrite_slug = "events"
has_archive = true
[post_types.peer_internal]
exclude = true
[taxonomies.genre]
rewrite_slug = "genre"
"""


def db_path(sites: int, extra: int = 0) -> Path:
    """Where the benchmark network lives."""
    return Path(tempfile.gettempdir()) / f"wpsm-bench-network-{sites}-{extra}.sqlite"


def build(sites: int) -> None:
    """Write the N-site network and its 10,000-row twin."""
    path = db_path(sites)
    path.unlink(missing_ok=True)
    subprocess.run([sys.executable, str(SHARED / "wordpress" / "load_sqlite.py"), str(FIXTURE),
                    str(path)], check=True, capture_output=True)
    con = sqlite3.connect(path)
    for blog_id in range(5, sites + 1):
        for table in TABLES:
            con.execute(f"CREATE TABLE wp_{blog_id}_{table} AS SELECT * FROM wp_2_{table}")
        con.execute(f"UPDATE wp_{blog_id}_options SET option_value = ? WHERE option_name IN "
                    "('home', 'siteurl')", (f"http://localhost/s{blog_id}",))
        con.execute("INSERT INTO wp_blogs (blog_id, site_id, domain, path, registered, "
                    "last_updated, public, archived, mature, spam, deleted, lang_id) VALUES "
                    "(?, 1, 'localhost', ?, '2026-12-01 06:00:00', '2026-12-01 06:00:00', "
                    "1, 0, 0, 0, 0, 0)", (blog_id, f"/s{blog_id}/"))
    con.commit()
    con.close()
    big = db_path(sites, 10_000 - sites)
    shutil.copy(path, big)
    con = sqlite3.connect(big)
    con.executemany("INSERT INTO wp_blogs (blog_id, site_id, domain, path, registered, "
                    "last_updated, public, archived, mature, spam, deleted, lang_id) VALUES "
                    "(?, 1, 'localhost', ?, '2026-12-01 06:00:00', '2026-12-01 06:00:00', "
                    "1, 0, 0, 0, 0, 0)",
                    [(i, f"/s{i}/") for i in range(sites + 1, 10_001)])
    con.commit()
    con.close()
    print(f"wrote {path} ({sites} sites) and {big} (10,000 wp_blogs rows)")


MARIADB_DB = "wpsm_bench_network"
MARIADB_URL = f"mysql+pymysql://root@127.0.0.1:3306/{MARIADB_DB}?charset=utf8mb4"
# The tables the service reads (WordPress also makes comments, commentmeta and links).
READ_TABLES = TABLES[:7]


def build_mariadb(sites: int) -> None:
    """The same network in MariaDB (`wpsm_bench_network`), piped into the mariadb client."""
    client = shutil.which("mariadb") or shutil.which("mysql") or "mariadb"
    root = [client, "-h", "127.0.0.1", "-uroot"]
    subprocess.run([*root, "-e", f"DROP DATABASE IF EXISTS {MARIADB_DB}; CREATE DATABASE "
                    f"{MARIADB_DB} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci"],
                   check=True)
    sql = [FIXTURE.read_text(encoding="utf-8"), "SET autocommit=0;"]
    for blog_id in range(5, sites + 1):
        for table in READ_TABLES:
            sql.append(f"CREATE TABLE wp_{blog_id}_{table} LIKE wp_2_{table};"
                       f"INSERT INTO wp_{blog_id}_{table} SELECT * FROM wp_2_{table};")
        sql.append(f"UPDATE wp_{blog_id}_options SET option_value = 'http://localhost/s{blog_id}'"
                   " WHERE option_name IN ('home', 'siteurl');")
        sql.append("INSERT INTO wp_blogs (blog_id, site_id, domain, path, registered, "
                   f"last_updated) VALUES ({blog_id}, 1, 'localhost', '/s{blog_id}/', "
                   "'2026-12-01 06:00:00', '2026-12-01 06:00:00');")
    sql.append("COMMIT;")
    subprocess.run([*root, "--default-character-set=utf8mb4", MARIADB_DB],
                   input="\n".join(sql).encode("utf-8"), check=True)
    print(f"wrote {MARIADB_DB} ({sites} sites)")


def mariadb_extra_blogs(sites: int, add: bool) -> None:
    """Add (or remove) wp_blogs rows up to 10,000 sites: the start-up comparison."""
    client = shutil.which("mariadb") or shutil.which("mysql") or "mariadb"
    if add:
        values = ",".join(f"({i}, 1, 'localhost', '/s{i}/')" for i in range(sites + 1, 10_001))
        sql = f"INSERT INTO wp_blogs (blog_id, site_id, domain, path) VALUES {values}"
    else:
        sql = f"DELETE FROM wp_blogs WHERE blog_id > {sites}"
    subprocess.run([client, "-h", "127.0.0.1", "-uroot", MARIADB_DB], input=sql.encode(),
                   check=True)


def get(port: int, path: str, host: str = "localhost") -> tuple[int, float]:
    """(status, milliseconds) of one GET with a Host header, on a fresh connection."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    start = time.perf_counter()
    conn.request("GET", path, headers={"Host": host})
    resp = conn.getresponse()
    resp.read()
    conn.close()
    return resp.status, (time.perf_counter() - start) * 1000


def rss_mb(pid: int) -> float:
    """VmRSS of a process in MB."""
    found = re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    return int(found[1]) / 1024 if found else float("nan")


def start(url: str, tmp: Path, port: int) -> tuple[subprocess.Popen[bytes], float]:
    """Start the service; return it and the seconds until the main site's index answered."""
    config = tmp / "network.toml"
    config.write_text(CONFIG, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("WPSITEMAPS_")}
    env.update({"WPSITEMAPS_DATABASE_URL": url, "WPSITEMAPS_CONFIG": str(config)})
    cmd = [sys.executable, "-m", "wpsitemaps.cli", "serve", "--host", "127.0.0.1",
           "--port", str(port), "--workers", "1"]
    began = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, cwd=BENCH.parent, stdout=subprocess.DEVNULL,
                            stderr=(tmp / "app.log").open("wb"))
    while True:
        try:
            if get(port, "/sitemap_index.xml")[0] == 200:
                return proc, time.perf_counter() - began
        except OSError:
            time.sleep(0.05)
        if proc.poll() is not None:
            raise RuntimeError((tmp / "app.log").read_text()[-2000:])


def site_paths(sites: int) -> list[tuple[str, str]]:
    """(Host, path) of every site's post sitemap (ms-small's own 1-4, then /sN/)."""
    out = [("localhost", "/post-sitemap.xml"), ("localhost", "/fr/post-sitemap.xml"),
           ("127.0.0.1", "/post-sitemap.xml"), ("localhost", "/intranet/post-sitemap.xml")]
    return out + [("localhost", f"/s{i}/post-sitemap.xml") for i in range(5, sites + 1)]


def run(sites: int, write: bool, backend: str) -> None:
    """Measure and print (and with --write, record) the network figures."""
    tmp = Path(tempfile.mkdtemp(prefix="wpsm-net-"))
    port = free_port(8767)
    url = MARIADB_URL if backend == "mariadb" else f"sqlite:///{db_path(sites)}"
    proc, startup = start(url, tmp, port)
    try:
        worker = children(proc.pid)[0]
        robots = [get(port, "/robots.txt")[1] for _ in range(2)]
        paths = site_paths(sites)
        first, again, memory = [], [], [(0, rss_mb(worker))]
        for n, (host, path) in enumerate(paths, start=1):
            status, ms = get(port, path, host)
            assert status == 200, (host, path, status)
            first.append(ms)
            again.append(get(port, path, host)[1])
            if n % (len(paths) // 4) == 0:
                memory.append((n, rss_mb(worker)))
    finally:
        stop(proc)
    print(f"start-up {startup:.2f} s; first median {statistics.median(first):.1f} ms; "
          f"again median {statistics.median(again):.1f} ms; memory {memory}", flush=True)
    if backend == "mariadb":
        mariadb_extra_blogs(sites, add=True)
        try:
            proc, startup_big = start(url, tmp, port)
            stop(proc)
        finally:
            mariadb_extra_blogs(sites, add=False)
    else:
        proc, startup_big = start(f"sqlite:///{db_path(sites, 10_000 - sites)}", tmp, port)
        stop(proc)
    report(sites, backend, startup, startup_big, first, again, memory, robots, write)


def _q(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(sites: int, backend: str, startup: float, startup_big: float, first: list[float],
           again: list[float], memory: list[tuple[int, float]], robots: list[float],
           write: bool) -> None:
    """Print the Markdown section; --write puts it into RESULTS.md."""
    rows = [("first request of a site (post sitemap: site found, context built, bounds)",
             first), ("the same site again, right after", again)]
    lines = [f"## Network: {sites} sites, one service, {backend} (`bench/network.py`, "
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})", "",
             f"Command: `python bench/network.py build --sites {sites} --backend {backend} && "
             f"python bench/network.py run --sites {sites} --backend {backend} --write`. "
             "One gunicorn sync worker, requests one at a time with `Host: localhost` (site 3: "
             "`127.0.0.1`) and the site's path; every site's post sitemap has 16 or more URLs "
             "(site 4 is not public: empty).", "",
             "| start-up (process start to the main site's first index answer) | seconds |",
             "| --- | --- |",
             f"| {sites} sites | {startup:.2f} |",
             f"| 10,000 sites (same database plus 9,000 wp_blogs rows) | {startup_big:.2f} |",
             "", "| request | n | median ms | p95 ms | max ms |", "| --- | --- | --- | --- | --- |"]
    for label, values in rows:
        lines.append(f"| {label} | {len(values)} | {statistics.median(values):.1f} | "
                     f"{_q(values, 0.95):.1f} | {max(values):.1f} |")
    lines += [f"| network robots.txt (all {sites} indexes), first / cached | {robots[0]:.1f} / "
              f"{robots[1]:.1f} | | | |"]
    lines += ["", "| sites served (site_cache_size 100) | worker VmRSS MB |", "| --- | --- |"]
    lines += [f"| {n} | {mb:.1f} |" for n, mb in memory]
    text = "\n".join(lines) + "\n"
    print(text)
    if write:
        results = BENCH / "RESULTS.md"
        current = results.read_text(encoding="utf-8")
        marker = f"## Network: {sites} sites, one service, {backend}"
        if marker in current:
            head, _, rest = current.partition(marker)
            tail = rest[rest.find("\n## "):] if "\n## " in rest else ""
            current = head + text + tail.lstrip("\n")
            results.write_text(current, encoding="utf-8")
        else:
            title, _, body = current.partition("\n")
            results.write_text(f"{title}\n\n{text}\n{body.lstrip()}", encoding="utf-8")


def main() -> None:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=["build", "run"])
    parser.add_argument("--sites", type=int, default=1000)
    parser.add_argument("--backend", choices=["mariadb", "sqlite"], default="mariadb")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    if args.command == "build":
        (build_mariadb if args.backend == "mariadb" else build)(args.sites)
    else:
        run(args.sites, args.write, args.backend)


if __name__ == "__main__":
    main()
