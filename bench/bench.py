"""The benchmark of issue #9: build the databases, measure the app and WordPress core.

    python bench/bench.py build --size 100000          # database wpsm_bench_100k
    python bench/bench.py run --size 100000 --write    # measure, record in bench/RESULTS.md

See bench/README.md for what is measured and how.
"""

from __future__ import annotations

import argparse
import http.client
import json
import shlex
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import build  # noqa: E402
import crawler  # noqa: E402
import load  # noqa: E402
import rawsql  # noqa: E402
import report  # noqa: E402
import rowsread  # noqa: E402
import servers  # noqa: E402
from measure import Timing  # noqa: E402
from measure import pick_pages  # noqa: E402
from measure import sitemap_paths  # noqa: E402
from measure import time_path  # noqa: E402

WP_PORT = build.APP_PORT + 1
SINGLE = (("index", "/sitemap_index.xml"), ("category", "/category-sitemap.xml"),
          ("post_tag", "/post_tag-sitemap.xml"), ("author", "/author-sitemap.xml"),
          ("news", "/news-sitemap.xml"), ("video", "/video-sitemap.xml"))


def app_targets(port: int, db: str, per_page: int) -> list[tuple[str, str]]:
    """(label, path) of every document measured on the app, index first."""
    try:
        paths = sitemap_paths(_body(port, "/sitemap_index.xml"))
    except (OSError, http.client.HTTPException):
        paths = []
    if not any(p.startswith("/post-sitemap") for p in paths):
        # The index failed (gunicorn kills a worker after 30 s): page count from SQL.
        pages = max(1, -(-rawsql.listable_count(db) // per_page))
        paths = ["/post-sitemap.xml"] + [f"/post-sitemap{k}.xml" for k in range(2, pages + 1)]
    posts = [(f"post page {label}", p) for label, p in
             pick_pages(paths, r"/post-sitemap\d*\.xml")]
    return [SINGLE[0], *posts, *SINGLE[1:]]


def say(message: str) -> None:
    """A progress line on stderr (a 1M run takes minutes)."""
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def throughput(port: int, paths: list[str], clients: int, seconds: float) -> dict[str, Any]:
    """N keep-alive clients round-robin over `paths` for a bounded time (bench/load.py's)."""
    tally = load.Tally()
    deadline = time.monotonic() + seconds
    threads = [threading.Thread(target=load.client, args=(port, paths, i, deadline, tally))
               for i in range(clients)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    lat = tally.latencies
    return {"clients": clients, "seconds": round(elapsed, 1), "requests": len(lat),
            "rps": round(len(lat) / elapsed, 1), "errors": tally.errors,
            "p50_ms": round(load.percentile(lat, 50), 1),
            "p99_ms": round(load.percentile(lat, 99), 1)}


def measure_app(db: str, n: int, workers: int, clients: int, seconds: float, tmp: Path,
                per_page: int = 0, store: str = "") -> dict[str, Any]:
    """Every figure of the app: timings, 304, throughput, peak RSS per worker."""
    url = f"mysql+pymysql://root@127.0.0.1/{db}?charset=utf8mb4"
    port = servers.free_port(build.APP_PORT)
    proc = servers.start_app(url, port, workers, tmp, per_page, store)
    try:
        # Warm figures are the steady state: the workers' start-up refresh (shared through
        # the store) runs to its end first, and how long it took is reported.
        say("waiting for the start-up refresh to finish")
        settled = servers.settle(proc)
        say(f"settled after {settled:.0f} s")
        targets = app_targets(port, db, per_page or 1000)
        timings = {}
        for label, path in targets:
            timings[label] = time_path(port, path, n)
            say(f"app {label} {path}: {timings[label].status or timings[label].error} "
                f"median {timings[label].median:.1f} ms")
        first = timings["post page first"]
        not_modified = time_path(port, first.path, n, {"If-None-Match": first.etag or ""})
        ok = [t.path for label, t in timings.items()
              if t.status == 200 and label.startswith("post page")]
        say(f"throughput: {clients} clients for {seconds} s")
        tput = throughput(port, ok, clients, seconds)
        rss = sorted(servers.peak_rss_mb(pid) for pid in servers.children(proc.pid))
        master = servers.peak_rss_mb(proc.pid)
    finally:
        servers.stop(proc)
    return {"timings": timings, "304": not_modified, "throughput": tput, "settle_s": settled,
            "worker_peak_rss_mb": [round(r, 1) for r in rss],
            "master_peak_rss_mb": round(master, 1), "workers": workers, "port": port}


def measure_cold(db: str, n: int, workers: int, tmp: Path, targets: list[tuple[str, str]],
                 per_page: int = 0) -> dict[str, Timing]:
    """The same documents rendered on every request: the server with the store off."""
    url = f"mysql+pymysql://root@127.0.0.1/{db}?charset=utf8mb4"
    port = servers.free_port(build.APP_PORT)
    proc = servers.start_app(url, port, workers, tmp, per_page, store="off")
    try:
        # Without a store each worker refreshes on its own at start: the render is timed
        # after that, not in contention with it.
        say(f"cold server settled after {servers.settle(proc):.0f} s")
        timings = {}
        for label, path in targets:
            timings[label] = time_path(port, path, n)
            say(f"cold {label} {path}: {timings[label].status or timings[label].error} "
                f"median {timings[label].median:.1f} ms")
    finally:
        servers.stop(proc)
    return timings


def store_mb(path: Path) -> float:
    """Bytes of every file below `path`, in MB (0 when there is none)."""
    if not path.is_dir():
        return 0.0
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 1e6


def measure_wordpress(db: str, n: int, tmp: Path) -> dict[str, Any]:
    """WordPress core's index and first/middle/last post sitemap page under `php -S`."""
    port = servers.free_port(WP_PORT)
    say(f"WordPress core on port {port}")
    proc = servers.start_wordpress(db, port, tmp)
    try:
        index = time_path(port, "/wp-sitemap.xml", n)
        paths = sitemap_paths(_body(port, "/wp-sitemap.xml"))
        pages = pick_pages(paths, r"/wp-sitemap-posts-post-\d+\.xml")
        timings: dict[str, Timing] = {"index": index}
        for label, path in pages:
            timings[f"post page {label}"] = time_path(port, path, n)
            say(f"WordPress {path}: median {timings[f'post page {label}'].median:.1f} ms")
        rss = servers.peak_rss_mb(proc.pid)
    finally:
        servers.stop(proc)
    return {"timings": timings, "peak_rss_mb": round(rss, 1)}


def _body(port: int, path: str) -> bytes:
    """One GET's body."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    try:
        conn.request("GET", path)
        return conn.getresponse().read()
    finally:
        conn.close()


def run(db: str, n: int = 20, workers: int = 5, clients: int = 8, seconds: float = 30,
        wordpress: bool = True, per_page: int = 1000) -> dict[str, Any]:
    """The whole measurement of one database; returns every figure."""
    with tempfile.TemporaryDirectory(prefix="wpsm-bench-") as name:
        tmp = Path(name)
        page_size = 0 if per_page == 1000 else per_page
        store = tmp / "store"
        app = measure_app(db, n, workers, clients, seconds, tmp, page_size, str(store))
        app["store_mb"] = round(store_mb(store), 2)
        cold_targets = [(label, t.path) for label, t in app["timings"].items()
                        if t.status == 200 and label.split()[0] in ("index", "post", "news")]
        # One worker: one client times the cold pass, and without a store every worker
        # would make its own start-up pass over the site.
        app["cold"] = measure_cold(db, n, 1, tmp, cold_targets, page_size)
        say("rows examined per warm request (Handler_read%)")
        app["rows_examined"] = rowsread.rows_examined(
            db, dict(cold_targets), tmp, str(tmp / "store-rows"), page_size)
        pages = {label: int(t.path.rsplit("sitemap", 1)[1].split(".")[0] or 1)
                 for label, t in app["timings"].items() if label.startswith("post page")}
        say("raw SQL of the post pages")
        costs = rawsql.page_cost(db, sorted(set(pages.values())), per_page, n)
        app["raw_sql_ms"] = {label: costs.get(page, float("nan"))
                             for label, page in pages.items()}
        wp = measure_wordpress(db, n, tmp) if wordpress else None
    return {"database": db, "posts": rawsql.published_count(db), "requests": n,
            "app": app, "wordpress": wp, "shape": build.shape(db)}


def main() -> None:
    """Parse the subcommand and its options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="create the MariaDB database from the demo generator")
    r = sub.add_parser("run", help="measure the app (and WordPress) on a built database")
    c = sub.add_parser("crawl", help="the crawler profile: each request after the window")
    for p in (b, r, c):
        p.add_argument("--size", type=int, default=100_000, help="public posts")
        p.add_argument("--db", default=None, help="database name (default from --size)")
    b.add_argument("--seed", type=int, default=1)
    r.add_argument("--requests", type=int, default=20, help="timed requests per document")
    r.add_argument("--workers", type=int, default=5, help="gunicorn sync workers")
    r.add_argument("--clients", type=int, default=8, help="throughput: concurrent clients")
    r.add_argument("--seconds", type=float, default=30, help="throughput: duration")
    r.add_argument("--no-wordpress", action="store_true", help="skip WordPress core")
    r.add_argument("--write", action="store_true", help="record in bench/RESULTS.md")
    r.add_argument("--json", type=Path, default=None, help="also dump the figures here")
    c.add_argument("--pages", type=int, default=30, help="post pages, spread over the site")
    c.add_argument("--gap", type=float, default=2.3, help="seconds between two requests")
    c.add_argument("--passes", type=int, default=2, help="timed passes over the documents")
    c.add_argument("--workers", type=int, default=5, help="gunicorn sync workers")
    c.add_argument("--env", action="append", default=[], metavar="WPSITEMAPS_X=V",
                   help="an extra setting of the served app (repeatable)")
    c.add_argument("--plugin-beats", type=float, default=0, metavar="SECONDS",
                   help="change source: the plugin's signed notifications, a beat every N s")
    c.add_argument("--no-wordpress", action="store_true", help="skip WordPress core")
    c.add_argument("--write", action="store_true", help="record in bench/RESULTS.md")
    args = parser.parse_args()
    db = args.db or build.db_name(args.size)
    if args.cmd == "crawl":
        env = dict(item.split("=", 1) for item in args.env)
        found = crawler.run(db, args.pages, args.gap, args.passes, args.workers, env,
                            wordpress=not args.no_wordpress and servers.wordpress_available(),
                            beats=args.plugin_beats)
        text = crawler.section(found, "python bench/bench.py " + shlex.join(sys.argv[1:]),
                               report._git("rev-parse", "--short", "HEAD"), load.machine())
        print(text)
        if args.write:
            report.write(text, crawler.heading(found))
        return
    if args.cmd == "build":
        seconds = build.build(args.size, db, args.seed)
        print(json.dumps({"database": db, "seconds": round(seconds), **build.shape(db)},
                         indent=1, ensure_ascii=False))
        return
    result = run(db, args.requests, args.workers, args.clients, args.seconds,
                 wordpress=not args.no_wordpress and servers.wordpress_available())
    command = "python bench/bench.py " + shlex.join(sys.argv[1:])
    text = report.section(result, command)
    print(text)
    if args.json:
        args.json.write_text(json.dumps(report.plain(result), indent=1, ensure_ascii=False))
    if args.write:
        report.write(text, report.heading(result))


if __name__ == "__main__":
    main()
