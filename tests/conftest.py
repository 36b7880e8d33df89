"""Shared fixtures: the peer-small WordPress dump on SQLite and MariaDB, app factories."""

from __future__ import annotations

import atexit
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import Connection
from sqlalchemy import Engine

from tests.support import wpdb
from tests.support.builder import Site
from wpsitemaps import create_app
from wpsitemaps.config import load_settings
from wpsitemaps.wordpress.db import make_engine

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
# The page store (issue #13) is on in tests unless WPSITEMAPS_TEST_STORE=off; .ci/run runs
# the store-sensitive files both ways. Window 0: every request revalidates its page, so a
# test that changes the database and requests again proves the fingerprints see the change.
STORE_ON = os.environ.get("WPSITEMAPS_TEST_STORE", "on").lower() != "off"
os.environ["WPSITEMAPS_STORE_WINDOW"] = "0"
# The suite checks what is served, on a shared and loaded 2-core machine where a cold pass
# over a 20,000-post site can take longer than a request's default 4 s with the database:
# tests that are about that limit (test_outage_slow.py, test_db_limits.py) set their own.
os.environ.setdefault("WPSITEMAPS_DB_TIMEOUT", "60")
os.environ["WPSITEMAPS_STORE"] = "off"
if STORE_ON:
    # Apps built outside a test (module-scoped fixtures) share this one; removed at exit.
    os.environ["WPSITEMAPS_STORE"] = tempfile.mkdtemp(prefix="wpsitemaps-test-store-")
    atexit.register(shutil.rmtree, os.environ["WPSITEMAPS_STORE"], ignore_errors=True)

# What peer-small's README says the site registers in PHP code (not visible in the database).
PEER_CONFIG: dict[str, Any] = {
    "TABLE_PREFIX": "wp_",
    "POST_TYPES": {"event": {"rewrite_slug": "events", "has_archive": True},
                   "peer_internal": {"exclude": True}},
    "TAXONOMIES": {"genre": {"rewrite_slug": "genre"}},
    "NOW": "option:peer_generated_at",
}


def require_mariadb() -> None:
    """Skip when MariaDB is unreachable, except in CI where that is a failure."""
    if not wpdb.mariadb_reachable():
        if IN_CI:
            pytest.fail("MariaDB on 127.0.0.1:3306 is required in CI but unreachable")
        pytest.skip("MariaDB on 127.0.0.1:3306 is not reachable")


@pytest.fixture(scope="session", autouse=True)
def read_only_user() -> Iterator[None]:
    """The read-only MariaDB user the tests create is dropped when the session ends."""
    yield
    if wpdb.mariadb_reachable():
        wpdb.drop_read_only_user()


@pytest.fixture(autouse=True)
def page_store_dir(tmp_path_factory: pytest.TempPathFactory,
                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Apps made inside a test store pages in that test's own directory (or nowhere)."""
    if STORE_ON:
        monkeypatch.setenv("WPSITEMAPS_STORE", str(tmp_path_factory.mktemp("store")))


@pytest.fixture(scope="session")
def truth() -> dict[str, Any]:
    """peer-small.truth.json: what WordPress itself computed for the dump."""
    data: dict[str, Any] = json.loads(wpdb.PEER_TRUTH.read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="session")
def peer_sqlite_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The dump loaded into SQLite with the shared loader."""
    path = wpdb.load_peer_sqlite(tmp_path_factory.mktemp("peer") / "peer.sqlite")
    return f"sqlite:///{path}"


@pytest.fixture(scope="session")
def peer_mariadb_url() -> Iterator[str]:
    """The dump loaded into a fresh MariaDB database, read through a SELECT-only user."""
    require_mariadb()
    name = wpdb.create_mariadb("peer", wpdb.PEER_SQL)
    yield wpdb.mariadb_url(name)
    wpdb.drop_mariadb(name)


@pytest.fixture(params=["sqlite", pytest.param("mariadb", marks=pytest.mark.mariadb)])
def peer_url(request: pytest.FixtureRequest) -> str:
    """The dump's database URL, once per backend."""
    name = "peer_sqlite_url" if request.param == "sqlite" else "peer_mariadb_url"
    url: str = request.getfixturevalue(name)
    return url


@pytest.fixture
def peer_app(peer_url: str) -> Flask:
    """The app serving the peer-small dump (both backends)."""
    return create_app({"TESTING": True, "DATABASE_URL": peer_url, **PEER_CONFIG})


@pytest.fixture
def write_site(tmp_path: Path) -> Iterator[Callable[[Site, str], str]]:
    """Factory: write a builder Site to SQLite ("sqlite") or MariaDB ("mariadb") and return
    its database URL. MariaDB databases made here are dropped when the test ends."""
    counter = iter(range(1000))
    made: list[str] = []

    def factory(site: Site, backend: str = "sqlite") -> str:
        n = next(counter)
        if backend == "mariadb":
            require_mariadb()
            made.append(wpdb.mariadb_name(f"t{n}"))
            return site.write_mariadb(f"t{n}")
        return site.write_sqlite(tmp_path / f"site{n}.sqlite")

    yield factory
    for name in made:
        wpdb.drop_mariadb(name)


@pytest.fixture
def make_app(write_site: Callable[[Site, str], str]) -> Callable[..., Flask]:
    """Factory: write a builder Site (write_site) and return an app serving it."""
    def factory(site: Site, backend: str = "sqlite", **config: Any) -> Flask:
        settings = {"TESTING": True, "DATABASE_URL": write_site(site, backend),
                    "TABLE_PREFIX": site.prefix, "NOW": "option:test_now", **config}
        return create_app(settings)

    return factory


@pytest.fixture
def site_conn(write_site: Callable[[Site, str], str]) -> Iterator[Callable[..., Connection]]:
    """Factory: write a builder Site (write_site) and return a connection to it, as the app
    makes them (queries tested without an app)."""
    opened: list[tuple[Engine, Connection]] = []

    def factory(site: Site, backend: str = "sqlite") -> Connection:
        engine = make_engine(load_settings({"DATABASE_URL": write_site(site, backend)},
                                           environ={}))
        opened.append((engine, engine.connect()))
        return opened[-1][1]

    yield factory
    for engine, conn in opened:  # closed before write_site drops the database
        conn.close()
        engine.dispose()


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    """A small site (tests/data.py) on SQLite; pytest-flask's `client` uses it."""
    from tests.support.data import small_site

    return make_app(small_site())
