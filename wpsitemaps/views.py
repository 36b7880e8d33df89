"""HTTP: routes, status codes and headers. Building and rendering live elsewhere."""

from __future__ import annotations

import logging

from flask import Blueprint
from flask import Flask
from flask import Response
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import HTTPException

log = logging.getLogger(__name__)
bp = Blueprint("wpsitemaps", __name__)
RETRY_AFTER_SECONDS = 30


def plain(body: str, status: int, **headers: str) -> Response:
    """A small plain-text answer (errors, redirects' bodies)."""
    resp = Response(body + "\n", status=status, mimetype="text/plain")
    resp.headers.update(headers)
    return resp


def database_unavailable(exc: Exception) -> Response:
    """The database cannot be read right now: 503 with Retry-After, never a traceback."""
    log.error("database unavailable: %s", exc.__class__.__name__, exc_info=exc)
    return plain("Service unavailable: the WordPress database cannot be read right now.",
                 503, **{"Retry-After": str(RETRY_AFTER_SECONDS)})


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
    app.register_blueprint(bp)
    for exc_type in (OperationalError, DBAPIError, PoolTimeout):
        app.register_error_handler(exc_type, database_unavailable)
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(Exception, internal_error)
    app.after_request(security_headers)
