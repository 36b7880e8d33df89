"""The background refresh of a site's values, documents prepared in the background, and
what a server logs at start.

A value of the value cache past its TTL is served while one refresh per process recomputes
the site's values in a thread: it builds the site's registry with a forcing view of the
cache and reads what the index reads (every sitemap's page bounds, the live tails). It calls
documents directly, so no store window or HTTP layer can answer it instead of computing.

A document whose render takes longer than a request may wait on the database (a video page
of a large site parses a thousand posts' content), with nothing stored to answer it, would
fail the same way on every request. The request answers 503 with Retry-After, and the
document is prepared here: rendered in a thread with `db_background_timeout` and stored, so
the next request is answered from the store. One preparation at a time per process, and one
per document across processes and hosts (a lease in the store: cache.leases).
"""

from __future__ import annotations

import logging
import threading
import time

from sqlalchemy.exc import SQLAlchemyError

from wpsitemaps.cache.leases import KEEPER
from wpsitemaps.metrics import REFRESH
from wpsitemaps.serving.addresses import Address
from wpsitemaps.serving.documents import NoSuchDocument
from wpsitemaps.serving.documents import get
from wpsitemaps.serving.documents import index_refs
from wpsitemaps.serving.service import Service
from wpsitemaps.serving.service import SiteSession
from wpsitemaps.serving.sites import Resolved
from wpsitemaps.sitemaps.providers.base import NotReady
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
        self._preparing = threading.Lock()
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

    def prepare(self, resolved: Resolved, address: Address) -> None:
        """Render and store a document whose render ran out of a request's time for the
        database, in a thread, unless this process prepares one already (the next request
        that runs out of time asks again). Without a page store there is nowhere to keep it."""
        if self.service.pages is None or not self._preparing.acquire(blocking=False):
            return
        threading.Thread(target=self._prepare, args=(resolved, address),
                         name="wpsitemaps-prepare", daemon=True).start()

    def preparing(self) -> bool:
        """Whether a document is being prepared now."""
        return self._preparing.locked()

    def _prepare(self, resolved: Resolved, address: Address) -> None:
        service, pages = self.service, self.service.pages
        try:
            if pages is None:
                return
            key = pages.key(resolved.key, address.filename)
            lease = KEEPER.take(pages.guard, key + ".prepare")
            if lease is None:
                return  # another process prepares it (and said so)
            # Logged here, once per preparation, not once per request that ran out of time.
            log.info("%s took longer than a request may wait on the database; preparing it "
                     "in the background", address.filename)
            started = time.monotonic()
            try:
                with within(service.settings.db_background_timeout), \
                        SiteSession(service, resolved) as session:
                    get(session, address, window=False).loaded()
            finally:
                KEEPER.give_back(lease)
            log.info("prepared %s in the background in %.1f s (too slow for a request)",
                     address.filename, time.monotonic() - started)
        except (NoSuchDocument, NotReady):
            pass  # nothing to store: the request's own answer says so
        except SQLAlchemyError as exc:
            log.warning("could not prepare %s in the background: %s", address.filename,
                        service.outage.describe(exc))
            log.debug("preparing %s failed", address.filename, exc_info=exc)
        except Exception:  # noqa: BLE001 - the next request asks again
            log.exception("preparing %s in the background failed", address.filename)
        finally:
            self._preparing.release()

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
