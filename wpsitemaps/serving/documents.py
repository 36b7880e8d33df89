"""Document D of site S: from an address (the index, or page n of a sitemap) to its bytes.

Every caller asks here: the HTTP routes, the `.xml.gz` twins, `wpsitemaps export`, the
background refresh. The steps, in order (docs/architecture.md, "A request"):

1. inside the page store's window, the stored document, before anything is read from the
   database (not for the browser view, whose pager needs the site);
2. the site (options, types) and its registry; the sitemap by name (NoSuchDocument);
3. its page bounds (NotReady while a slow sitemap's first pass runs in the background), and
   the page (NoSuchDocument past the last one);
4. with a page store: the stored document while its fingerprint is unchanged, else a render
   that is stored; without one, a render.

A Document carries its validators at once and its bytes on demand (`loaded()`), so a
conditional request costs no read of a stored body.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import replace
from datetime import datetime

from wpsitemaps.entries import SitemapRef
from wpsitemaps.entries import UrlEntry
from wpsitemaps.metrics import RENDERS
from wpsitemaps.serving.addresses import INDEX
from wpsitemaps.serving.addresses import Address
from wpsitemaps.serving.changecheck import current_tag
from wpsitemaps.serving.pagestore import Fingerprint
from wpsitemaps.serving.pagestore import PageStore
from wpsitemaps.serving.pagestore import Render
from wpsitemaps.serving.service import Service
from wpsitemaps.serving.service import SiteSession
from wpsitemaps.serving.sites import Resolved
from wpsitemaps.sitemaps.deps import INDEX_DEPS
from wpsitemaps.sitemaps.deps import page_deps
from wpsitemaps.sitemaps.fingerprint import empty_fingerprint
from wpsitemaps.sitemaps.fingerprint import index_fingerprint
from wpsitemaps.sitemaps.fingerprint import page_fingerprint
from wpsitemaps.sitemaps.providers.base import NotReady
from wpsitemaps.sitemaps.registry import Registry
from wpsitemaps.sitemaps.render import render_index
from wpsitemaps.sitemaps.render import render_urlset
from wpsitemaps.sitemaps.render import stylesheet_href
from wpsitemaps.store.base import Record
from wpsitemaps.wordpress.dates import latest
from wpsitemaps.wordpress.site import SiteContext

MAX_INDEX_ENTRIES = 50_000
# Matched with fullmatch(): '$' would also accept a trailing line feed. A page number has at
# most 9 digits: no site has a billion pages, and int() refuses over 4,300 digits.
# A name is a post type (at most 20 characters in WordPress), a taxonomy (32) or one of
# ours: 100 is generous, and keeps a hostile name from reaching the store's key rules.
SITEMAP_RE = re.compile(r"(?P<name>[a-z0-9_-]{1,100})-sitemap(?P<page>[0-9]{0,9})\.xml")


class NoSuchDocument(LookupError):
    """No such sitemap or page (404); the message is the answer's text."""


def parse(filename: str) -> Address:
    """The address of a file name (NoSuchDocument when it names none); pages 0 and 1 give
    page 1, whose file name then differs from the one asked for (callers redirect)."""
    if filename == INDEX:
        return Address()
    match = SITEMAP_RE.fullmatch(filename)
    if match is None:
        raise NoSuchDocument("No such sitemap.")
    digits = match["page"]
    if len(digits) > 1 and digits.startswith("0"):
        raise NoSuchDocument("No such sitemap page.")
    return Address(match["name"], int(digits) if digits not in ("", "0") else 1)


@dataclass(frozen=True)
class InStore:
    """Where a document lives in the page store: its key and the record read or written."""

    pages: PageStore
    key: str
    record: Record


@dataclass(frozen=True)
class Document:
    """A sitemap document: validators at once, the XML bytes on demand (loaded())."""

    address: Address
    kind: str  # the stylesheet that shows it: 'main', 'video' or 'news'
    etag: str  # SHA-256 of the XML bytes
    lastmod: datetime | None
    pages: int = 1  # how many pages its sitemap has (the browser view's pager)
    clock: datetime | None = None  # the news view's clock
    data: bytes | None = None  # the XML bytes, once in hand
    stored: InStore | None = None
    rerender: Callable[[], Document] | None = None  # when the stored bytes are gone
    age: float | None = None  # a stale copy's seconds since it was last known current

    def loaded(self) -> Document:
        """This document with its bytes: read from the store, or rendered again when the
        stored body went away (then its ETag may differ)."""
        if self.data is not None:
            return self
        if self.stored is not None:
            body = self.stored.pages.body(self.stored.key, self.stored.record)
            if body is not None:
                return replace(self, data=body)
        if self.rerender is None:
            raise RuntimeError(f"{self.address.filename}: no bytes and no way to render")
        return self.rerender()


def sitemap_url(site: SiteContext, name: str, page: int) -> str:
    """Absolute URL of a sitemap page: {home}/{name}-sitemap{n}.xml (no n for page 1)."""
    return f"{site.serving_home}/{Address(name, page).filename}"


def index_refs(registry: Registry) -> list[SitemapRef]:
    """One reference per non-empty page of every provider (post types' pages read live:
    sitemaps/tails.py)."""
    site = registry.site
    refs: list[SitemapRef] = []
    if site.options.blog_public:
        for provider in registry.providers:
            try:
                bounds = provider.live_bounds()
            except NotReady:
                # Listed once its background computation is done (large sites' video scan).
                continue
            for page, bound in enumerate(bounds, start=1):
                refs.append(SitemapRef(sitemap_url(site, provider.name, page), bound.lastmod))
    return refs[:MAX_INDEX_ENTRIES]


def get(session: SiteSession, address: Address, browser: bool = False,
        window: bool = True) -> Document:
    """The document at `address` of the session's site (NoSuchDocument, NotReady).

    `browser`: the caller will show it as HTML (the pager needs the page count, so the
    store window's shortcut is not taken); window=False never takes it."""
    pages = session.service.pages
    if pages is not None and window and not browser:
        key = pages.key(session.resolved.key, address.filename)
        rec = pages.in_window(key, lambda deps: current_tag(session, deps))
        if rec is not None:
            _refresh_if_stale(session)
            return Document(address, "main", rec.etag, _lastmod(rec),
                            stored=InStore(pages, key, rec),
                            rerender=lambda: get(session, address, browser, window=False))
    if address.sitemap is None:
        return _index(session, address)
    return _page(session, address)


def _refresh_if_stale(session: SiteSession) -> None:
    """A document served without its site still starts the background refresh when a value
    of the site is past its TTL, as reading that value would (the refresh moves the
    ledger's `values` head when what it computes differs: changes.ledger)."""
    service = session.service
    if service.background is not None and service.values.stale_for(session.resolved.key):
        service.background.start(session.resolved)


def stale(service: Service, resolved: Resolved, address: Address) -> Document | None:
    """The stored copy of a document, when the database failed while answering it
    (stale-if-error: PageStore.stale), or None: no store, or nothing stored in time. Its
    bytes are only what is stored: nothing is rendered again."""
    pages = service.pages
    if pages is None:
        return None
    key = pages.key(resolved.key, address.filename)
    found = pages.stale(key)
    if found is None:
        return None
    rec, age = found
    body = pages.body(key, rec)
    if body is None:
        return None
    return Document(address, "main", rec.etag, _lastmod(rec), data=body,
                    stored=InStore(pages, key, rec), age=age)


def _index(session: SiteSession, address: Address) -> Document:
    registry = session.registry
    site = registry.site
    # Built only when needed: a stored index whose fingerprint is unchanged reads no page.
    listed = functools.cache(lambda: index_refs(registry))

    def render() -> tuple[bytes, datetime | None]:
        refs = listed()
        return (render_index(refs, stylesheet_href(site.serving_home, "main")),
                latest(*(r.lastmod for r in refs)))

    facts = Document(address, "main", "", None)
    return _stored_or_rendered(session, facts, lambda: index_fingerprint(site, listed()),
                               render, INDEX_DEPS)


def _page(session: SiteSession, address: Address) -> Document:
    registry = session.registry
    site, page = registry.site, address.page
    provider = registry.lookup(address.sitemap or "")
    if provider is None:
        raise NoSuchDocument("No such sitemap.")
    bounds = provider.live_bounds() if site.options.blog_public else []
    if page > max(len(bounds), 1):
        raise NoSuchDocument("No such sitemap page.")

    def fingerprint() -> str | None:
        if page > len(bounds):
            return empty_fingerprint(site, provider.name)
        return page_fingerprint(provider, page, bounds[page - 1])

    def render() -> tuple[bytes, datetime | None]:
        entries: Sequence[UrlEntry] = []
        if page <= len(bounds):
            entries = provider.entries(page, bounds[page - 1])
        body = render_urlset(entries, stylesheet_href(site.serving_home, provider.stylesheet))
        return body, latest(*(e.lastmod for e in entries))

    # The news view shows ages against the clock that chose the 48-hour window.
    clock = site.now if provider.stylesheet == "news" else None
    facts = Document(address, provider.stylesheet, "", None, len(bounds), clock)
    deps = page_deps(provider, page, bounds[page - 1] if page <= len(bounds) else None)
    return _stored_or_rendered(session, facts, fingerprint, render, deps)


def _stored_or_rendered(session: SiteSession, facts: Document, fingerprint: Fingerprint,
                        render: Render, deps: tuple[str, ...]) -> Document:
    """The document from the page store when one is configured, else rendered; `facts`
    holds what is known before (address, kind, pager), `deps` the change ledger's buckets
    it depends on (its tag is read before the fingerprint and the render)."""
    render = counted(render, facts.kind)
    pages = session.service.pages
    if pages is None:
        body, lastmod = render()
        return replace(facts, etag=hashlib.sha256(body).hexdigest(), lastmod=lastmod,
                       data=body)
    key = pages.key(session.resolved.key, facts.address.filename)
    tag = current_tag(session, deps)
    rec, fp = pages.valid(key, fingerprint, tag, deps)

    def fresh() -> Document:
        new, body = pages.rendered(key, fp if fp is not None else fingerprint(), render,
                                   tag, deps)
        return replace(facts, etag=new.etag, lastmod=_lastmod(new), data=body,
                       stored=InStore(pages, key, new), rerender=None)

    if rec is None:
        return fresh()
    return replace(facts, etag=rec.etag, lastmod=_lastmod(rec), stored=InStore(pages, key, rec),
                   rerender=fresh)


def counted(render: Render, kind: str) -> Render:
    """`render`, counted in the renders metric when it runs."""

    def run() -> tuple[bytes, datetime | None]:
        RENDERS.labels(kind=kind).inc()
        return render()

    return run


def _lastmod(rec: Record) -> datetime | None:
    return datetime.fromisoformat(rec.lastmod) if rec.lastmod else None
