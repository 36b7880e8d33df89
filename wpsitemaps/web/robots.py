"""GET /robots.txt: WordPress's do_robots() rules, per-agent groups and the Sitemap: lines.

robots.txt never answers 5xx and never waits long on the database: RFC 9309 (2.3.1.4) lets a
crawler treat a robots.txt that fails with a server error as "disallow everything", for the
whole host. It waits at most web.context.ROBOTS_DB_SECONDS; when the database fails, the last
good copy is served (kept in memory and in the page store), else a built-in text that allows
crawling and names the sitemap index.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
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
from wpsitemaps.store.base import Record
from wpsitemaps.web.context import SETTINGS
from wpsitemaps.web.context import get_conn
from wpsitemaps.web.context import known_resolution
from wpsitemaps.web.context import load_site
from wpsitemaps.web.context import sites
from wpsitemaps.web.context import under_prefix
from wpsitemaps.web.robots_config import MAX_ROBOTS_BYTES
from wpsitemaps.web.robots_config import RobotsConfig
from wpsitemaps.web.robots_config import RobotsGroup
from wpsitemaps.web.robots_config import expand_path
from wpsitemaps.web.robots_config import parse_robots_config
from wpsitemaps.web.store import page_store
from wpsitemaps.wordpress.site import SiteContext

log = logging.getLogger(__name__)
bp = Blueprint("wpsitemaps_robots", __name__)
EXTENSION = "wpsitemaps.web.robots"
COPIES = "wpsitemaps.robots.copies"
ENDPOINT = "wpsitemaps_robots.robots_txt"
STORED_NAME = "robots.txt"  # its key in the page store, beside the site's documents
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
    copies().keep(body)
    return text_response(body, "public, max-age=300")


def text_response(body: bytes, cache_control: str, age: float | None = None) -> BaseResponse:
    """robots.txt as text/plain; charset=utf-8 with an ETag; `age`: a copy's Age."""
    resp = Response(body, content_type="text/plain; charset=utf-8")
    resp.headers["Cache-Control"] = cache_control
    if age is not None:
        resp.headers["Age"] = str(max(0, int(age)))
    resp.set_etag(hashlib.sha256(body).hexdigest())
    return resp.make_conditional(request)


class Copies:
    """The last good robots.txt of each site: in this process's memory, and in the page
    store for processes started while the database fails (written when it changes)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last: dict[str, tuple[bytes, float]] = {}

    def keep(self, body: bytes) -> None:
        """Remember this site's robots.txt as just read from the database."""
        site = site_key()
        if site is None:
            return
        now = time.time()
        with self._lock:
            old = self._last.get(site)
            self._last[site] = (body, now)
        pages = page_store()
        if pages is not None and (old is None or old[0] != body):
            record = Record("robots", hashlib.sha256(body).hexdigest(), now, None)
            pages.attempt(pages.backend.put, pages.key(site, STORED_NAME), record, body)

    def last(self) -> tuple[bytes, float] | None:
        """This site's last good robots.txt and when it was last known current, or None."""
        site = site_key()
        if site is None:
            return None
        with self._lock:
            mine = self._last.get(site)
        if mine is not None:
            return mine
        pages = page_store()
        stored = None if pages is None else pages.attempt(pages.backend.get,
                                                          pages.key(site, STORED_NAME))
        if stored is None or stored.body is None:
            return None
        return stored.body, max(stored.rendered_at, stored.checked_at)


def site_key() -> str | None:
    """The key of this request's site, if it is known without the database."""
    res = known_resolution()
    return None if res is None else sites().key(res)


def copies() -> Copies:
    """The app's robots.txt copies."""
    value: Copies = current_app.extensions[COPIES]
    return value


def without_database() -> BaseResponse:
    """robots.txt when the database fails: the last good copy (with Age), else the built-in
    one: this service's rules as configured, crawling allowed, the sitemap index named."""
    last = copies().last()
    if last is not None:
        return text_response(last[0], "public, max-age=300", time.time() - last[1])
    config: RobotsConfig = current_app.extensions[EXTENSION]
    home = built_in_home()
    lines = [f"Sitemap: {u}" for u in [home + INDEX_PATH, *extra_sitemaps(
        current_app.extensions, home)]] if config.sitemap else []
    body = render_robots(config, url_path(home), url_path(home), True, lines).encode()
    # Made from the request's own address when no home URL is configured: never kept by
    # a shared cache, which could hand it to a request for another host.
    return text_response(body, "no-store")


def built_in_home() -> str:
    """The home URL of the built-in robots.txt: the configured one, else this request's."""
    res = known_resolution()
    settings: Settings = current_app.extensions[SETTINGS]
    if res is not None:
        settings = sites().settings_for(res)
    return settings.home_url or (request.host_url.rstrip("/") + request.script_root)


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
    app.extensions[COPIES] = Copies()
    app.register_blueprint(bp)
