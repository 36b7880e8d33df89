"""Helpers for page store tests: an injected clock and writes to a test's SQLite database."""

from __future__ import annotations

import sqlite3
from typing import Any

from flask import Flask

from wpsitemaps.serving.pagestore import PageStore
from wpsitemaps.web.context import service_of


class Clock:
    """A clock the test moves by hand (seconds)."""

    def __init__(self, start: float = 2_000_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move the clock forward."""
        self.now += seconds


def store_of(app: Flask) -> PageStore:
    """The app's page store (the test configured one)."""
    store = service_of(app).pages
    assert store is not None
    return store


def with_clock(app: Flask) -> Clock:
    """Inject a hand-moved clock into the app's page store."""
    clock = Clock()
    store_of(app).clock = clock
    return clock


def write(app: Flask, sql: str, *params: Any) -> None:
    """Run one writing statement on the app's SQLite database (the app itself reads only)."""
    url = service_of(app).settings.database_url
    con = sqlite3.connect(url.removeprefix("sqlite:///"))
    try:
        con.execute(sql, params)
        con.commit()
    finally:
        con.close()
