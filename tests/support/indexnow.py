"""A local IndexNow endpoint written to the protocol (indexnow.org/documentation), and the
service served over real HTTP so the endpoint can fetch the key file from it.

The endpoint checks every POST as a search engine does: JSON with host, key, keyLocation and
at most 10,000 URLs, every URL on that host; it then fetches keyLocation from the service
(with the host's name in the Host header) and accepts only when the file holds the key.
Statuses to answer can be queued (`answers`); the default is 200. Accepted submissions are
kept in `accepted`, every request in `requests`.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from http.server import ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from flask import Flask
from werkzeug.serving import make_server


class Endpoint:
    """The endpoint's state: what it will answer, what it received and accepted."""

    def __init__(self) -> None:
        self.service = ""  # http://127.0.0.1:PORT of the wpsitemaps service, once served
        self.answers: deque[int] = deque()
        self.requests: list[dict[str, Any]] = []
        self.accepted: list[dict[str, Any]] = []
        self.times: list[float] = []
        self.delay = 0.0  # seconds to wait before answering (a slow endpoint)
        self.retry_after: str | None = None  # a Retry-After header sent with a 429
        self.lock = threading.Lock()
        self.url = ""

    def urls(self) -> list[str]:
        """Every URL accepted, in order (a URL accepted twice appears twice)."""
        with self.lock:
            return [u for sub in self.accepted for u in sub["urlList"]]

    def judge(self, payload: dict[str, Any]) -> int:
        """The status the protocol gives this payload (before any queued answer)."""
        host, key, urls = payload.get("host"), payload.get("key"), payload.get("urlList")
        if not isinstance(urls, list) or not urls or len(urls) > 10_000:
            return 400
        if any(urlsplit(u).netloc != host for u in urls):
            return 422
        location = urlsplit(str(payload.get("keyLocation", "")))
        if location.netloc != host or location.path != f"/{key}.txt":
            return 422
        request = urllib.request.Request(self.service + location.path, headers={"Host": host})
        try:
            with urllib.request.urlopen(request, timeout=5) as resp:
                return 200 if resp.read().decode().strip() == key else 403
        except OSError:
            return 403


def _handler(endpoint: Endpoint) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            size = int(self.headers.get("Content-Length", 0))
            try:
                payload = json.loads(self.rfile.read(size))
            except ValueError:
                payload = {}
            time.sleep(endpoint.delay)
            status = endpoint.judge(payload)
            with endpoint.lock:
                endpoint.requests.append(payload)
                if status == 200 and endpoint.answers:
                    status = endpoint.answers.popleft()
                if status in (200, 202):
                    endpoint.accepted.append(payload)
                    endpoint.times.append(time.monotonic())
            self.send_response(status)
            if status == 429 and endpoint.retry_after is not None:
                self.send_header("Retry-After", endpoint.retry_after)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_args: Any) -> None:
            return

    return Handler


@contextmanager
def served(app: Flask) -> Iterator[str]:
    """The app on a real HTTP server on 127.0.0.1 (its base URL) while the block runs."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join()


@contextmanager
def running_endpoint() -> Iterator[Endpoint]:
    """A local IndexNow endpoint (set its `service` before it receives anything)."""
    endpoint = Endpoint()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(endpoint))
    endpoint.url = f"http://127.0.0.1:{server.server_port}/indexnow"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield endpoint
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
