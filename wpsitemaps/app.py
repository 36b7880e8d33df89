"""The app factory: create_app() builds the Flask app on top of every layer below it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask

from wpsitemaps.config import load_settings
from wpsitemaps.paths import TEMPLATES_DIR
from wpsitemaps.web import context


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the Flask app from defaults, TOML file, WPSITEMAPS_* env and `config`.

    Raises ConfigError (naming the setting) when the configuration is invalid.
    """
    settings = load_settings(config)
    app = Flask(__name__, template_folder=str(TEMPLATES_DIR), static_folder=None)
    app.config["TESTING"] = bool((config or {}).get("TESTING", False))
    context.init_app(app, settings)
    from wpsitemaps.headless import routes as api
    from wpsitemaps.web import routes as views
    from wpsitemaps.web import store

    store.init_app(app, settings)
    # The API first: it hands its validated robots.txt lines to the web blueprint.
    api.init_app(app, settings)
    views.init_app(app)
    return app
