"""`wpsitemaps check` and `export` on a network: every site with its state; one site or all."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask import Flask

from tests.support.network import get
from tests.support.network import load_ms_sqlite
from tests.support.network import network_app
from tests.support.network import sqlite_exec
from wpsitemaps import cli
from wpsitemaps.web.context import service_of


@pytest.fixture(scope="module")
def ms_master(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """ms-small in SQLite, loaded once for the module."""
    return load_ms_sqlite(tmp_path_factory.mktemp("msc") / "ms.sqlite")


@pytest.fixture
def ms_copy(ms_master: Path, tmp_path: Path) -> str:
    """A private SQLite copy with site 2 archived (derived in the test)."""
    path = tmp_path / "ms.sqlite"
    shutil.copy(ms_master, path)
    url = f"sqlite:///{path}"
    sqlite_exec(url, "UPDATE wp_blogs SET archived = 1 WHERE blog_id = 2")
    return url


def check_output(url: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The lines `wpsitemaps check` prints for the database."""
    monkeypatch.setenv("WPSITEMAPS_DATABASE_URL", url)
    monkeypatch.setenv("WPSITEMAPS_NOW", "option:peer_generated_at")
    result = CliRunner().invoke(cli.main, ["check"])
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def test_check_lists_every_site_with_its_state(ms_copy: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """One line per site: live, archived (410), mapped domain, not public."""
    lines = check_output(ms_copy, monkeypatch)
    assert lines[0].startswith("network       localhost/ (subdirectory install)")
    sites = lines[1:5]
    assert lines[5:] == ["plugin        off (no notify_secret)",
                         "binlog        off (no binlog_url)"]
    assert [line.split()[:3] for line in sites] == [
        ["site", "1", "live"], ["site", "2", "archived"], ["site", "3", "live"],
        ["site", "4", "not"]]
    assert "127.0.0.1/" in sites[2] and "sitemaps post, page" in sites[2]
    assert "410 This site has been archived or suspended." in sites[1]
    assert "nothing: not public" in sites[3]


def run_export(app: Flask, monkeypatch: pytest.MonkeyPatch, *args: str) -> str:
    """Run `wpsitemaps export` against `app`; return its output."""
    monkeypatch.setattr(cli, "build_service", lambda overrides=None: service_of(app))
    result = CliRunner().invoke(cli.main, ["export", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_export_one_site_equals_what_it_serves(ms_copy: str, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """--site 3 writes the mapped site's files, byte for byte what its host answers."""
    app = network_app(ms_copy)
    run_export(app, monkeypatch, str(tmp_path / "out"), "--site", "3")
    client = app.test_client()
    files = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert "post-sitemap.xml" in files
    for name in files:
        if name.endswith(".xml"):
            served = get(client, f"http://127.0.0.1/{name}").data
            assert (tmp_path / "out" / name).read_bytes() == served, name


def test_export_all_sites_skips_dead_ones(ms_copy: str, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """--all-sites writes blogN/ for every site but the archived one, each its own URLs."""
    output = run_export(network_app(ms_copy), monkeypatch, str(tmp_path / "out"), "--all-sites")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["blog1", "blog3", "blog4"]
    assert "blog2: skipped" in output
    assert b"http://localhost/intranet/" not in (tmp_path / "out" / "blog1" /
                                                 "sitemap_index.xml").read_bytes()
    assert b"<loc>http://127.0.0.1/post-sitemap.xml</loc>" in (
        tmp_path / "out" / "blog3" / "sitemap_index.xml").read_bytes()
