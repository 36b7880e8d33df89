"""Time limits on the database: the deadline of the work in progress and what a failure means.

Whoever starts a piece of work (an HTTP request, a background refresh) sets how long it may
wait on the database in all with `within(seconds)`; wordpress.db turns what is left of it
into the limits of each connection and statement (socket timeouts, MariaDB's
`max_statement_time`, MySQL's `MAX_EXECUTION_TIME`, SQLite's busy timeout and interrupt).
Work without a deadline (commands) gets `Limits.background` per statement.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Literal

from sqlalchemy.exc import SQLAlchemyError

# A lock wait longer than this means a table is held (LOCK TABLES, a blocking ALTER, a
# mysqldump --lock-tables): the service only reads, so it never waits its turn behind one.
LOCK_WAIT = 1.0
# Pings and rollbacks between pieces of work answer in microseconds on a live server.
HOUSEKEEPING = 1.0
# The socket outlives the server's own statement limit by this much, so that a slow
# statement is reported by the server (the connection stays usable) rather than cut.
SLACK = 0.5
_deadline: ContextVar[float | None] = ContextVar("wpsitemaps_db_deadline", default=None)
Failure = Literal["silent", "locked", "slow"]


class DatabaseUnavailable(SQLAlchemyError):
    """The database is not asked: it failed moments ago, or this work's time for it is spent."""


class TimeSpent(DatabaseUnavailable):
    """This work's time for the database is spent: nothing more is asked of it."""


@dataclass(frozen=True)
class Limits:
    """The configured bounds: a request's time in all, and a background statement's."""

    request: float
    background: float


@contextmanager
def within(seconds: float) -> Iterator[None]:
    """Run the block with a deadline `seconds` from now on the database (this thread only)."""
    token = _deadline.set(time.monotonic() + seconds)
    try:
        yield
    finally:
        _deadline.reset(token)


def remaining(limits: Limits) -> float:
    """Seconds the current work may still wait on the database (background: per statement)."""
    deadline = _deadline.get()
    if deadline is None:
        return limits.background
    return deadline - time.monotonic()


def spent() -> bool:
    """Whether the current work's deadline has passed (SQLite's interrupt asks, often)."""
    deadline = _deadline.get()
    return deadline is not None and time.monotonic() > deadline


def failure(exc: BaseException) -> Failure | None:
    """What a database error says about the server: 'silent' (it did not answer in time),
    'locked' (a lock wait ran out), 'slow' (a statement hit its time limit) or None."""
    orig = getattr(exc, "orig", None) or exc
    args = getattr(orig, "args", ())
    code = args[0] if args and isinstance(args[0], int) else None
    text = str(orig).lower()
    if code == 1205 or "database is locked" in text or "database table is locked" in text:
        return "locked"
    if code in (1969, 3024, 1317) or text == "interrupted":
        return "slow"
    if "timed out" in text:  # pymysql: "Lost connection ... (timed out)", "Can't connect ..."
        return "silent"
    return None


def transient(exc: BaseException) -> bool:
    """Whether an error is about time or reachability, not about the data: code that skips a
    missing optional table must let these through (the page would be built without it)."""
    if isinstance(exc, DatabaseUnavailable) or failure(exc) is not None:
        return True
    return bool(getattr(exc, "connection_invalidated", False))
