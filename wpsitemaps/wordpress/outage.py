"""Outage logging: one line when the database starts failing, one when it answers again.

Without it every failed request logged its own traceback (about 9 KB; 3,044 refused requests
made a 27 MB log, issue #25), which can fill a log disk at crawler rates and hides the one
line an operator needs. Here the first failure logs one line with its likely cause
(wordpress.causes), later failures are counted (their tracebacks at DEBUG only), a reminder
comes every REMIND_EVERY seconds while it lasts, and the first statement that succeeds
afterwards logs the end with how many requests were affected. Failures the breaker handles
(a silent database, a held lock: wordpress.breaker) are logged by the breaker, not here.

An error about one statement (a missing GRANT or table: the database answers, other
documents are served) is no outage: each distinct cause is logged once, then again at most
every REMIND_EVERY seconds. One per process (per engine).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from wpsitemaps.wordpress.causes import driver_message
from wpsitemaps.wordpress.causes import error_code

log = logging.getLogger(__name__)
REMIND_EVERY = 300.0  # seconds between two reminders that the database still fails


class Outage:
    """The current run of failures, if any: since when, why, and the requests it cost."""

    def __init__(self, describe: Callable[[BaseException], str],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.describe, self.clock = describe, clock
        self._lock = threading.Lock()
        self._since: float | None = None
        self._cause = ""
        self._reminded = 0.0
        self._stored = self._refused = 0
        self._statement_errors: dict[str, float] = {}

    @property
    def failing(self) -> bool:
        """Whether the database has failed since it last answered."""
        return self._since is not None

    def failed(self, exc: BaseException, path: str, stored: bool) -> None:
        """A request failed on the database: answered from a stored copy, or with a 503."""
        if statement_error(exc):
            self._statement_error(exc, path, stored)
            return
        why = self.describe(exc)
        now = self.clock()
        with self._lock:
            first = self._since is None
            changed = not first and why != self._cause
            if first:
                self._since, self._reminded, self._stored, self._refused = now, now, 0, 0
            self._cause = why
            if stored:
                self._stored += 1
            else:
                self._refused += 1
            remind = not first and not changed and now - self._reminded >= REMIND_EVERY
            if remind or changed:
                self._reminded = now
            count, since = self._stored + self._refused, self._since or now
        log.debug("database error on %s", path, exc_info=exc)
        answer = "answered from its stored copy" if stored else "answered 503"
        level = logging.WARNING if stored else logging.ERROR
        if first or changed:
            log.log(level, "wpsitemaps: the database cannot be read: %s; %s %s (further "
                    "failures are counted until it answers again)", why, path, answer)
        elif remind:
            log.log(level, "wpsitemaps: the database still cannot be read after %.0f s (%d "
                    "requests affected): %s", now - since, count, why)

    def _statement_error(self, exc: BaseException, path: str, stored: bool) -> None:
        """One line per distinct cause (and a reminder every REMIND_EVERY seconds)."""
        why, now = self.describe(exc), self.clock()
        log.debug("database error on %s", path, exc_info=exc)
        with self._lock:
            last = self._statement_errors.get(why)
            due = last is None or now - last >= REMIND_EVERY
            if due:
                self._statement_errors[why] = now
        if due:
            answer = "answered from its stored copy" if stored else "answered 503"
            log.log(logging.WARNING if stored else logging.ERROR,
                    "wpsitemaps: %s; %s %s", why, path, answer)

    def answered(self) -> None:
        """A statement succeeded: end the current run of failures, if any, with one line."""
        if self._since is None:  # the common case: no lock taken
            return
        with self._lock:
            if self._since is None:
                return
            since, stored, refused = self._since, self._stored, self._refused
            self._since = None
        log.warning("wpsitemaps: the database answers again after %.1f s; %d requests were "
                    "affected (%d answered from stored copies, %d with 503)",
                    self.clock() - since, stored + refused, stored, refused)


def statement_error(exc: BaseException) -> bool:
    """Whether an error is about one statement (a missing GRANT, table or column) while the
    database itself answers."""
    if error_code(exc) in (1142, 1143, 1146, 1054):
        return True
    text = driver_message(exc)
    return "no such table" in text or "no such column" in text
