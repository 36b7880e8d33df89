"""Small answers and the caching headers every sitemap and stylesheet carries."""

from __future__ import annotations

import hashlib
from datetime import UTC
from datetime import datetime

from flask import Response
from flask import request
from werkzeug.wrappers.response import Response as BaseResponse

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
XML_TYPE = "application/xml; charset=utf-8"
HTML_TYPE = "text/html; charset=utf-8"
RETRY_AFTER_SECONDS = 30


def set_headers(resp: BaseResponse, etag: str, lastmod: datetime | None) -> BaseResponse:
    """Vary, X-Robots-Tag, Cache-Control, Last-Modified and ETag (a strong tag)."""
    resp.vary.update(("Sec-Fetch-Dest", "Sec-Fetch-Mode"))
    resp.headers["X-Robots-Tag"] = "noindex, follow"
    resp.headers["Cache-Control"] = "public, max-age=300"
    # Empty documents have no date of their own; the epoch is stable, and the ETag still
    # changes with the content.
    resp.last_modified = (lastmod or EPOCH).replace(microsecond=0)
    resp.set_etag(etag)
    return resp


def conditional(resp: BaseResponse, etag: str, lastmod: datetime | None) -> BaseResponse:
    """The sitemap headers with this ETag, then 304 if the request's conditionals match."""
    set_headers(resp, etag, lastmod)
    return resp.make_conditional(request)


def cached(resp: Response, body: bytes, lastmod: datetime | None) -> BaseResponse:
    """The sitemap headers for bytes in hand (ETag = their SHA-256); 304 when they match."""
    return conditional(resp, hashlib.sha256(body).hexdigest(), lastmod)


def plain(body: str, status: int, **headers: str) -> Response:
    """A small plain-text answer (errors, redirects' bodies)."""
    resp = Response(body + "\n", status=status, mimetype="text/plain")
    resp.headers.update(headers)
    return resp
