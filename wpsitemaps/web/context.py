"""The request context: which site a request is for (web.sites), the connection, the site
and the sitemaps on `g`, and the background refresh of the shared bounds cache.

Everything below `web` takes these as arguments; this is the one place that reads Flask's
globals to build them. Site resolution runs in a WSGI middleware, before Flask's routing:
a site's path prefix (`/fr`, `/blog`) moves from PATH_INFO to SCRIPT_NAME, so every route
answers under it as at the root.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable
from typing import Any

from flask import Flask
from flask import abort
from flask import current_app
from flask import g
from flask import has_request_context
from flask import request
from sqlalchemy import Connection
from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import SQLAlchemyError

from wpsitemaps.config import Settings
from wpsitemaps.sitemaps.bounds import BoundsCache
from wpsitemaps.sitemaps.bounds import SharedCache
from wpsitemaps.sitemaps.registry import Registry
from wpsitemaps.web.sites import Resolved
from wpsitemaps.web.sites import Sites
from wpsitemaps.wordpress.breaker import Breaker
from wpsitemaps.wordpress.db import make_engine
from wpsitemaps.wordpress.limits import within
from wpsitemaps.wordpress.site import SiteContext
from wpsitemaps.wordpress.site import build_site
from wpsitemaps.wordpress.typereport import type_report

log = logging.getLogger(__name__)
ENGINE = "wpsitemaps.engine"
SETTINGS = "wpsitemaps.settings"
BOUNDS_CACHE = "wpsitemaps.bounds_cache"
SITES = "wpsitemaps.sites"
REFRESH_ENVIRON_KEY = "wpsitemaps.refresh"  # not settable by clients (no HTTP_ prefix)
BACKGROUND_ENVIRON_KEY = "wpsitemaps.background"  # no client waits: the long time limits
SITE_ENVIRON_KEY = "wpsitemaps.site"  # the Resolved site of this request
PREFIX_ENVIRON_KEY = "wpsitemaps.prefix"  # the path prefix moved to SCRIPT_NAME
ERROR_ENVIRON_KEY = "wpsitemaps.site_error"  # the database failed while resolving
# A request that ran out of time starts the background refresh at most this often (seconds).
RESCUE_EVERY = 60.0
# robots.txt waits at most this long for the database before answering its last good copy
# (a crawler that gets no robots.txt in time may treat the whole host as disallowed).
ROBOTS_DB_SECONDS = 1.0


def get_conn() -> Connection:
    """Return this request's connection, opening it on first use."""
    if "wp_conn" not in g:
        engine: Engine = current_app.extensions[ENGINE]
        g.wp_conn = engine.connect()
    conn: Connection = g.wp_conn
    return conn


def close_conn(_exc: BaseException | None = None) -> None:
    """Close the request's connection (rolling back: we never commit)."""
    conn = g.pop("wp_conn", None)
    if conn is None:
        return
    try:
        conn.close()
    except DBAPIError as exc:
        # The database went away after the page was built: the rollback in close() fails.
        # The answer is already complete, so it must not turn into a 500 here; the broken
        # connection is discarded (the pool opens a new one).
        log.warning("discarding a connection that failed to close: %s", exc.__class__.__name__)
        if not conn.closed:
            conn.invalidate()
            conn.close()


def settings() -> Settings:
    """The app's validated settings."""
    value: Settings = current_app.extensions[SETTINGS]
    return value


def sites() -> Sites:
    """The app's sites (mode, resolution, context LRU)."""
    value: Sites = current_app.extensions[SITES]
    return value


def resolution() -> Resolved:
    """The site this request is for (resolved by the middleware, else now)."""
    res = request.environ.get(SITE_ENVIRON_KEY)
    if res is None:
        # A request built without the middleware (test_request_context, commands).
        engine: Engine = current_app.extensions[ENGINE]
        res = sites().resolve(engine.connect, request.host, request.path)
        request.environ[SITE_ENVIRON_KEY] = res
    resolved: Resolved = res
    return resolved


def known_resolution() -> Resolved | None:
    """The site of this request if resolving it succeeded (or gave its last known answer)."""
    res: Resolved | None = request.environ.get(SITE_ENVIRON_KEY)
    return res


def in_background() -> bool:
    """Whether no client waits for this request (the refresh, an export): it gets the long
    time limits, and never a stored copy in place of what the database says."""
    env = request.environ
    return bool(env.get(REFRESH_ENVIRON_KEY) or env.get(BACKGROUND_ENVIRON_KEY))


def note_document(document: str) -> None:
    """Record which stored document this request is for (its stored copy is the answer
    when the database fails: web.routes.stale_answer)."""
    g.wp_document = document


def noted_document() -> str | None:
    """The stored document this request is for, if a route noted one."""
    document: str | None = g.get("wp_document")
    return document


def load_site() -> SiteContext:
    """The site context of this request (built once per request; kept across requests in
    the sites' LRU while its options are unchanged)."""
    if "wp_site" not in g:
        g.wp_site = sites().context(get_conn(), resolution())
    site: SiteContext = g.wp_site
    return site


def under_prefix() -> bool:
    """Whether this request came in under a site's path prefix (robots.txt is root-only)."""
    return bool(request.environ.get(PREFIX_ENVIRON_KEY))


def check_site() -> None:
    """before_request: 503 when resolving failed, 404 where no site answers, 410 for an
    archived, spam or deleted site (as WordPress's ms_site_check() answers every URL)."""
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

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.wsgi_app = app.wsgi_app

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        # The whole request, site resolution included, runs within its time for the
        # database (the body is complete when the app returns: nothing reads it later).
        with within(db_seconds(self.app.extensions[SETTINGS], environ)):
            return self._dispatch(environ, start_response)

    def _dispatch(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        if SITE_ENVIRON_KEY not in environ:
            engine: Engine = self.app.extensions[ENGINE]
            host = environ.get("HTTP_HOST") or environ.get("SERVER_NAME", "")
            try:
                res = self.app.extensions[SITES].resolve(engine.connect, host,
                                                         environ.get("PATH_INFO", ""))
            except SQLAlchemyError as exc:
                # Answered by Flask's handlers (503 + Retry-After) from check_site().
                environ[ERROR_ENVIRON_KEY] = exc
            else:
                environ[SITE_ENVIRON_KEY] = res
                move_prefix(environ, res)
        result: Iterable[bytes] = self.wsgi_app(environ, start_response)
        return result


def db_seconds(config: Settings, environ: dict[str, Any]) -> float:
    """How long this request may wait on the database in all: the background limit for the
    refresh and exports, a second for robots.txt, else `db_timeout`."""
    if environ.get(REFRESH_ENVIRON_KEY) or environ.get(BACKGROUND_ENVIRON_KEY):
        return config.db_background_timeout
    if environ.get("PATH_INFO") == "/robots.txt":
        return min(ROBOTS_DB_SECONDS, config.db_timeout)
    return config.db_timeout


def shared_cache() -> SharedCache:
    """The app's bounds cache as this request uses it (the refresh request recomputes)."""
    forced = bool(has_request_context() and request.environ.get(REFRESH_ENVIRON_KEY))
    return SharedCache(current_app.extensions[BOUNDS_CACHE], refresh=forced)


def load_sitemaps() -> Registry:
    """This request's registry of sitemaps (providers memoize on themselves for the request)."""
    if "wp_sitemaps" not in g:
        g.wp_sitemaps = Registry(get_conn(), load_site(), shared_cache())
    registry: Registry = g.wp_sitemaps
    return registry


class Refresher:
    """Runs at most one background refresh at a time: an internal GET of the index with the
    refresh flag in the WSGI environ, so every provider's values are recomputed."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self._running = threading.Lock()
        self._rescued = -RESCUE_EVERY

    def __call__(self) -> None:
        """Start a refresh of the current request's site unless one is running."""
        site = request.environ.get(SITE_ENVIRON_KEY) if has_request_context() else None
        if self._running.acquire(blocking=False):
            threading.Thread(target=self._run, args=(site,), name="wpsitemaps-refresh",
                             daemon=True).start()

    def rescue(self) -> None:
        """Start a refresh for a request that ran out of its time for the database, at most
        once per RESCUE_EVERY: a value too slow to compute within db_timeout (a cold page
        bound or term list of a large site) is computed there, with db_background_timeout,
        instead of being tried again, and failing again, by every request."""
        now = time.monotonic()
        if now - self._rescued >= RESCUE_EVERY:
            self._rescued = now
            self()

    def _run(self, site: Resolved | None) -> None:
        try:
            client = self.app.test_client()
            environ: dict[str, Any] = {REFRESH_ENVIRON_KEY: True, BACKGROUND_ENVIRON_KEY: True}
            if site is not None:
                environ[SITE_ENVIRON_KEY] = site
            resp = client.get("/sitemap_index.xml", environ_base=environ)
            # Without a site (start-up warm-up) a network has nothing at the bare address.
            if resp.status_code != 200 and (site is not None or resp.status_code != 404):
                log.warning("background refresh answered %s", resp.status_code)
        except Exception:  # noqa: BLE001 - a failed refresh keeps the stale values
            log.exception("background refresh failed")
        finally:
            self._running.release()


def refresh_after_timeout() -> None:
    """This request ran out of time on the database: let the background refresh compute its
    site's values (Refresher.rescue; nothing is cached with cache_ttl 0)."""
    cache: BoundsCache = current_app.extensions[BOUNDS_CACHE]
    if isinstance(cache.on_stale, Refresher) and cache.ttl > 0:
        cache.on_stale.rescue()


def init_app(app: Flask, config: Settings) -> None:
    """Create the engine and the bounds cache, and register the connection's teardown."""
    app.extensions[SETTINGS] = config
    app.extensions[ENGINE] = make_engine(config, Breaker())
    app.extensions[BOUNDS_CACHE] = BoundsCache(config.cache_ttl, on_stale=Refresher(app))
    app.extensions[SITES] = Sites(config)
    app.teardown_appcontext(close_conn)
    app.before_request(check_site)
    app.wsgi_app = SiteDispatch(app)  # type: ignore[method-assign]


def warm_up(app: Flask) -> None:
    """Fill the cache in the background (server start: the first crawler need not wait)."""
    cache: BoundsCache = app.extensions[BOUNDS_CACHE]
    if cache.on_stale is not None and cache.ttl > 0:
        cache.on_stale()


def log_types(app: Flask) -> None:
    """Log `check`'s report of post types and taxonomies at start-up, on a connection of its
    own: what is served, from which evidence, what is not and the lines that would list it.
    A database that does not answer yet is a warning, not a failed start."""
    engine: Engine = app.extensions[ENGINE]
    try:
        with engine.connect() as conn:
            lines = type_report(conn, build_site(conn, app.extensions[SETTINGS]))
    except SQLAlchemyError as exc:
        log.warning("could not report post types and taxonomies: %s", exc.__class__.__name__)
        return
    loud = any("NOT served" in line for line in lines)
    log.log(logging.WARNING if loud else logging.INFO, "%s", "\n".join(lines))
