"""The sweeper: revalidates a site's stored sitemaps every `indexnow_sweep` seconds, so a
change is found (and submitted) without a crawler asking for the sitemap.

It reads documents as every caller does (serving.documents, window=False): an unchanged
page costs its fingerprint query; a changed one is rendered and stored, and the page
store's replacement hook hands the two renderings to the diff. One process sweeps a site at
a time (a lease per site).

With an event source live (issue #26), a sweep is narrowed by the change ledger: a stored
document whose buckets' heads did not move since it was last rendered or found unchanged
is left alone without a database statement (PageStore.told_current), so only what an
event touched is revalidated. And the sweeper looks at the ledger's count
of deliveries every EVENT_POLL seconds: one that moved starts a sweep at once, so an event
is submitted within about a second plus the batching window, not the next interval.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Sequence
from urllib.parse import urlsplit

from wpsitemaps.cache.leases import KEEPER
from wpsitemaps.indexnow.diff import sitemaps
from wpsitemaps.serving import documents
from wpsitemaps.serving.addresses import Address
from wpsitemaps.serving.changecheck import current_tag
from wpsitemaps.serving.documents import NoSuchDocument
from wpsitemaps.serving.service import Service
from wpsitemaps.serving.service import SiteSession
from wpsitemaps.serving.sites import Resolved
from wpsitemaps.sitemaps.providers.base import NotReady
from wpsitemaps.wordpress.limits import within
from wpsitemaps.wordpress.queries import network as qnet

log = logging.getLogger(__name__)
LOCAL_HOST = "localhost"  # what a single site resolves from (serving.refresh's warm-up)
EVENT_POLL = 1.0  # seconds between looks at the ledger's deliveries while a source is set


def listed(session: SiteSession, narrow: bool = False) -> list[Address]:
    """Every document the index lists; the index itself is revalidated on the way (read
    through the store like any caller: a new or vanished page is found there). `narrow`:
    an index the ledger says is unchanged is read from the store as it is."""
    body = _unchanged(session, Address(), read=True) if narrow else None
    if body is None:
        body = documents.get(session, Address(), window=False).loaded().data
    out: list[Address] = []
    for loc in sorted(sitemaps(body or b"")):
        try:
            out.append(documents.parse(urlsplit(loc).path.rsplit("/", 1)[-1]))
        except NoSuchDocument:
            continue
    return out


def revalidate(session: SiteSession, addresses: Iterable[Address],
               narrow: bool = False) -> int:
    """Revalidate these documents of the session's site (a changed one is rendered and
    stored, which reports its changes); how many were read. `narrow` (an event source is
    live): a document the ledger says is unchanged is left as it is, without a database
    statement."""
    count = 0
    for address in addresses:
        if narrow and _unchanged(session, address) is not None:
            continue
        try:
            documents.get(session, address, window=False)
        except (NoSuchDocument, NotReady):
            continue
        count += 1
    return count


def _unchanged(session: SiteSession, address: Address, read: bool = False) -> bytes | None:
    """The stored bytes of a document (b"" unless `read`) when the change ledger says
    nothing it depends on moved since it was last rendered or found unchanged, else None."""
    pages = session.service.pages
    if pages is None:
        return None
    key = pages.key(session.resolved.key, address.filename)
    rec = pages.told_current(key, lambda deps: current_tag(session, deps))
    if rec is None:
        return None
    return pages.body(key, rec) if read else b""


def sites(service: Service) -> list[Resolved]:
    """Every site the service serves: the single site, or each live site of a network."""
    mode = service.sites.mode(service.connect)
    if mode.network is None:
        return [service.resolve(LOCAL_HOST, "/")]
    network_id, base = mode.network.network_id, service.sites.base_prefix
    out: list[Resolved] = []
    after = 0
    with service.connect() as conn:
        while rows := qnet.blogs(conn, base, after):
            out += [service.sites.resolve_blog(conn, b.blog_id) for b in rows
                    if b.site_id == network_id and b.state == "live"]
            after = rows[-1].blog_id
    return [r for r in out if not r.missing]


def newest_first(addresses: Sequence[Address]) -> tuple[list[Address], list[Address]]:
    """(each sitemap's last page: where new posts land, every other page)."""
    last: dict[str | None, int] = {}
    for address in addresses:
        last[address.sitemap] = max(last.get(address.sitemap, 0), address.page)
    first = [a for a in addresses if a.page == last[a.sitemap]]
    return first, [a for a in addresses if a.page != last[a.sitemap]]


class Sweeper:
    """Sweeps every site every `every` seconds in a daemon thread.

    A site's sweep reads each sitemap's last page first, then the other pages in turn from
    where its previous sweep stopped, for at most `budget` seconds (the interval): on a small
    site every page every time; on a site too large for that, a new post is still found
    within one sweep, and an edit to an older page within a few."""

    def __init__(self, service: Service, every: float,
                 find: Callable[[SiteSession, bool], Sequence[Address]] = listed,
                 after: Callable[[SiteSession], None] | None = None) -> None:
        self.service = service
        self.every = every
        self.budget = every
        self.find = find
        self.after = after  # run on each site swept, under its lease (WebSub's feed check)
        self.narrow = False  # this sweep is narrowed by the ledger (a source is live)
        self._cursor: dict[str, int] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def sweep_site(self, session: SiteSession) -> int:
        """One site: its newest pages, then older ones in turn within the budget."""
        start = time.monotonic()
        narrow = self.narrow
        first, rest = newest_first(self.find(session, narrow))
        read = revalidate(session, first, narrow)
        if not rest:
            return read
        at = self._cursor.get(session.resolved.key, 0) % len(rest)
        done = 0
        for address in rest[at:] + rest[:at]:
            if done and time.monotonic() - start >= self.budget:
                break
            read += revalidate(session, [address], narrow)
            done += 1
        self._cursor[session.resolved.key] = (at + done) % len(rest)
        return read

    def sweep(self) -> int:
        """One sweep of every site this process gets the lease of; documents read."""
        pages, ledger = self.service.pages, self.service.ledger
        if pages is None:
            return 0
        self.narrow = ledger is not None and ledger.live() is not None
        read = 0
        with within(self.service.settings.db_background_timeout):
            for res in sites(self.service):
                lease = KEEPER.take(pages.guard, f"{pages.namespace}/indexnow/sweep-{res.key}")
                if lease is None:
                    continue
                try:
                    with SiteSession(self.service, res) as session:
                        read += self.sweep_site(session)
                        if self.after is not None:
                            self.after(session)
                finally:
                    KEEPER.give_back(lease)
        return read

    def start(self) -> None:
        """Sweep in a daemon thread until stop()."""
        if self._thread is None or not self._thread.is_alive():
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="wpsitemaps-sweep",
                                            daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop after the current sweep."""
        self._stop.set()

    def _events(self) -> str | None:
        """The ledger's count of deliveries (None: no event source set, or unknown)."""
        ledger = self.service.ledger
        return None if ledger is None or not ledger.names else ledger.events()

    def _run(self) -> None:
        ledger = self.service.ledger
        poll = min(EVENT_POLL, self.every) if ledger is not None and ledger.names else self.every
        seen, last = self._events(), time.monotonic()
        while not self._stop.wait(poll):
            events = self._events()
            if time.monotonic() - last < self.every and (events is None or events == seen):
                continue
            seen = events  # read before the sweep: what arrives during it starts another
            try:
                self.sweep()
            except Exception:  # noqa: BLE001 - the next sweep tries again
                log.exception("IndexNow sweep failed")
            last = time.monotonic()

