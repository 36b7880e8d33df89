"""IndexNow in a service: the outbox, the submitter and the sweeper, wired to the page
store's replacement hook. Servers `start()` it; commands use the outbox alone."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from wpsitemaps.indexnow.diff import changed
from wpsitemaps.indexnow.outbox import Outbox
from wpsitemaps.indexnow.protocol import post
from wpsitemaps.indexnow.submitter import Plan
from wpsitemaps.indexnow.submitter import Post
from wpsitemaps.indexnow.submitter import Submitter
from wpsitemaps.indexnow.sweeper import Sweeper
from wpsitemaps.serving.service import Service

log = logging.getLogger(__name__)
# The one IndexNow of each service of this process, by id(service) (web/ serves its key).
_ACTIVE: dict[int, IndexNow] = {}


class IndexNow:
    """IndexNow for one service (its settings name the endpoints; the store is required)."""

    def __init__(self, service: Service, outbox: Outbox, key: str, send: Post = post) -> None:
        settings = service.settings
        self.service = service
        self.outbox = outbox
        self.key = key
        self.plan = Plan(settings.indexnow_endpoints, key, settings.indexnow_batch_window,
                         settings.indexnow_backoff_min, settings.indexnow_backoff_max)
        assert service.pages is not None
        self.submitter = Submitter(outbox, service.pages.guard, self.plan, send)
        self.sweeper = Sweeper(service, settings.indexnow_sweep)

    def replaced(self, _key: str, old: bytes, new: bytes) -> None:
        """The page store replaced a rendering: queue what its sitemap entries say changed."""
        urls = changed(old, new)
        if urls:
            self.outbox.add(self.plan.endpoints, urls)

    def start(self) -> None:
        """Run the submitter and the sweeper in the background."""
        self.submitter.start()
        self.sweeper.start()

    def stop(self) -> None:
        """Stop both threads (tests; a server's threads end with it)."""
        self.submitter.stop()
        self.sweeper.stop()


def enable(service: Service, clock: Callable[[], float] = time.time,
           send: Post = post) -> IndexNow | None:
    """IndexNow for this service when endpoints are configured and a store keeps the
    outbox (None, with one line, when it cannot run)."""
    settings, pages = service.settings, service.pages
    if not settings.indexnow_endpoints:
        return None
    if pages is None:
        log.error("IndexNow needs the page store for its outbox (WPSITEMAPS_STORE and "
                  "cache_ttl > 0): not submitting")
        return None
    outbox = Outbox(pages.backend, pages.namespace, clock)
    key = pages.attempt(outbox.key, settings.indexnow_key)
    if key is None:
        log.error("IndexNow: the store %s failed while reading the key: not submitting",
                  pages.backend.describe())
        return None
    feature = IndexNow(service, outbox, key, send)
    pages.on_replace = feature.replaced
    _ACTIVE[id(service)] = feature
    return feature


def active(service: Service) -> IndexNow | None:
    """The service's IndexNow, if enabled."""
    return _ACTIVE.get(id(service))
