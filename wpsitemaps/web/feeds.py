"""GET /rss.xml and /atom.xml: the newest listable articles (sitemaps.feeds builds them)."""

from __future__ import annotations

import html

from flask import Blueprint
from flask import Flask
from flask import Response
from flask import current_app
from werkzeug.wrappers.response import Response as BaseResponse

from wpsitemaps.config import Settings
from wpsitemaps.sitemaps.feeds import FeedConfig
from wpsitemaps.sitemaps.feeds import build_feed
from wpsitemaps.sitemaps.feeds import parse_feed_config
from wpsitemaps.sitemaps.render import render_feed
from wpsitemaps.web.context import load_sitemaps
from wpsitemaps.web.robots import EXTRA_SITEMAPS
from wpsitemaps.web.routes import cached
from wpsitemaps.wordpress.site import SiteContext

bp = Blueprint("wpsitemaps_feeds", __name__)
EXTENSION = "wpsitemaps.web.feeds"
RSS_TYPE = "application/rss+xml"
ATOM_TYPE = "application/atom+xml"
FEEDS = (("/rss.xml", RSS_TYPE, "RSS"), ("/atom.xml", ATOM_TYPE, "Atom"))


def feed_config() -> FeedConfig:
    """The app's validated [feeds] settings."""
    config: FeedConfig = current_app.extensions[EXTENSION]
    return config


def head_links(site: SiteContext) -> list[str]:
    """The <link rel="alternate"> tags that announce the feeds in a page's <head>."""
    name = html.unescape(site.options.blogname)
    return [f'<link rel="alternate" type="{kind}" title="{html.escape(f"{name} ({label})")}" '
            f'href="{html.escape(site.options.home + path)}">' for path, kind, label in FEEDS]


def _feed(template: str, kind: str, path: str) -> BaseResponse:
    sitemaps = load_sitemaps()
    feed = build_feed(sitemaps, feed_config())
    body = render_feed(template, feed, sitemaps.site.options.home + path)
    return cached(Response(body, content_type=f"{kind}; charset=utf-8"), body, feed.updated)


@bp.get("/rss.xml")
def rss() -> BaseResponse:
    """RSS 2.0 of the newest listable articles."""
    return _feed("rss.xml", RSS_TYPE, "/rss.xml")


@bp.get("/atom.xml")
def atom() -> BaseResponse:
    """Atom 1.0 of the newest listable articles."""
    return _feed("atom.xml", ATOM_TYPE, "/atom.xml")


def init_app(app: Flask) -> None:
    """Validate [feeds] (ConfigError at start-up) and register the routes."""
    settings: Settings = app.extensions["wpsitemaps.settings"]
    config = parse_feed_config(settings.extra.get("feeds"))
    app.extensions[EXTENSION] = config
    if config.robots:
        # Relative to the home URL (a network site's /fr/rss.xml), after any headless lines.
        app.extensions[EXTRA_SITEMAPS] = (*app.extensions.get(EXTRA_SITEMAPS, ()),
                                          *(path.lstrip("/") for path, _, _ in FEEDS))
    app.register_blueprint(bp)
