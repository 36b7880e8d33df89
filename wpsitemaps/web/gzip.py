"""gzip: `….xml.gz` twins of every sitemap (their route is in web.routes) and
`Content-Encoding: gzip` negotiation.

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

from flask import Flask
from flask import request
from werkzeug.wrappers.response import Response as BaseResponse

from wpsitemaps.serving.service import Service
from wpsitemaps.serving.variants import gzip_bytes
from wpsitemaps.web.accept import wants

GZIP_TYPE = "application/gzip"
GZIP_SUFFIX = "-gzip"  # the gzip variant's ETag: the identity tag plus this
COMPRESSIBLE = {"application/xml", "text/xml", "text/plain", "text/html", "text/xsl",
                "application/xslt+xml", "application/json", "text/css",
                "application/rss+xml", "application/atom+xml"}
COPIED = ("Last-Modified", "Cache-Control", "X-Robots-Tag")


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
    return f"{etag}{GZIP_SUFFIX}"


def encode_response(resp: BaseResponse) -> BaseResponse:
    """after_request: gzip-encode compressible 200s the client accepts, then re-check 304."""
    if request.method not in ("GET", "HEAD") or resp.status_code not in (200, 304):
        return resp
    if resp.mimetype not in COMPRESSIBLE or "Content-Encoding" in resp.headers:
        return resp
    if resp.direct_passthrough or resp.is_streamed:
        return resp
    add_vary(resp, "Accept-Encoding")
    if not wants().gzip:
        return resp
    etag, weak = resp.get_etag()
    if resp.status_code == 304:
        if not etag or etag.endswith(GZIP_SUFFIX):
            return resp  # already the gzip variant's answer (web.negotiate)
        if not request.headers.get("If-None-Match"):
            # If-Modified-Since matched: the 304 carries the tag of the variant selected.
            resp.set_etag(variant_etag(etag), bool(weak))
            return resp
        # The view matched If-None-Match against the identity tag, but this request
        # selects the gzip variant, which has its own strong tag (RFC 9110 13.1.2): compare
        # with that one below. The view's body is still in the response.
        resp.status_code = 200
    resp.set_data(gzip_bytes(resp.get_data()))
    resp.headers["Content-Encoding"] = "gzip"
    if etag:
        resp.set_etag(variant_etag(etag), bool(weak))
        # The view compared If-None-Match with the identity tag; compare with ours.
        return resp.make_conditional(request)
    return resp


def init_app(app: Flask, service: Service) -> None:
    """Register the Content-Encoding hook."""
    app.after_request(encode_response)
