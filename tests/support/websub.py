"""A local WebSub hub (W3C WebSub; the publish ping of pubsubhubbub.appspot.com, Superfeedr
and websub.rocks), written for the tests.

It accepts a form-encoded POST `hub.mode=publish&hub.url=TOPIC` as a hub does: it fetches
the topic from the service (the topic's host in the Host header), reads it with feedparser
and answers 204 only when the feed is well-formed and names this hub (rel="hub") and the
topic itself (rel="self"); else 400. Statuses to answer can be queued (`answers`, e.g. 429
or 500 before the check). Accepted topics are kept in `topics`, every request in `requests`.
"""

from __future__ import annotations

import threading
import urllib.request
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from http.server import ThreadingHTTPServer
from urllib.parse import parse_qs
from urllib.parse import urlsplit

import feedparser


class Hub:
    """The hub's state: what it will answer, what it received and accepted."""

    def __init__(self) -> None:
        self.service = ""  # http://127.0.0.1:PORT of the wpsitemaps service, once served
        self.url = ""
        self.answers: deque[int] = deque()
        self.requests: list[dict[str, list[str]]] = []
        self.topics: list[str] = []
        self.lock = threading.Lock()

    def judge(self, form: dict[str, list[str]]) -> int:
        """204 when the ping is a publish of one topic whose feed names this hub."""
        if form.get("hub.mode") != ["publish"] or len(form.get("hub.url", [])) != 1:
            return 400
        topic = form["hub.url"][0]
        parts = urlsplit(topic)
        request = urllib.request.Request(self.service + parts.path,
                                         headers={"Host": parts.netloc})
        try:
            with urllib.request.urlopen(request, timeout=5) as resp:  # noqa: S310
                parsed = feedparser.parse(resp.read())
        except OSError:
            return 400
        links = {(link.get("rel"), link.get("href")) for link in parsed.feed.get("links", [])}
        if parsed.bozo or ("hub", self.url) not in links or ("self", topic) not in links:
            return 400
        return 204


def _handler(hub: Hub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            length = int(self.headers.get("Content-Length") or 0)
            form = parse_qs(self.rfile.read(length).decode())
            with hub.lock:
                hub.requests.append(form)
                queued = hub.answers.popleft() if hub.answers else None
            status = queued if queued is not None else hub.judge(form)
            if status == 204:
                with hub.lock:
                    hub.topics.append(form["hub.url"][0])
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_args: object) -> None:
            return

    return Handler


@contextmanager
def running_hub() -> Iterator[Hub]:
    """A local hub (set its `service` before it receives a ping)."""
    hub = Hub()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(hub))
    hub.url = f"http://127.0.0.1:{server.server_port}/hub"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield hub
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
