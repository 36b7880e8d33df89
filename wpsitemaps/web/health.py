"""`/healthz`, `/readyz` and the request metrics, in a WSGI middleware around the whole app.

It runs before site resolution and Flask's routing, so no sitemap route, headless API or
site prefix can match a probe, and `/healthz` never touches the database: a load balancer
that restarts processes on a failed liveness probe must not restart every worker because
the database is down. Both probes answer `Cache-Control: no-store` in plain text.

Every other request is timed and counted by document kind (web.routes' endpoint, noted in
the environ by `note_kind`) and status (wpsitemaps.metrics); the figures are served only on
the separate metrics listener, never here.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from collections.abc import Iterable
from typing import Any

from flask import Flask
from flask import request
from werkzeug.wrappers.response import Response as BaseResponse

from wpsitemaps.metrics import LATENCY
from wpsitemaps.metrics import REQUESTS
from wpsitemaps.serving.health import READY_PATH
from wpsitemaps.serving.health import readiness
from wpsitemaps.serving.service import Service
from wpsitemaps.web import robots

KIND_ENVIRON_KEY = "wpsitemaps.kind"
PROBES = ("/healthz", "/readyz")
# Flask endpoint -> the document kind metrics count it under (a bounded set of labels).
KINDS = {
    "wpsitemaps.sitemap_index": "index",
    "wpsitemaps.sitemap_alias": "redirect",
    "wpsitemaps.sitemap_page": "sitemap",
    "wpsitemaps.gzipped_sitemap": "sitemap_gz",
    "wpsitemaps.stylesheet": "stylesheet",
    "wpsitemaps_feeds.rss": "feed",
    "wpsitemaps_feeds.atom": "feed",
    "api.sitemap": "api",
    robots.ENDPOINT: "robots",
}


def kind_of(endpoint: str | None) -> str:
    """The document kind of a Flask endpoint ('other' for none: a 404 with no route)."""
    return KINDS.get(endpoint or "", "other")


def note_kind(resp: BaseResponse) -> BaseResponse:
    """after_request: note the request's document kind for the middleware to count."""
    request.environ[KIND_ENVIRON_KEY] = kind_of(request.endpoint)
    return resp


def probe_answer(start_response: Callable[..., Any], status: int, reason: str,
                 head: bool = False) -> Iterable[bytes]:
    """A probe's plain answer, never cached (HEAD: the headers alone)."""
    body = (reason + "\n").encode()
    phrase = {200: "OK", 404: "Not Found", 405: "Method Not Allowed",
              503: "Service Unavailable"}[status]
    start_response(f"{status} {phrase}", [("Content-Type", "text/plain; charset=utf-8"),
                                          ("Cache-Control", "no-store"),
                                          ("Content-Length", str(len(body))),
                                          ("X-Content-Type-Options", "nosniff")])
    return [] if head else [body]


class Observed:
    """WSGI middleware: the probes, then every other request timed and counted."""

    def __init__(self, app: Any, service: Service) -> None:
        self.app = app
        self.service = service

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        path = environ.get("PATH_INFO") or "/"
        if path in PROBES or path.endswith(READY_PATH):
            return self.probe(environ, start_response, path)
        started = time.perf_counter()
        seen: list[str] = []

        def observing(status: str, headers: Any, exc_info: Any = None) -> Any:
            seen.append(status.split(" ", 1)[0])
            return start_response(status, headers, exc_info)

        try:
            # The body is complete when the app returns (nothing is streamed).
            return self.app(environ, observing)  # type: ignore[no-any-return]
        finally:
            kind = environ.get(KIND_ENVIRON_KEY, "other")
            REQUESTS.labels(kind=kind, status=seen[0] if seen else "500").inc()
            LATENCY.labels(kind=kind).observe(time.perf_counter() - started)

    def probe(self, environ: dict[str, Any], start_response: Any,
              path: str) -> Iterable[bytes]:
        """`/healthz`: the process answers. `/readyz`: the site of this Host can be served."""
        method = environ.get("REQUEST_METHOD")
        if method not in ("GET", "HEAD"):
            return probe_answer(start_response, 405, "405 Method Not Allowed: GET or HEAD")
        head = method == "HEAD"
        if path == "/healthz":
            return probe_answer(start_response, 200, "ok", head)
        host = environ.get("HTTP_HOST") or environ.get("SERVER_NAME", "")
        ready = readiness(self.service, host, path)
        text = ready.reason if ready.status == 200 else f"not ready: {ready.reason}"
        return probe_answer(start_response, ready.status, text, head)


def init_app(app: Flask, service: Service) -> None:
    """Wrap the app (outermost, after every other middleware) and note each kind."""
    app.after_request(note_kind)
    app.wsgi_app = Observed(app.wsgi_app, service)  # type: ignore[method-assign]
