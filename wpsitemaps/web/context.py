"""The request context: the connection, the site and the sitemaps on `g`, and the background
refresh of the shared bounds cache.

Everything below `web` takes these as arguments; this is the one place that reads Flask's
globals to build them.
"""

from __future__ import annotations

import logging
import threading

from flask import Flask
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
from wpsitemaps.wordpress.db import make_engine
from wpsitemaps.wordpress.site import SiteContext
from wpsitemaps.wordpress.site import build_site
from wpsitemaps.wordpress.typereport import type_report

log = logging.getLogger(__name__)
ENGINE = "wpsitemaps.engine"
SETTINGS = "wpsitemaps.settings"
BOUNDS_CACHE = "wpsitemaps.bounds_cache"
REFRESH_ENVIRON_KEY = "wpsitemaps.refresh"  # not settable by clients (no HTTP_ prefix)


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


def load_site() -> SiteContext:
    """Build (once per request) the site context from the database."""
    if "wp_site" not in g:
        g.wp_site = build_site(get_conn(), settings())
    site: SiteContext = g.wp_site
    return site


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

    def __call__(self) -> None:
        """Start a refresh unless one is running."""
        if self._running.acquire(blocking=False):
            threading.Thread(target=self._run, name="wpsitemaps-refresh", daemon=True).start()

    def _run(self) -> None:
        try:
            client = self.app.test_client()
            resp = client.get("/sitemap_index.xml", environ_base={REFRESH_ENVIRON_KEY: True})
            if resp.status_code != 200:
                log.warning("background refresh answered %s", resp.status_code)
        except Exception:  # noqa: BLE001 - a failed refresh keeps the stale values
            log.exception("background refresh failed")
        finally:
            self._running.release()


def init_app(app: Flask, config: Settings) -> None:
    """Create the engine and the bounds cache, and register the connection's teardown."""
    app.extensions[SETTINGS] = config
    app.extensions[ENGINE] = make_engine(config)
    app.extensions[BOUNDS_CACHE] = BoundsCache(config.cache_ttl, on_stale=Refresher(app))
    app.teardown_appcontext(close_conn)


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
