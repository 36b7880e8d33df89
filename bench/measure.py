"""Client-side timings: one keep-alive connection per path, a warm-up, then n timed GETs."""

from __future__ import annotations

import http.client
import re
import statistics
import time
from dataclasses import dataclass
from dataclasses import field


@dataclass
class Timing:
    """What n GETs of one path took, as a client on loopback saw it."""

    path: str
    status: int
    bytes: int
    urls: int
    images: int
    times_ms: list[float] = field(default_factory=list)
    etag: str | None = None
    error: str = ""

    @property
    def median(self) -> float:
        """Median in ms."""
        return statistics.median(self.times_ms) if self.times_ms else float("nan")

    @property
    def p95(self) -> float:
        """95th percentile (nearest rank) in ms."""
        return percentile(self.times_ms, 95)

    @property
    def per_url(self) -> float:
        """Median ms per <url> listed (NaN for documents without URLs)."""
        return self.median / self.urls if self.urls else float("nan")


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile by nearest rank (values already in ms)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, -(-len(ordered) * q // 100) - 1))]


def fetch(conn: http.client.HTTPConnection, path: str,
          headers: dict[str, str]) -> tuple[float, int, bytes, str | None]:
    """(ms, status, body, ETag) of one GET; http.client reopens a connection the server closed."""
    start = time.perf_counter()
    conn.request("GET", path, headers=headers)
    resp = conn.getresponse()
    body = resp.read()
    elapsed = (time.perf_counter() - start) * 1000
    return elapsed, resp.status, body, resp.getheader("ETag")


def time_path(port: int, path: str, n: int, headers: dict[str, str] | None = None,
              timeout: float = 600, budget: float = 120) -> Timing:
    """Warm up once, then time n GETs of `path` on one keep-alive connection.

    Stops early (with at least 3 timed GETs) once `budget` seconds are spent, so a document
    that takes many seconds cannot stretch a run to hours; Timing.times_ms says how many ran.
    """
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    hdrs = {"Accept-Encoding": "identity", **(headers or {})}
    start = time.perf_counter()
    try:
        ms, status, body, etag = fetch(conn, path, hdrs)
    except (OSError, http.client.HTTPException) as exc:
        # A failure (e.g. gunicorn's 30 s worker timeout) is recorded once, not repeated.
        conn.close()
        return Timing(path, 0, 0, 0, 0, [(time.perf_counter() - start) * 1000],
                      error=f"{type(exc).__name__}: {exc}")
    timing = Timing(path, status, len(body), body.count(b"<url>"),
                    body.count(b"<image:image>"), etag=etag)
    if status not in (200, 304):
        timing.times_ms.append(ms)
        timing.error = f"HTTP {status}"
        conn.close()
        return timing
    try:
        for done in range(n):
            if done >= 3 and time.perf_counter() - start > budget:
                break
            ms, status, _body, _etag = fetch(conn, path, hdrs)
            if status != timing.status:
                raise RuntimeError(f"{path}: status {status} after {timing.status}")
            timing.times_ms.append(ms)
    finally:
        conn.close()
    return timing


def sitemap_paths(index: bytes) -> list[str]:
    """Paths of the sitemaps an index lists."""
    locs = re.findall(rb"<loc>([^<]+)</loc>", index)
    return ["/" + loc.decode().split("/", 3)[3] for loc in locs]


def pick_pages(paths: list[str], pattern: str) -> list[tuple[str, str]]:
    """(label, path) of the first, middle and last page among paths matching `pattern`."""
    pages = [p for p in paths if re.fullmatch(pattern, p)]
    if not pages:
        return []
    return [("first", pages[0]), ("middle", pages[(len(pages) - 1) // 2]),
            ("last", pages[-1])]
