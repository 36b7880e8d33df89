"""GET /rss.xml and /atom.xml: the newest listable articles (sitemaps.feeds builds them)."""

from __future__ import annotations

from datetime import datetime

from flask import Blueprint
from flask import Flask
from flask import Response
from werkzeug.wrappers.response import Response as BaseResponse

from wpsitemaps.serving.service import Service
from wpsitemaps.sitemaps.feeds import FEEDS
from wpsitemaps.sitemaps.feeds import build_feed
from wpsitemaps.sitemaps.render import render_feed
from wpsitemaps.web.context import session
from wpsitemaps.web.headers import cached

bp = Blueprint("wpsitemaps_feeds", __name__)


def feed_bytes(filename: str) -> tuple[bytes, datetime | None]:
    """The bytes of one feed ('rss.xml' or 'atom.xml') of this request's site and its
    newest date."""
    template, _, _ = FEEDS[filename]
    current = session()
    registry = current.registry
    found = build_feed(registry, current.service.feeds)
    return render_feed(template, found, self_url(filename),
                       current.service.settings.websub_hubs), found.updated


def self_url(filename: str) -> str:
    """The feed's own URL on this request's site (its rel="self", WebSub's topic)."""
    return session().registry.site.serving_home + "/" + filename


def feed(filename: str) -> BaseResponse:
    """The answer of one feed ('rss.xml' or 'atom.xml') for this request's site."""
    _, kind, _ = FEEDS[filename]
    body, updated = feed_bytes(filename)
    response = Response(body, content_type=f"{kind}; charset=utf-8")
    hubs = session().service.settings.websub_hubs
    if hubs:
        # WebSub discovery (W3C WebSub 4): Link headers as well as the feed's own links,
        # so a subscriber that reads only the headers finds the hubs too.
        response.headers["Link"] = ", ".join(
            [f'<{hub}>; rel="hub"' for hub in hubs] + [f'<{self_url(filename)}>; rel="self"'])
    return cached(response, body, updated)


@bp.get("/rss.xml")
def rss() -> BaseResponse:
    """RSS 2.0 of the newest listable articles."""
    return feed("rss.xml")


@bp.get("/atom.xml")
def atom() -> BaseResponse:
    """Atom 1.0 of the newest listable articles."""
    return feed("atom.xml")


def init_app(app: Flask, service: Service) -> None:
    """Register the routes (the `[feeds]` table was validated when the service was built)."""
    app.register_blueprint(bp)
