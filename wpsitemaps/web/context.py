"""The request context: the app's one Service, which site a request is for, and its session
(connection, site, registry) on `g`.

Everything below `web` takes these as arguments; this is the one place that reads Flask's
globals to build them. Site resolution runs in a WSGI middleware, before Flask's routing:
a site's path prefix (`/fr`, `/blog`) moves from PATH_INFO to SCRIPT_NAME, so every route
answers under it as at the root.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flask import Flask
from flask import abort
from flask import current_app
from flask import g
from flask import request
from sqlalchemy.exc import SQLAlchemyError

from wpsitemaps.config import Settings
from wpsitemaps.serving.addresses import Address
from wpsitemaps.serving.service import Service
from wpsitemaps.serving.service import SiteSession
from wpsitemaps.serving.sites import Resolved
from wpsitemaps.wordpress.limits import within

STATE = "wpsitemaps"  # the app's one extensions key: its Service
SITE_ENVIRON_KEY = "wpsitemaps.site"  # the Resolved site of this request (no HTTP_ prefix)
PREFIX_ENVIRON_KEY = "wpsitemaps.prefix"  # the path prefix moved to SCRIPT_NAME
ERROR_ENVIRON_KEY = "wpsitemaps.site_error"  # the database failed while resolving
# robots.txt waits at most this long for the database before answering its last good copy
# (a crawler that gets no robots.txt in time may treat the whole host as disallowed).
ROBOTS_DB_SECONDS = 1.0
# Endpoints that answer whatever site the host names, even none or an unreadable database.
SITELESS_ENDPOINTS = frozenset({"wpsitemaps_notify"})


def service_of(app: Flask) -> Service:
    """An app's Service."""
    found: Service = app.extensions[STATE]
    return found


def service() -> Service:
    """The current app's Service."""
    return service_of(current_app)


def resolution() -> Resolved:
    """The site this request is for (resolved by the middleware, else now)."""
    res = request.environ.get(SITE_ENVIRON_KEY)
    if res is None:
        # A request context built by hand, without the middleware (tests).
        res = service().resolve(request.host, request.path)
        request.environ[SITE_ENVIRON_KEY] = res
    resolved: Resolved = res
    return resolved


def known_resolution() -> Resolved | None:
    """The site of this request if resolving it succeeded (or gave its last known answer)."""
    res: Resolved | None = request.environ.get(SITE_ENVIRON_KEY)
    return res


def note_document(address: Address) -> None:
    """Record which document this request is for (its stored copy is the answer when the
    database fails: web.routes.database_unavailable)."""
    g.wpsitemaps_document = address


def noted_document() -> Address | None:
    """The document this request is for, if a route noted one."""
    address: Address | None = g.get("wpsitemaps_document")
    return address


def session() -> SiteSession:
    """This request's session with its site (connection, site, registry on first use)."""
    found: SiteSession | None = g.get("wpsitemaps_session")
    if found is None:
        found = SiteSession(service(), resolution())
        g.wpsitemaps_session = found
    return found


def close_session(_exc: BaseException | None = None) -> None:
    """teardown_request: close the request's connection, if one was opened, and forget what
    was read of the request (an app context can outlive a request: tests push one)."""
    g.pop("wpsitemaps_wants", None)
    g.pop("wpsitemaps_document", None)
    found: SiteSession | None = g.pop("wpsitemaps_session", None)
    if found is not None:
        found.close()


def under_prefix() -> bool:
    """Whether this request came in under a site's path prefix (robots.txt is root-only)."""
    return bool(request.environ.get(PREFIX_ENVIRON_KEY))


def check_site() -> None:
    """before_request: 503 when resolving failed, 404 where no site answers, 410 for an
    archived, spam or deleted site (as WordPress's ms_site_check() answers every URL).
    Routes that are no site's (the plugin's notifications) answer without one."""
    if request.endpoint in SITELESS_ENDPOINTS:
        return
    error = request.environ.get(ERROR_ENVIRON_KEY)
    if isinstance(error, BaseException):
        raise error
    res = resolution()
    if res.missing:
        abort(404, "No site answers at this address.")
    if res.blog is not None and res.blog.gone:
        abort(410, res.blog.gone)


def move_prefix(environ: dict[str, Any], res: Resolved) -> None:
    """Move the site's path prefix from PATH_INFO to SCRIPT_NAME (longest prefix first)."""
    path = environ.get("PATH_INFO", "") or "/"
    low = path.lower()
    for prefix in res.prefixes:
        if prefix and (low == prefix.lower() or low.startswith(prefix.lower() + "/")):
            environ["SCRIPT_NAME"] = environ.get("SCRIPT_NAME", "") + path[:len(prefix)]
            environ["PATH_INFO"] = path[len(prefix):] or "/"
            environ[PREFIX_ENVIRON_KEY] = path[:len(prefix)]
            return


class SiteDispatch:
    """WSGI middleware: resolve the request's site before Flask routes it."""

    def __init__(self, app: Flask, service: Service) -> None:
        self.service = service
        self.wsgi_app = app.wsgi_app

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        # The whole request, site resolution included, runs within its time for the
        # database (the body is complete when the app returns: nothing reads it later).
        with within(db_seconds(self.service.settings, environ)):
            return self._dispatch(environ, start_response)

    def _dispatch(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        if SITE_ENVIRON_KEY not in environ:
            host = environ.get("HTTP_HOST") or environ.get("SERVER_NAME", "")
            try:
                res = self.service.resolve(host, environ.get("PATH_INFO", ""))
            except SQLAlchemyError as exc:
                # Answered by Flask's handlers (503 + Retry-After) from check_site().
                environ[ERROR_ENVIRON_KEY] = exc
            else:
                environ[SITE_ENVIRON_KEY] = res
                move_prefix(environ, res)
        result: Iterable[bytes] = self.wsgi_app(environ, start_response)
        return result


def db_seconds(config: Settings, environ: dict[str, Any]) -> float:
    """How long this request may wait on the database in all: a second for robots.txt,
    else `db_timeout` (the refresh and commands run outside requests, with their own)."""
    if environ.get("PATH_INFO") == "/robots.txt":
        return min(ROBOTS_DB_SECONDS, config.db_timeout)
    return config.db_timeout


def init_app(app: Flask, service: Service) -> None:
    """Keep the service, resolve sites before routing, close sessions at teardown."""
    app.extensions[STATE] = service
    app.teardown_request(close_session)
    app.before_request(check_site)
    app.wsgi_app = SiteDispatch(app, service)  # type: ignore[method-assign]
