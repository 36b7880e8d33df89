"""Readiness: can this process answer for a site right now (`/readyz`)?

Ready means the site's database answers (the site is resolved, its options read: on a
network that is the row of its blog and its own tables) and, when a page store is
configured, the store gives back what is written to it. Liveness (`/healthz`) asks nothing
of either: it is answered by web.health without coming here.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.exc import SQLAlchemyError

from wpsitemaps.serving.service import Service
from wpsitemaps.serving.service import SiteSession
from wpsitemaps.store.base import StoreError
from wpsitemaps.wordpress.limits import DatabaseUnavailable
from wpsitemaps.wordpress.limits import failure
from wpsitemaps.wordpress.limits import within

# A load balancer's probe times out in a few seconds; a database slower than this is not
# ready to serve crawlers either.
PROBE_SECONDS = 2.0
READY_PATH = "/readyz"  # at the root, or under a network site's path prefix (/fr/readyz)


@dataclass(frozen=True)
class Readiness:
    """The answer to a readiness probe: an HTTP status and a short plain reason."""

    status: int
    reason: str


def readiness(service: Service, host: str, path: str) -> Readiness:
    """Whether the site at host + path (its prefix + /readyz) can be served now (200), has
    no site here (404), or not (503, naming the part that failed, never credentials or SQL)."""
    seconds = min(PROBE_SECONDS, service.settings.db_timeout)
    try:
        with within(seconds):
            resolved = service.resolve(host, path)
            prefix = path.removesuffix(READY_PATH).lower()
            if resolved.missing or prefix not in (p.lower() for p in resolved.prefixes):
                return Readiness(404, "no site answers at this address")
            with SiteSession(service, resolved) as session:
                session.site  # noqa: B018 - reads the site's options: its tables answer
    except DatabaseUnavailable:
        return Readiness(503, "database: not answering (it failed moments ago or is too slow)")
    except SQLAlchemyError as exc:
        why = failure(exc)
        cause = getattr(exc, "orig", None) or exc
        return Readiness(503, f"database: {why or cause.__class__.__name__}")
    if service.pages is not None:
        try:
            service.pages.backend.check()
        except (StoreError, OSError) as exc:
            return Readiness(503, f"page store: {exc.__class__.__name__}")
    return Readiness(200, "ready")
