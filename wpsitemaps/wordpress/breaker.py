"""The database breaker: once the database failed by silence or by a held lock, requests stop
asking it and a background probe asks instead, until it answers.

Without it every request would wait for the same timeout (each gunicorn worker one at a
time), while stored pages could have been served at once; with it only the requests under
way when the trouble starts wait, and the others are answered from the page store (or 503)
in microseconds. A failure that costs no time (a refused connection, a missing table) does
not trip it: failing fast needs no help. One breaker per process (per engine).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from wpsitemaps.wordpress.limits import DatabaseUnavailable
from wpsitemaps.wordpress.limits import Failure

log = logging.getLogger(__name__)
PROBE_EVERY = 1.0  # seconds between two probes of a database that failed
_probing: ContextVar[bool] = ContextVar("wpsitemaps_db_probing", default=False)


@dataclass(frozen=True)
class Replay:
    """The statement that met a held lock, as it was before its time limits were added: the
    probe runs it again, since only a statement on the same tables can see the lock go."""

    statement: str
    parameters: Any
    no_parameters: bool
    paged: bool


Probe = Callable[[Replay | None], None]


class Breaker:
    """Whether the database may be asked now, and the probe that closes it again."""

    def __init__(self, every: float = PROBE_EVERY) -> None:
        self.every = every
        self.probe: Probe | None = None  # set by wordpress.db.make_engine
        self._lock = threading.Lock()
        self._down_since: float | None = None
        self._why: Failure = "silent"
        self._replay: Replay | None = None
        self._refused = 0

    @property
    def down(self) -> bool:
        """Whether requests are kept from the database right now."""
        return self._down_since is not None

    def refuse(self) -> None:
        """Raise DatabaseUnavailable while the database is left alone (the probe passes)."""
        if self._down_since is None or _probing.get():
            return
        with self._lock:
            self._refused += 1
        what = "holds a lock" if self._why == "locked" else "does not answer"
        raise DatabaseUnavailable(f"the database {what}; it is probed every {self.every:g} s")

    def trip(self, why: Failure, replay: Replay | None) -> None:
        """Stop asking the database and start probing it (no-op when already down)."""
        if _probing.get() or self.probe is None:
            return
        with self._lock:
            if self._down_since is not None:
                return
            self._down_since, self._why, self._replay = time.monotonic(), why, replay
            self._refused = 0
        log.error("wpsitemaps: database %s: requests are answered from the page store (or "
                  "503) without asking it until it answers a probe (every %g s)",
                  "lock wait ran out" if why == "locked" else "did not answer in time",
                  self.every)
        threading.Thread(target=self._watch, name="wpsitemaps-db-probe", daemon=True).start()

    def _watch(self) -> None:
        """Probe until the database answers, then let requests through again."""
        token = _probing.set(True)
        try:
            while not self._try():
                pass
        finally:
            _probing.reset(token)
        with self._lock:
            since, refused = self._down_since or time.monotonic(), self._refused
            self._down_since, self._replay = None, None
        log.warning("wpsitemaps: database answers again after %.1f s; %d requests were "
                    "answered without asking it", time.monotonic() - since, refused)

    def _try(self) -> bool:
        """One probe after a pause: whether the database answered it."""
        time.sleep(self.every)
        assert self.probe is not None
        try:
            self.probe(self._replay)
        except Exception as exc:  # noqa: BLE001 - any failure: still down, probe again
            log.debug("database probe failed: %s", exc.__class__.__name__)
            return False
        return True
