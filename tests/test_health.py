"""`/healthz` and `/readyz` (issue #25): liveness without the database, readiness of the
database and the page store per site, never cached, never taken by a sitemap route or the
headless API; metrics are not on the public address."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask

from tests.support.data import small_site
from tests.support.network import get
from tests.support.network import load_ms_sqlite
from tests.support.network import network_app
from tests.support.network import sqlite_exec
from wpsitemaps import create_app

HEADLESS = {"experiences": [{"name": "web"}]}


def sqlite_path(app: Flask) -> Path:
    """The SQLite file an app reads."""
    from wpsitemaps.web.context import service_of

    return Path(service_of(app).settings.database_url.removeprefix("sqlite:///"))


def test_healthz_answers_without_the_database(make_app: Callable[..., Flask]) -> None:
    """Liveness is the process answering: 200 `ok`, even with the database gone."""
    app = make_app(small_site())
    sqlite_path(app).unlink()
    resp = app.test_client().get("/healthz")
    assert (resp.status_code, resp.data) == (200, b"ok\n")
    assert resp.headers["Cache-Control"] == "no-store"
    assert resp.mimetype == "text/plain"


def test_readyz_is_200_when_the_site_can_be_served(make_app: Callable[..., Flask],
                                                   tmp_path: Path) -> None:
    """The database and the page store answer: 200 `ready`, not cached."""
    app = make_app(small_site(), STORE=str(tmp_path / "pages"))
    resp = app.test_client().get("/readyz")
    assert (resp.status_code, resp.data) == (200, b"ready\n")
    assert resp.headers["Cache-Control"] == "no-store"


def test_readyz_is_503_with_a_reason_when_the_database_fails(
        make_app: Callable[..., Flask]) -> None:
    """A site whose tables cannot be read is not ready: 503 and one short plain line."""
    app = make_app(small_site())
    sqlite_path(app).write_bytes(b"this is not an SQLite database\x00" * 200)
    resp = app.test_client().get("/readyz")
    assert resp.status_code == 503
    assert resp.headers["Cache-Control"] == "no-store"
    text = resp.get_data(as_text=True)
    assert text.startswith("not ready: database: ") and text.count("\n") == 1
    assert "SELECT" not in text


def test_readyz_is_503_when_the_page_store_fails(make_app: Callable[..., Flask],
                                                 tmp_path: Path) -> None:
    """A page store that cannot be written (its directory replaced by a file) is not ready."""
    pages = tmp_path / "pages"
    app = make_app(small_site(), STORE=str(pages))
    shutil.rmtree(pages)
    pages.write_text("a file where the store's directory was")
    resp = app.test_client().get("/readyz")
    assert resp.status_code == 503
    assert resp.get_data(as_text=True).startswith("not ready: page store: ")


def test_probes_are_not_sitemap_or_api_routes(make_app: Callable[..., Flask]) -> None:
    """With the headless API on, the probes still answer their own plain text (no XML), and
    nothing else answers at /metrics on the public address."""
    client = make_app(small_site(), HEADLESS=HEADLESS).test_client()
    for path, body in (("/healthz", b"ok\n"), ("/readyz", b"ready\n")):
        resp = client.get(path)
        assert (resp.status_code, resp.data) == (200, body)
    assert client.get("/metrics").status_code == 404
    assert b"healthz" not in client.get("/robots.txt").data
    assert b"metrics" not in client.get("/robots.txt").data


def test_probes_refuse_other_methods(make_app: Callable[..., Flask]) -> None:
    """POST to a probe is 405, not a sitemap route's answer."""
    client = make_app(small_site()).test_client()
    assert client.post("/healthz").status_code == 405


@pytest.fixture
def ms_url(tmp_path: Path) -> str:
    """A private SQLite copy of the ms-small network."""
    return f"sqlite:///{load_ms_sqlite(tmp_path / 'ms.sqlite')}"


def test_readyz_per_site_of_a_network(ms_url: str) -> None:
    """On a network each site answers for itself: a site whose options table is gone is not
    ready at its own prefix, the main site still is, and a host of no site is 404."""
    sqlite_exec(ms_url, "DROP TABLE wp_2_options")
    client = network_app(ms_url).test_client()
    assert get(client, "http://localhost/readyz").status_code == 200
    broken = get(client, "http://localhost/fr/readyz")
    assert broken.status_code == 503
    assert broken.get_data(as_text=True).startswith("not ready: database")
    assert get(client, "http://evil.example/readyz").status_code == 404


def test_healthz_on_a_network_needs_no_site(ms_url: str) -> None:
    """Liveness does not resolve a site: 200 on any host, even with the network table gone."""
    sqlite_exec(ms_url, "DROP TABLE wp_blogs")
    app = create_app({"TESTING": True, "DATABASE_URL": ms_url, "TABLE_PREFIX": "wp_"})
    assert get(app.test_client(), "http://evil.example/healthz").status_code == 200


def test_database_errors_are_counted(make_app: Callable[..., Flask]) -> None:
    """A request the database fails on counts in wpsitemaps_database_errors_total (and the
    request in wpsitemaps_http_requests_total by its kind and status)."""
    from prometheus_client import REGISTRY

    def value(name: str, **labels: str) -> float:
        return REGISTRY.get_sample_value(name, labels) or 0.0

    app = make_app(small_site())
    sqlite_path(app).write_bytes(b"this is not an SQLite database\x00" * 200)
    errors = value("wpsitemaps_database_errors_total", kind="other")
    answered = value("wpsitemaps_http_requests_total", kind="sitemap", status="503")
    assert app.test_client().get("/post-sitemap.xml").status_code == 503
    assert value("wpsitemaps_database_errors_total", kind="other") > errors
    assert value("wpsitemaps_http_requests_total", kind="sitemap", status="503") == answered + 1


def test_probes_answer_head(make_app: Callable[..., Flask]) -> None:
    """HEAD on a probe gives its status and headers without a body."""
    client = make_app(small_site()).test_client()
    for path in ("/healthz", "/readyz"):
        resp = client.head(path)
        assert (resp.status_code, resp.data) == (200, b"")
        assert resp.headers["Cache-Control"] == "no-store"
