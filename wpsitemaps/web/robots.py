"""GET /robots.txt: the site's robots.txt (serving.robots builds it).

robots.txt never answers 5xx and never waits long on the database: RFC 9309 (2.3.1.4) lets a
crawler treat a robots.txt that fails with a server error as "disallow everything", for the
whole host. It waits at most web.context.ROBOTS_DB_SECONDS; when the database fails, the last
good copy is served (serving.robotscopy: memory and the page store), else a built-in text
that allows crawling and names the sitemap index (serving.robots.built_in).
"""

from __future__ import annotations

import hashlib
import time

from flask import Blueprint
from flask import Flask
from flask import Response
from flask import abort
from flask import request
from werkzeug.wrappers.response import Response as BaseResponse

from wpsitemaps.serving.robots import built_in
from wpsitemaps.serving.robots import robots_text
from wpsitemaps.serving.service import Service
from wpsitemaps.web.context import known_resolution
from wpsitemaps.web.context import service
from wpsitemaps.web.context import session
from wpsitemaps.web.context import under_prefix

bp = Blueprint("wpsitemaps_robots", __name__)
ENDPOINT = "wpsitemaps_robots.robots_txt"


@bp.get("/robots.txt")
def robots_txt() -> BaseResponse:
    """robots.txt as text/plain; charset=utf-8, with an ETag for conditional requests.

    Only at the root of a host: crawlers never ask for /blog/robots.txt, and WordPress
    answers /fr/robots.txt of a network with a 404.
    """
    if under_prefix():
        abort(404, "robots.txt is served at the root of the host only.")
    current = session()
    body = robots_text(current).encode("utf-8")
    service().robots_copies.keep(current.resolved.key, body)
    return text_response(body, "public, max-age=300")


def text_response(body: bytes, cache_control: str, age: float | None = None) -> BaseResponse:
    """robots.txt as text/plain; charset=utf-8 with an ETag; `age`: a copy's Age."""
    resp = Response(body, content_type="text/plain; charset=utf-8")
    resp.headers["Cache-Control"] = cache_control
    if age is not None:
        resp.headers["Age"] = str(max(0, int(age)))
    resp.set_etag(hashlib.sha256(body).hexdigest())
    return resp.make_conditional(request)


def without_database() -> BaseResponse:
    """robots.txt when the database fails: the last good copy (with Age), else the built-in
    one."""
    res = known_resolution()
    last = None if res is None else service().robots_copies.last(res.key)
    if last is not None:
        return text_response(last[0], "public, max-age=300", time.time() - last[1])
    body = built_in(service(), res, request.host_url.rstrip("/") + request.script_root)
    # Made from the request's own address when no home URL is configured: never kept by
    # a shared cache, which could hand it to a request for another host.
    return text_response(body.encode(), "no-store")


def init_app(app: Flask, service: Service) -> None:
    """Register the route (the `[robots]` table was validated when the service was built)."""
    app.register_blueprint(bp)
