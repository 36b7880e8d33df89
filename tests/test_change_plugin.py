"""The companion plugin's notifications (wordpress/wpsitemaps-notify.php) sent by real
WordPress: tests/oracle/notify.php publishes, edits, renames terms, trashes, changes options
and users through WordPress's own API against MariaDB; the plugin posts to a capture server
here, which then replays every notification into the service. Each request sends one
notification, correctly signed, naming what it changed (WordPress lane)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.conftest import require_mariadb
from tests.support import wpdb
from tests.support.data import small_site
from tests.support.storeclock import with_clock
from wpsitemaps import create_app
from wpsitemaps.changes.model import Change
from wpsitemaps.changes.notify import LocalNonces
from wpsitemaps.changes.notify import Verifier
from wpsitemaps.web.context import service_of

DRIVER = wpdb.REPO / "tests" / "oracle" / "notify.php"
MU_DIR = wpdb.REPO / "wordpress"
SECRET = "wordpress-lane-" + "k" * 40
DATABASE = wpdb.mariadb_name("notify")
pytestmark = [
    pytest.mark.wordpress,
    pytest.mark.skipif(os.environ.get("WPSITEMAPS_WORDPRESS_TESTS") != "1",
                       reason="runs PHP and WordPress; set WPSITEMAPS_WORDPRESS_TESTS=1"),
]

Captured = tuple[dict[str, str], bytes]


class Capture(ThreadingHTTPServer):
    """An HTTP server that keeps every POST it gets and answers 202."""

    def __init__(self) -> None:
        self.got: list[Captured] = []
        self.arrived = threading.Condition()
        super().__init__(("127.0.0.1", 0), Handler)


class Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        server: Capture = self.server  # type: ignore[assignment]
        with server.arrived:
            server.got.append(({k: v for k, v in self.headers.items()}, raw))
            server.arrived.notify_all()
        self.send_response(202)
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


@pytest.fixture(scope="module")
def capture() -> Iterator[Capture]:
    """The capture server, running in a thread."""
    server = Capture()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def wordpress(capture: Capture) -> Iterator[Callable[..., dict[str, Any]]]:
    """A WordPress site installed by WordPress; a function running one phase of the driver
    (one request) that returns what it printed."""
    if not (shutil.which("php") and Path("/usr/share/wordpress/wp-settings.php").exists()):
        pytest.fail("WPSITEMAPS_WORDPRESS_TESTS=1 but php or /usr/share/wordpress is missing")
    require_mariadb()
    name = DATABASE
    with wpdb.root_conn() as con, con.cursor() as cur:
        cur.execute(f"DROP DATABASE IF EXISTS `{name}`")
        cur.execute(f"CREATE DATABASE `{name}` CHARACTER SET utf8mb4")
    env = {**os.environ, "NOTIFY_MU_DIR": str(MU_DIR), "WPSITEMAPS_NOTIFY_SECRET": SECRET,
           "WPSITEMAPS_NOTIFY_URL": f"http://127.0.0.1:{capture.server_port}/"
                                    ".well-known/wpsitemaps/notify"}

    def run(phase: str, *args: object) -> dict[str, Any]:
        proc = subprocess.run(["php", "-d", "display_errors=stderr", str(DRIVER), phase, name,
                               *map(str, args)], capture_output=True, text=True, env=env,
                              timeout=120)
        # WordPress 6.1's own Requests classes are deprecated on PHP 8.2: not ours to fix.
        noise = [line for line in proc.stderr.splitlines() if line.strip() and not (
            "Deprecated" in line and "/usr/share/wordpress/wp-includes/Requests/" in line)]
        assert proc.returncode == 0 and (phase == "install" or not noise), proc.stderr
        printed = [line for line in proc.stdout.splitlines() if line.startswith("{")]
        out: dict[str, Any] = json.loads(printed[-1]) if printed else {}
        return out

    run("install")
    try:
        yield run
    finally:
        wpdb.drop_mariadb(name)


def next_notification(capture: Capture, seen: int, wait: float = 5) -> list[Captured]:
    """The notifications that arrived after the first `seen` (waits up to `wait` s for one)."""
    with capture.arrived:
        capture.arrived.wait_for(lambda: len(capture.got) > seen, timeout=wait)
        return capture.got[seen:]


@pytest.fixture
def service_app(make_app: Callable[..., Flask]) -> Flask:
    """The service the capture server replays notifications into."""
    return make_app(small_site(), NOTIFY_SECRET=SECRET, CHANGE_SOURCE="plugin")


def step(wordpress: Callable[..., dict[str, Any]], capture: Capture, app: Flask,
         phase: str, *args: object) -> tuple[dict[str, Any], list[Change]]:
    """Run one request of WordPress; exactly one notification arrives, its signature
    verifies, and the service accepts it when replayed (202). Returns what the phase
    printed and the notification's changes."""
    seen = len(capture.got)
    out = wordpress(phase, *args)
    got = next_notification(capture, seen)
    assert len(got) == 1, f"{phase}: {len(got)} notifications"
    headers, raw = got[0]
    changes = Verifier(SECRET.encode(), LocalNonces()).verify(
        headers.get("X-WPSitemaps-Timestamp"), headers.get("X-WPSitemaps-Signature"), raw)
    resp = app.test_client().post("/.well-known/wpsitemaps/notify", data=raw,
                                  headers={k: v for k, v in headers.items()
                                           if k.lower().startswith(("x-", "content-type"))})
    assert resp.status_code == 202, resp.data
    return out, changes


def test_real_wordpress_notifies_every_change(wordpress: Callable[..., dict[str, Any]],
                                              capture: Capture, service_app: Flask) -> None:
    """Publish, edit (with Yoast's noindex meta), terms, trash, delete, options and a user: one
    signed notification per request with exactly what changed; noise is left out."""
    out, changes = step(wordpress, capture, service_app, "publish")
    post = out["post"]
    assert changes == [Change("post", post, post_type="post")]

    _, changes = step(wordpress, capture, service_app, "edit", post)
    assert changes == [Change("post", post, post_type="post")]  # update + meta, once
    assert Change("post", 1, post_type="post") not in changes  # _edit_lock is noise

    out, changes = step(wordpress, capture, service_app, "terms", post)
    tt = out["term_taxonomy_id"]
    assert set(changes) == {Change("term", tt, taxonomy="category"),
                            Change("post", post, post_type="post")}

    _, changes = step(wordpress, capture, service_app, "trash", post)
    assert Change("post", post, post_type="post") in changes

    _, changes = step(wordpress, capture, service_app, "delete", post)
    assert Change("post", post, post_type="post") in changes  # the row is gone: from the hook

    _, changes = step(wordpress, capture, service_app, "options")
    # The registry plugin rewrites its option in the same request (the permalinks moved).
    assert set(changes) == {Change("option", option="permalink_structure"),
                            Change("option", option="blog_public"),
                            Change("option", option="wpsitemaps_registry")}

    _, changes = step(wordpress, capture, service_app, "user")
    assert Change("user", 1) in changes


def test_quiet_site_beats_every_30_seconds(wordpress: Callable[..., dict[str, Any]],
                                           capture: Capture, service_app: Flask) -> None:
    """A request that changes nothing sends an empty, signed notification (a beat) at most
    every 30 s: the service trusts the plugin while nothing changes."""
    _, changes = step(wordpress, capture, service_app, "view")
    assert changes == []
    seen = len(capture.got)
    wordpress("view")
    assert next_notification(capture, seen, wait=1.5) == []
    health = service_of(service_app).change_sources.get("plugin")
    if service_of(service_app).pages is not None:
        assert health is not None and health.healthy and health.detail == "beat"


def test_a_wordpress_save_is_served_within_seconds(
        wordpress: Callable[..., dict[str, Any]], capture: Capture, tmp_path: Path) -> None:
    """The service reads the database WordPress writes, with the plugin as its event
    source: a stored post sitemap is served as stored until the notification of a publish
    arrives, and lists the new post on the next request, within 5 s of the save."""
    # Another test may have set blog_public = 0 through WordPress (nothing is listed then).
    with wpdb.root_conn(DATABASE) as con, con.cursor() as cur:
        cur.execute("UPDATE wp_options SET option_value = '1' WHERE option_name = 'blog_public'")
    url = f"mysql+pymysql://root@{wpdb.MARIADB_HOST}:{wpdb.MARIADB_PORT}/{DATABASE}"
    app = create_app({"TESTING": True, "DATABASE_URL": url + "?charset=utf8mb4",
                      "STORE": str(tmp_path / "pages"), "NOTIFY_SECRET": SECRET,
                      "CHANGE_SOURCE": "plugin", "CACHE_TTL": 3600})
    client = app.test_client()
    _, changes = step(wordpress, capture, app, "publish")  # the plugin is live
    clock = with_clock(app)
    before = client.get("/post-sitemap.xml").data.count(b"<url>")
    seen = len(capture.got)
    wordpress("publish")
    saved = time.monotonic()
    clock.advance(60)
    assert client.get("/post-sitemap.xml").data.count(b"<url>") == before  # still stored
    headers, raw = next_notification(capture, seen)[0]
    assert client.post("/.well-known/wpsitemaps/notify", data=raw,
                       headers={k: v for k, v in headers.items()
                                if k.lower().startswith(("x-", "content-type"))}
                       ).status_code == 202
    assert client.get("/post-sitemap.xml").data.count(b"<url>") == before + 1
    assert time.monotonic() - saved < 5
