"""Explain one post (any type): its content sitemap, images, videos and the news sitemap."""

from __future__ import annotations

import html
from typing import Any

from wpsitemaps.content.urls import encode_url
from wpsitemaps.entries import UrlEntry
from wpsitemaps.explain.media import explain_images
from wpsitemaps.explain.media import explain_videos
from wpsitemaps.explain.model import Explanation
from wpsitemaps.explain.model import Listing
from wpsitemaps.explain.model import listed_at
from wpsitemaps.explain.model import page_by_id
from wpsitemaps.explain.news import explain_news
from wpsitemaps.explain.reasons import site_reasons
from wpsitemaps.explain.reasons import type_reason
from wpsitemaps.explain.reasons import url_problem
from wpsitemaps.sitemaps.links import post_links
from wpsitemaps.sitemaps.providers.posts import PostTypeProvider
from wpsitemaps.sitemaps.providers.posts import page_count
from wpsitemaps.sitemaps.providers.posts import post_entries
from wpsitemaps.sitemaps.registry import Registry
from wpsitemaps.wordpress import permalinks
from wpsitemaps.wordpress.dates import utc
from wpsitemaps.wordpress.dates import w3c
from wpsitemaps.wordpress.queries import lookup
from wpsitemaps.wordpress.queries import posts as qp
from wpsitemaps.wordpress.seoplugins import EVERY
from wpsitemaps.wordpress.seoplugins import FALLBACK
from wpsitemaps.wordpress.seoplugins import SeoChoice

STATUS_WORDS = {
    "draft": "draft", "pending": "pending review", "private": "private",
    "trash": "in the trash", "auto-draft": "an auto-draft (never saved by its author)",
    "inherit": "a revision or an attachment (status inherit)",
}


def explain_post(registry: Registry, row: Any, found_by: str) -> Explanation:
    """The verdict of every sitemap on one post row (lookup.post())."""
    title = html.unescape(str(row.post_title or "")).strip()
    out = Explanation("post", int(row.ID), str(row.post_type), title, found_by,
                      status=str(row.post_status))
    content, entry = _content(registry, row)
    if any(r.startswith("noindexed by ") for r in content.reasons):
        content.notes.append(marker_source(registry.site.seo))
    content.notes.extend(ignored_markers(registry, int(row.ID)))
    out.url = entry.loc if entry is not None else _url(registry, row)
    out.listings.append(content)
    if content.listed:
        out.images = explain_images(registry, row)
    video, out.videos = explain_videos(registry, row, content.listed)
    out.listings.append(video)
    out.listings.append(explain_news(registry, row, content.listed))
    return out


def _url(registry: Registry, row: Any) -> str:
    """get_permalink(): the pretty URL of a post with a listed type and a slug, except
    posts of a status that is not publicly viewable, which WordPress links as ?p=ID
    (wp_force_plain_post_permalink(), WordPress 5.7+)."""
    site, pid, ptype = registry.site, int(row.ID), str(row.post_type)
    ctype = site.types.post_type(ptype)
    if ctype is not None and row.post_name and row.post_status == "publish":
        link = post_links(registry.conn, site, ctype, [row]).get(pid)
        if link is not None:  # else no URL reaches it (permalinks.post_problem())
            return encode_url(link)
    query = {"post": f"?p={pid}", "page": f"?page_id={pid}",
             "attachment": f"?attachment_id={pid}"}.get(
        ptype, f"?post_type={ptype}&p={pid}")
    return permalinks.home_url(site.links, query)


def _content(registry: Registry, row: Any) -> tuple[Listing, UrlEntry | None]:
    """The content sitemap's verdict: the provider's named clauses for this one post."""
    site, pid = registry.site, int(row.ID)
    ptype = str(row.post_type)
    provider = registry.post_type(ptype)
    reasons = site_reasons(site)
    if provider is None:
        return Listing("content", ptype, False, reasons=[*reasons, type_reason(site, ptype)]), None
    verdict = qp.evaluate(registry.conn, site.tables, provider.listable_clauses(pid), pid)
    failed = [name for name, ok in verdict.items() if not ok]
    if failed == ["first_link"]:
        return _first_link(registry, row, reasons)
    for name in failed:
        reasons.extend(clause_reasons(registry, row, name))
    if failed:
        return Listing("content", ptype, False, reasons=reasons), None
    entry = post_entries(registry.conn, site, provider.ctype, [row]).get(pid)
    if entry is None:
        reasons.append(url_problem(site, row) or "its URL cannot be listed (not absolute "
                       "http(s), or over 2,048 characters)")
        return Listing("content", ptype, False, reasons=reasons), None
    if reasons:
        return Listing("content", ptype, False, reasons=reasons), entry
    return _where(provider, row, entry), entry


def _where(provider: PostTypeProvider, row: Any, entry: UrlEntry) -> Listing:
    """Which file and page list the post, and its extra <!--nextpage--> URLs."""
    bounds = provider.live_bounds()
    listing = listed_at("content", provider.name, bounds, page_by_id(bounds, int(row.ID)),
                        entry.loc)
    parts = page_count(str(row.post_content or ""))
    if parts > 1:
        listing.notes.append(f"its pages 2 to {parts} are listed right after it")
    return listing


def _first_link(registry: Registry, row: Any, reasons: list[str],
                ) -> tuple[Listing, UrlEntry | None]:
    """The static front page and the posts page: listed as a sitemap's first link."""
    opts, pid = registry.site.options, int(row.ID)
    name = "page" if pid == opts.page_on_front else "post"
    provider = registry.post_type(name)
    links = provider.first_links if provider is not None else []
    if reasons or not links:
        return Listing("content", name, False, reasons=reasons or ["not listed"]), None
    role = "front page" if name == "page" else "posts page"
    listing = Listing("content", name, True, f"{name}-sitemap.xml", 1,
                      len(provider.live_bounds()) if provider else 1, links[0].loc)
    listing.notes.append(f"the {role}: listed as the sitemap's first link, {links[0].loc}")
    return listing, links[0]


def clause_reasons(registry: Registry, row: Any, clause: str) -> list[str]:
    """A failed clause of listable_clauses() in words, with the row's own facts."""
    site, pid = registry.site, int(row.ID)
    if clause == "status":
        return [status_words(registry, row)]
    if clause == "password":
        return ["password-protected"]
    if clause == "noindex":
        checks = [(plugin, qp.noindexed(site.tables, site.seo, plugin))
                  for plugin in qp.NOINDEX_PLUGINS if site.seo.counts(plugin)]
        found = qp.evaluate(registry.conn, site.tables, checks, pid)
        return [f"noindexed by {plugin}" for plugin, on in found.items() if on]
    if clause == "canonical":
        values = [str(v).strip() for _, v in lookup.meta(registry.conn, site.tables, pid,
                                                         qp.canonical_keys(site.seo)) if v]
        if qp.reads_aioseo(site.seo):
            values += [v.strip() for v in qp.aioseo_canonicals(registry.conn, site.tables,
                                                               [pid]).values()]
        return [f"canonical points to {v}" for v in dict.fromkeys(values) if v]
    if clause in ("excluded", "excluded_term"):
        what = "excluded posts" if clause == "excluded" else "a post of an excluded term"
        return [f"left out by {p.plugin}'s sitemap settings ({what})" for p in site.seo_sitemaps
                if (p.exclude_posts if clause == "excluded" else p.terms_take_posts)][:1]
    if clause == "type":
        return [type_reason(site, str(row.post_type))]
    return [f"not listed ({clause})"]


def marker_source(seo: SeoChoice) -> str:
    """Why a plugin's marker counts: it runs, or no known SEO plugin does."""
    return f"SEO markers that count: {seo.describe()}"


def ignored_markers(registry: Registry, post_id: int) -> list[str]:
    """The noindex markers of plugins that do not count on the site (leftovers of a plugin
    the site no longer runs), in words."""
    site = registry.site
    others = [p for p in qp.NOINDEX_PLUGINS if not site.seo.counts(p)]
    checks = [(p, qp.noindexed(site.tables, EVERY if p in FALLBACK else SeoChoice((p,)), p))
              for p in others]
    found = qp.evaluate(registry.conn, site.tables, checks, post_id) if checks else {}
    return [f"carries a {p} noindex marker; {p} is not active: ignored"
            for p, on in found.items() if on]


def status_words(registry: Registry, row: Any) -> str:
    """The post status in words; a future post says until when it is scheduled."""
    status = str(row.post_status)
    if status != "future":
        return STATUS_WORDS.get(status, f"status '{status}' (only 'publish' is listed)")
    when = utc(row.post_date_gmt)
    if when is not None and when <= registry.site.now:
        return (f"scheduled for {w3c(when)} and still 'future' (a missed schedule: WordPress "
                "publishes it when its cron runs)")
    return f"scheduled until {w3c(when) or 'an unknown date'}"
