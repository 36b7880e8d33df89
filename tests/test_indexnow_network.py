"""IndexNow on a multisite network (issue #27), on ms-small: the key file answers on every
site's host, the sweeper finds a change in any site, and the submission names its host."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from tests.support.indexnow import Endpoint
from tests.support.indexnow import running_endpoint
from tests.support.indexnow import served
from tests.support.network import load_ms_sqlite
from tests.support.network import network_app
from tests.support.network import site_address
from tests.support.storeclock import Clock
from wpsitemaps.indexnow.feature import IndexNow
from wpsitemaps.indexnow.feature import active
from wpsitemaps.web.context import service_of


@pytest.fixture(scope="module")
def ms_master(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """ms-small in SQLite, loaded once for the module."""
    return load_ms_sqlite(tmp_path_factory.mktemp("msi") / "ms.sqlite")


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    """A local IndexNow endpoint."""
    with running_endpoint() as found:
        yield found


@pytest.fixture
def network(ms_master: Path, tmp_path: Path, endpoint: Endpoint) -> tuple[Flask, IndexNow]:
    """The network service on a private copy, IndexNow on, the store's clock injected."""
    path = tmp_path / "ms.sqlite"
    shutil.copy(ms_master, path)
    app = network_app(f"sqlite:///{path}", STORE=str(tmp_path / "pages"), STORE_WINDOW=0,
                      INDEXNOW_ENDPOINTS=endpoint.url, INDEXNOW_BATCH_WINDOW=1)
    feature = active(service_of(app))
    assert feature is not None
    clock = Clock()
    service_of(app).pages.clock = clock  # type: ignore[union-attr]
    feature.outbox.clock = clock
    return app, feature


@pytest.mark.parametrize("blog_id", [1, 2, 3, 4])
def test_the_key_file_answers_on_every_site(network: tuple[Flask, IndexNow],
                                            blog_id: int) -> None:
    """/{key}.txt is served on each site's host (and under a subdirectory site's path)."""
    app, feature = network
    base, prefix = site_address(blog_id)
    resp = app.test_client().get(f"{prefix}/{feature.key}.txt", base_url=base)
    assert resp.status_code == 200 and resp.get_data(as_text=True) == feature.key


def test_a_change_in_a_sub_site_is_submitted_for_its_host(
        network: tuple[Flask, IndexNow], endpoint: Endpoint) -> None:
    """A post of site 3 (its own host) updated: the sweeper finds it, the request names
    the host, and the endpoint verifies the key on that host."""
    app, feature = network
    with served(app) as base:
        endpoint.service = base
        feature.sweeper.sweep()
        url = service_of(app).settings.database_url.removeprefix("sqlite:///")
        con = sqlite3.connect(url)
        pid = con.execute("SELECT ID FROM wp_3_posts WHERE post_type = 'post' AND "
                           "post_status = 'publish' ORDER BY ID LIMIT 1").fetchone()[0]
        con.execute("UPDATE wp_3_posts SET post_modified_gmt = '2030-01-01 00:00:00' "
                    "WHERE ID = ?", (pid,))
        con.commit()
        con.close()
        feature.outbox.clock.advance(1)  # type: ignore[attr-defined]
        feature.sweeper.sweep()
        feature.outbox.clock.advance(5)  # type: ignore[attr-defined]
        feature.submitter.run_once()
    assert [r["host"] for r in endpoint.accepted] == ["127.0.0.1"]
    assert endpoint.urls() == [f"http://127.0.0.1/archives/{pid}/"]  # /archives/%post_id%/
