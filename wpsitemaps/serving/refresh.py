"""The background refresh of a site's values, and what a server logs at start.

A value of the value cache past its TTL is served while one refresh per process recomputes
the site's values in a thread: it builds the site's registry with a forcing view of the
cache and reads what the index reads (every sitemap's page bounds, the live tails). It calls
documents directly, so no store window or HTTP layer can answer it instead of computing.
"""

from __future__ import annotations

import logging
import threading
import time

from sqlalchemy.exc import SQLAlchemyError

from wpsitemaps.metrics import REFRESH
from wpsitemaps.serving.documents import index_refs
from wpsitemaps.serving.service import Service
from wpsitemaps.serving.service import SiteSession
from wpsitemaps.serving.sites import Resolved
from wpsitemaps.wordpress.limits import within
from wpsitemaps.wordpress.site import build_site
from wpsitemaps.wordpress.typereport import type_report

log = logging.getLogger(__name__)
WARM_UP_HOST = "localhost"  # start-up warm-up: the single site (a network has none there)
# A request that ran out of time starts the background refresh at most this often (seconds).
RESCUE_EVERY = 60.0


class Refresher:
    """Runs at most one background refresh at a time in this process, within the background
    time limit for the database (`db_background_timeout`)."""

    def __init__(self, service: Service) -> None:
        self.service = service
        self._running = threading.Lock()
        self._rescued = -RESCUE_EVERY

    def start(self, resolved: Resolved | None) -> None:
        """Refresh the values of a site (None: the one a bare address resolves to) in a
        thread, unless a refresh is running."""
        if self._running.acquire(blocking=False):
            threading.Thread(target=self._run, args=(resolved,), name="wpsitemaps-refresh",
                             daemon=True).start()

    def rescue(self, resolved: Resolved | None) -> None:
        """Start a refresh for a request that ran out of its time for the database, at most
        once per RESCUE_EVERY: a value too slow to compute within db_timeout (a cold page
        bound or term list of a large site) is computed here, with db_background_timeout,
        instead of being tried again, and failing again, by every request."""
        now = time.monotonic()
        if now - self._rescued >= RESCUE_EVERY:
            self._rescued = now
            self.start(resolved)

    def running(self) -> bool:
        """Whether a refresh runs now."""
        return self._running.locked()

    def _run(self, resolved: Resolved | None) -> None:
        started, outcome = time.monotonic(), "failed"
        try:
            self.run(resolved)
            outcome = "ok"
        except SQLAlchemyError as exc:
            # One line, the traceback at DEBUG: the refresh of a failing database would
            # otherwise log one per attempt (the requests' outage lines say the rest).
            log.warning("background refresh failed: %s", self.service.outage.describe(exc))
            log.debug("background refresh failed", exc_info=exc)
        except Exception:  # noqa: BLE001 - a failed refresh keeps the stale values
            log.exception("background refresh failed")
        finally:
            REFRESH.labels(outcome=outcome).observe(time.monotonic() - started)
            self._running.release()

    def run(self, resolved: Resolved | None) -> None:
        """Recompute every value the index of the site reads (in this thread)."""
        service = self.service
        with within(service.settings.db_background_timeout):
            res = resolved or service.resolve(WARM_UP_HOST, "/")
            if res.missing or (res.blog is not None and res.blog.gone):
                return
            with SiteSession(service, res, refresh=True) as session:
                index_refs(session.registry)


def enable_refresh(service: Service) -> Refresher:
    """Give the service a background refresh (servers; commands compute inline)."""
    refresher = Refresher(service)
    service.background = refresher
    return refresher


def warm_up(service: Service) -> None:
    """Fill the value cache in the background (server start: the first crawler need not
    wait)."""
    if service.background is not None and service.settings.cache_ttl > 0:
        service.background.start(None)


def log_types(service: Service) -> None:
    """Log `check`'s report of post types and taxonomies at start-up, on a connection of its
    own: what is served, from which evidence, what is not and the lines that would list it.
    A database that does not answer yet is a warning, not a failed start."""
    try:
        with service.connect() as conn:
            lines = type_report(conn, build_site(conn, service.settings))
    except SQLAlchemyError as exc:
        log.warning("could not report post types and taxonomies: %s",
                    service.outage.describe(exc))
        return
    loud = any("NOT served" in line for line in lines)
    log.log(logging.WARNING if loud else logging.INFO, "%s", "\n".join(lines))
