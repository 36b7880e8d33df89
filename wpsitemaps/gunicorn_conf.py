"""gunicorn server hooks that `wpsitemaps serve` passes (`-c python:wpsitemaps.gunicorn_conf`).

Leases. A worker that stops for any reason gunicorn runs code for (a graceful stop, HUP,
Ctrl-C, SIGQUIT, the timeout's SIGABRT, max_requests) gives back the shared-value leases it
holds (cache.leases), so no other worker or host waits for them to run out. atexit does the
same on any ordinary exit; a SIGKILL or the OOM killer runs nothing, and those leases run
out within cache.leases.TERM seconds. Only `worker_exit`: `worker_int` and `worker_abort` run
inside the signal handler, which may have interrupted a thread holding the store client's
lock; `worker_exit` runs right after them, once the worker's stack has unwound (gunicorn's
arbiter calls it in the `finally` of every worker's life).

Metrics. With `metrics_bind` set, PROMETHEUS_MULTIPROC_DIR is set here, when gunicorn loads
this module in the master and before any worker is forked or imports prometheus_client, so
every worker writes its figures there; the master serves their sum on `metrics_bind` from
`when_ready`, and forgets a dead worker's live values in `child_exit`.

Start-up report. What is served and what is not (`wpsitemaps check`'s report) is logged once,
by the master in `when_ready`, before the workers are forked (they find REPORTED set).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from wpsitemaps.config import ConfigError
from wpsitemaps.config import load_settings


def _metrics_bind() -> str | None:
    """The configured metrics address (a bad setting is reported by the workers)."""
    try:
        return load_settings().metrics_bind
    except ConfigError:
        return None


METRICS_BIND = _metrics_bind()
OWN_DIR: str | None = None  # the multiprocess directory made here (removed at exit)
if METRICS_BIND and not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    OWN_DIR = tempfile.mkdtemp(prefix="wpsitemaps-metrics-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = OWN_DIR
REPORTED = False

# Imported after the directory is set: prometheus_client picks its mode on import.
from wpsitemaps.cache.leases import KEEPER  # noqa: E402
from wpsitemaps.serving.changefeed import stop_sources  # noqa: E402


def on_starting(server: Any) -> None:
    """Empty a given multiprocess directory of an earlier run's figures (prometheus_client
    requires it: old files would be summed in)."""
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if METRICS_BIND and folder and folder != OWN_DIR:
        for stale in Path(folder).glob("*.db"):
            stale.unlink(missing_ok=True)


def when_ready(server: Any) -> None:
    """In the master, before the workers: the start-up report once, the metrics listener."""
    global REPORTED
    _report(server)
    REPORTED = True
    if METRICS_BIND:
        from wpsitemaps.metrics import start_listener

        try:
            start_listener(METRICS_BIND)
        except OSError as exc:
            # Serving crawlers matters more than metrics: one loud line, and serve on.
            server.log.error("wpsitemaps: metrics_bind %s cannot be bound (%s): no metrics",
                             METRICS_BIND, exc.strerror or exc)


def _report(server: Any) -> None:
    """Log the post type and taxonomy report on a service of the master's own, closed
    before the workers are forked (they must not share its connections)."""
    from wpsitemaps.app import service_for
    from wpsitemaps.serving.refresh import log_types
    from wpsitemaps.wordpress.limits import within

    try:
        service = service_for(load_settings())
    except ConfigError:
        return  # each worker stops with the one line naming the setting
    try:
        with within(service.settings.db_timeout):
            log_types(service)
    finally:
        service.engine.dispose()


def worker_exit(server: Any, worker: Any) -> None:
    """Give back the leases of the exiting worker (the binlog reader's too)."""
    KEEPER.give_back_all()
    stop_sources()


def child_exit(server: Any, worker: Any) -> None:
    """In the master: drop a dead worker's live gauge files (its counts stay summed)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)  # type: ignore[no-untyped-call]


def on_exit(server: Any) -> None:
    """Remove the multiprocess directory made here."""
    if OWN_DIR:
        shutil.rmtree(OWN_DIR, ignore_errors=True)
