"""gunicorn server hooks that `wpsitemaps serve` passes (`-c python:wpsitemaps.gunicorn_conf`).

A worker that stops for any reason gunicorn runs code for (a graceful stop, HUP, Ctrl-C,
SIGQUIT, the timeout's SIGABRT, max_requests) gives back the shared-value leases it holds
(cache.leases), so no other worker or host waits for them to run out. atexit does the same
on any ordinary exit; a SIGKILL or the OOM killer runs nothing, and those leases run out
within cache.leases.TERM seconds.

Only `worker_exit`: `worker_int` and `worker_abort` run inside the signal handler, which may
have interrupted a thread holding the store client's lock; `worker_exit` runs right after
them, once the worker's stack has unwound (gunicorn's arbiter calls it in the `finally` of
every worker's life).
"""

from __future__ import annotations

from typing import Any

from wpsitemaps.cache.leases import KEEPER
from wpsitemaps.serving.changefeed import stop_sources


def worker_exit(server: Any, worker: Any) -> None:
    """Give back the leases of the exiting worker (the binlog reader's too)."""
    KEEPER.give_back_all()
    stop_sources()
