"""The companion plugin's signed notifications (changes/notify.py, web/notify.py) over HTTP:
only a correctly signed, fresh, first-seen notification is accepted, and its changes reach
the service's ledger; without a secret the endpoint does not exist."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.conftest import PEER_CONFIG
from tests.support import wpdb
from tests.support.data import small_site
from tests.support.network import load_ms_sqlite
from tests.support.network import network_app
from tests.support.storeclock import Clock
from tests.support.storeclock import with_clock
from tests.support.storeclock import write
from wpsitemaps import create_app
from wpsitemaps.changes.model import Change
from wpsitemaps.changes.notify import LocalNonces
from wpsitemaps.changes.notify import Refused
from wpsitemaps.changes.notify import Verifier
from wpsitemaps.changes.notify import sign
from wpsitemaps.web.context import service_of

SECRET = "s3cret-" + "x" * 40
PATH = "/.well-known/wpsitemaps/notify"
NONCES = iter(range(10**6))


def body(changes: list[dict[str, Any]], blog_id: int = 1, nonce: str | None = None) -> bytes:
    """A notification as the plugin writes it."""
    data = {"v": 1, "nonce": nonce or f"nonce-{next(NONCES):010d}-test", "blog_id": blog_id,
            "changes": changes}
    return json.dumps(data).encode()


def headers(raw: bytes, secret: str = SECRET, at: float | None = None) -> dict[str, str]:
    """The plugin's two headers for `raw`, signed at `at` (now by default)."""
    stamp = str(int(time.time() if at is None else at))
    return {"X-WPSitemaps-Timestamp": stamp,
            "X-WPSitemaps-Signature": sign(secret.encode(), stamp, raw),
            "Content-Type": "application/json"}


@pytest.fixture
def notified(make_app: Callable[..., Flask]) -> Flask:
    """The small site served with a notify secret and the plugin as its event source."""
    return make_app(small_site(), NOTIFY_SECRET=SECRET, CHANGE_SOURCE="plugin")


def content_head(app: Flask, blog: str = "blog1") -> int:
    """The ledger's head of the bucket every change touches."""
    ledger = service_of(app).ledger
    if ledger is None:
        pytest.skip("the ledger lives in the page store (WPSITEMAPS_TEST_STORE=off)")
    heads = ledger.counters.counters(ledger.key(blog), ["content"])
    assert heads is not None
    return heads["content"]


def test_signed_notification_reaches_the_ledger(notified: Flask) -> None:
    """202; the buckets of the changed objects move and the plugin is a live source."""
    before = content_head(notified)
    raw = body([{"kind": "post", "id": 3, "type": "post"},
                {"kind": "term", "id": 5, "taxonomy": "category"},
                {"kind": "option", "name": "permalink_structure"}])
    resp = notified.test_client().post(PATH, data=raw, headers=headers(raw))
    assert resp.status_code == 202, resp.data
    assert resp.headers["Cache-Control"] == "no-store"
    assert content_head(notified) == before + 1
    health = service_of(notified).change_sources["plugin"]
    assert health.healthy and health.lag is not None and health.lag < 5


def test_network_notification_moves_its_own_site(notified: Flask) -> None:
    """The body's blog_id names the site whose ledger moves."""
    before = content_head(notified, "blog2")
    raw = body([{"kind": "user", "id": 2}], blog_id=2)
    assert notified.test_client().post(PATH, data=raw, headers=headers(raw)).status_code == 202
    assert content_head(notified, "blog2") == before + 1


@pytest.mark.parametrize("spoil", ["no headers", "wrong secret", "body changed",
                                   "timestamp changed", "not a number"])
def test_unsigned_or_wrongly_signed_is_401(notified: Flask, spoil: str) -> None:
    """Nothing moves without a signature over this timestamp and this body."""
    before = content_head(notified)
    raw = body([{"kind": "site"}])
    sent = headers(raw, SECRET if spoil != "wrong secret" else SECRET + "!")
    if spoil == "no headers":
        sent = {}
    elif spoil == "body changed":
        raw = raw.replace(b'"site"', b'"user", "id": 1')
    elif spoil == "timestamp changed":
        sent["X-WPSitemaps-Timestamp"] = str(int(sent["X-WPSitemaps-Timestamp"]) + 1)
    elif spoil == "not a number":
        sent["X-WPSitemaps-Timestamp"] = "soon"
    resp = notified.test_client().post(PATH, data=raw, headers=sent)
    assert resp.status_code == 401
    assert resp.headers["Cache-Control"] == "no-store"
    assert content_head(notified) == before


def test_stale_and_replayed_are_403(notified: Flask) -> None:
    """A notification signed 10 minutes ago, or sent a second time, is refused."""
    client = notified.test_client()
    old = body([{"kind": "site"}])
    assert client.post(PATH, data=old, headers=headers(old, at=time.time() - 600)
                       ).status_code == 403
    raw = body([{"kind": "site"}])
    sent = headers(raw)
    assert client.post(PATH, data=raw, headers=sent).status_code == 202
    before = content_head(notified)
    assert client.post(PATH, data=raw, headers=sent).status_code == 403
    assert content_head(notified) == before


def test_replays_are_refused_by_every_worker(make_app: Callable[..., Flask]) -> None:
    """Two apps on one store (two workers, or two hosts on one Redis): a notification
    accepted by one is a replay for the other."""
    first = make_app(small_site(), NOTIFY_SECRET=SECRET)
    if service_of(first).pages is None:
        pytest.skip("nonces are shared through the page store (WPSITEMAPS_TEST_STORE=off)")
    second = make_app(small_site(), NOTIFY_SECRET=SECRET,
                      STORE=service_of(first).settings.store,
                      STORE_NAMESPACE=service_of(first).pages.namespace)  # type: ignore[union-attr]
    raw = body([{"kind": "site"}])
    sent = headers(raw)
    assert first.test_client().post(PATH, data=raw, headers=sent).status_code == 202
    assert second.test_client().post(PATH, data=raw, headers=sent).status_code == 403


@pytest.mark.parametrize("raw", [b"not json", b'{"v": 2, "changes": []}',
                                 b'{"v": 1, "nonce": "short", "changes": []}',
                                 b'{"v": 1, "nonce": "abcdefghijklmnop", "changes": '
                                 b'[{"kind": "x"}]}',
                                 b'{"v": 1, "nonce": "abcdefghijklmnop", "changes": '
                                 b'[{"kind": "post", "id": "7"}]}',
                                 b'{"v": 1, "nonce": "abcdefghijklmnop", "blog_id": 0, '
                                 b'"changes": []}'])
def test_signed_but_malformed_is_400(notified: Flask, raw: bytes) -> None:
    """Correctly signed bodies that are not version-1 notifications."""
    resp = notified.test_client().post(PATH, data=raw, headers=headers(raw))
    assert resp.status_code == 400


def test_without_a_secret_there_is_no_endpoint(app: Flask) -> None:
    """No notify_secret: 404, signed or not, as any unknown path."""
    raw = body([{"kind": "site"}])
    assert app.test_client().post(PATH, data=raw, headers=headers(raw)).status_code == 404


def test_the_path_is_configurable(make_app: Callable[..., Flask]) -> None:
    """notify_path moves the endpoint; the default path is then unknown."""
    moved = make_app(small_site(), NOTIFY_SECRET=SECRET, NOTIFY_PATH="/hooks/wp-changes")
    raw = body([{"kind": "site"}])
    client = moved.test_client()
    assert client.post("/hooks/wp-changes", data=raw, headers=headers(raw)).status_code == 202
    assert client.post(PATH, data=raw, headers=headers(raw)).status_code == 404
    assert client.get("/hooks/wp-changes").status_code == 405


def test_verifier_parses_every_kind() -> None:
    """The wire format's kinds become the vocabulary's Changes, stamped with the send time."""
    raw = body([{"kind": "post", "id": 3, "type": "page"}, {"kind": "post", "id": 4},
                {"kind": "term", "id": 5, "taxonomy": "post_tag"}, {"kind": "user", "id": 6},
                {"kind": "option", "name": "home"}, {"kind": "site"}], blog_id=3)
    sent = headers(raw)
    check = Verifier(SECRET.encode(), LocalNonces())
    found = check.verify(sent["X-WPSitemaps-Timestamp"], sent["X-WPSitemaps-Signature"], raw)
    assert found == [Change("post", 3, post_type="page", blog_id=3),
                     Change("post", 4, blog_id=3),
                     Change("term", 5, taxonomy="post_tag", blog_id=3),
                     Change("user", 6, blog_id=3), Change("option", option="home", blog_id=3),
                     Change("site", blog_id=3)]
    assert {c.seen_at for c in found} == {float(sent["X-WPSitemaps-Timestamp"])}
    with pytest.raises(Refused):
        check.verify(sent["X-WPSitemaps-Timestamp"], sent["X-WPSitemaps-Signature"], raw)


def test_a_stored_page_waits_for_the_plugin(tmp_path: Path) -> None:
    """With the plugin as the event source, a stored page is served as stored after a write
    that bypassed WordPress (nothing said it changed), and re-rendered as soon as a signed
    notification names the post."""
    path = wpdb.load_peer_sqlite(tmp_path / "peer.sqlite")
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{path}", **PEER_CONFIG,
                      "STORE": str(tmp_path / "pages"), "NOTIFY_SECRET": SECRET,
                      "CHANGE_SOURCE": "plugin"})
    client = app.test_client()
    clock = with_clock(app)
    hello = body([{"kind": "option", "name": "blog_public"}])  # the plugin is live
    assert client.post(PATH, data=hello, headers=headers(hello)).status_code == 202
    before = client.get("/post-sitemap.xml").data
    write(app, "UPDATE wp_posts SET post_modified_gmt = '2031-01-02 03:04:05' "
               "WHERE post_type = 'post' AND post_status = 'publish' AND ID = "
               "(SELECT MIN(ID) FROM wp_posts WHERE post_type = 'post' "
               "AND post_status = 'publish')")
    clock.advance(60)  # far outside store_window
    assert client.get("/post-sitemap.xml").data == before
    first = _first_post(path)
    raw = body([{"kind": "post", "id": first, "type": "post"}])
    assert client.post(PATH, data=raw, headers=headers(raw)).status_code == 202
    after = client.get("/post-sitemap.xml").data
    assert after != before and b"2031-01-02T03:04:05+00:00" in after


def _first_post(path: Path) -> int:
    """The lowest ID of a published post in the SQLite copy."""
    with sqlite3.connect(path) as con:
        row = con.execute("SELECT MIN(ID) FROM wp_posts WHERE post_type = 'post' "
                          "AND post_status = 'publish'").fetchone()
    return int(row[0])


def test_a_network_takes_notifications_at_any_host(tmp_path: Path) -> None:
    """On a network the plugin may post to an internal address no site answers at: the
    notification is accepted there (the body names the blog), where a sitemap is 404."""
    app = network_app(f"sqlite:///{load_ms_sqlite(tmp_path / 'ms.sqlite')}",
                      NOTIFY_SECRET=SECRET)
    client = app.test_client()
    raw = body([{"kind": "post", "id": 1, "type": "post"}], blog_id=3)
    resp = client.post(f"http://wpsitemaps.internal:8000{PATH}", data=raw, headers=headers(raw))
    assert resp.status_code == 202
    assert client.get("http://wpsitemaps.internal:8000/sitemap_index.xml").status_code == 404


def test_nonces_do_not_pile_up_in_a_directory_store(tmp_path: Path) -> None:
    """A directory store keeps one lease file per nonce only for its window: the next
    notification after it releases the file."""
    from wpsitemaps.config import load_settings
    from wpsitemaps.serving.changefeed import StoreNonces
    from wpsitemaps.serving.pagestore import PageStore
    from wpsitemaps.store import open_store

    store = tmp_path / "pages"
    settings = load_settings({"DATABASE_URL": "sqlite:///x.sqlite", "STORE": str(store)},
                             environ={})
    backend = open_store(settings)
    assert backend is not None
    clock = Clock(100.0)
    nonces = StoreNonces(PageStore(backend, "ns", 300, 2), clock)
    assert nonces.first_time("first-nonce-0123456789", 600)
    assert not nonces.first_time("first-nonce-0123456789", 600)
    assert [p.name for p in store.rglob("first-nonce-*")] == ["first-nonce-0123456789"]
    clock.advance(601)
    assert nonces.first_time("second-nonce-0123456789", 600)
    assert list(store.rglob("first-nonce-*")) == []
