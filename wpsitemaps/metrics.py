"""Prometheus metrics (prometheus_client): what the service counts, and their exposition.

Every process counts in these module-level metrics. Under gunicorn, `serve` (or
wpsitemaps.gunicorn_conf) sets PROMETHEUS_MULTIPROC_DIR before any worker starts, so each
worker writes its figures to files there and the master's metrics listener
(`metrics_bind`) sums them across workers (prometheus_client's multiprocess mode). Metrics
are never served on the public address: only on that separate listener, answered
`Cache-Control: no-store`.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable
from collections.abc import Iterable
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler
from wsgiref.simple_server import WSGIServer
from wsgiref.simple_server import make_server

from prometheus_client import CONTENT_TYPE_LATEST
from prometheus_client import REGISTRY
from prometheus_client import CollectorRegistry
from prometheus_client import Counter
from prometheus_client import Gauge
from prometheus_client import Histogram
from prometheus_client import generate_latest
from prometheus_client import multiprocess

log = logging.getLogger(__name__)
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
METRICS_PATH = "/metrics"
# Sitemap answers take from well under a millisecond (stored, 304) to tens of seconds (a
# cold page of a large site): buckets across that whole range.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                   10.0, 30.0, 60.0)

REQUESTS = Counter("wpsitemaps_http_requests", "HTTP requests answered, by document kind "
                   "and status code.", ["kind", "status"])
LATENCY = Histogram("wpsitemaps_http_request_duration_seconds", "Time to answer an HTTP "
                    "request, by document kind.", ["kind"], buckets=LATENCY_BUCKETS)
PAGE_STORE = Counter("wpsitemaps_page_store", "Stored documents answered: window (inside "
                     "store_window), told (the change ledger or site check says nothing it "
                     "depends on changed), revalidated (fingerprint unchanged), stale "
                     "(database failed, stored copy served).", ["outcome"])
RENDERS = Counter("wpsitemaps_renders", "Documents rendered from the database, by "
                  "stylesheet kind (main, video, news).", ["kind"])
DATABASE_ERRORS = Counter("wpsitemaps_database_errors", "Errors the database driver raised, "
                          "by kind (down, slow, locked, other).", ["kind"])
REFRESH = Histogram("wpsitemaps_refresh_duration_seconds", "Duration of background "
                    "refreshes of a site's values, by outcome (ok, failed).", ["outcome"],
                    buckets=(0.1, 0.5, 1.0, 5.0, 10.0, 30.0, 60.0, 300.0, 600.0, 1800.0))
# The change stream (issue #26). A source reports to whichever worker receives it (the
# plugin's notification) or holds its lease (the binlog reader): across workers the most
# recent report is the truth, and the newest "last heard" time.
CHANGES = Counter("wpsitemaps_changes", "Changes applied to the change ledger, by source "
                  "and kind (post, term, user, option, site).", ["source", "kind"])
SOURCE_LIVE = Gauge("wpsitemaps_change_source_live", "Whether an event source's last report "
                    "said it is healthy (1) or down (0).", ["source"],
                    multiprocess_mode="mostrecent")
SOURCE_LAG = Gauge("wpsitemaps_change_source_lag_seconds", "Seconds between the newest "
                   "change's commit (or send) and its arrival, at the source's last "
                   "delivery.", ["source"], multiprocess_mode="mostrecent")
SOURCE_HEARD = Gauge("wpsitemaps_change_source_last_heard_seconds", "When an event source "
                     "last reported healthy (Unix time; it is live for 60 s after).",
                     ["source"], multiprocess_mode="max")
# IndexNow (issue #27): the outbox is shared (store), so the submitter holding the lease
# says how long it is.
OUTBOX = Gauge("wpsitemaps_indexnow_outbox_urls", "(endpoint, URL) pairs waiting in the "
               "IndexNow outbox, after the submitter's last pass.",
               multiprocess_mode="mostrecent")
SUBMISSIONS = Counter("wpsitemaps_indexnow_submissions", "Requests made from the outbox, by "
                      "protocol (indexnow, websub) and the endpoint's status code (0: no "
                      "answer).", ["protocol", "status"])
SUBMITTED_URLS = Counter("wpsitemaps_indexnow_submitted_urls", "URLs (WebSub: feed URLs) sent "
                         "from the outbox, by protocol and the answer's status code.",
                         ["protocol", "status"])


def exposition() -> bytes:
    """The text exposition of every metric: summed over every process writing to the
    multiprocess directory when one is set, else this process's own."""
    if os.environ.get(MULTIPROC_ENV):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry)
    return generate_latest(REGISTRY)


def metrics_app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    """WSGI app of the metrics listener: GET /metrics only, never cached."""
    if environ.get("PATH_INFO") != METRICS_PATH:
        start_response("404 Not Found", [("Content-Type", "text/plain; charset=utf-8"),
                                         ("Cache-Control", "no-store")])
        return [b"404 Not Found: metrics are at /metrics\n"]
    body = exposition()
    start_response("200 OK", [("Content-Type", CONTENT_TYPE_LATEST),
                              ("Cache-Control", "no-store"),
                              ("Content-Length", str(len(body)))])
    return [body]


class _Server(ThreadingMixIn, WSGIServer):
    """A scrape never waits for another (a slow scraper cannot block the next)."""

    daemon_threads = True


class _Server6(_Server):
    """The same on an IPv6 address."""

    address_family = socket.AF_INET6


class _Quiet(WSGIRequestHandler):
    """No access log line per scrape."""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib's name
        return


def split_bind(bind: str) -> tuple[str, int]:
    """'host:port' or '[v6]:port' -> (host, port)."""
    host, _, port = bind.rpartition(":")
    return host.strip("[]"), int(port)


def start_listener(bind: str) -> WSGIServer:
    """Serve /metrics on `bind` in a daemon thread (the gunicorn master's, which outlives
    its workers and sums their figures); OSError when the address cannot be bound."""
    host, port = split_bind(bind)
    server = make_server(host, port, metrics_app, server_class=_Server6 if ":" in host else _Server,
                         handler_class=_Quiet)
    threading.Thread(target=server.serve_forever, name="wpsitemaps-metrics",
                     daemon=True).start()
    log.info("metrics on http://%s%s", bind, METRICS_PATH)
    return server
