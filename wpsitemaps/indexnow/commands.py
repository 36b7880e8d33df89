"""`wpsitemaps indexnow status|submit|backfill` and the `check` finding: the outbox read and
written by a command (a running service submits what is queued)."""

from __future__ import annotations

import time
from collections.abc import Callable
from collections.abc import Iterator
from datetime import UTC
from datetime import datetime
from urllib.parse import urlsplit

from wpsitemaps.indexnow.diff import entries
from wpsitemaps.indexnow.feature import IndexNow
from wpsitemaps.indexnow.feature import enable
from wpsitemaps.indexnow.sweeper import listed
from wpsitemaps.indexnow.sweeper import sites
from wpsitemaps.serving import documents
from wpsitemaps.serving.service import Service
from wpsitemaps.serving.service import SiteSession

Echo = Callable[[str], None]


class Unavailable(Exception):
    """IndexNow is off or has no store: the message says which setting to change."""


def feature_of(service: Service) -> IndexNow:
    """The service's IndexNow (its store's hook set: a command that renders reports too)."""
    if not service.settings.indexnow_endpoints and not service.settings.websub_hubs:
        raise Unavailable("IndexNow is off: set indexnow_endpoints "
                          "(WPSITEMAPS_INDEXNOW_ENDPOINTS=on)")
    feature = enable(service)
    if feature is None:
        raise Unavailable("IndexNow needs a working page store (WPSITEMAPS_STORE)")
    return feature


def status(feature: IndexNow, echo: Echo) -> None:
    """Key, endpoints, queue length, and per endpoint and host the last answer, a hold, a
    stop."""
    outbox = feature.outbox
    echo(f"key           {feature.key}")
    echo(f"endpoints     {', '.join(feature.plan.endpoints)}")
    echo(f"websub hubs   {', '.join(feature.plan.hubs)}")
    echo(f"queued        {outbox.length()}")
    holds = outbox.facts("hold")
    for (endpoint, host), last in sorted(outbox.facts("last").items()):
        line = (f"{endpoint} {host}: last {_when(last.get('when'))} answered "
                f"{last.get('status')} {last.get('reason', '')} for {last.get('urls')} URL(s)")
        hold = holds.get((endpoint, host))
        if hold is not None and float(hold.get("until", 0)) > time.time():
            line += f"; retrying after {_when(hold.get('until'))}"
        echo(line)
    for line in findings(feature):
        echo(line)


def findings(feature: IndexNow) -> list[str]:
    """One line per endpoint that refused a host under the current configuration."""
    out = []
    for (endpoint, host), stop in sorted(feature.outbox.facts("stop").items()):
        if stop.get("signature") != feature.plan.signature:
            continue
        if endpoint in feature.plan.hubs:
            out.append(f"WebSub STOPPED: hub {endpoint} refused the publish ping for {host} "
                       f"with {stop.get('status')} {stop.get('reason', '')} at "
                       f"{_when(stop.get('when'))}; fix it with the hub, then change "
                       "websub_hubs to try again")
        else:
            out.append(f"IndexNow STOPPED: {endpoint} refused {host} with {stop.get('status')}"
                       f" {stop.get('reason', '')} at {_when(stop.get('when'))}; check that "
                       f"http(s)://{host}/{feature.key}.txt answers the key, then change "
                       "indexnow_key or indexnow_endpoints to try again")
    return out


def submit(feature: IndexNow, urls: list[str]) -> int:
    """Queue URLs by hand; ValueError naming one that is not an absolute http(s) URL."""
    for url in urls:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"{url!r} is not an absolute http(s) URL")
    return feature.outbox.add(feature.plan.endpoints, urls)


def backfill(service: Service, feature: IndexNow, since: datetime) -> int:
    """Queue every URL listed by any site whose lastmod is `since` or later; how many."""
    found = list(_listed_since(service, since))
    feature.outbox.add(feature.plan.endpoints, found)
    return len(found)


def _listed_since(service: Service, since: datetime) -> Iterator[str]:
    for res in sites(service):
        with SiteSession(service, res) as session:
            for address in listed(session):
                try:
                    body = documents.get(session, address, window=False).loaded().data
                except (documents.NoSuchDocument, LookupError):
                    continue
                for loc, lastmod in entries(body or b"").items():
                    if lastmod and _parsed(lastmod) >= since:
                        yield loc


def parse_since(text: str) -> datetime:
    """A date or an ISO date-time (UTC when it names no offset)."""
    value = datetime.fromisoformat(text)
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _parsed(lastmod: str) -> datetime:
    value = datetime.fromisoformat(lastmod)
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _when(stamp: object) -> str:
    try:
        return datetime.fromtimestamp(float(str(stamp)), UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    except (TypeError, ValueError, OverflowError):
        return "?"


