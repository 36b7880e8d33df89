"""SQLite outages: the file is the database, so a missing, corrupt or table-less file (or a
directory in its place) answers 503 with Retry-After, never 500, and serving resumes by itself
once the file is there."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask

from tests.support import wpdb
from tests.support.sitemaps import fetch_all
from tests.test_outage import PAGES
from tests.test_outage import assert_unavailable
from tests.test_outage import outage_site
from wpsitemaps import create_app


def sqlite_app(path: Path) -> Flask:
    """An app reading the SQLite file at `path` (which may not exist yet)."""
    return create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{path}",
                       "NOW": "option:test_now", "ENTRIES_PER_PAGE": 8})


def _missing(path: Path) -> None:
    path.unlink()


def _garbage(path: Path) -> None:
    path.write_bytes(b"this is not an SQLite database\x00" * 200)


def _truncated(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[:100])


def _no_tables(path: Path) -> None:
    path.unlink()
    wpdb.sqlite_with_schema(path, "other_")


def _unreadable_dir(path: Path) -> None:
    path.unlink()
    path.mkdir()


@pytest.mark.parametrize("breakage", [_missing, _garbage, _truncated, _no_tables,
                                      _unreadable_dir])
def test_sqlite_file_broken(tmp_path: Path, breakage: Callable[[Path], None]) -> None:
    """A missing, corrupt, truncated, table-less or directory 'file' answers 503, not 500."""
    path = tmp_path / "wp.sqlite"
    outage_site().write_sqlite(path)
    app = sqlite_app(path)
    breakage(path)
    client = app.test_client()
    for route in PAGES:
        assert_unavailable(client.get(route))


def test_sqlite_file_appears(tmp_path: Path) -> None:
    """An app started before its SQLite file exists serves it once it appears."""
    path = tmp_path / "wp.sqlite"
    app = sqlite_app(path)
    assert_unavailable(app.test_client().get("/sitemap_index.xml"))
    outage_site().write_sqlite(path)
    assert set(PAGES) <= set(fetch_all(app.test_client()))
