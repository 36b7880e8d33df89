"""A small run of bench/bench.py (300 posts, 3 requests each, 2 s of load), so it cannot rot."""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import require_mariadb
from tests.support import wpdb

pytestmark = pytest.mark.mariadb
BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench.py"
DOCUMENTS = ("index", "post page first", "post page middle", "post page last", "category",
             "post_tag", "author", "news", "video", "304 (If-None-Match)")


def load_bench() -> Any:
    """Import bench/bench.py (bench/ is not a package; it puts itself on sys.path)."""
    spec = importlib.util.spec_from_file_location("wpsm_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def smoke() -> Iterator[tuple[dict[str, Any], str]]:
    """Build a 300-post database with bench/build.py, run the benchmark, render its section."""
    require_mariadb()
    bench = load_bench()
    name = wpdb.mariadb_name("bench")
    bench.build.build(300, name)
    try:
        result = bench.run(name, n=3, workers=2, clients=2, seconds=2, per_page=100,
                           wordpress=bench.servers.wordpress_available())
        yield result, bench.report.section(result, "python bench/bench.py run (smoke)")
    finally:
        wpdb.drop_mariadb(name)


def test_every_document_answers(smoke: tuple[dict[str, Any], str]) -> None:
    """Every measured document of the app answers 200 (304 for the ETag), timed 3 times."""
    result, _text = smoke
    timings = {**result["app"]["timings"], "304 (If-None-Match)": result["app"]["304"]}
    assert sorted(timings) == sorted(DOCUMENTS)
    for label, timing in timings.items():
        assert timing.status == (304 if label.startswith("304") else 200), (label, timing)
        assert len(timing.times_ms) == 3, label


def test_post_pages_are_distinct_and_full(smoke: tuple[dict[str, Any], str]) -> None:
    """First, middle and last post pages are three pages in order; the first lists at least
    100 URLs."""
    timings = smoke[0]["app"]["timings"]
    paths = [timings[f"post page {k}"].path for k in ("first", "middle", "last")]
    numbers = [int(re.fullmatch(r"/post-sitemap(\d*)\.xml", p)[1] or 1) for p in paths]
    assert numbers[0] == 1 and numbers[0] < numbers[1] < numbers[2], paths
    assert timings["post page first"].urls >= 100  # plus <!--nextpage--> parts
    assert timings["post page first"].images > 0


def test_section_has_every_row(smoke: tuple[dict[str, Any], str]) -> None:
    """The RESULTS.md section has every document, figure, target and shape row."""
    text = smoke[1]
    for label in DOCUMENTS:
        assert f"\n| {label} | `/" in text, label
    for row in ("| date |", "| commit |", "| machine |", "| database server |",
                "| throughput |", "| peak RSS (VmHWM) per worker |", "raw SQL ms",
                "| 1,000-URL page median", "| last page no slower", "| index median",
                "× its raw SQL |", "| peak RSS per worker ≤ 80 MB |",
                "| published posts | 3", "| attachments with _wp_attachment_metadata |"):
        assert row in text, row


def test_raw_sql_and_throughput_measured(smoke: tuple[dict[str, Any], str]) -> None:
    """Raw SQL is timed for every post page and the load phase served requests without errors."""
    app = smoke[0]["app"]
    assert all(ms > 0 for ms in app["raw_sql_ms"].values())
    assert len(app["raw_sql_ms"]) == 3
    assert app["throughput"]["requests"] > 0
    assert app["throughput"]["errors"] == 0
    assert len(app["worker_peak_rss_mb"]) == 2


def test_wordpress_compared(smoke: tuple[dict[str, Any], str]) -> None:
    """WordPress core's index and post pages are timed on the same database when installed."""
    result, text = smoke
    if result["wordpress"] is None:
        assert "WordPress core was not measured" in text
        return
    wp = result["wordpress"]["timings"]
    assert wp["post page first"].status == 200
    assert wp["post page first"].urls > 0
    assert "ours ÷ WordPress (per URL)" in text


def test_cold_pass_and_rows_examined_measured(smoke: tuple[dict[str, Any], str]) -> None:
    """The store-off pass times the index, post pages and news, each with its rows examined."""
    result, text = smoke
    app = result["app"]
    cold = app["cold"]
    assert {"index", "post page first", "post page middle", "post page last",
            "news"} <= set(cold)
    assert all(t.status == 200 and len(t.times_ms) == 3 for t in cold.values())
    assert set(app["rows_examined"]) == set(cold)
    assert all(n > 0 for n in app["rows_examined"].values())
    assert "| warm page median ≤ 5 ms |" in text and "| document (store off) |" in text
