"""One revalidation of a stored post page, in process: its time, statements and rows sent.

The app runs in this process (no HTTP server), on a benchmark database, with a page store,
`store_window` 0 and `change_source` none, so every request computes the page's fingerprint
and, finding it unchanged, serves the stored bytes (the path a crawler's request takes
without a change source). For each page: two warm-up requests, then `--runs` timed ones;
printed: the median and fastest request time, the same for the fingerprint alone, and per request
the statements run and the rows the database sent back (cursor.rowcount of each SELECT).

    python bench/revalidate.py wpsm_bench_100k --pages 1,55,109
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

from sqlalchemy import event  # noqa: E402

from wpsitemaps import create_app  # noqa: E402
from wpsitemaps.demo.run import DEMO_CONFIG  # noqa: E402
from wpsitemaps.serving import documents  # noqa: E402
from wpsitemaps.web.context import service_of  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database")
    parser.add_argument("--pages", default="1", help="comma-separated post page numbers")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--verbose", action="store_true", help="print each statement")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="wpsm-revalidate-") as tmp:
        toml = Path(tmp) / "bench.toml"
        toml.write_text(DEMO_CONFIG, encoding="utf-8")
        app = create_app({
            "DATABASE_URL": f"mysql+pymysql://root@127.0.0.1/{args.database}?charset=utf8mb4",
            "TABLE_PREFIX": "wp_", "CONFIG": str(toml), "NOW": "option:demo_generated_at",
            "STORE": str(Path(tmp) / "pages"), "STORE_WINDOW": 0.0, "CHANGE_SOURCE": "none",
            "DB_TIMEOUT": 60})  # the first bounds pass, on a loaded machine
        engine = service_of(app).engine
        sent: list[int] = []
        spent: list[float] = []

        def counted(_conn: Any, cursor: Any, statement: str, *_args: Any) -> None:
            # Every statement here reads (SET STATEMENT ... FOR SELECT on MariaDB).
            sent.append(max(int(cursor.rowcount), 0))
            if args.verbose:
                took = (time.perf_counter() - started[0]) * 1000
                print(f"  {took:.1f} ms, {cursor.rowcount} rows:"
                      f" {' '.join(statement.split())[120:300]}")

        started: list[float] = [0.0]
        event.listen(engine, "before_cursor_execute",
                     lambda *_a: started.__setitem__(0, time.perf_counter()))
        event.listen(engine, "after_cursor_execute", counted)
        real = documents.page_fingerprint

        def timed(*fargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return real(*fargs)
            finally:
                spent.append(time.perf_counter() - start)

        documents.page_fingerprint = timed  # type: ignore[assignment]
        client = app.test_client()
        print("| page | request (median / min ms) | fingerprint (median / min ms) |"
              " statements | rows sent |")
        print("| --- | --- | --- | --- | --- |")
        for page in (int(p) for p in args.pages.split(",")):
            path = "/post-sitemap.xml" if page == 1 else f"/post-sitemap{page}.xml"
            for _ in range(2):
                assert client.get(path).status_code == 200, path
            times, prints, statements, rows = [], [], 0, 0
            for _ in range(args.runs):
                sent.clear()
                spent.clear()
                start = time.perf_counter()
                assert client.get(path).status_code == 200, path
                times.append(time.perf_counter() - start)
                prints.append(sum(spent))
                statements, rows = len(sent), sum(sent)
            print(f"| {page} | {_ms(times)} | {_ms(prints)} | {statements} | {rows} |")


def _ms(seconds: list[float]) -> str:
    return f"{statistics.median(seconds) * 1000:.0f} / {min(seconds) * 1000:.0f}"


if __name__ == "__main__":
    main()
