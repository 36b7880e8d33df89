"""Serving sitemap documents through the page store (issue #13).

A request for a stored document is answered in one of three ways:

1. Within `store_window` seconds of the last render or revalidation (shared by every worker
   through the store), the stored bytes are served without asking the database.
2. Otherwise the page's fingerprint is computed (sitemaps.fingerprint: a query bounded by
   the page) and compared with the stored one; equal means the stored bytes are what a
   render would give, so they are served, and a conditional request is answered 304 from
   the stored ETag without reading or rendering the page.
3. Otherwise (no record, a changed fingerprint, or a record rendered `cache_ttl` seconds
   ago or more) the page is rendered and stored.

The fingerprint is taken before the render, so stored bytes are never older than their
fingerprint: a change that lands between the two only costs one more render later.

Variants have their own keys and ETags: `{doc}` (the XML, ETag = SHA-256 of its bytes),
`{doc}.gz` (its gzip twin: the `.xml.gz` file, and the body of a `Content-Encoding: gzip`
answer, whose ETag is the XML's plus `-gzip`, as web.gzip gives), and `{doc}.html` (the
server-side XSLT rendering for browsers, ETag = SHA-256 of the HTML). A variant is valid only
for the XML render it was made from, and the HTML also only for the stylesheets' version
(web.xslt.view_version: xsl/ and the code that shapes the view).

When the store fails (Redis down, disk full) the page is rendered without it; the failure is
logged and the store is left alone for a few seconds (store.base.Guard), so an outage costs
no timeouts. When the database fails instead, `stale()` gives the stored copy of a document
for `stale_if_error` seconds past `cache_ttl` (web.routes.database_unavailable).
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from collections.abc import Mapping
from datetime import datetime
from typing import Any
from typing import TypeVar

from flask import Flask
from flask import Response
from flask import current_app
from flask import request
from werkzeug.wrappers.response import Response as BaseResponse

from wpsitemaps.config import Settings
from wpsitemaps.sitemaps.bounds import BoundsCache
from wpsitemaps.sitemaps.sharing import SharedValues
from wpsitemaps.store import namespace
from wpsitemaps.store import open_store
from wpsitemaps.store.base import Guard
from wpsitemaps.store.base import Record
from wpsitemaps.store.base import Store
from wpsitemaps.web.context import BOUNDS_CACHE
from wpsitemaps.web.context import SITES
from wpsitemaps.web.gzip import TWIN_KEY
from wpsitemaps.web.gzip import add_vary
from wpsitemaps.web.gzip import gzip_bytes
from wpsitemaps.web.gzip import gzip_quality
from wpsitemaps.web.gzip import variant_etag
from wpsitemaps.web.headers import set_headers
from wpsitemaps.web.recall import StoreRecall
from wpsitemaps.web.sites import Sites
from wpsitemaps.web.xslt import transform
from wpsitemaps.web.xslt import view_version
from wpsitemaps.web.xslt import wants_html
from wpsitemaps.wordpress.site import SiteContext

log = logging.getLogger(__name__)
STORE = "wpsitemaps.page_store"
SHARED_VALUES = "wpsitemaps.shared_values"
XML_TYPE = "application/xml; charset=utf-8"
HTML_TYPE = "text/html; charset=utf-8"
T = TypeVar("T")
Render = Callable[[], tuple[bytes, datetime | None]]
Fingerprint = Callable[[], str | None]


class PageStore:
    """The app's view of its store: keys, the freshness rules and failure handling."""

    def __init__(self, backend: Store, space: str, ttl: float, window: float,
                 stale_for: float = 0.0, clock: Callable[[], float] = time.time) -> None:
        self.backend = backend
        self.namespace = space
        self.ttl = ttl
        self.window = window
        self.stale_for = stale_for
        self.clock = clock
        self.guard = Guard(backend)

    def key(self, site_key: str, document: str) -> str:
        """'{namespace}/{site.key}/{document}' (docs/performance.md, "What is stored")."""
        return f"{self.namespace}/{site_key}/{document}"

    def in_window(self, site_key: str, document: str) -> BaseResponse | None:
        """The stored XML answer (or 304) of a document rendered or revalidated less than
        `store_window` seconds ago, before anything is read from the database: inside the
        window stored bytes are served without asking it anyway, so reading the site's
        options and page bounds first only cost time (half of a 304). None otherwise (and
        always for the browser view, whose parameters need the site)."""
        if self.window <= 0 or wants_html(request.headers):
            return None
        key = self.key(site_key, document)
        rec = self.attempt(self.backend.head, key)
        now = self.clock()
        if rec is None or now - rec.rendered_at >= self.ttl or now - rec.checked_at >= self.window:
            return None
        return self._serve(key, rec, "main", {})

    def stale(self, site_key: str, document: str) -> BaseResponse | None:
        """The stored XML answer of a document whose revalidation or render failed on the
        database (stale-if-error): a record rendered less than `cache_ttl` +
        `stale_if_error` seconds ago, with `Age` (seconds since it was last known current).
        Browsers get the XML too: their view's pager needs the database. None without one."""
        key = self.key(site_key, document)
        rec = self.attempt(self.backend.head, key)
        now = self.clock()
        if rec is None or now - rec.rendered_at >= self.ttl + self.stale_for:
            return None
        resp = self._serve(key, rec, "main", {}, as_html=False)
        if resp is not None:
            resp.headers["Age"] = str(max(0, int(now - max(rec.rendered_at, rec.checked_at))))
        return resp

    def attempt(self, fn: Callable[..., T], *args: Any) -> T | None:
        """fn(*args), or None when the store fails (store.base.Guard)."""
        return self.guard.attempt(fn, *args)

    def valid(self, key: str, fingerprint: Fingerprint) -> tuple[Record | None, str | None]:
        """The stored record if it may be served, and the fingerprint if one was computed."""
        rec = self.attempt(self.backend.head, key)
        now = self.clock()
        if rec is None or now - rec.rendered_at >= self.ttl:
            return None, None
        if now - rec.checked_at < self.window:
            return rec, None
        fp = fingerprint()
        if fp is None or fp != rec.fingerprint:
            return None, fp
        self.attempt(self.backend.touch, key, now)
        return rec, fp

    def respond(self, site: SiteContext, document: str, fingerprint: Fingerprint,
                render: Render, kind: str,
                view: Mapping[str, str] | None = None) -> BaseResponse:
        """The response for a sitemap document: stored, 304, or rendered and stored.

        `view` holds the browser view's stylesheet parameters (pager, clock: web/display.py);
        the stored HTML is per set of parameters, and a view with a clock is never stored.
        """
        key = self.key(site.key, document)
        params = dict(view or {})
        rec, fp = self.valid(key, fingerprint)
        if rec is not None:
            resp = self._serve(key, rec, kind, params)
            if resp is not None:
                return resp
        if fp is None:
            fp = fingerprint()
        body, lastmod = render()
        rec = Record(fp or "", hashlib.sha256(body).hexdigest(), self.clock(),
                     lastmod.isoformat() if lastmod else None)
        if fp is not None:
            self.attempt(self.backend.put, key, rec, body)
        return self._answer(key, rec, body, kind, params)

    def _serve(self, key: str, rec: Record, kind: str, view: dict[str, str],
               as_html: bool = True) -> BaseResponse | None:
        """Answer from a valid record: 304 from its head, else its (variant's) bytes;
        as_html=False answers the XML even to a browser."""
        if as_html and wants_html(request.headers):
            html = None if "now" in view else self._variant(html_key(key, view),
                                                            html_bound(rec))
            if html is not None and html.body is not None:
                return conditional(Response(html.body, content_type=HTML_TYPE), html.etag,
                                   rec)
        else:
            probe = conditional(Response(b"", content_type=XML_TYPE), rec.etag, rec)
            if probe.status_code == 304:
                return probe
            if TWIN_KEY not in request.environ and accepts_gzip():
                packed = self._variant(key + ".gz", bound_to(rec))
                if packed is not None and packed.body is not None:
                    return gzip_response(packed.body, rec)
        full = self.attempt(self.backend.get, key)
        if full is None or full.body is None or full.etag != rec.etag:
            return None
        return self._answer(key, rec, full.body, kind, view, as_html)

    def _answer(self, key: str, rec: Record, body: bytes, kind: str,
                view: dict[str, str], as_html: bool = True) -> BaseResponse:
        """The response for the XML bytes of `rec`, in the variant the request negotiates."""
        if as_html and wants_html(request.headers):
            html = transform(body, kind, view)
            etag = hashlib.sha256(html).hexdigest()
            if "now" not in view:  # the news view's ages change every second: not stored
                self._put_variant(html_key(key, view), rec, html_bound(rec), etag, html)
            return conditional(Response(html, content_type=HTML_TYPE), etag, rec)
        twin: list[bytes] | None = request.environ.get(TWIN_KEY)
        if twin is None and not accepts_gzip():
            return conditional(Response(body, content_type=XML_TYPE), rec.etag, rec)
        probe = conditional(Response(b"", content_type=XML_TYPE), rec.etag, rec)
        if probe.status_code == 304:
            return probe
        packed = self._gzip_twin(key, rec, body)
        if twin is not None:
            twin.append(packed)
            return conditional(Response(body, content_type=XML_TYPE), rec.etag, rec)
        return gzip_response(packed, rec)

    def _gzip_twin(self, key: str, rec: Record, body: bytes) -> bytes:
        """The stored gzip bytes of this render, or made now and stored."""
        stored = self._variant(key + ".gz", bound_to(rec))
        if stored is not None and stored.body is not None:
            return stored.body
        packed = gzip_bytes(body)
        self._put_variant(key + ".gz", rec, bound_to(rec), rec.etag, packed)
        return packed

    def _variant(self, key: str, bound: str) -> Record | None:
        """A stored variant, if it was made from exactly this render (`bound`: bound_to,
        html_bound)."""
        variant = self.attempt(self.backend.get, key)
        if variant is None or variant.fingerprint != bound:
            return None
        return variant

    def _put_variant(self, key: str, rec: Record, bound: str, etag: str, body: bytes) -> None:
        if rec.fingerprint:
            variant = Record(bound, etag, rec.rendered_at, rec.lastmod)
            self.attempt(self.backend.put, key, variant, body)


def html_key(key: str, view: Mapping[str, str]) -> str:
    """The key of a document's HTML rendering with these view parameters (the pager's page
    count can change while the XML does not)."""
    if not view:
        return key + ".html"
    params = "&".join(f"{k}={v}" for k, v in sorted(view.items()))
    return f"{key}.html-{hashlib.sha256(params.encode()).hexdigest()[:16]}"


def accepts_gzip() -> bool:
    """Whether this request takes Content-Encoding: gzip (as web.gzip decides)."""
    return gzip_quality(request.headers.get("Accept-Encoding")) > 0


def gzip_response(packed: bytes, rec: Record) -> BaseResponse:
    """The XML sent gzip-encoded in transit: what web.gzip.encode_response would make."""
    resp = Response(packed, content_type=XML_TYPE)
    resp.headers["Content-Encoding"] = "gzip"
    add_vary(resp, "Accept-Encoding")
    return conditional(resp, variant_etag(rec.etag), rec)


def bound_to(rec: Record) -> str:
    """What a variant records as its fingerprint: the XML render it was made from."""
    return f"{rec.fingerprint}:{rec.etag}"


def html_bound(rec: Record) -> str:
    """What a stored HTML view records: the XML render it was made from and the version of
    the stylesheets that made it (a stylesheet deploy changes only the latter)."""
    return f"{bound_to(rec)}:{view_version()}"


def conditional(resp: BaseResponse, etag: str, rec: Record) -> BaseResponse:
    """The sitemap headers for a stored or fresh document, then 304 if the request matches."""
    lastmod = datetime.fromisoformat(rec.lastmod) if rec.lastmod else None
    set_headers(resp, etag, lastmod)
    return resp.make_conditional(request)


def page_store() -> PageStore | None:
    """The app's page store, or None when it is off (or cache_ttl is 0)."""
    store: PageStore | None = current_app.extensions.get(STORE)
    return store


def init_app(app: Flask, settings: Settings) -> None:
    """Open the configured store and check it like any other call into it."""
    if settings.cache_ttl <= 0:
        return  # nothing could be served again: no store
    backend = open_store(settings, check=False)
    if backend is None:
        return
    store = PageStore(backend, namespace(settings), settings.cache_ttl, settings.store_window,
                      settings.stale_if_error)
    # `wpsitemaps serve` stops with one line when the store is unusable at start-up. A
    # worker starting later (a reload, a replaced worker) while the store fails (a disk
    # remounted read-only, Redis down) must serve without it, as running workers do: exiting
    # there would take every worker down at the next reload.
    store.attempt(backend.check)
    app.extensions[STORE] = store
    # The per-refresh values (page bounds, term and author lists) are shared through the
    # same store: one worker computes them, the others read (sitemaps.sharing).
    peer = SharedValues(backend, store.namespace, guard=store.guard)
    app.extensions[SHARED_VALUES] = peer
    cache: BoundsCache = app.extensions[BOUNDS_CACHE]
    cache.peer = peer
    # Site resolutions too, for a worker started while the database fails (web.recall).
    resolver: Sites = app.extensions[SITES]
    resolver.recall = StoreRecall(store)


def shared_values(app: Flask) -> SharedValues | None:
    """The store as the second level of the app's bounds caches, or None when it is off."""
    peer: SharedValues | None = app.extensions.get(SHARED_VALUES)
    return peer
