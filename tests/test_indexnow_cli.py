"""`wpsitemaps indexnow status|submit|backfill` and `check`'s IndexNow lines (issue #27), on
the small site with a page store, against the local IndexNow endpoint."""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from click.testing import Result
from flask import Flask

from tests.support.builder import Site
from tests.support.data import small_site
from tests.support.indexnow import Endpoint
from tests.support.indexnow import running_endpoint
from tests.support.indexnow import served
from wpsitemaps.cli import main
from wpsitemaps.indexnow.feature import active
from wpsitemaps.web.context import service_of

HOME = "http://example.test"


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    """A local IndexNow endpoint."""
    with running_endpoint() as found:
        yield found


@pytest.fixture
def env(write_site: Callable[[Site, str], str], endpoint: Endpoint, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The environment of a command (and of an app) with IndexNow on."""
    values = {"WPSITEMAPS_DATABASE_URL": write_site(small_site(), "sqlite"),
              "WPSITEMAPS_NOW": "option:test_now", "WPSITEMAPS_STORE": str(tmp_path / "pages"),
              "WPSITEMAPS_STORE_NAMESPACE": "site", "WPSITEMAPS_INDEXNOW_ENDPOINTS": endpoint.url,
              "WPSITEMAPS_INDEXNOW_BATCH_WINDOW": "0"}
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    return values


def run(*args: str) -> Result:
    """The command's result."""
    return CliRunner().invoke(main, list(args))


def app_of(_env: dict[str, str]) -> Flask:
    """An app on the same database and store (the running service)."""
    from wpsitemaps import create_app

    return create_app({"TESTING": True})


def test_status_when_off_is_one_line(monkeypatch: pytest.MonkeyPatch, env: dict[str, str]
                                     ) -> None:
    """Without endpoints the command says which setting turns IndexNow on, exit code 2."""
    monkeypatch.setenv("WPSITEMAPS_INDEXNOW_ENDPOINTS", "")
    result = run("indexnow", "status")
    assert result.exit_code == 2 and "WPSITEMAPS_INDEXNOW_ENDPOINTS" in result.output


def test_submit_queues_and_the_service_delivers(env: dict[str, str],
                                               endpoint: Endpoint) -> None:
    """URLs queued by hand show in status and are delivered by the running service, with
    the key status printed."""
    result = run("indexnow", "submit", f"{HOME}/a/", f"{HOME}/b/")
    assert result.exit_code == 0, result.output
    status = run("indexnow", "status").output
    assert "queued        2" in status
    app = app_of(env)
    feature = active(service_of(app))
    assert feature is not None and f"key           {feature.key}" in status
    with served(app) as base:
        endpoint.service = base
        feature.submitter.run_once()
    assert sorted(endpoint.urls()) == [f"{HOME}/a/", f"{HOME}/b/"]
    after = run("indexnow", "status").output
    assert "queued        0" in after and "answered 200" in after


def test_submit_refuses_a_relative_url(env: dict[str, str]) -> None:
    """A URL that is not absolute http(s) is named, exit code 2, nothing queued."""
    result = run("indexnow", "submit", "/relative/")
    assert result.exit_code == 2 and "'/relative/'" in result.output
    assert "queued        0" in run("indexnow", "status").output


def test_backfill_queues_what_changed_since(env: dict[str, str], endpoint: Endpoint) -> None:
    """backfill --since queues the listed URLs modified since then, not older ones."""
    app = app_of(env)
    result = run("indexnow", "backfill", "--since", "2026-11-27")
    assert result.exit_code == 0, result.output
    feature = active(service_of(app))
    assert feature is not None
    with served(app) as base:
        endpoint.service = base
        feature.submitter.run_once()
    everything = set(endpoint.urls())
    # Posts are dated a day apart before 2026-11-29 12:00: the first two are since then.
    assert {f"{HOME}/first-post/", f"{HOME}/second-post/"} <= everything
    assert f"{HOME}/third-post/" not in everything and f"{HOME}/about/" not in everything
    assert not any("private" in u for u in everything)
    result = run("indexnow", "backfill", "--since", "2100-01-01")
    assert "queued 0 URL(s)" in result.output


def test_check_reports_a_refusal(env: dict[str, str], endpoint: Endpoint) -> None:
    """After a 403 `check` prints the stop with what to do about it."""
    app = app_of(env)
    feature = active(service_of(app))
    assert feature is not None
    endpoint.answers.append(403)
    run("indexnow", "submit", f"{HOME}/a/")
    with served(app) as base:
        endpoint.service = base
        feature.submitter.run_once()
    output = run("check").output
    assert f"IndexNow STOPPED: {endpoint.url} refused example.test with 403" in output
    assert "1 queued" in output
