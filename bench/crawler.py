"""The crawler profile (issue #26): what Googlebot, Bingbot and SEO tools meet.

A crawler reads the index, then every sitemap it lists, one after the other, and never asks
for the same document twice within seconds. So each timed request here comes more than
`gap` seconds (default: the store window plus 0.3 s) after the previous one, on a fresh
connection, after one untimed pass that rendered and stored every document (the state of a
site that has been serving for a while). The same documents are then asked again with the
ETag the first pass got (a crawler's conditional GET: its 304).

    python bench/bench.py crawl --size 100000 --pages 30 --write
    python bench/bench.py crawl --size 100000 --plugin-beats 20 --write

With `--plugin-beats N` the app runs with the companion plugin as its change source
(`WPSITEMAPS_CHANGE_SOURCE=plugin` and a notify secret), and a thread does what
wordpress/wpsitemaps-notify.php does on a site with visitors: it posts a signed notification
with no changes (a beat) every N seconds (the plugin beats at most every 30 s; the service
trusts a source heard from within 60 s). Nothing in the database changes during the run, so
every stored page stays valid: the figures are what a crawler meets between edits.

The same run measures the raw SQL floor of each post page (bench/rawsql.py) and, where php
and Debian's WordPress are there, WordPress core's own sitemap pages requested the same way.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import re
import secrets
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

import build
import rawsql
import rowsread
import servers
from measure import sitemap_paths

OTHERS = ("/category-sitemap.xml", "/post_tag-sitemap.xml", "/author-sitemap.xml",
          "/news-sitemap.xml", "/video-sitemap.xml")


@dataclass
class Crawled:
    """What the crawler met on one document: one request per pass."""

    path: str
    urls: int = 0
    status: list[int] = field(default_factory=list)
    ms: list[float] = field(default_factory=list)
    not_modified_ms: list[float] = field(default_factory=list)
    etag: str | None = None


class Crawler:
    """One GET at a time, each at least `gap` seconds after the previous one ended."""

    def __init__(self, port: int, gap: float) -> None:
        self.port = port
        self.gap = gap
        self.last = 0.0

    def get(self, path: str, headers: dict[str, str] | None = None
            ) -> tuple[float, int, bytes, str | None]:
        """(ms, status, body, ETag) of one GET on a fresh connection, after the gap."""
        wait = self.last + self.gap - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        try:
            start = time.perf_counter()
            conn.request("GET", path, headers={"Accept-Encoding": "identity",
                                               "User-Agent": "bench-crawler",
                                               **(headers or {})})
            resp = conn.getresponse()
            body = resp.read()
            ms = (time.perf_counter() - start) * 1000
            return ms, resp.status, body, resp.getheader("ETag")
        finally:
            conn.close()
            self.last = time.monotonic()


NOTIFY_PATH = "/.well-known/wpsitemaps/notify"


class Beats:
    """Signed empty notifications every `every` seconds, as the plugin sends them."""

    def __init__(self, port: int, secret: str, every: float) -> None:
        self.port, self.secret, self.every = port, secret, every
        self.answers: list[int] = []
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def send(self) -> int:
        """One beat; the HTTP status it got."""
        body = json.dumps({"v": 1, "nonce": secrets.token_hex(16), "blog_id": 1,
                           "changes": []}).encode()
        stamp = str(int(time.time()))
        mac = hmac.new(self.secret.encode(), stamp.encode() + b"." + body, hashlib.sha256)
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request("POST", NOTIFY_PATH, body=body, headers={
                "Content-Type": "application/json", "X-WPSitemaps-Timestamp": stamp,
                "X-WPSitemaps-Signature": "sha256=" + mac.hexdigest()})
            resp = conn.getresponse()
            resp.read()
            return resp.status
        finally:
            conn.close()

    def _run(self) -> None:
        while not self.done.wait(self.every):
            self.answers.append(self.send())

    def start(self) -> None:
        """The first beat now (so the source is live before the crawl), then in turn."""
        self.answers.append(self.send())
        self.thread.start()

    def stop(self) -> None:
        self.done.set()
        self.thread.join(timeout=60)


def spread(paths: list[str], count: int) -> list[str]:
    """`count` of `paths` evenly spread, first and last included (all when fewer)."""
    if len(paths) <= count:
        return paths
    step = (len(paths) - 1) / (count - 1)
    return [paths[round(i * step)] for i in range(count)]


def documents(index: bytes, pages: int) -> list[str]:
    """The index, `pages` post pages spread over the site, then the other sitemaps."""
    listed = sitemap_paths(index)
    posts = [p for p in listed if re.fullmatch(r"/post-sitemap\d*\.xml", p)]
    return ["/sitemap_index.xml", *spread(posts, pages), *[p for p in OTHERS if p in listed]]


def ready_index(port: int, limit: float = 1800.0) -> tuple[bytes, float]:
    """The index once it answers 200, and the seconds waited for it. The CPU-based settle
    is not enough on a cold database: the start-up refresh then waits on the disk, using
    little CPU, and the index answers 503 (being prepared) until it is done."""
    started = time.monotonic()
    while True:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        try:
            conn.request("GET", "/sitemap_index.xml")
            resp = conn.getresponse()
            body = resp.read()
        finally:
            conn.close()
        waited = time.monotonic() - started
        if resp.status == 200 or waited > limit:
            return body, waited
        time.sleep(5.0)


def crawl(port: int, paths: list[str], gap: float, passes: int) -> dict[str, Crawled]:
    """An untimed pass that stores every document, then `passes` timed crawler passes and
    as many conditional ones (If-None-Match with the ETag the document had)."""
    crawler = Crawler(port, gap)
    out = {p: Crawled(p) for p in paths}
    for path in paths:
        _ms, _status, body, etag = crawler.get(path)
        out[path].urls = body.count(b"<url>") + body.count(b"<sitemap>")
        out[path].etag = etag
    # The index was stored first, before the documents after it computed values no worker
    # held yet (their first computation moves the ledger's `values` head): ask it once more
    # untimed, as a crawler that read it before the warm-up would (its ETag is kept).
    crawler.get(paths[0])
    for _ in range(passes):
        for path in paths:
            ms, status, _body, _etag = crawler.get(path)
            out[path].ms.append(ms)
            out[path].status.append(status)
        for path in paths:
            etag = out[path].etag
            if etag:
                ms, status, _body, _etag = crawler.get(path, {"If-None-Match": etag})
                out[path].not_modified_ms.append(ms)
                out[path].status.append(status)
    return out


def wordpress_pages(db: str, count: int, gap: float, tmp: Path) -> dict[str, float]:
    """{path: ms} of WordPress core's index and post pages, one crawler request each
    (after one untimed request of each, so PHP's opcache is warm)."""
    port = servers.free_port(build.APP_PORT + 1)
    proc = servers.start_wordpress(db, port, tmp)
    try:
        crawler = Crawler(port, gap)
        _ms, _status, index, _etag = crawler.get("/wp-sitemap.xml")
        posts = [p for p in sitemap_paths(index)
                 if re.fullmatch(r"/wp-sitemap-posts-post-\d+\.xml", p)]
        paths = ["/wp-sitemap.xml", *spread(posts, count)]
        for path in paths:
            crawler.get(path)
        return {path: crawler.get(path)[0] for path in paths}
    finally:
        servers.stop(proc)


def page_number(path: str) -> int:
    """The page number of a post sitemap path (1 for the first)."""
    found = re.search(r"sitemap(\d*)\.xml", path)
    return int(found[1] or 1) if found else 1


def run(db: str, pages: int, gap: float, passes: int, workers: int, env: dict[str, str],
        wordpress: bool, beats: float = 0) -> dict[str, Any]:
    """The crawler profile of one database: every figure of one run."""
    secret = secrets.token_hex(24)
    if beats:
        env = {**env, "WPSITEMAPS_CHANGE_SOURCE": "plugin", "WPSITEMAPS_NOTIFY_SECRET": secret}
    beat_answers: list[int] = []
    with tempfile.TemporaryDirectory(prefix="wpsm-crawl-") as name:
        tmp = Path(name)
        url = f"mysql+pymysql://root@127.0.0.1/{db}?charset=utf8mb4"
        port = servers.free_port(build.APP_PORT)
        proc = servers.start_app(url, port, workers, tmp, store=str(tmp / "store"), env=env)
        try:
            settled = servers.settle(proc)
            index, waited = ready_index(port)
            settled += waited
            paths = documents(index, pages)
            beater = Beats(port, secret, beats) if beats else None
            if beater:
                beater.start()
            try:
                crawled = crawl(port, paths, gap, passes)
            finally:
                if beater:
                    beater.stop()
                    beat_answers = beater.answers
        finally:
            servers.stop(proc)
        posts = [p for p in paths if p.startswith("/post-sitemap")]
        floors = rawsql.page_cost(db, sorted({page_number(p) for p in posts}), 1000, 5)
        rows = rowsread.rows_examined(db, {p: p for p in paths}, tmp, str(tmp / "rows-store"),
                                      settings=_settings(env),
                                      live_source="plugin" if beats else None)
        wp = wordpress_pages(db, pages, gap, tmp) if wordpress else {}
    shown = {k: ("(secret)" if k.endswith("SECRET") else v) for k, v in env.items()}
    return {"database": db, "posts": rawsql.published_count(db), "gap": gap,
            "beats": beats, "beat_answers": beat_answers, "shown_env": shown,
            "passes": passes, "workers": workers, "env": env, "settle_s": settled,
            "crawled": crawled, "floor_ms": {p: floors.get(page_number(p)) for p in posts},
            "rows": rows, "wordpress_ms": wp}


def _settings(env: dict[str, str]) -> dict[str, str]:
    """create_app() keys from WPSITEMAPS_* variables (for the in-process rows count)."""
    return {k.removeprefix("WPSITEMAPS_"): v for k, v in env.items()
            if k.startswith("WPSITEMAPS_")}


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def _f(value: float | None, digits: int = 1) -> str:
    return "" if value is None or value != value else f"{value:,.{digits}f}"


def section(result: dict[str, Any], command: str, commit: str, machine: str) -> str:
    """The Markdown section of one crawler run."""
    source = ", ".join(f"`{k}={v}`" for k, v in result["shown_env"].items()) or "none (defaults)"
    if result["beats"]:
        answers = sorted(set(result["beat_answers"]))
        source += (f"; a signed beat every {result['beats']:g} s as the plugin sends "
                   f"({len(result['beat_answers'])} sent, answered {answers})")
    lines = [heading(result), "", f"Command: `{command}`", "",
             f"Commit `{commit}`, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
             f"{machine}; `wpsitemaps serve --workers {result['workers']}` with the disk store; "
             f"settings: {source}; start-up refresh settled after {_f(result['settle_s'], 0)} s. "
             f"Every timed request came more than {result['gap']} s after the previous one "
             f"(the store window is 2 s), on a fresh connection; {result['passes']} timed "
             "pass(es) over the documents after one untimed pass that stored them (and the "
             "index once more at its end), then the same with If-None-Match; each document "
             "is asked about once a minute, within `cache_ttl` (300 s). "
             "Rows: MariaDB Handler_read% of one such request "
             "(in process, store window 0, the same change source, reported live before "
             "the request when it is the plugin's).", "",
             "| document | URLs | crawler median ms | 304 median ms | rows read | "
             "raw SQL floor ms | crawler ÷ floor | 304 ÷ floor | ms/URL |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for path, c in result["crawled"].items():
        floor = result["floor_ms"].get(path)
        med, nm = _median(c.ms), _median(c.not_modified_ms)
        bad = [s for s in c.status if s not in (200, 304)]
        lines.append(
            f"| `{path}`{' (errors: ' + str(bad) + ')' if bad else ''} | {c.urls} | {_f(med)} | "
            f"{_f(nm)} | {result['rows'].get(path, '')} | {_f(floor)} | "
            f"{_f(med / floor, 2) if floor else ''} | {_f(nm / floor, 2) if floor else ''} | "
            f"{_f(med / c.urls, 3) if c.urls else ''} |")
    if result["wordpress_ms"]:
        lines += ["", "WordPress core's own sitemap, same database, same crawler spacing "
                  "(2,000 URLs per page, no images):", "", "| document | ms |", "| --- | --- |",
                  *[f"| `{p}` | {_f(ms)} |" for p, ms in result["wordpress_ms"].items()]]
    return "\n".join(lines) + "\n"


def heading(result: dict[str, Any]) -> str:
    """The section heading: one per database and change-source setting."""
    source = (" with the plugin's notifications" if result["beats"] else
              " with " + ", ".join(result["env"].values()) if result["env"] else "")
    return f"## Crawler profile: {result['posts']:,} posts ({result['database']}){source}"
