"""First render of a post sitemap page against its raw SQL floor (issue #26, cold render).

In process (no HTTP, the Flask test client), store off: one app per round, warmed by the
index and page 2 (options, page bounds, templates), then the 1st, 50th and last post pages
are each requested once, the first request of that page in a warm worker. The same run
measures bench/rawsql.page_cost() of the same pages, so the ratio is taken under the same
load. `--profile` writes a pyinstrument profile of one round (pip install pyinstrument).

    python bench/coldrender.py wpsm_bench_100k --rounds 5 [--profile out.txt]
    python bench/coldrender.py wpsm_bench_1m --rounds 1 --db-timeout 1800
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from rawsql import listable_count  # noqa: E402
from rawsql import page_cost  # noqa: E402

from wpsitemaps import create_app  # noqa: E402
from wpsitemaps.demo.run import DEMO_CONFIG  # noqa: E402


def make_app(db: str, tmp: Path, db_timeout: float = 120.0) -> Any:
    """The demo app on `db`, store off, as bench/rowsread.py builds it."""
    toml = tmp / "cold.toml"
    toml.write_text(DEMO_CONFIG, encoding="utf-8")
    return create_app({
        "DATABASE_URL": f"mysql+pymysql://root@127.0.0.1/{db}?charset=utf8mb4",
        "TABLE_PREFIX": "wp_", "CONFIG": str(toml), "NOW": "option:demo_generated_at",
        "STORE": "off", "DB_TIMEOUT": db_timeout})


def path_of(page: int) -> str:
    return "/post-sitemap.xml" if page == 1 else f"/post-sitemap{page}.xml"


def warmed(client: Any, path: str, limit: float = 1800.0) -> None:
    """Ask `path` until it answers 200: on a million posts the index's first request runs
    out of its time for the database (503, being prepared) while the background refresh
    computes the page bounds, as it does in a worker that has just started."""
    started = time.monotonic()
    while (status := client.get(path).status_code) != 200:
        if time.monotonic() - started > limit:
            raise SystemExit(f"{path}: {status} after {limit:.0f} s")
        time.sleep(5.0)


def one_round(db: str, pages: list[int], tmp: Path, profiler: Any = None,
              db_timeout: float = 120.0) -> dict[int, tuple[float, float]]:
    """{page: (wall ms, this thread's CPU ms) of its first request} in a fresh, warmed app."""
    client = make_app(db, tmp, db_timeout).test_client()
    for warm in ("/sitemap_index.xml", path_of(2)):
        warmed(client, warm)
    out = {}
    for page in pages:
        if profiler is not None:
            profiler.start()
        start, cpu = time.perf_counter(), time.thread_time()
        response = client.get(path_of(page))
        out[page] = ((time.perf_counter() - start) * 1000, (time.thread_time() - cpu) * 1000)
        if profiler is not None:
            profiler.stop()
        assert response.status_code == 200, page
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--profile", type=Path)
    # On a million posts the warm-up computes every value in the request (page bounds, term
    # lists, the video scan: minutes); a longer time lets it do so once, not in a loop of
    # 503s beside the background refresh.
    parser.add_argument("--db-timeout", type=float, default=120.0)
    args = parser.parse_args()
    last = -(-listable_count(args.db) // 1000)
    pages = [1, 50, last]
    with tempfile.TemporaryDirectory() as tmp:
        if args.profile:
            from pyinstrument import Profiler
            profiler = Profiler(interval=0.0005)
            one_round(args.db, pages, Path(tmp), profiler, args.db_timeout)
            args.profile.write_text(profiler.output_text(unicode=False, color=False,
                                                         show_all=False), encoding="utf-8")
        renders: dict[int, list[float]] = {p: [] for p in pages}
        cpus: dict[int, list[float]] = {p: [] for p in pages}
        floors: dict[int, list[float]] = {p: [] for p in pages}
        for _ in range(args.rounds):
            for page, (ms, cpu) in one_round(args.db, pages, Path(tmp), None,
                                             args.db_timeout).items():
                renders[page].append(ms)
                cpus[page].append(cpu)
            for page, ms in page_cost(args.db, pages, n=5).items():
                floors[page].append(ms)
    print("| page | first render ms | of which CPU ms | raw SQL floor ms | ratio |")
    print("| --- | --- | --- | --- | --- |")
    for page in pages:
        render, floor = statistics.median(renders[page]), statistics.median(floors[page])
        cpu = statistics.median(cpus[page])
        print(f"| {page} | {render:.0f} | {cpu:.0f} | {floor:.1f} | {render / floor:.1f}x |")


if __name__ == "__main__":
    main()
