"""Load test: the production server (`wpsitemaps serve`, i.e. gunicorn) under concurrent clients.

Generates a WordPress database (SQLite, or use --database-url), starts `wpsitemaps serve` on a
free loopback port, runs N client threads with keep-alive http.client connections for a fixed
time over the index and every sitemap page it lists, then reports requests, errors and
latency percentiles and (with --write) records them under "## Load test" in bench/RESULTS.md.

    python bench/load.py --clients 64 --duration 60 --workers 5 --write
"""

from __future__ import annotations

import argparse
import http.client
import os
import platform
import re
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from dataclasses import field
from datetime import UTC
from datetime import datetime
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.support.builder import Site  # noqa: E402

RESULTS = REPO / "bench" / "RESULTS.md"
HEADING = "## Load test"


def generated_site(posts: int) -> Site:
    """A site shaped like a mid-size blog: posts with images and terms, pages, authors."""
    site = Site()
    cats = [site.term(f"Category {n}", "category", slug=f"category-{n}") for n in range(40)]
    tags = [site.term(f"Tag {n}", "post_tag", slug=f"tag-{n}") for n in range(150)]
    authors = [site.user(f"author{n}", f"Author {n}") for n in range(12)]
    for n in range(posts):
        img = f'<img src="/wp-content/uploads/2026/01/img-{n}.jpg" alt="">'
        site.post(f"Post {n}", name=f"post-{n}", terms=(cats[n % 40], tags[n % 150]),
                  author=authors[n % 12], content=f"<p>Text {n}</p>{img}")
    for n in range(max(1, posts // 10)):
        site.post(f"Page {n}", post_type="page", name=f"page-{n}")
    return site


def free_port() -> int:
    """A port nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def get(port: int, path: str, timeout: float = 10) -> tuple[int, bytes]:
    """One GET on a fresh connection."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def start_server(database_url: str, workers: int, log: Path) -> tuple[subprocess.Popen[bytes], int]:
    """Start `wpsitemaps serve` and wait until the index answers 200."""
    port = free_port()
    env = {**os.environ, "WPSITEMAPS_DATABASE_URL": database_url,
           "WPSITEMAPS_NOW": "option:test_now"}
    cmd = [sys.executable, "-m", "wpsitemaps.cli", "serve", "--host", "127.0.0.1",
           "--port", str(port), "--workers", str(workers)]
    with log.open("wb") as err:
        proc = subprocess.Popen(cmd, env=env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=err)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}: {log.read_text()[-2000:]}")
        try:
            if get(port, "/sitemap_index.xml", timeout=2)[0] == 200:
                return proc, port
        except OSError:
            pass
        time.sleep(0.2)
    proc.terminate()
    raise RuntimeError("server did not answer within 60 s")


def targets(port: int) -> list[str]:
    """The index and every sitemap page it lists (paths)."""
    status, body = get(port, "/sitemap_index.xml")
    assert status == 200, status
    locs = re.findall(rb"<loc>([^<]+)</loc>", body)
    return ["/sitemap_index.xml"] + ["/" + loc.decode().split("/", 3)[3] for loc in locs]


@dataclass
class Tally:
    """What the clients saw."""

    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    bytes: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def client(port: int, paths: list[str], offset: int, deadline: float, tally: Tally) -> None:
    """Request paths round-robin on one keep-alive connection until the deadline."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    lat: list[float] = []
    errors = 0
    statuses: dict[int, int] = {}
    size = 0
    n = offset
    while time.monotonic() < deadline:
        path = paths[n % len(paths)]
        n += 1
        start = time.perf_counter()
        try:
            conn.request("GET", path)
            resp = conn.getresponse()
            body = resp.read()
        except (OSError, http.client.HTTPException):
            errors += 1
            conn.close()
            continue
        lat.append(time.perf_counter() - start)
        statuses[resp.status] = statuses.get(resp.status, 0) + 1
        size += len(body)
        if resp.status != 200 or not body.rstrip().endswith((b"</urlset>", b"</sitemapindex>")):
            errors += 1
    conn.close()
    with tally.lock:
        tally.latencies += lat
        tally.errors += errors
        tally.bytes += size
        for status, count in statuses.items():
            tally.statuses[status] = tally.statuses.get(status, 0) + count


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) in milliseconds."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))] * 1000


def worker_rss_mb(master: int) -> list[float]:
    """Resident memory of the gunicorn workers (children of the master), in MB."""
    out = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            stat = (proc / "stat").read_text().rsplit(")", 1)[1].split()
            if int(stat[1]) != master:
                continue
            rss = re.search(r"VmRSS:\s+(\d+) kB", (proc / "status").read_text())
        except (OSError, IndexError):
            continue
        if rss:
            out.append(int(rss[1]) / 1024)
    return sorted(out)


def run(clients: int, duration: float, workers: int, posts: int,
        database_url: str | None = None) -> dict[str, object]:
    """Run the whole load test and return its figures."""
    with tempfile.TemporaryDirectory(prefix="wpsm-load-") as tmp:
        url = database_url or generated_site(posts).write_sqlite(Path(tmp) / "load.sqlite")
        proc, port = start_server(url, workers, Path(tmp) / "server.log")
        try:
            paths = targets(port)
            tally = Tally()
            deadline = time.monotonic() + duration
            threads = [threading.Thread(target=client, args=(port, paths, i, deadline, tally))
                       for i in range(clients)]
            started = time.monotonic()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            elapsed = time.monotonic() - started
            rss = worker_rss_mb(proc.pid)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=30)
        log = (Path(tmp) / "server.log").read_text(errors="replace")
    lat = tally.latencies
    return {"clients": clients, "duration_s": round(elapsed, 1), "workers": workers,
            "posts": posts if database_url is None else None, "pages": len(paths),
            "requests": len(lat), "errors": tally.errors, "statuses": tally.statuses,
            "rps": round(len(lat) / elapsed, 1), "mb": round(tally.bytes / 1e6, 1),
            "p50_ms": round(percentile(lat, 50), 1), "p90_ms": round(percentile(lat, 90), 1),
            "p99_ms": round(percentile(lat, 99), 1), "max_ms": round(max(lat) * 1000, 1),
            "worker_rss_mb": [round(r, 1) for r in rss],
            "server_errors_logged": log.count("[ERROR]")}


def machine() -> str:
    """CPU, cores, memory, OS and versions, for the record."""
    cpu = next((line.split(":", 1)[1].strip() for line in
                Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("model name")),
               platform.processor())
    mem = re.search(r"MemTotal:\s+(\d+)", Path("/proc/meminfo").read_text())
    import gunicorn

    gib = int(mem[1]) / 1024 / 1024 if mem else 0
    return (f"{cpu}, {os.cpu_count()} CPUs, {gib:.0f} GiB RAM, {platform.system()} "
            f"{platform.release()}, Python {platform.python_version()}, "
            f"gunicorn {gunicorn.__version__}")


def section(result: dict[str, object], command: str) -> str:
    """The Markdown section for RESULTS.md."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO,
                            capture_output=True, text=True).stdout.strip()
    date = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    rss = result["worker_rss_mb"]
    pages = int(str(result["pages"])) - 1
    return f"""{HEADING}

Command: `{command}`

bench/load.py starts the production server (`wpsitemaps serve`: gunicorn with sync workers)
on a loopback port, reading a generated SQLite database of {result['posts']} posts with
images and terms. Then {result['clients']} client threads, each on a keep-alive
`http.client` connection, request the index and the {pages} sitemap pages it lists,
round-robin, for {result['duration_s']} s. An error is a failed connection, a status other
than 200, or a body that does not end with its closing tag.

| figure | value |
| --- | --- |
| date, commit | {date}, `{commit}` |
| machine | {machine()} |
| gunicorn workers | {result['workers']} (sync) |
| requests | {result['requests']} ({result['rps']} per second, {result['mb']} MB) |
| errors | {result['errors']} (statuses: {result['statuses']}) |
| latency p50 / p90 / p99 / max | {result['p50_ms']} / {result['p90_ms']} / {result['p99_ms']} / \
{result['max_ms']} ms |
| worker memory (RSS) after the run | {rss} MB |
| errors in the server log | {result['server_errors_logged']} |

The clients share the machine's CPUs with the workers. With {result['clients']} clients and
{result['workers']} sync workers, most of the latency is time spent waiting in gunicorn's
queue: latency ≈ clients / throughput (Little's law). A smaller test run (5 clients for 3 s)
is part of the test suite (tests/test_load_smoke.py).
"""


def write_section(text: str) -> None:
    """Replace (or add) the "## Load test" section of RESULTS.md, keeping the others."""
    old = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else "# Benchmarks\n"
    pattern = re.compile(rf"^{re.escape(HEADING)}\n.*?(?=^## |\Z)", re.S | re.M)
    new = pattern.sub(lambda _m: text + "\n", old) if pattern.search(old) \
        else old.rstrip("\n") + "\n\n" + text
    RESULTS.write_text(new.rstrip("\n") + "\n", encoding="utf-8")


def main() -> None:
    """Parse arguments, run, print, optionally record."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--duration", type=float, default=60)
    parser.add_argument("--workers", type=int, default=(os.cpu_count() or 1) * 2 + 1)
    parser.add_argument("--posts", type=int, default=5000)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--write", action="store_true", help="record in bench/RESULTS.md")
    args = parser.parse_args()
    result = run(args.clients, args.duration, args.workers, args.posts, args.database_url)
    for key, value in result.items():
        print(f"{key}: {value}")
    if args.write:
        command = "python bench/load.py " + shlex.join(sys.argv[1:])
        write_section(section(result, command))
    sys.exit(1 if result["errors"] else 0)


if __name__ == "__main__":
    main()
