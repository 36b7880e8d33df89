"""The Markdown section bench.py writes into bench/RESULTS.md (one per database)."""

from __future__ import annotations

import dataclasses
import math
import re
import subprocess
from datetime import UTC
from datetime import datetime
from pathlib import Path
from typing import Any

import load
from measure import Timing

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
PAGE_MS, INDEX_MS, RAW_FACTOR, RSS_MB, LAST_FACTOR = 15.0, 50.0, 2.0, 80.0, 1.2
# Issue #13's targets: warm page median/p95, 304, news, index, throughput with 8 clients.
WARM_MS, WARM_P95_MS, NOT_MODIFIED_MS, NEWS_MS, INDEX13_MS, RPS = 5.0, 15.0, 3.0, 25.0, 20.0, 300


def heading(result: dict[str, Any]) -> str:
    """The section heading of one database."""
    return f"## Benchmark: {result['posts']:,} posts ({result['database']})"


def _f(value: float, digits: int = 1) -> str:
    """A number for a table cell (n/a for NaN)."""
    return "n/a" if value is None or math.isnan(value) else f"{value:,.{digits}f}"


def _git(*args: str) -> str:
    """Output of a git command in the repository."""
    return subprocess.run(["git", *args], cwd=RESULTS.parent, capture_output=True,
                          text=True).stdout.strip()


def _server() -> str:
    """MariaDB version and buffer pool size, as the mariadb client reports them."""
    out = subprocess.run(["mariadb", "-h127.0.0.1", "-uroot", "-N", "-B", "-e",
                          "SELECT VERSION(), @@innodb_buffer_pool_size"],
                         capture_output=True, text=True).stdout.split()
    return f"MariaDB {out[0]}, innodb_buffer_pool_size {int(out[1]) >> 20} MB" if out else "?"


def app_rows(app: dict[str, Any]) -> list[str]:
    """One table row per document measured on the app, plus the 304 row."""
    rows = []
    for label, t in app["timings"].items():
        raw = app["raw_sql_ms"].get(label)
        ratio = t.median / raw if raw else float("nan")
        rows.append(f"| {label} | `{t.path}` | {t.status or t.error} | {t.urls} | {t.images} | "
                    f"{t.bytes:,} | {len(t.times_ms)} | {_f(t.median)} | {_f(t.p95)} | "
                    f"{_f(t.per_url, 3)} | "
                    f"{_f(raw) if raw else ''} | {_f(ratio, 2) if raw else ''} |")
    nm: Timing = app["304"]
    rows.append(f"| 304 (If-None-Match) | `{nm.path}` | {nm.status} | 0 | 0 | {nm.bytes} | "
                f"{len(nm.times_ms)} | "
                f"{_f(nm.median)} | {_f(nm.p95)} | | | |")
    return rows


def cold_rows(app: dict[str, Any]) -> list[str]:
    """The documents rendered on every request (store off), beside the raw SQL floor."""
    cold: dict[str, Timing] = app.get("cold") or {}
    if not cold:
        return ["The cold pass did not run."]
    rows = ["| document (store off) | path | status | URLs | n | median ms | p95 ms | ms/URL | "
            "raw SQL ms | cold ÷ raw | rows examined, warm request |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    examined = app.get("rows_examined") or {}
    for label, t in cold.items():
        raw = app["raw_sql_ms"].get(label)
        ratio = t.median / raw if raw else float("nan")
        rows.append(f"| {label} | `{t.path}` | {t.status or t.error} | {t.urls} | "
                    f"{len(t.times_ms)} | {_f(t.median)} | {_f(t.p95)} | {_f(t.per_url, 3)} | "
                    f"{_f(raw) if raw else ''} | {_f(ratio, 2) if raw else ''} | "
                    f"{examined.get(label, '')} |")
    return rows


def issue13_rows(result: dict[str, Any]) -> list[str]:
    """Issue #13's targets, each met or not met with the measured value."""
    app = result["app"]
    t, cold = app["timings"], app.get("cold") or {}
    pages = {k: v for k, v in t.items() if k.startswith("post page")}
    warm = max(pages.values(), key=lambda x: x.median)
    warm95 = max(pages.values(), key=lambda x: x.p95)
    ratios = {k: v.median / app["raw_sql_ms"][k] for k, v in cold.items()
              if k.startswith("post page") and app["raw_sql_ms"].get(k)}
    worst = max(ratios, key=lambda k: ratios[k]) if ratios else None
    tp = app["throughput"]
    checks = [
        (f"warm page median ≤ {WARM_MS:g} ms", warm.median <= WARM_MS,
         f"worst {_f(warm.median)} ms (`{warm.path}`)"),
        (f"warm page p95 ≤ {WARM_P95_MS:g} ms", warm95.p95 <= WARM_P95_MS,
         f"worst {_f(warm95.p95)} ms (`{warm95.path}`)"),
        (f"304 median ≤ {NOT_MODIFIED_MS:g} ms", app["304"].median <= NOT_MODIFIED_MS,
         f"{_f(app['304'].median)} ms"),
        (f"cold page ≤ {RAW_FACTOR:g}× its raw SQL", worst is not None
         and ratios[worst] <= RAW_FACTOR,
         f"worst {_f(ratios[worst], 2)}× ({worst})" if worst else "not measured"),
        (f"news ≤ {NEWS_MS:g} ms (no optional DDL)", t["news"].median <= NEWS_MS,
         f"warm {_f(t['news'].median)} ms, cold "
         f"{_f(cold['news'].median) if 'news' in cold else 'n/a'} ms"),
        (f"index ≤ {INDEX13_MS:g} ms", t["index"].median <= INDEX13_MS,
         f"warm {_f(t['index'].median)} ms, cold "
         f"{_f(cold['index'].median) if 'index' in cold else 'n/a'} ms"),
        (f"throughput ≥ {RPS} requests/s, 0 errors", tp["rps"] >= RPS and not tp["errors"],
         f"{tp['rps']} requests/s, {tp['errors']} errors"),
    ]
    return [f"| {name} | {value} | {'met' if ok else '**not met**'} |"
            for name, ok, value in checks]


def wordpress_rows(result: dict[str, Any]) -> list[str]:
    """WordPress core's documents beside ours, per URL."""
    wp = result["wordpress"]
    if wp is None:
        return ["WordPress core was not measured (`--no-wordpress`, or PHP/WordPress missing)."]
    ours = result["app"]["timings"]
    rows = ["| document | WordPress path | URLs | median ms | p95 ms | ms/URL | ours ms/URL | "
            "ours ÷ WordPress (per URL) |", "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for label, t in wp["timings"].items():
        mine = ours.get(label)
        ratio = mine.per_url / t.per_url if mine and mine.urls and t.urls else float("nan")
        rows.append(f"| {label} | `{t.path}` | {t.urls} | {_f(t.median)} | {_f(t.p95)} | "
                    f"{_f(t.per_url, 3)} | {_f(mine.per_url, 3) if mine else ''} | "
                    f"{_f(ratio, 2)} |")
    rows.append(f"\nWordPress (`php -S`, one process) peak RSS: {wp['peak_rss_mb']} MB.")
    return rows


def target_rows(result: dict[str, Any]) -> list[str]:
    """The issue's targets, each met or not met with the measured value."""
    app = result["app"]
    t = app["timings"]
    pages = {k: v for k, v in t.items() if k.startswith("post page")}
    worst = max(pages.values(), key=lambda x: x.median)
    ratios = {k: v.median / app["raw_sql_ms"][k] for k, v in pages.items()}
    worst_ratio = max(ratios, key=lambda k: ratios[k])
    last_first = t["post page last"].median / t["post page first"].median
    rss = max(app["worker_peak_rss_mb"] or [float("nan")])
    checks = [
        (f"1,000-URL page median ≤ {PAGE_MS:g} ms", worst.median <= PAGE_MS,
         f"worst {_f(worst.median)} ms (`{worst.path}`)"),
        (f"last page no slower than first (last ≤ {LAST_FACTOR}× first)",
         last_first <= LAST_FACTOR, f"last/first = {_f(last_first, 2)}"),
        (f"index median ≤ {INDEX_MS:g} ms", t["index"].median <= INDEX_MS,
         f"{_f(t['index'].median)} ms"),
        (f"page ≤ {RAW_FACTOR:g}× its raw SQL", ratios[worst_ratio] <= RAW_FACTOR,
         f"worst {_f(ratios[worst_ratio], 2)}× ({worst_ratio})"),
        (f"peak RSS per worker ≤ {RSS_MB:g} MB", rss <= RSS_MB, f"max {_f(rss)} MB"),
    ]
    return [f"| {name} | {value} | {'met' if ok else '**not met**'} |"
            for name, ok, value in checks]


def shape_rows(shape: dict[str, Any]) -> list[str]:
    """The database's shape (what the generator wrote)."""
    rows = []
    for label, value in shape.items():
        if isinstance(value, list):
            value = "; ".join(" ".join(cell for cell in row) for row in value)
        rows.append(f"| {label} | {value} |")
    return rows


def section(result: dict[str, Any], command: str) -> str:
    """The whole Markdown section of one run."""
    app = result["app"]
    tp = app["throughput"]
    date = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        heading(result), "", f"Command: `{command}`", "",
        "| run | value |", "| --- | --- |",
        f"| date | {date} |", f"| commit | `{_git('rev-parse', 'HEAD')}` |",
        f"| machine | {load.machine()} |", f"| database server | {_server()} |",
        f"| database | `{result['database']}`: {result['posts']:,} published posts, "
        f"{result['shape'].get('data + index size (MB)')} MB data + indexes |",
        f"| server | `wpsitemaps serve`, {app['workers']} gunicorn sync workers, port "
        f"{app['port']} |",
        f"| start-up | the workers' start-up refresh (page bounds, term and author lists, "
        f"video candidates; shared through the store) took {_f(app.get('settle_s', float('nan')))}"
        " s until the server was idle; the figures below are taken after it |",
        f"| requests | warm-up + {result['requests']} per document (n: fewer when one took over "
        "120 s), one client, loopback; gunicorn's sync workers close every connection, so each "
        "request includes a loopback TCP connect |",
        "", "| document | path | status | URLs | images | bytes | n | median ms | p95 ms | "
        "ms/URL | raw SQL ms | full ÷ raw |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        *app_rows(app), "",
        "| throughput and memory | value |", "| --- | --- |",
        f"| throughput | {tp['rps']} requests/s with {tp['clients']} clients for "
        f"{tp['seconds']} s over the first, middle and last post pages ({tp['requests']} requests, "
        f"{tp['errors']} errors, p50 {tp['p50_ms']} ms, p99 {tp['p99_ms']} ms) |",
        f"| peak RSS (VmHWM) per worker | {app['worker_peak_rss_mb']} MB |",
        f"| peak RSS of the gunicorn master | {app['master_peak_rss_mb']} MB |",
        f"| rendered-page store on disk after the run | {app.get('store_mb', 'n/a')} MB |", "",
        "The same documents with the store off (`WPSITEMAPS_STORE=off`: rendered on every "
        "request; one worker, timed once its start-up refresh was over), and the rows MariaDB "
        "examined (Handler_read%) for one warm request of each "
        "(bench/rowsread.py):", "", *cold_rows(app), "",
        "WordPress core's sitemap on the same database (2,000 URLs per page, no images):", "",
        *wordpress_rows(result), "",
        "| target (issue #13) | measured | status |", "| --- | --- | --- |",
        *issue13_rows(result), "",
        "| target (issue #9) | measured | status |", "| --- | --- | --- |",
        *target_rows(result), "",
        "| database shape | value |", "| --- | --- |", *shape_rows(result["shape"]), ""]
    return "\n".join(lines)


def plain(value: Any) -> Any:
    """The result with Timings as dicts (for --json)."""
    if isinstance(value, Timing):
        return {**dataclasses.asdict(value), "median": value.median, "p95": value.p95}
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def write(text: str, title: str) -> None:
    """Replace (or add, above "## Load test") the section `title` of RESULTS.md."""
    old = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else "# Benchmarks\n"
    pattern = re.compile(rf"^{re.escape(title)}\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(old):
        new = pattern.sub(lambda _m: text.rstrip("\n") + "\n\n", old)
    elif "\n## Load test" in old:
        new = old.replace("\n## Load test", "\n" + text.rstrip("\n") + "\n\n## Load test", 1)
    else:
        new = old.rstrip("\n") + "\n\n" + text
    RESULTS.write_text(new.rstrip("\n") + "\n", encoding="utf-8")
