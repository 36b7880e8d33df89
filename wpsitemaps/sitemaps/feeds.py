"""Feeds of the newest articles (/rss.xml, /atom.xml): the sitemaps' publication rules, no Flask.

Which posts: the newest `count` posts of `post_types` by post_date_gmt, selected with the
post type sitemaps' own SQL condition (so noindexed, canonicalised-away, password-protected
and unpublished posts are never in a feed, unlike WordPress's /feed/), nothing when the site
discourages search engines. Each item's ID is a tag URI (RFC 4151) built from the site's
host, `[feeds] id_date`, the site key and the post ID: it survives title and slug changes.

Settings (TOML; the same mapping under the create_app() key FEEDS)::

    [feeds]
    count = 20                 # items per feed, 1..100
    post_types = ["post"]      # which post types' newest articles
    robots = false             # list /rss.xml and /atom.xml as Sitemap: lines in robots.txt
    id_date = "2000-01-01"     # the tag URI date: a day you owned the domain; never change it
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from wpsitemaps.config import ConfigError
from wpsitemaps.content.urls import encode_url
from wpsitemaps.content.urls import is_listable
from wpsitemaps.content.videofields import plain_text
from wpsitemaps.sitemaps.providers.authors import AuthorProvider
from wpsitemaps.sitemaps.providers.news import news_title
from wpsitemaps.sitemaps.providers.posts import post_lastmod
from wpsitemaps.sitemaps.providers.posts import settle_canonicals
from wpsitemaps.sitemaps.registry import Registry
from wpsitemaps.wordpress.dates import latest
from wpsitemaps.wordpress.dates import parse_wp_date
from wpsitemaps.wordpress.dates import utc
from wpsitemaps.wordpress.queries import feeds as qfeeds
from wpsitemaps.wordpress.queries import video as qv
from wpsitemaps.wordpress.queries.news import LOCAL_BEHIND
from wpsitemaps.wordpress.queries.rows import PostRow
from wpsitemaps.wordpress.site import SiteContext

MAX_COUNT = 100
RSS_TYPE = "application/rss+xml"
ATOM_TYPE = "application/atom+xml"
# The feeds under the home URL (web.feeds): file name -> (template, media type, label).
FEEDS = {"rss.xml": ("rss.xml", RSS_TYPE, "RSS"), "atom.xml": ("atom.xml", ATOM_TYPE, "Atom")}
FEED_PATHS = tuple(f"/{name}" for name in FEEDS)  # robots.txt lines when [feeds] robots
SUMMARY_WORDS = 55  # wp_trim_excerpt()'s excerpt_length
SUMMARY_CHARS = 600  # for scripts without spaces between words
MORE = " […]"
KEYS = {"count", "post_types", "robots", "id_date"}
DATE_RE = re.compile(r"[0-9]{4}(-[0-9]{2}(-[0-9]{2})?)?")


@dataclass(frozen=True)
class FeedConfig:
    """Validated `[feeds]` table."""

    count: int = 20
    post_types: tuple[str, ...] = ("post",)
    robots: bool = False
    id_date: str = "2000-01-01"


@dataclass(frozen=True)
class FeedItem:
    """One article of a feed."""

    id: str  # tag URI
    title: str
    link: str
    published: datetime
    updated: datetime
    summary: str  # plain text
    author: str


@dataclass(frozen=True)
class Feed:
    """A feed's channel facts and items, newest first."""

    id: str
    title: str
    home: str
    language: str
    updated: datetime | None
    items: tuple[FeedItem, ...]


def parse_feed_config(raw: Any) -> FeedConfig:
    """Validate the `[feeds]` table; every problem is a ConfigError naming the setting."""
    if raw is None:
        return FeedConfig()
    if not isinstance(raw, Mapping):
        raise ConfigError("feeds: expected a table")
    unknown = set(raw) - KEYS
    if unknown:
        raise ConfigError(f"feeds: unknown key {sorted(unknown)[0]!r}")
    count = raw.get("count", 20)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
        raise ConfigError(f"feeds.count: {count!r} is not an integer in 1..{MAX_COUNT}")
    types = raw.get("post_types", ["post"])
    if not isinstance(types, list | tuple) or not all(isinstance(t, str) for t in types):
        raise ConfigError(f"feeds.post_types: expected a list of post type names, got {types!r}")
    robots = raw.get("robots", False)
    if not isinstance(robots, bool):
        raise ConfigError(f"feeds.robots: expected true or false, got {robots!r}")
    id_date = str(raw.get("id_date", "2000-01-01"))
    if not DATE_RE.fullmatch(id_date):
        raise ConfigError(f"feeds.id_date: {id_date!r} is not YYYY, YYYY-MM or YYYY-MM-DD")
    return FeedConfig(count, tuple(types), robots, id_date)


def tag_uri(registry: Registry, config: FeedConfig, specific: str) -> str:
    """tag:{host},{id_date}:{site key}/{specific} (RFC 4151), stable for the site."""
    host = (urlsplit(registry.site.options.home).hostname or "localhost").lower()
    return f"tag:{host},{config.id_date}:{registry.site.key}/{specific}"


def summary(excerpt: str, content: str) -> str:
    """The excerpt, else the start of the content, as text (tags, shortcodes, entities
    gone), cut after 55 words as wp_trim_excerpt() cuts it."""
    text = plain_text(excerpt) or plain_text(content)
    words = text.split(" ")
    cut = " ".join(words[:SUMMARY_WORDS])
    if len(cut) > SUMMARY_CHARS:
        cut = cut[:SUMMARY_CHARS].rstrip()
    return cut + MORE if cut != text else text


def build_feed(registry: Registry, config: FeedConfig) -> Feed:
    """The feed of the site's newest listable articles."""
    site = registry.site
    rows, links = _rows(registry, config)
    items = _items(registry, config, rows, links)
    lang = site.options.locale.replace("_", "-")
    return Feed(tag_uri(registry, config, "feed"), html.unescape(site.options.blogname),
                site.serving_home + "/", lang, latest(*(i.updated for i in items)),
                tuple(items))


def _rows(registry: Registry, config: FeedConfig) -> tuple[list[PostRow], dict[int, str]]:
    """The newest rows the post type sitemaps list, by post_date_gmt, and their permalinks.

    Read per post type by the local post_date, which WordPress's index orders: a row not
    read has a post_date at most its type's oldest one read, so a post_date_gmt at most
    12 hours after it (time zones are UTC-12..UTC+14); the newest rows read are the newest
    of all once they are newer than that for every type not read to its end. The canonical
    rule is settled on the rows read, as a sitemap page does (a whole-type keep-list would
    build the permalink of every overridden post of the site). Both may read on."""
    conn, site = registry.conn, registry.site
    types = [p for p in registry.post_types if p.name in config.post_types]
    if not site.options.blog_public or not types:
        return [], {}
    limit = 2 * config.count
    while True:
        rows: list[PostRow] = []
        unread_before: list[datetime] = []  # the newest post_date_gmt a row not read can have
        for provider in types:
            typed = qfeeds.newest_local(conn, site.tables, provider.bounds_condition, limit)
            rows.extend(typed)
            oldest = parse_wp_date(typed[-1].post_date) if typed else None
            if len(typed) == limit and oldest is not None:
                unread_before.append(oldest + LOCAL_BEHIND)
        listed, links = settle_canonicals(conn, site, rows)
        kept = sorted(listed, key=_published_key, reverse=True)[:config.count]
        exact = len(kept) == config.count and all(
            _published_key(kept[-1])[0] > bound for bound in unread_before)
        if exact or not unread_before:
            return kept, links
        limit *= 4


def _published_key(row: PostRow) -> tuple[datetime, int]:
    """The feed's order: post_date_gmt (naive UTC; zero dates first), then ID."""
    return (parse_wp_date(row.post_date_gmt) or datetime.min, int(row.ID))


def _listed_authors(registry: Registry, rows: list[PostRow]) -> dict[int, str]:
    """{user ID: display name} of the rows' authors that the author sitemap lists: a
    noindexed author's name is not published here either (the blog name stands in)."""
    provider = registry.lookup("author")
    listed = {uid for uid, _ in provider.authors} if isinstance(provider, AuthorProvider) else (
        set())
    wanted = {int(r.post_author or 0) for r in rows} & listed
    found = qv.authors(registry.conn, registry.site.tables, wanted) if wanted else {}
    return {uid: html.unescape(display).strip() for uid, (_, display) in found.items()}


def _items(registry: Registry, config: FeedConfig, rows: list[PostRow],
           permalinks: dict[int, str]) -> list[FeedItem]:
    """FeedItems in row order; a row whose URL cannot be listed is left out, as in sitemaps."""
    site = registry.site
    # The sitemap's loc rules (post_entries() minus its image work, unused here).
    links = {pid: loc for pid, loc in ((pid, encode_url(url)) for pid, url in permalinks.items())
             if is_listable(loc)}
    authors = _listed_authors(registry, rows)
    out: list[FeedItem] = []
    for row in rows:
        pid, published = int(row.ID), utc(row.post_date_gmt)
        if pid not in links or published is None:
            continue
        name = authors.get(int(row.post_author or 0), "")
        out.append(FeedItem(tag_uri(registry, config, f"post/{pid}"),
                            news_title(str(row.post_title or "")), links[pid], published,
                            post_lastmod(row),  # not None: published is a date
                            summary(str(row.post_excerpt or ""), str(row.post_content or "")),
                            name or html.unescape(site.options.blogname)))
    return out


def head_links(site: SiteContext) -> list[str]:
    """The <link rel="alternate"> tags that announce the feeds in a page's <head>."""
    name = html.unescape(site.options.blogname)
    return [f'<link rel="alternate" type="{kind}" title="{html.escape(f"{name} ({label})")}" '
            f'href="{html.escape(site.serving_home + "/" + path)}">'
            for path, (_, kind, label) in FEEDS.items()]
