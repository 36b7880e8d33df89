"""robots.txt of a site: WordPress's do_robots() rules, per-agent groups and Sitemap: lines.

The rules come from the `[robots]` table (robots_config.py); the text is built here for the
HTTP route (web.robots) and for `wpsitemaps robots-lines` alike. When the database fails,
web.robots answers the last good copy (robotscopy.py), else `built_in()`: robots.txt never
answers 5xx.
"""

from __future__ import annotations

import logging

from wpsitemaps.serving.robots_config import INDEX_PATH
from wpsitemaps.serving.robots_config import MAX_ROBOTS_BYTES
from wpsitemaps.serving.robots_config import extra_sitemaps
from wpsitemaps.serving.robots_config import render_robots
from wpsitemaps.serving.robots_config import url_path
from wpsitemaps.serving.service import Service
from wpsitemaps.serving.service import SiteSession
from wpsitemaps.serving.sites import Resolved

log = logging.getLogger(__name__)


def sitemap_lines(session: SiteSession) -> list[str]:
    """`Sitemap:` lines: the index (as WP_Sitemaps::add_robots() does) plus the extra ones."""
    service, site = session.service, session.site
    if not site.options.blog_public or not service.robots.sitemap:
        return []
    home = site.serving_home  # a language host names its own index
    urls = [home + INDEX_PATH, *extra_sitemaps(service.extra_sitemaps, home)]
    network = site.network
    if network is not None and not network.subdomain_install:
        # Yoast on a subdirectory network: every public, live site's index (its
        # add_subdirectory_multisite_xml_sitemaps()), after this site's own lines.
        urls += service.sites.network_indexes(session.conn, network)
    return [f"Sitemap: {url}" for url in dict.fromkeys(urls)]


def robots_text(session: SiteSession) -> str:
    """robots.txt for this site, cut at a line end if it would pass 500 KiB."""
    options = session.site.options
    text = render_robots(session.service.robots, url_path(options.siteurl),
                         url_path(options.home), options.blog_public, sitemap_lines(session))
    data = text.encode("utf-8")
    if len(data) <= MAX_ROBOTS_BYTES:
        return text
    # Only a very long home path can get here (the rules were sized at start-up); Google
    # ignores what follows 500 KiB anyway, so keep whole lines rather than fail with a 5xx
    # (a 5xx robots.txt makes Google stop crawling the whole site).
    log.error("robots.txt is %d bytes; cut to %d", len(data), MAX_ROBOTS_BYTES)
    cut = data[:MAX_ROBOTS_BYTES]
    return cut[: cut.rfind(b"\n") + 1].decode("utf-8", "ignore")


def built_in(service: Service, resolved: Resolved | None, request_home: str) -> str:
    """robots.txt without the database: this service's rules as configured, crawling
    allowed, the sitemap index named at the configured home URL (the site's own settings on
    a network), else at `request_home` (the address the request came to)."""
    settings = service.settings
    if resolved is not None:
        settings = service.sites.settings_for(resolved)
    home = settings.home_url or request_home
    config = service.robots
    lines = [f"Sitemap: {u}" for u in [home + INDEX_PATH, *extra_sitemaps(
        service.extra_sitemaps, home)]] if config.sitemap else []
    return render_robots(config, url_path(home), url_path(home), True, lines)
