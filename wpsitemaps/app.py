"""The app factory: create_app() builds the Flask app on top of every layer below it.

One Service (serving.service) is built from the settings and kept in the app's one
extensions key; every part registers itself with `init_app(app, service)`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from wpsitemaps.config import Settings
from wpsitemaps.config import load_settings
from wpsitemaps.headless.config import from_settings as headless_settings
from wpsitemaps.indexnow.feature import enable as enable_indexnow
from wpsitemaps.paths import TEMPLATES_DIR
from wpsitemaps.serving.changefeed import start_sources
from wpsitemaps.serving.refresh import enable_refresh
from wpsitemaps.serving.service import Service
from wpsitemaps.serving.service import build_service


def service_for(settings: Settings) -> Service:
    """The service of these settings, with the headless API's robots.txt lines (a command
    and the app see the same robots.txt)."""
    api = headless_settings(settings)
    return build_service(settings, api.robots_sitemaps if api is not None else ())


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the Flask app from defaults, TOML file, WPSITEMAPS_* env and `config`.

    Raises ConfigError (naming the setting) when the configuration is invalid.
    """
    from wpsitemaps.headless import routes as api
    from wpsitemaps.web import context
    from wpsitemaps.web import feeds
    from wpsitemaps.web import gzip
    from wpsitemaps.web import health
    from wpsitemaps.web import keyfile
    from wpsitemaps.web import notify
    from wpsitemaps.web import robots
    from wpsitemaps.web import routes

    service = service_for(load_settings(config))
    enable_refresh(service)
    # IndexNow's hook on the page store and its key file; wsgi.py starts its threads.
    enable_indexnow(service)
    app = Flask(__name__, template_folder=str(TEMPLATES_DIR), static_folder=None)
    app.config["TESTING"] = bool((config or {}).get("TESTING", False))
    context.init_app(app, service)
    # Around the site middleware: probes are answered before any site is resolved.
    health.init_app(app, service)
    api.init_app(app, service)
    # First: after_request hooks run in reverse order, so gzip encoding runs last.
    gzip.init_app(app, service)
    feeds.init_app(app, service)
    robots.init_app(app, service)
    routes.init_app(app, service)
    keyfile.init_app(app, service)
    notify.init_app(app, service)
    start_sources(service)  # the binary log reader, when binlog_url is set
    return app
