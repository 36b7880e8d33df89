"""Leases: which process computes a shared value right now, kept alive by a heartbeat.

A lease names its holder (`host:pid:random`, readable in the lease file or Redis key) and
lasts TERM seconds unless renewed. While its holder works, this process's keeper renews it
every BEAT seconds; when the holder stops renewing (killed, OOM, frozen, stuck past LONGEST)
it runs out and the next process that asks takes it over. Every exit path that runs code
gives the leases back: the computation's own `finally`, atexit, and gunicorn's worker_exit
hook (`wpsitemaps.gunicorn_conf`). A SIGKILL runs nothing: its leases run out within TERM.

Nobody serving a request waits for a lease for long (cache.values): a lease only decides
who does a computation, never whether a document is answered.
"""

from __future__ import annotations

import atexit
import logging
import os
import secrets
import socket
import threading
import time
from dataclasses import dataclass
from dataclasses import field

from wpsitemaps.store.base import Guard

log = logging.getLogger(__name__)
TERM = 15.0  # seconds a lease lasts without being renewed
BEAT = 5.0  # seconds between renewals: a holder misses two beats before it loses the lease
LONGEST = 900.0  # seconds a lease is renewed at most (a computation still running is stuck)


def new_token() -> str:
    """A lease holder's identity: host, process id and a random part (one per lease)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(6)}"


@dataclass(frozen=True)
class Lease:
    """A lease this process took: the store (through its guard), the key and our token.
    `stored` is False when the store failed: the value is computed alone, without one."""

    guard: Guard
    key: str
    token: str
    stored: bool = True
    since: float = field(default_factory=time.monotonic)


class Keeper:
    """Renews this process's leases every `beat` seconds and gives them back at exit."""

    def __init__(self, term: float = TERM, beat: float = BEAT,
                 longest: float = LONGEST) -> None:
        self.term, self.beat, self.longest = term, beat, longest
        self._held: dict[tuple[int, str, str], Lease] = {}
        # Guards _held only, never held across store calls; reentrant in case an exit hook
        # runs in a signal handler on the thread that holds it.
        self._lock = threading.RLock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def take(self, guard: Guard, key: str) -> Lease | None:
        """The lease `key` for this process (renewed until given back), None when another
        holds it, or an unstored Lease when the store fails (compute alone)."""
        token = new_token()
        got = guard.attempt(guard.backend.claim, key, token, self.term)
        if got is None:
            return Lease(guard, key, token, stored=False)
        if not got:
            return None
        lease = Lease(guard, key, token)
        with self._lock:
            self._held[_id(lease)] = lease
            if self._thread is None or not self._thread.is_alive():
                self._stop.clear()
                self._thread = threading.Thread(target=self._run, name="wpsitemaps-leases",
                                                daemon=True)
                self._thread.start()
        return lease

    def give_back(self, lease: Lease) -> None:
        """Stop renewing `lease` and release it (if it is still ours)."""
        with self._lock:
            self._held.pop(_id(lease), None)
        if lease.stored:
            lease.guard.attempt(lease.guard.backend.release, lease.key, lease.token)

    def give_back_all(self) -> int:
        """Release every lease this process holds (exit hooks); how many there were."""
        with self._lock:
            leases = list(self._held.values())
        for lease in leases:
            self.give_back(lease)
        if leases:
            log.info("gave back %d lease(s) on exit", len(leases))
        return len(leases)

    def halt(self) -> None:
        """Stop renewing without releasing (as a killed process does; for tests)."""
        self._stop.set()
        with self._lock:
            self._held.clear()

    def forget(self) -> None:
        """In a forked child: the parent's leases are not ours to renew or release."""
        self._lock = threading.RLock()
        self._held = {}
        self._thread = None
        self._stop = threading.Event()

    def _run(self) -> None:
        while not self._stop.wait(self.beat):
            with self._lock:
                leases = list(self._held.values())
            for lease in leases:
                self._renew(lease)

    def _renew(self, lease: Lease) -> None:
        """Renew one lease; stop when it is lost or has been held longer than `longest`."""
        if time.monotonic() - lease.since > self.longest:
            log.warning("lease %s held for %.0f s: no longer renewed (its computation seems "
                        "stuck; another process may take it over)", lease.key, self.longest)
            with self._lock:
                self._held.pop(_id(lease), None)
            return
        kept = lease.guard.attempt(lease.guard.backend.renew, lease.key, lease.token,
                                   self.term)
        if kept is False:
            with self._lock:
                # Given back since this beat listed it (its computation ended and released
                # it): nothing was lost.
                if self._held.pop(_id(lease), None) is None:
                    return
            log.warning("lease %s was lost (taken over by %s); computing on regardless",
                        lease.key, lease.guard.attempt(lease.guard.backend.holder, lease.key))


def _id(lease: Lease) -> tuple[int, str, str]:
    return (id(lease.guard), lease.key, lease.token)


KEEPER = Keeper()  # this process's leases: one keeper, one heartbeat thread
atexit.register(KEEPER.give_back_all)
os.register_at_fork(after_in_child=KEEPER.forget)
