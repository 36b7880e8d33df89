"""The service: everything built once from Settings, and a caller's session with one site.

`build_service(settings)` makes the engine, the sites (host + path -> site), the value cache
and the page store (with its peer for shared values), and validates the `[robots]` and
`[feeds]` tables: a bad setting is a ConfigError at start-up. The web app keeps the one
Service in its single `app.extensions` key; commands build their own.

A `SiteSession` is one caller's use of one site (a request, the background refresh, a
command): a connection opened on first use, the site context and the registry of sitemaps,
each built once, and closed together.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from dataclasses import field
from functools import partial
from types import TracebackType
from typing import Any
from typing import Protocol

from sqlalchemy import Connection
from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError

from wpsitemaps.cache.peer import StoreValues
from wpsitemaps.cache.values import ValueCache
from wpsitemaps.cache.values import Values
from wpsitemaps.changes.ledger import Ledger
from wpsitemaps.changes.model import Change
from wpsitemaps.changes.model import SourceHealth
from wpsitemaps.config import Settings
from wpsitemaps.config import event_sources
from wpsitemaps.serving.addresses import Address
from wpsitemaps.serving.pagestore import GuardedCounters
from wpsitemaps.serving.pagestore import PageStore
from wpsitemaps.serving.recall import StoreRecall
from wpsitemaps.serving.robots_config import RobotsConfig
from wpsitemaps.serving.robots_config import check_size
from wpsitemaps.serving.robots_config import parse_robots_config
from wpsitemaps.serving.robotscopy import RobotsCopies
from wpsitemaps.serving.sites import Resolved
from wpsitemaps.serving.sites import Sites
from wpsitemaps.sitemaps.feeds import FEED_PATHS
from wpsitemaps.sitemaps.feeds import FeedConfig
from wpsitemaps.sitemaps.feeds import parse_feed_config
from wpsitemaps.sitemaps.fingerprint import digest
from wpsitemaps.sitemaps.fingerprint import render_version
from wpsitemaps.sitemaps.registry import Registry
from wpsitemaps.store import namespace
from wpsitemaps.store import open_store
from wpsitemaps.wordpress.breaker import Breaker
from wpsitemaps.wordpress.causes import cause
from wpsitemaps.wordpress.db import make_engine
from wpsitemaps.wordpress.outage import Outage
from wpsitemaps.wordpress.site import SiteContext

log = logging.getLogger(__name__)
SITE_KEY_RE = re.compile(r"blog[0-9]{1,12}")  # wordpress.site.site_key()


class Background(Protocol):
    """What the service asks of its background refresh (serving.refresh.Refresher)."""

    def start(self, resolved: Resolved | None) -> None:
        """Refresh a site's values in the background (None: the bare address's site)."""

    def rescue(self, resolved: Resolved | None) -> None:
        """Start a refresh for work that ran out of its time for the database (rate-limited)."""

    def running(self) -> bool:
        """Whether a refresh runs now."""

    def prepare(self, resolved: Resolved, address: Address) -> None:
        """Render and store a document too slow for a request, in the background."""


@dataclass
class Service:
    """What serving a database takes, built once per process from its Settings."""

    settings: Settings
    engine: Engine
    sites: Sites
    values: ValueCache
    pages: PageStore | None
    peer: StoreValues | None
    robots: RobotsConfig
    feeds: FeedConfig
    extra_sitemaps: tuple[str, ...] = ()
    robots_copies: RobotsCopies = field(default_factory=lambda: RobotsCopies(None))
    # The background refresh of a site's values (serving.refresh); None for a command,
    # which computes every value it needs itself.
    background: Background | None = field(default=None, repr=False)
    # Requests failing on the database: one line when it starts, one when it ends.
    outage: Outage = field(default_factory=lambda: Outage(str), repr=False)
    # The change ledger (issue #26): heads of every site's buckets, in the page store; None
    # without a store (every page is rendered then).
    ledger: Ledger | None = field(default=None, repr=False)

    def apply_changes(self, changes: Sequence[Change], source: str) -> None:
        """What a change source saw (changes.model.ChangeSink): the heads of the buckets
        they touch move, so the stored documents depending on them are checked again."""
        if self.ledger is not None and changes:
            self.ledger.apply(changes, source)

    def report_health(self, health: SourceHealth) -> None:
        """A source says how it is (a beat while healthy; when down, stored pages are
        checked against the database again)."""
        if self.ledger is not None:
            self.ledger.report(health)

    @property
    def change_sources(self) -> dict[str, SourceHealth]:
        """The sources that reported to this process, with their last health."""
        return dict(self.ledger.sources) if self.ledger is not None else {}

    def connect(self) -> AbstractContextManager[Connection]:
        """A new connection of the engine (closed by the `with` block)."""
        return self.engine.connect()

    def resolve(self, host: str, path: str) -> Resolved:
        """The site a request for `host` + `path` is for (serving.sites)."""
        return self.sites.resolve(self.engine.connect, host, path)


def build_service(settings: Settings, extra_sitemaps: Sequence[str] = ()) -> Service:
    """The service of a database: ConfigError (naming the setting) when something is wrong.

    `extra_sitemaps` are the `Sitemap:` lines other parts add to robots.txt (the headless
    API's), before the feeds' own."""
    feeds = parse_feed_config(settings.extra.get("feeds"))
    extras = (*extra_sitemaps, *((p.lstrip("/") for p in FEED_PATHS) if feeds.robots else ()))
    robots = parse_robots_config(settings.extra.get("robots"))
    check_size(robots, settings, extras)
    pages = peer = None
    backend = open_store(settings, check=False) if settings.cache_ttl > 0 else None
    if backend is not None:
        pages = PageStore(backend, namespace(settings), settings.cache_ttl,
                          settings.store_window, settings.stale_if_error)
        # `wpsitemaps serve` stops with one line when the store is unusable at start-up. A
        # worker starting later (a reload, a replaced worker) while the store fails (a disk
        # remounted read-only, Redis down) must serve without it, as running workers do:
        # exiting there would take every worker down at the next reload.
        pages.attempt(backend.check)
        # The per-refresh values (page bounds, term and author lists) are shared through the
        # same store: one worker computes them, the others read (cache.peer).
        peer = StoreValues(backend, pages.namespace, guard=pages.guard)
    sites = Sites(settings)
    if pages is not None:
        # Site resolutions too, for a worker started while the database fails.
        sites.recall = StoreRecall(pages)
    outage = Outage(partial(cause, database_url=settings.database_url,
                            table_prefix=settings.table_prefix))
    # With a breaker, a database that goes silent or holds a lock is probed, not waited on.
    ledger = None if backend is None or pages is None else Ledger(
        GuardedCounters(pages), pages.namespace, event_sources(settings),
        salt=digest(render_version(), repr(settings)))
    values = ValueCache(settings.cache_ttl, peer=peer,
                        on_change=None if ledger is None else _values_changed(ledger))
    return Service(settings, make_engine(settings, Breaker(), outage), sites, values, pages,
                   peer, robots, feeds, tuple(extras), RobotsCopies(pages), outage=outage,
                   ledger=ledger)


def _values_changed(ledger: Ledger) -> Callable[[Any], None]:
    """ValueCache's on_change: its keys start with the site's key (cache.values.Values)."""
    def changed(key: Any) -> None:
        if isinstance(key, tuple) and key and SITE_KEY_RE.fullmatch(str(key[0])):
            ledger.values_changed(str(key[0]))
    return changed


class SiteSession:
    """One caller's use of one site: connection, site context and registry, built on first
    use and once (plain attributes: a session belongs to one thread, so no lock)."""

    def __init__(self, service: Service, resolved: Resolved, refresh: bool = False) -> None:
        self.service = service
        self.resolved = resolved
        self.refresh = refresh
        self._conn: Connection | None = None
        self._site: SiteContext | None = None
        self._registry: Registry | None = None
        self._heads: dict[tuple[str, tuple[str, ...]], str | None] = {}

    @property
    def conn(self) -> Connection:
        """The session's connection, opened on first use."""
        if self._conn is None:
            self._conn = self.service.engine.connect()
        return self._conn

    @property
    def site(self) -> SiteContext:
        """The site context (kept across sessions in the sites' LRU while its options are
        unchanged)."""
        if self._site is None:
            self._site = self.service.sites.context(self.conn, self.resolved)
        return self._site

    @property
    def values(self) -> Values:
        """The value cache as this session uses it (the refresh recomputes what it reads)."""
        background, res = self.service.background, self.resolved
        ledger = self.service.ledger
        return Values(self.service.values, refresh=self.refresh,
                      on_stale=None if background is None else lambda: background.start(res),
                      heads=None if ledger is None or not ledger.names else self._generation)

    def _generation(self, site: str, deps: tuple[str, ...]) -> str | None:
        """The ledger's generation of `deps` (Values.heads), read once per session: a
        render reads many values, and what they depend on is read before any of them."""
        ledger = self.service.ledger
        assert ledger is not None
        key = (site, deps)
        if key not in self._heads:
            self._heads[key] = ledger.generation(site, deps)
        return self._heads[key]

    @property
    def registry(self) -> Registry:
        """The site's sitemaps (providers memoize on themselves for the session)."""
        if self._registry is None:
            self._registry = Registry(self.conn, self.site, self.values)
        return self._registry

    def close(self) -> None:
        """Close the connection (rolling back: we never commit)."""
        conn, self._conn = self._conn, None
        if conn is None:
            return
        try:
            conn.close()
        except DBAPIError as exc:
            # The database went away after the answer was built: the rollback in close()
            # fails. The answer is complete, so this must not turn into an error; the
            # broken connection is discarded (the pool opens a new one).
            log.warning("discarding a connection that failed to close: %s",
                        exc.__class__.__name__)
            if not conn.closed:
                conn.invalidate()
                conn.close()

    def __enter__(self) -> SiteSession:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
