"""GET /robots.txt: WordPress's do_robots() rules, per-agent groups and the Sitemap: lines."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint
from flask import Flask
from flask import Response
from flask import abort
from flask import current_app
from flask import request
from werkzeug.wrappers.response import Response as BaseResponse

from wpsitemaps.config import ConfigError
from wpsitemaps.config import Settings
from wpsitemaps.content.urls import absolute
from wpsitemaps.web.context import get_conn
from wpsitemaps.web.context import load_site
from wpsitemaps.web.context import sites
from wpsitemaps.web.context import under_prefix
from wpsitemaps.web.robots_config import MAX_ROBOTS_BYTES
from wpsitemaps.web.robots_config import RobotsConfig
from wpsitemaps.web.robots_config import RobotsGroup
from wpsitemaps.web.robots_config import expand_path
from wpsitemaps.web.robots_config import parse_robots_config
from wpsitemaps.wordpress.site import SiteContext

log = logging.getLogger(__name__)
bp = Blueprint("wpsitemaps_robots", __name__)
EXTENSION = "wpsitemaps.web.robots"
# Extra Sitemap: URLs (a tuple of str) that another blueprint puts in app.extensions.
EXTRA_SITEMAPS = "wpsitemaps.robots.extra_sitemaps"
INDEX_PATH = "/sitemap_index.xml"


def url_path(url: str) -> str:
    """The path of a home/siteurl without its trailing slash ('' at the root)."""
    return urlsplit(url).path.rstrip("/")


def extra_sitemaps(extensions: dict[str, Any], home: str) -> list[str]:
    """Sitemap URLs other blueprints add to robots.txt (the headless API's validated
    `[headless] robots_sitemaps`, set in extensions before this blueprint starts); relative
    entries are resolved against the home URL."""
    values: tuple[str, ...] = extensions.get(EXTRA_SITEMAPS, ())
    return [absolute(v, home) for v in values if v.strip()]


def sitemap_lines(site: SiteContext) -> list[str]:
    """`Sitemap:` lines: the index (as WP_Sitemaps::add_robots() does) plus headless ones."""
    config: RobotsConfig = current_app.extensions[EXTENSION]
    if not site.options.blog_public or not config.sitemap:
        return []
    home = site.options.home
    urls = [home + INDEX_PATH, *extra_sitemaps(current_app.extensions, home)]
    network = site.network
    if network is not None and not network.subdomain_install:
        # Yoast on a subdirectory network: every public, live site's index (its
        # add_subdirectory_multisite_xml_sitemaps()), after this site's own lines.
        urls += sites().network_indexes(get_conn(), network)
    return [f"Sitemap: {url}" for url in dict.fromkeys(urls)]


def group_lines(group: RobotsGroup, wp_path: str, home_path: str,
                wordpress_rules: bool) -> list[str]:
    """One group: its User-agent lines then its rules (every open group repeats them)."""
    lines = [f"User-agent: {agent}" for agent in group.user_agents]
    if group.block_all:
        return [*lines, "Disallow: /"]
    rules: list[str] = []
    if wordpress_rules:
        # do_robots(): the admin is under site_url()'s path, admin-ajax.php stays open.
        rules += [f"Disallow: {wp_path}/wp-admin/", f"Allow: {wp_path}/wp-admin/admin-ajax.php"]
    rules += [f"Disallow: {home_path}{p}" for path in group.disallow for p in expand_path(path)]
    rules += [f"Allow: {home_path}{p}" for path in group.allow for p in expand_path(path)]
    # An empty Disallow allows everything; a group must hold at least one rule.
    return lines + (rules or ["Disallow:"])


def render_robots(config: RobotsConfig, wp_path: str, home_path: str, public: bool,
                  sitemaps: Sequence[str]) -> str:
    """The robots.txt text; blog_public = 0 gives do_robots()'s `Disallow: /` only."""
    if not public:
        return "User-agent: *\nDisallow: /\n"
    blocks = ["\n".join(group_lines(g, wp_path, home_path, config.wordpress_rules))
              for g in config.groups]
    if sitemaps:
        blocks.append("\n".join(sitemaps))
    return "\n\n".join(blocks) + "\n"


def robots_text(site: SiteContext) -> str:
    """robots.txt for this site, cut at a line end if it would pass 500 KiB."""
    config: RobotsConfig = current_app.extensions[EXTENSION]
    text = render_robots(config, url_path(site.options.siteurl), url_path(site.options.home),
                         site.options.blog_public, sitemap_lines(site))
    data = text.encode("utf-8")
    if len(data) <= MAX_ROBOTS_BYTES:
        return text
    # Only a very long home path can get here (the rules were sized at start-up); Google
    # ignores what follows 500 KiB anyway, so keep whole lines rather than fail with a 5xx
    # (a 5xx robots.txt makes Google stop crawling the whole site).
    log.error("robots.txt is %d bytes; cut to %d", len(data), MAX_ROBOTS_BYTES)
    cut = data[:MAX_ROBOTS_BYTES]
    return cut[: cut.rfind(b"\n") + 1].decode("utf-8", "ignore")


@bp.get("/robots.txt")
def robots_txt() -> BaseResponse:
    """robots.txt as text/plain; charset=utf-8, with an ETag for conditional requests.

    Only at the root of a host: crawlers never ask for /blog/robots.txt, and WordPress
    answers /fr/robots.txt of a network with a 404.
    """
    if under_prefix():
        abort(404, "robots.txt is served at the root of the host only.")
    body = robots_text(load_site()).encode("utf-8")
    resp = Response(body, content_type="text/plain; charset=utf-8")
    resp.headers["Cache-Control"] = "public, max-age=300"
    resp.set_etag(hashlib.sha256(body).hexdigest())
    return resp.make_conditional(request)


def check_size(config: RobotsConfig, settings: Settings, extensions: dict[str, Any]) -> None:
    """Refuse, at start-up, rules that would make robots.txt larger than 500 KiB."""
    home = settings.home_url or "http://localhost"
    urls = [home + INDEX_PATH, *extra_sitemaps(extensions, home)]
    lines = [f"Sitemap: {u}" for u in urls]
    size = len(render_robots(config, url_path(home), url_path(home), True, lines).encode())
    if size > MAX_ROBOTS_BYTES:
        raise ConfigError(f"robots: the rules make robots.txt {size} bytes, over the "
                          f"{MAX_ROBOTS_BYTES}-byte (500 KiB) limit crawlers read")


def init_app(app: Flask) -> None:
    """Validate the [robots] settings (ConfigError at start-up) and register the route."""
    settings: Settings = app.extensions["wpsitemaps.settings"]
    config = parse_robots_config(settings.extra.get("robots"))
    check_size(config, settings, app.extensions)
    app.extensions[EXTENSION] = config
    app.register_blueprint(bp)
