"""HTTP: routes, status codes and headers. Documents come from serving.documents; the
variant a request gets is negotiated in web.negotiate."""

from __future__ import annotations

import hashlib
import logging
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

from wpsitemaps.paths import STYLESHEETS
from wpsitemaps.paths import XSL_DIR
from wpsitemaps.serving import documents
from wpsitemaps.serving import variants
from wpsitemaps.serving.addresses import Address
from wpsitemaps.serving.documents import NoSuchDocument
from wpsitemaps.serving.service import Background
from wpsitemaps.serving.service import Service
from wpsitemaps.serving.variants import gzip_bytes
from wpsitemaps.sitemaps.feeds import FEED_PATHS
from wpsitemaps.sitemaps.providers.base import NotReady
from wpsitemaps.web import robots
from wpsitemaps.web.accept import wants
from wpsitemaps.web.context import known_resolution
from wpsitemaps.web.context import note_document
from wpsitemaps.web.context import noted_document
from wpsitemaps.web.context import service
from wpsitemaps.web.context import session
from wpsitemaps.web.feeds import feed_bytes
from wpsitemaps.web.gzip import COPIED
from wpsitemaps.web.gzip import GZIP_TYPE
from wpsitemaps.web.headers import RETRY_AFTER_SECONDS
from wpsitemaps.web.headers import cached
from wpsitemaps.web.headers import plain
from wpsitemaps.web.headers import set_headers
from wpsitemaps.web.negotiate import respond
from wpsitemaps.wordpress.limits import DatabaseUnavailable
from wpsitemaps.wordpress.limits import TimeSpent
from wpsitemaps.wordpress.limits import failure

log = logging.getLogger(__name__)
bp = Blueprint("wpsitemaps", __name__)


def document(address: Address, browser: bool | None = None) -> documents.Document:
    """The document at `address` of this request's site (404 when there is none); for the
    browser view unless `browser` says otherwise."""
    note_document(address)
    try:
        return documents.get(session(), address,
                             browser=wants().html if browser is None else browser)
    except NoSuchDocument as exc:
        abort(404, str(exc))


@bp.get("/sitemap_index.xml")
def sitemap_index() -> BaseResponse:
    """The index: one <sitemap> per non-empty page of every provider."""
    return respond(document(Address()))


@bp.get("/sitemap.xml")
def sitemap_alias() -> BaseResponse:
    """WordPress's and Yoast's alias: 301 to the index."""
    return redirect(request.script_root + "/sitemap_index.xml", code=301)


@bp.get("/<string:filename>")
def sitemap_page(filename: str) -> BaseResponse:
    """`{name}-sitemap.xml` and `{name}-sitemap{n}.xml` (n >= 2); 1 and 0 redirect."""
    address = parsed(filename)
    if address.filename != filename:
        return redirect(f"{request.script_root}/{address.filename}", code=301)
    return respond(document(address))


@bp.get("/<string:stem>.xml.gz")
def gzipped_sitemap(stem: str) -> BaseResponse:
    """`{name}.xml.gz`: the gzip file of exactly the bytes `{name}.xml` answers as XML."""
    filename = f"{stem}.xml"
    if filename == "sitemap.xml":
        return redirect(request.script_root + "/sitemap_index.xml.gz", code=301)
    if f"/{filename}" in FEED_PATHS:
        # A `.gz` answer is always gzip: the gzip file of the feed's bytes, as for sitemaps.
        body, updated = feed_bytes(filename)
        return gz_answer(gzip_bytes(body), updated)
    address = parsed(filename)
    if address.filename != filename:
        return redirect(f"{request.script_root}/{address.filename}.gz", code=301)
    return gz_file(document(address, browser=False))


def gz_file(doc: documents.Document) -> BaseResponse:
    """The `.xml.gz` answer of a document: its gzip file (serving.variants.gz_file)."""
    doc, packed = variants.gz_file(doc)
    return gz_answer(packed.body, doc.lastmod, doc.age)


def gz_answer(packed: bytes, lastmod: datetime | None, age: float | None = None) -> BaseResponse:
    """A gzip file as a resource of its own: `application/gzip`, no Content-Encoding, the
    caching headers of what it packs, and its own ETag (the SHA-256 of the gzip bytes)."""
    resp = Response(packed, content_type=GZIP_TYPE)
    inner = set_headers(Response(), "", lastmod)
    for name in COPIED:
        resp.headers[name] = inner.headers[name]
    if age is not None:
        resp.headers["Age"] = str(int(age))
    resp.set_etag(hashlib.sha256(packed).hexdigest())
    return resp.make_conditional(request)


def parsed(filename: str) -> Address:
    """The address a file name asks for (404 when it names none)."""
    try:
        return documents.parse(filename)
    except NoSuchDocument as exc:
        abort(404, str(exc))


@bp.get("/<any(main, video, news):kind>-sitemap.xsl")
def stylesheet(kind: str) -> BaseResponse:
    """The XSL files of xsl/, named by the <?xml-stylesheet?> PI of each sitemap."""
    path = XSL_DIR / STYLESHEETS[kind]
    body = path.read_bytes()
    mtime = datetime.fromtimestamp(int(path.stat().st_mtime), UTC)
    return cached(Response(body, content_type="text/xsl; charset=utf-8"), body, mtime)


def not_ready(_exc: NotReady) -> Response:
    """A slow sitemap's first pass runs in the background: 503 with Retry-After."""
    return being_prepared()


def being_prepared() -> Response:
    """503 with Retry-After: what is asked for is being computed in the background."""
    return plain("Service unavailable: this sitemap is being prepared; try again shortly.",
                 503, **{"Retry-After": str(RETRY_AFTER_SECONDS)})


def database_unavailable(exc: Exception) -> BaseResponse:
    """The database cannot be read right now: what can be answered without it (robots.txt's
    last good copy, a stored document), else 503 with Retry-After, never a traceback."""
    slow = isinstance(exc, TimeSpent) or failure(exc) == "slow"
    background = service().background
    if slow and background is not None and service().settings.cache_ttl > 0:
        background.rescue(known_resolution())
    answer = answer_without_database()
    if isinstance(exc, DatabaseUnavailable) or failure(exc) in ("silent", "locked"):
        # Not asked at all (the breaker is open, or the request's time is spent), or what
        # trips the breaker: the breaker logs the outage once, with its count.
        log.debug("database unavailable: %s", exc)
    else:
        # One line when the database starts failing and one when it answers again, never a
        # traceback per request (an outage at crawler rates would fill the log disk); a
        # stored copy must not hide an error for hours either (a reminder every 5 minutes).
        service().outage.failed(exc, request.path, stored=answer is not None)
    # A render too slow for a request is prepared in the background, also when a stored
    # copy answers now (that copy is past cache_ttl: it would be tried again and again).
    prepared = slow and background is not None and prepare_in_background(background)
    if answer is not None:
        return answer
    if prepared:
        return being_prepared()
    return plain("Service unavailable: the WordPress database cannot be read right now.",
                 503, **{"Retry-After": str(RETRY_AFTER_SECONDS)})


def prepare_in_background(background: Background) -> bool:
    """Have a sitemap document that ran out of the request's time prepared in the
    background (serving.refresh); False for anything else (robots.txt, feeds)."""
    address, res = noted_document(), known_resolution()
    if address is None or res is None or request.endpoint == robots.ENDPOINT:
        return False
    background.prepare(res, address)
    return True


def answer_without_database() -> BaseResponse | None:
    """robots.txt from its last good copy (never a 5xx), or the request's stored document
    (stale-if-error); None when there is nothing to answer with."""
    if request.endpoint == robots.ENDPOINT:
        return robots.without_database()
    address, res = noted_document(), known_resolution()
    if address is None or res is None:
        return None
    doc = documents.stale(service(), res, address)
    if doc is None:
        return None
    if request.endpoint == "wpsitemaps.gzipped_sitemap":
        return gz_file(doc)
    # Browsers get the XML too: their view's pager needs the database.
    return respond(doc, as_html=False)


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


def init_app(app: Flask, service: Service) -> None:
    """Register the blueprint and the error handlers."""
    app.register_blueprint(bp)
    app.register_error_handler(NotReady, not_ready)
    # DBAPIError covers OperationalError and the drivers' other errors.
    for exc_type in (DBAPIError, PoolTimeout, DatabaseUnavailable):
        app.register_error_handler(exc_type, database_unavailable)
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(Exception, internal_error)
    app.after_request(security_headers)
