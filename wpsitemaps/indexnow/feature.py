"""IndexNow in a service: the outbox, the submitter and the sweeper, wired to the page
store's replacement hook. Servers `start()` it; commands use the outbox alone.

WebSub (`websub_hubs`) runs on the same parts: the sweeper checks each site's feeds after
its sitemaps, and the submitter pings the hubs; with IndexNow off (no endpoints) it sweeps
no sitemap, generates no key and serves no key file."""

from __future__ import annotations

import logging
import time
import weakref
from collections.abc import Callable

from wpsitemaps.indexnow.diff import changed
from wpsitemaps.indexnow.diff import entries
from wpsitemaps.indexnow.diff import sitemaps
from wpsitemaps.indexnow.outbox import Outbox
from wpsitemaps.indexnow.protocol import post
from wpsitemaps.indexnow.submitter import Plan
from wpsitemaps.indexnow.submitter import Post
from wpsitemaps.indexnow.submitter import Submitter
from wpsitemaps.indexnow.sweeper import Sweeper
from wpsitemaps.indexnow.sweeper import listed
from wpsitemaps.indexnow.websub import fingerprint
from wpsitemaps.indexnow.websub import topics
from wpsitemaps.serving.addresses import Address
from wpsitemaps.serving.service import Service
from wpsitemaps.serving.service import SiteSession

log = logging.getLogger(__name__)
# The IndexNow of each service of this process, by id(service) (web/ serves its key). Weak:
# the service keeps its IndexNow alive (its page store's hook), and an entry goes with it.
_ACTIVE: weakref.WeakValueDictionary[int, IndexNow] = weakref.WeakValueDictionary()


class IndexNow:
    """IndexNow for one service (its settings name the endpoints; the store is required)."""

    def __init__(self, service: Service, outbox: Outbox, key: str, send: Post = post) -> None:
        settings = service.settings
        self.service = service
        self.outbox = outbox
        self.key = key
        self.plan = Plan(settings.indexnow_endpoints, key, settings.indexnow_batch_window,
                         settings.indexnow_backoff_min, settings.indexnow_backoff_max,
                         settings.websub_hubs)
        assert service.pages is not None
        self.submitter = Submitter(outbox, service.pages.guard, self.plan, send)
        self.sweeper = Sweeper(service, settings.indexnow_sweep,
                               listed if settings.indexnow_endpoints else _nothing,
                               self.feeds_swept if settings.websub_hubs else None)

    def feeds_swept(self, session: SiteSession) -> None:
        """After a site's sweep: its feeds, and on a single site whose languages have hosts
        of their own (Polylang) each language host's feeds, which list that language."""
        self._feeds_changed(session, session.resolved.key)
        if session.resolved.blog is not None:
            return
        for host in self.service.sites.mode(self.service.connect).hosts:
            with SiteSession(self.service, self.service.resolve(host, "/")) as language:
                self._feeds_changed(language, f"{session.resolved.key}@{host}")

    def _feeds_changed(self, session: SiteSession, name: str) -> None:
        """When the feeds say something else than at the previous sweep, queue a publish
        ping of each feed for every hub. The first sweep only keeps the fingerprint
        (nothing to compare with, as for a sitemap stored the first time); a burst of
        changes between two pings is one ping (a queued field is kept once)."""
        now = fingerprint(session)
        before = self.outbox.remember(f"feed {name}", now)
        if before is not None and before != now:
            self.outbox.add(self.plan.hubs, topics(session))

    def replaced(self, key: str, old: bytes | None, new: bytes) -> None:
        """The page store stored a rendering: queue what its sitemap entries say changed.

        A page stored for the first time is new only when its site's index, replaced, began
        to list it (the site grew a page): then all its URLs were added. Else it is a page
        that was never stored (a cold store) and says nothing. A page the index stopped
        listing had all its stored URLs removed."""
        if not self.plan.endpoints:  # WebSub alone: sitemaps are not its business
            return
        folder = key.rsplit("/", 1)[0]
        if old is None:
            if self.outbox.unexpect(key):
                self._queue(list(entries(new)))
            return
        before, after = sitemaps(old), sitemaps(new)
        if before or after:
            self.outbox.expect([f"{folder}/{_filename(u)}" for u in after - before])
            for url in before - after:
                gone = self.outbox.backend.get(f"{folder}/{_filename(url)}")
                if gone is not None and gone.body is not None:
                    self._queue(list(entries(gone.body)))
            return
        self._queue(changed(old, new))

    def _queue(self, urls: list[str]) -> None:
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
    """IndexNow (and WebSub) for this service when endpoints or hubs are configured and a
    store keeps the outbox (None, with one line, when it cannot run)."""
    settings, pages = service.settings, service.pages
    if not settings.indexnow_endpoints and not settings.websub_hubs:
        return None
    if pages is None:
        log.error("IndexNow and WebSub need the page store for their outbox "
                  "(WPSITEMAPS_STORE and cache_ttl > 0): not submitting")
        return None
    outbox = Outbox(pages.backend, pages.namespace, clock)
    key = pages.attempt(outbox.key, settings.indexnow_key) if settings.indexnow_endpoints else ""
    if key is None:
        log.error("IndexNow: the store %s failed while reading the key: not submitting",
                  pages.backend.describe())
        return None
    feature = IndexNow(service, outbox, key, send)
    # The hook also keeps the feature alive (_ACTIVE holds it weakly), WebSub alone too.
    pages.on_replace = feature.replaced
    _ACTIVE[id(service)] = feature
    return feature


def _nothing(_session: SiteSession, _narrow: bool = False) -> list[Address]:
    """No sitemap to sweep (WebSub alone: only the feeds are checked)."""
    return []


def _filename(url: str) -> str:
    """The file name a sitemap URL ends with (its document's name in the store)."""
    return url.rstrip("/").rsplit("/", 1)[-1]


def active(service: Service) -> IndexNow | None:
    """The service's IndexNow, if enabled."""
    return _ACTIVE.get(id(service))
