"""Prometheus metrics under a real `wpsitemaps serve` (gunicorn, several sync workers; issue
#25): every worker's figures summed on the separate metrics listener, never on the public
address, never cached; the start-up report logged once, by the master."""

from __future__ import annotations

import http.client
import re
import sqlite3
import threading
import time
from pathlib import Path

from tests.support.builder import Site
from tests.support.data import small_site
from tests.support.indexnow import running_endpoint
from tests.support.serving import Server
from tests.support.serving import free_port
from tests.support.serving import get
from tests.support.serving import start
from tests.test_change_notify import PATH
from tests.test_change_notify import SECRET
from tests.test_change_notify import body
from tests.test_change_notify import headers
from tests.test_check_types import plain_site_with_events

WORKERS = 3
REQUESTS = 60


def fetch(port: int, path: str) -> tuple[int, dict[str, str], str]:
    """GET on a fresh connection: status, headers, body text."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        return resp.status, dict(resp.getheaders()), resp.read().decode()
    finally:
        conn.close()


def sample(text: str, name: str, **labels: str) -> float:
    """The value of one sample of a text exposition (0 when absent)."""
    for line in text.splitlines():
        if line.startswith(name + "{") or line.startswith(name + " "):
            found = dict(re.findall(r'(\w+)="([^"]*)"', line.split("}")[0]))
            if all(found.get(k) == v for k, v in labels.items()):
                return float(line.rsplit(" ", 1)[1])
    return 0.0


def concurrently(port: int, path: str, count: int, clients: int = 8) -> list[int]:
    """`count` GETs of `path` from `clients` threads at once (spread over the workers)."""
    statuses: list[int] = []
    lock = threading.Lock()

    def run(n: int) -> None:
        for _ in range(n):
            status = get(port, path)[0]
            with lock:
                statuses.append(status)

    threads = [threading.Thread(target=run, args=(count // clients + (i < count % clients),))
               for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


def serve(tmp_path: Path, site: Site, **env: str) -> Server:
    """`wpsitemaps serve` of `site` with WORKERS workers and `env` added."""
    url = site.write_sqlite(tmp_path / "site.sqlite")
    return start({"WPSITEMAPS_DATABASE_URL": url, "WPSITEMAPS_NOW": "option:test_now",
                  "WPSITEMAPS_STORE": str(tmp_path / "pages"), **env},
                 tmp_path / "server.log", workers=WORKERS)


def test_metrics_are_summed_over_every_worker(tmp_path: Path) -> None:
    """60 index requests spread over 3 workers are counted 60 on the metrics listener, which
    sums the figures each worker wrote (their files in the multiprocess directory)."""
    metrics_port = free_port()
    folder = tmp_path / "prom"
    folder.mkdir()
    server = serve(tmp_path, plain_site_with_events(),
                   WPSITEMAPS_METRICS_BIND=f"127.0.0.1:{metrics_port}",
                   PROMETHEUS_MULTIPROC_DIR=str(folder))
    try:
        assert concurrently(server.port, "/sitemap_index.xml", REQUESTS) == [200] * REQUESTS
        status, headers, text = fetch(metrics_port, "/metrics")
        writers = {int(m) for m in re.findall(r"counter_(\d+)\.db",
                                              " ".join(p.name for p in folder.iterdir()))}
    finally:
        server.stop()
    assert status == 200 and headers["Cache-Control"] == "no-store"
    assert headers["Content-Type"].startswith("text/plain; version=")
    assert len(writers - {server.proc.pid}) >= 2, writers  # workers, not the master
    assert sample(text, "wpsitemaps_http_requests_total", kind="index", status="200") == REQUESTS
    assert sample(text, "wpsitemaps_http_request_duration_seconds_count",
                  kind="index") == REQUESTS
    assert sample(text, "wpsitemaps_http_requests_total", kind="robots", status="200") >= 1
    stored = sum(sample(text, "wpsitemaps_page_store_total", outcome=o)
                 for o in ("window", "told", "revalidated"))
    rendered = sample(text, "wpsitemaps_renders_total", kind="main")
    assert rendered >= 1 and stored + rendered >= REQUESTS
    assert sample(text, "wpsitemaps_refresh_duration_seconds_count", outcome="ok") >= 1


def test_metrics_are_not_on_the_public_address(tmp_path: Path) -> None:
    """With metrics_bind set, the public address still has no /metrics; the listener
    answers nothing but /metrics."""
    metrics_port = free_port()
    server = serve(tmp_path, plain_site_with_events(),
                   WPSITEMAPS_METRICS_BIND=f"127.0.0.1:{metrics_port}")
    try:
        public = fetch(server.port, "/metrics")
        other = fetch(metrics_port, "/sitemap_index.xml")
        robots = fetch(server.port, "/robots.txt")[2]
        index = fetch(server.port, "/sitemap_index.xml")[2]
    finally:
        server.stop()
    assert public[0] == 404 and "wpsitemaps_" not in public[2]
    assert other[0] == 404 and other[1]["Cache-Control"] == "no-store"
    assert str(metrics_port) not in robots + index and "metrics" not in robots + index


def test_by_default_no_metrics_anywhere(tmp_path: Path) -> None:
    """Without metrics_bind nothing serves metrics: /metrics on the public address is 404,
    and the probes answer there, uncached."""
    server = serve(tmp_path, plain_site_with_events())
    try:
        public = fetch(server.port, "/metrics")
        health = fetch(server.port, "/healthz")
        ready = fetch(server.port, "/readyz")
    finally:
        server.stop()
    assert public[0] == 404 and "wpsitemaps_" not in public[2]
    assert (health[0], health[2], health[1]["Cache-Control"]) == (200, "ok\n", "no-store")
    assert (ready[0], ready[2], ready[1]["Cache-Control"]) == (200, "ready\n", "no-store")


def test_start_up_report_is_logged_once_per_master(tmp_path: Path) -> None:
    """The post type report (a type NOT served makes it a warning) is logged once, not once
    per worker."""
    server = serve(tmp_path, plain_site_with_events())
    server.stop()
    log = server.log.read_text()
    assert log.count("post type event") == 1, log[-3000:]


def test_change_stream_and_indexnow_metrics(tmp_path: Path) -> None:
    """Under gunicorn with the plugin as event source and IndexNow on: a signed notification
    for a post (received by whichever worker) is counted by source and kind, the source is
    live with its lag and last-heard time, and the submission it leads to is counted by the
    endpoint's status, with the outbox empty after it."""
    metrics_port = free_port()
    folder = tmp_path / "prom"
    folder.mkdir()
    site = small_site()
    with running_endpoint() as endpoint:
        server = serve(tmp_path, site, WPSITEMAPS_METRICS_BIND=f"127.0.0.1:{metrics_port}",
                       PROMETHEUS_MULTIPROC_DIR=str(folder), WPSITEMAPS_NOTIFY_SECRET=SECRET,
                       WPSITEMAPS_CHANGE_SOURCE="plugin", WPSITEMAPS_INDEXNOW_SWEEP="600",
                       WPSITEMAPS_INDEXNOW_ENDPOINTS=endpoint.url,
                       WPSITEMAPS_INDEXNOW_BATCH_WINDOW="1", WPSITEMAPS_STORE_WINDOW="0")
        endpoint.service = f"http://127.0.0.1:{server.port}"
        try:
            for path in ("/sitemap_index.xml", "/post-sitemap.xml", "/page-sitemap.xml",
                         "/category-sitemap.xml", "/author-sitemap.xml"):
                assert get(server.port, path)[0] == 200
            con = sqlite3.connect(tmp_path / "site.sqlite")
            with con:
                con.execute("UPDATE wp_posts SET post_name = 'renamed' WHERE ID = 2")
            con.close()
            raw = body([{"kind": "post", "id": 2, "type": "post"}])
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            conn.request("POST", PATH, body=raw, headers=headers(raw))
            assert conn.getresponse().status == 202
            conn.close()
            deadline = time.monotonic() + 60
            while not endpoint.urls() and time.monotonic() < deadline:
                time.sleep(0.2)
            time.sleep(2)  # the submitter's next pass sets the outbox's length
            text = fetch(metrics_port, "/metrics")[2]
        finally:
            server.stop()
    assert "http://example.test/renamed/" in endpoint.urls()
    assert sample(text, "wpsitemaps_changes_total", source="plugin", kind="post") == 1
    assert sample(text, "wpsitemaps_change_source_live", source="plugin") == 1
    assert 'wpsitemaps_change_source_lag_seconds{source="plugin"}' in text
    assert 0 <= sample(text, "wpsitemaps_change_source_lag_seconds", source="plugin") < 30
    assert abs(sample(text, "wpsitemaps_change_source_last_heard_seconds",
                      source="plugin") - time.time()) < 120
    assert sample(text, "wpsitemaps_indexnow_submissions_total", protocol="indexnow",
                  status="200") >= 1
    assert sample(text, "wpsitemaps_indexnow_submitted_urls_total", protocol="indexnow",
                  status="200") >= 2
    assert "wpsitemaps_indexnow_outbox_urls " in text
    assert sample(text, "wpsitemaps_indexnow_outbox_urls") == 0
