"""HTTP: routes, status codes and headers. Building and rendering live elsewhere."""

from __future__ import annotations

import functools
import hashlib
import logging
import re
from collections.abc import Mapping
from collections.abc import Sequence
from datetime import UTC
from datetime import datetime

from flask import Blueprint
from flask import Flask
from flask import Response
from flask import abort
from flask import redirect
from flask import request
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers.response import Response as BaseResponse

from wpsitemaps.entries import SitemapRef
from wpsitemaps.entries import UrlEntry
from wpsitemaps.paths import XSL_DIR
from wpsitemaps.sitemaps.bounds import NotReady
from wpsitemaps.sitemaps.fingerprint import empty_fingerprint
from wpsitemaps.sitemaps.fingerprint import index_fingerprint
from wpsitemaps.sitemaps.fingerprint import page_fingerprint
from wpsitemaps.sitemaps.registry import Registry
from wpsitemaps.sitemaps.render import render_index
from wpsitemaps.sitemaps.render import render_urlset
from wpsitemaps.sitemaps.render import stylesheet_href
from wpsitemaps.web import robots
from wpsitemaps.web.context import in_background
from wpsitemaps.web.context import known_resolution
from wpsitemaps.web.context import load_sitemaps
from wpsitemaps.web.context import note_document
from wpsitemaps.web.context import noted_document
from wpsitemaps.web.context import refresh_after_timeout
from wpsitemaps.web.context import resolution
from wpsitemaps.web.context import sites
from wpsitemaps.web.display import view_params
from wpsitemaps.web.headers import set_headers
from wpsitemaps.web.store import Fingerprint
from wpsitemaps.web.store import Render
from wpsitemaps.web.store import page_store
from wpsitemaps.web.xslt import STYLESHEETS
from wpsitemaps.web.xslt import transform
from wpsitemaps.web.xslt import wants_html
from wpsitemaps.wordpress.dates import latest
from wpsitemaps.wordpress.limits import DatabaseUnavailable
from wpsitemaps.wordpress.limits import TimeSpent
from wpsitemaps.wordpress.limits import failure
from wpsitemaps.wordpress.site import SiteContext

log = logging.getLogger(__name__)
bp = Blueprint("wpsitemaps", __name__)
RETRY_AFTER_SECONDS = 30
MAX_INDEX_ENTRIES = 50_000
# Matched with fullmatch(): '$' would also accept a trailing line feed. A page number has at
# most 9 digits: no site has a billion pages, and int() refuses over 4,300 digits.
SITEMAP_RE = re.compile(r"(?P<name>[a-z0-9_-]+)-sitemap(?P<page>[0-9]{0,9})\.xml")


def sitemap_url(site: SiteContext, name: str, page: int) -> str:
    """Absolute URL of a sitemap page: {home}/{name}-sitemap{n}.xml (no n for page 1)."""
    suffix = "" if page == 1 else str(page)
    return f"{site.options.home}/{name}-sitemap{suffix}.xml"


def xml_response(body: bytes, lastmod: datetime | None, kind: str = "main",
                 negotiate: bool = True, view: Mapping[str, str] | None = None) -> BaseResponse:
    """A sitemap response with caching headers; answers 304 to matching conditionals.

    A browser's top-level navigation gets the `kind` stylesheet applied here (HTML), since
    browsers are dropping XSLT; everything else (crawlers, fetches) gets the XML (#6).
    negotiate=False always answers XML (the headless API, whose documents carry no PI).
    `view` holds the stylesheet parameters of the HTML (pager, clock: web/display.py).
    """
    content_type = "application/xml; charset=utf-8"
    if negotiate and wants_html(request.headers):
        body, content_type = transform(body, kind, view), "text/html; charset=utf-8"
    return cached(Response(body, content_type=content_type), body, lastmod)


def cached(resp: Response, body: bytes, lastmod: datetime | None) -> BaseResponse:
    """Add the headers every sitemap and stylesheet carries; 304 on matching conditionals."""
    set_headers(resp, hashlib.sha256(body).hexdigest(), lastmod)
    return resp.make_conditional(request)


@bp.get("/sitemap_index.xml")
def sitemap_index() -> BaseResponse:
    """The index: one <sitemap> per non-empty page of every provider."""
    stored = stored_in_window("sitemap_index.xml")
    if stored is not None:
        return stored
    sitemaps = load_sitemaps()
    site = sitemaps.site
    # Built only when needed: inside the page store's window the stored index is served.
    listed = functools.cache(lambda: index_refs(sitemaps))

    def render() -> tuple[bytes, datetime | None]:
        refs = listed()
        return (render_index(refs, stylesheet_href(site.options.home, "main")),
                latest(*(r.lastmod for r in refs)))

    return stored_or_rendered(site, "sitemap_index.xml",
                              lambda: index_fingerprint(site, listed()), render, "main")


def index_refs(sitemaps: Registry) -> list[SitemapRef]:
    """One reference per non-empty page of every provider (post types' pages read live:
    sitemaps/tails.py)."""
    site = sitemaps.site
    refs: list[SitemapRef] = []
    if site.options.blog_public:
        for provider in sitemaps.providers:
            try:
                bounds = provider.live_bounds()
            except NotReady:
                # Listed once its background computation is done (large sites' video scan).
                continue
            for page, bound in enumerate(bounds, start=1):
                refs.append(SitemapRef(sitemap_url(site, provider.name, page), bound.lastmod))
    return refs[:MAX_INDEX_ENTRIES]


@bp.get("/sitemap.xml")
def sitemap_alias() -> BaseResponse:
    """WordPress's and Yoast's alias: 301 to the index."""
    return redirect(request.script_root + "/sitemap_index.xml", code=301)


@bp.get("/<string:filename>")
def sitemap_page(filename: str) -> BaseResponse:
    """`{name}-sitemap.xml` and `{name}-sitemap{n}.xml` (n >= 2); 1 and 0 redirect."""
    match = SITEMAP_RE.fullmatch(filename)
    if match is None:
        abort(404, "No such sitemap.")
    name, digits = match["name"], match["page"]
    if digits in ("0", "1"):
        return redirect(f"{request.script_root}/{name}-sitemap.xml", code=301)
    if digits.startswith("0"):
        abort(404, "No such sitemap page.")
    page = int(digits) if digits else 1
    stored = stored_in_window(filename)
    if stored is not None:
        return stored
    sitemaps = load_sitemaps()
    site = sitemaps.site
    provider = sitemaps.lookup(name)
    if provider is None:
        abort(404, "No such sitemap.")
    try:
        bounds = provider.live_bounds() if site.options.blog_public else []
    except NotReady:
        return plain("Service unavailable: this sitemap is being prepared; try again shortly.",
                     503, **{"Retry-After": str(RETRY_AFTER_SECONDS)})
    if page > max(len(bounds), 1):
        abort(404, "No such sitemap page.")

    def fingerprint() -> str | None:
        if page > len(bounds):
            return empty_fingerprint(site, provider.name)
        return page_fingerprint(provider, page, bounds[page - 1])

    def render() -> tuple[bytes, datetime | None]:
        entries: Sequence[UrlEntry] = []
        if page <= len(bounds):
            entries = provider.entries(page, bounds[page - 1])
        body = render_urlset(entries, stylesheet_href(site.options.home, provider.stylesheet))
        return body, latest(*(e.lastmod for e in entries))

    # The news view shows ages against the clock that chose the 48-hour window.
    view = view_params(name, page, len(bounds),
                       site.now if provider.stylesheet == "news" else None)
    return stored_or_rendered(site, filename, fingerprint, render, provider.stylesheet, view)


def stored_in_window(document: str) -> BaseResponse | None:
    """The stored answer of a document inside the page store's window (PageStore.in_window),
    or None: then the site is loaded and the document served as usual."""
    note_document(document)
    pages = page_store()
    return None if pages is None else pages.in_window(sites().key(resolution()), document)


def stored_or_rendered(site: SiteContext, document: str, fingerprint: Fingerprint,
                       render: Render, kind: str,
                       view: Mapping[str, str] | None = None) -> BaseResponse:
    """The document from the page store when one is configured, else rendered; `view` holds
    the browser view's stylesheet parameters (web/display.py)."""
    pages = page_store()
    if pages is not None:
        return pages.respond(site, document, fingerprint, render, kind, view)
    body, lastmod = render()
    return xml_response(body, lastmod, kind, view=view)


@bp.get("/<any(main, video, news):kind>-sitemap.xsl")
def stylesheet(kind: str) -> BaseResponse:
    """The XSL files of xsl/, named by the <?xml-stylesheet?> PI of each sitemap."""
    path = XSL_DIR / STYLESHEETS[kind]
    body = path.read_bytes()
    mtime = datetime.fromtimestamp(int(path.stat().st_mtime), UTC)
    return cached(Response(body, content_type="text/xsl; charset=utf-8"), body, mtime)


def plain(body: str, status: int, **headers: str) -> Response:
    """A small plain-text answer (errors, redirects' bodies)."""
    resp = Response(body + "\n", status=status, mimetype="text/plain")
    resp.headers.update(headers)
    return resp


def database_unavailable(exc: Exception) -> BaseResponse:
    """The database cannot be read right now: what can be answered without it (robots.txt's
    last good copy, a stored document), else 503 with Retry-After, never a traceback. The
    refresh and exports must fail rather than take a stored copy."""
    if not in_background() and (isinstance(exc, TimeSpent) or failure(exc) == "slow"):
        refresh_after_timeout()
    answer = None if in_background() else answer_without_database()
    if answer is not None:
        if not isinstance(exc, DatabaseUnavailable):
            # One line, no traceback: a stored copy must not hide an error for hours (a
            # revoked GRANT looks like this too), nor a traceback per request fill the log.
            cause = getattr(exc, "orig", None) or exc
            log.warning("database error (%s: %s); %s answered from its stored copy",
                        cause.__class__.__name__, str(cause)[:200], request.path)
        return answer
    if isinstance(exc, DatabaseUnavailable):
        # Not asked at all (the breaker is open, or the request's time is spent): the
        # breaker logs the outage once; a traceback per request would fill the log.
        log.info("database unavailable: %s", exc)
    else:
        log.error("database unavailable: %s", exc.__class__.__name__, exc_info=exc)
    return plain("Service unavailable: the WordPress database cannot be read right now.",
                 503, **{"Retry-After": str(RETRY_AFTER_SECONDS)})


def answer_without_database() -> BaseResponse | None:
    """robots.txt from its last good copy (never a 5xx), or the request's stored document
    (stale-if-error); None when there is nothing to answer with."""
    if request.endpoint == robots.ENDPOINT:
        return robots.without_database()
    return stale_answer()


def stale_answer() -> BaseResponse | None:
    """The stored copy of this request's document when the database failed (PageStore.stale),
    or None: no store, no document noted, the site unknown, or nothing stored in time."""
    pages, document, res = page_store(), noted_document(), known_resolution()
    if pages is None or document is None or res is None:
        return None
    return pages.stale(sites().key(res), document)


def http_error(exc: HTTPException) -> Response:
    """Werkzeug HTTP errors as small plain bodies (404, 405, 400...)."""
    text = exc.description or exc.name
    resp = plain(f"{exc.code} {exc.name}: {text}", exc.code or 500)
    if exc.code == 405 and exc.response is None:
        allow = getattr(exc, "valid_methods", None)
        if allow:
            resp.headers["Allow"] = ", ".join(allow)
    return resp


def internal_error(exc: Exception) -> Response:
    """Anything unexpected: log it, answer 500 in plain text (no half-written XML)."""
    log.exception("unhandled error", exc_info=exc)
    return plain("500 Internal Server Error", 500)


def security_headers(resp: Response) -> Response:
    """Headers every response carries."""
    resp.headers.setdefault("X-Content-Type-Options", "nosniff")
    return resp


def init_app(app: Flask) -> None:
    """Register the blueprint and the error handlers."""
    from wpsitemaps.web import feeds
    from wpsitemaps.web import gzip as compress

    # First: after_request hooks run in reverse order, so gzip encoding runs last.
    compress.init_app(app)
    feeds.init_app(app)
    robots.init_app(app)
    app.register_blueprint(bp)
    # DBAPIError covers OperationalError and the drivers' other errors.
    for exc_type in (DBAPIError, PoolTimeout, DatabaseUnavailable):
        app.register_error_handler(exc_type, database_unavailable)
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(Exception, internal_error)
    app.after_request(security_headers)
