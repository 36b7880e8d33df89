"""`wpsitemaps check`: connect, read options and types, report what would be served."""

from __future__ import annotations

import logging
from collections.abc import Callable

from sqlalchemy import Connection
from sqlalchemy.exc import SQLAlchemyError

from wpsitemaps.compare import compare
from wpsitemaps.compare import report
from wpsitemaps.config import Settings
from wpsitemaps.network_check import run_network_check
from wpsitemaps.serving.changecheck import describe as describe_changes
from wpsitemaps.serving.changefeed import describe as describe_sources
from wpsitemaps.serving.sites import Sites
from wpsitemaps.sitemaps.drops import video_drops
from wpsitemaps.sitemaps.providers.video import VideoProvider
from wpsitemaps.sitemaps.registry import Registry
from wpsitemaps.sitemaps.unlinkable import find_unlinkable
from wpsitemaps.startup import startup_check
from wpsitemaps.wordpress.causes import cause
from wpsitemaps.wordpress.db import make_engine
from wpsitemaps.wordpress.langlinks import language_hosts
from wpsitemaps.wordpress.seoreport import seo_lines
from wpsitemaps.wordpress.site import SiteContext
from wpsitemaps.wordpress.site import build_site
from wpsitemaps.wordpress.typereport import type_report
from wpsitemaps.wordpress.typereport import unserved

log = logging.getLogger(__name__)


def run_check(settings: Settings, echo: Callable[[str], None],
              compare_yoast: bool = False) -> int:
    """Print the site facts; 0 when the database is readable (and, with compare_yoast, no URL
    differs from Yoast's indexables), 1 when URLs differ, 2 when a table cannot be read."""
    tables, line = startup_check(settings)
    stop = line or (tables.stop_line() if tables is not None else None)
    if stop is not None:
        echo(f"wpsitemaps: {stop.removeprefix('unreachable: ')}")
        return 2
    engine = make_engine(settings)
    comparison = None
    try:
        with engine.connect() as conn:
            # A network served as a whole: one line per site (network_check).
            if run_network_check(Sites(settings), conn, echo):
                indexnow_check(settings, echo)
                for line in describe_sources(settings):
                    echo(line)
                return 0
            site = build_site(conn, settings)
            types_report = type_report(conn, site)
            seo_report = seo_lines(conn, site)
            dropped = unserved(conn, site) + video_lines(conn, site)
            dropped += [group.line() for group in find_unlinkable(conn, site)]
            changes = describe_changes(settings, conn)
            if compare_yoast:
                comparison = compare(conn, site)
    except SQLAlchemyError as exc:
        echo(f"wpsitemaps: {cause(exc, settings.database_url, settings.table_prefix)}")
        log.debug("check failed", exc_info=exc)
        return 2
    finally:
        engine.dispose()
    echo(f"database      {settings.database_url.split('@')[-1]}")
    echo(f"table prefix  {settings.table_prefix}")
    echo(f"home          {site.options.home}")
    echo(f"permalinks    {site.options.permalink_structure or '(plain)'}")
    echo(f"blog_public   {int(site.options.blog_public)}")
    echo("post types    " + ", ".join(t.name for t in site.types.post_types))
    echo("taxonomies    " + ", ".join(t.name for t in site.types.taxonomies))
    for line in types_report:
        echo(line)
    for line in seo_report:
        echo(line)
    assert tables is not None
    for line in tables.skip_lines() + dropped:
        echo(f"finding       {line}")
    for line in changes:
        echo(line)
    for line in describe_sources(settings):
        echo(line)
    if site.languages is not None:
        langs = site.languages
        echo(f"languages     {', '.join(lang.slug for lang in langs.languages)} "
             f"({langs.plugin}, default {langs.default}, force_lang {langs.force_lang}, "
             f"hide_default {int(langs.hide_default)})")
        hosts = language_hosts(site.links, langs)
        if hosts:
            echo("language hosts " + ", ".join(f"{h} ({slug})" for h, slug in hosts.items())
                 + ": one sitemap set each")
    indexnow_check(settings, echo)
    if comparison is not None:
        report(comparison, echo)
        return 1 if comparison.differences else 0
    return 0


def video_lines(conn: Connection, site: SiteContext) -> list[str]:
    """The videos the video sitemap leaves out, by reason (nothing when it is not served)."""
    video = next((p for p in Registry(conn, site).providers if isinstance(p, VideoProvider)),
                 None)
    if video is None:
        return []
    drops = video_drops(conn, video)
    if drops is None:
        return ["videos: not counted here (a site this large is scanned in the background)"]
    return drops.lines()


def indexnow_check(settings: Settings, echo: Callable[[str], None]) -> None:
    """With IndexNow on: its key and queue, and a line for each host an endpoint refused."""
    if not settings.indexnow_endpoints and not settings.websub_hubs:
        return
    from wpsitemaps.app import service_for
    from wpsitemaps.indexnow.commands import Unavailable
    from wpsitemaps.indexnow.commands import feature_of
    from wpsitemaps.indexnow.commands import findings

    try:
        feature = feature_of(service_for(settings))
    except Unavailable as exc:
        echo(f"IndexNow      {exc}")
        return
    echo(f"IndexNow      {', '.join(feature.plan.endpoints) or 'off'}; key {feature.key}; "
         f"{feature.outbox.length()} queued")
    if feature.plan.hubs:
        echo(f"WebSub        {', '.join(feature.plan.hubs)}")
    for line in findings(feature):
        echo(line)
