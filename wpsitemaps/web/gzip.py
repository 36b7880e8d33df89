"""gzip: `….xml.gz` twins of every sitemap and `Content-Encoding: gzip` negotiation.

Two different things, kept apart:

* `/post-sitemap.xml.gz` is its own resource: a gzip file whose content is exactly the XML
  bytes of `/post-sitemap.xml`. It is sent as `Content-Type: application/gzip` and never
  with `Content-Encoding` (that would tell clients to unpack it in transit and store XML
  under a .gz name). Google documents gzip-compressed sitemap files and the 50 MB limit
  "uncompressed" but names no media type: it recognises the gzip data itself. We send
  `application/gzip`, the type IANA registered for gzip in RFC 6713 (2013);
  `application/x-gzip` is the older unregistered alias RFC 6713 lists as deprecated.
* Any compressible response is gzip-encoded in transit when Accept-Encoding allows it.
"""

from __future__ import annotations

import gzip
import hashlib

from flask import Blueprint
from flask import Flask
from flask import Response
from flask import current_app
from flask import request
from werkzeug.wrappers.response import Response as BaseResponse

bp = Blueprint("wpsitemaps_gzip", __name__)
GZIP_TYPE = "application/gzip"
COMPRESSIBLE = {"application/xml", "text/xml", "text/plain", "text/html", "text/xsl",
                "application/xslt+xml", "application/json", "text/css",
                "application/rss+xml", "application/atom+xml"}
# Request headers that must not reach the identity request behind a .xml.gz: the twin is
# always the plain XML document, never a 304, a range, an HTML rendering or gzip-encoded.
STRIPPED = {"HTTP_ACCEPT", "HTTP_ACCEPT_ENCODING", "HTTP_IF_NONE_MATCH",
            "HTTP_IF_MODIFIED_SINCE", "HTTP_IF_MATCH", "HTTP_IF_UNMODIFIED_SINCE",
            "HTTP_RANGE", "HTTP_IF_RANGE"}
COPIED = ("Last-Modified", "Cache-Control", "X-Robots-Tag", "Age")
# WSGI environ key (not settable by clients: no HTTP_ prefix) of the list through which the
# page store hands over a stored gzip twin (web.store).
TWIN_KEY = "wpsitemaps.gzip_twin"


def gzip_bytes(data: bytes) -> bytes:
    """Deterministic gzip (mtime 0, no file name) so exports are byte-identical."""
    return gzip.compress(data, compresslevel=9, mtime=0)


def gzip_quality(header: str | None) -> float:
    """The q-value Accept-Encoding gives gzip (RFC 9110 12.5.3); 0 when refused or absent.

    An explicit `gzip` (or `x-gzip`) entry wins over `*`, so `gzip;q=0, *` refuses gzip.
    No header at all means the client did not ask: we send identity.
    """
    explicit: float | None = None
    star: float | None = None
    for part in (header or "").split(","):
        token, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = max(0.0, min(1.0, float(value)))
                except ValueError:
                    q = 0.0
        name = token.strip().lower()
        if name in ("gzip", "x-gzip"):
            explicit = q if explicit is None else max(explicit, q)
        elif name == "*":
            star = q
    if explicit is not None:
        return explicit
    return star or 0.0


def add_vary(resp: BaseResponse, field: str) -> None:
    """Append a field to Vary (never replace what other hooks put there)."""
    current = [v.strip() for v in resp.headers.get("Vary", "").split(",") if v.strip()]
    if "*" in current or field.lower() in (v.lower() for v in current):
        return
    resp.headers["Vary"] = ", ".join([*current, field])


def variant_etag(etag: str) -> str:
    """The ETag of the gzip-encoded variant.

    RFC 9110 8.8.1/8.8.3: a strong validator changes whenever the representation's bytes do,
    and a content coding changes them, so the gzip variant needs its own tag (Apache's
    mod_deflate does the same `-gzip` suffix). Otherwise a cache holding one variant could
    answer a 304 for the other.
    """
    return f"{etag}-gzip"


def _if_none_match_present() -> bool:
    return bool(request.headers.get("If-None-Match"))


def encode_response(resp: BaseResponse) -> BaseResponse:
    """after_request: gzip-encode compressible 200s the client accepts, then re-check 304."""
    if request.method not in ("GET", "HEAD") or resp.status_code not in (200, 304):
        return resp
    if resp.mimetype not in COMPRESSIBLE or "Content-Encoding" in resp.headers:
        return resp
    if resp.direct_passthrough or resp.is_streamed:
        return resp
    add_vary(resp, "Accept-Encoding")
    if gzip_quality(request.headers.get("Accept-Encoding")) <= 0:
        return resp
    etag, weak = resp.get_etag()
    if resp.status_code == 304:
        # The view matched If-None-Match against the identity tag (the client holds that
        # copy: keep its tag) or, without If-None-Match, If-Modified-Since: then the tag
        # is the one of the variant we would have sent.
        if etag and not _if_none_match_present():
            resp.set_etag(variant_etag(etag), bool(weak))
        return resp
    resp.set_data(gzip_bytes(resp.get_data()))
    resp.headers["Content-Encoding"] = "gzip"
    if etag:
        resp.set_etag(variant_etag(etag), bool(weak))
        # The view compared If-None-Match with the identity tag; compare with ours.
        return resp.make_conditional(request)
    return resp


def identity_response(path: str, twin: list[bytes] | None = None) -> BaseResponse:
    """Dispatch GET `path` inside this app with conditional/negotiation headers removed.

    `twin` (a list) receives the gzip bytes when the page store already holds them.
    """
    environ = {k: v for k, v in request.environ.items()
               if k not in STRIPPED and not k.startswith("HTTP_SEC_FETCH_")}
    environ.update({"PATH_INFO": path, "REQUEST_METHOD": "GET", "QUERY_STRING": ""})
    if twin is not None:
        environ[TWIN_KEY] = twin
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    with app.request_context(environ):
        resp: BaseResponse = app.full_dispatch_request()
    return resp


@bp.get("/<string:stem>.xml.gz")
def gzipped_sitemap(stem: str) -> BaseResponse:
    """`{name}.xml.gz`: the gzip file of exactly the bytes `{name}.xml` answers."""
    twin: list[bytes] = []
    inner = identity_response(f"/{stem}.xml", twin)
    if inner.status_code in (301, 302, 307, 308):
        location = inner.headers.get("Location", "")
        if location.endswith(".xml"):
            inner.headers["Location"] = location + ".gz"
        return inner
    if inner.status_code != 200 or inner.mimetype not in ("application/xml", "text/xml"):
        return inner
    body = twin[0] if twin else gzip_bytes(inner.get_data())
    resp = Response(body, content_type=GZIP_TYPE)
    for name in COPIED:
        if name in inner.headers:
            resp.headers[name] = inner.headers[name]
    resp.set_etag(hashlib.sha256(body).hexdigest())
    return resp.make_conditional(request)


def init_app(app: Flask) -> None:
    """Register the .xml.gz route and the Content-Encoding hook."""
    app.register_blueprint(bp)
    app.after_request(encode_response)
