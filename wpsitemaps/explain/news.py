"""Explain one post's place in the news sitemap: in the 48-hour window until when, or why not."""

from __future__ import annotations

from typing import Any

from wpsitemaps.explain.model import Listing
from wpsitemaps.explain.model import sitemap_file
from wpsitemaps.explain.reasons import site_reasons
from wpsitemaps.explain.reasons import url_problem
from wpsitemaps.sitemaps.providers.news import NEWS_WINDOW
from wpsitemaps.sitemaps.providers.news import NewsProvider
from wpsitemaps.sitemaps.registry import Registry
from wpsitemaps.wordpress.dates import utc
from wpsitemaps.wordpress.dates import w3c
from wpsitemaps.wordpress.queries import news as qnews
from wpsitemaps.wordpress.queries import posts as qp


def explain_news(registry: Registry, row: Any, in_content: bool) -> Listing:
    """The news provider's named clauses evaluated for this post, in words."""
    site, pid = registry.site, int(row.ID)
    provider = next(p for p in registry.providers if isinstance(p, NewsProvider))
    name, ptype = provider.name, str(row.post_type)
    reasons = site_reasons(site)
    if ptype not in site.settings.news_post_types:
        types = ", ".join(site.settings.news_post_types) or "none"
        return Listing("news", name, False, reasons=[
            *reasons, f"post type '{ptype}' is not a news type (news_post_types: {types})"])
    published = utc(row.post_date_gmt)
    until = published + NEWS_WINDOW if published is not None else None
    verdict = qp.evaluate(registry.conn, site.tables, provider.clauses, pid)
    for clause, ok in verdict.items():
        if not ok:
            reasons.append(_words(provider, clause, in_content, row))
    problem = url_problem(site, row)
    if problem is not None:
        reasons.append(problem)  # the news sitemap builds its entries as the content one
    if reasons:
        return Listing("news", name, False, until=until, reasons=reasons)
    keys = [int(k[0]) for k in qnews.window_keys(registry.conn, site.tables, provider.condition)]
    size = provider.per_page()
    page = keys.index(pid) // size + 1 if pid in keys else 1
    listing = Listing("news", name, True, sitemap_file(name, page), page,
                      -(-len(keys) // size), None, until)
    listing.notes.append(f"in the 48-hour news window until {w3c(until)}")
    return listing


def _words(provider: NewsProvider, clause: str, in_content: bool, row: Any) -> str:
    """A failed news clause in words."""
    if clause == "listed":
        return "not in its content sitemap" if not in_content else "not listed"
    if clause == "window":
        published = utc(row.post_date_gmt)
        start, end = provider.window
        if published is None:
            return "never published (no publication date)"
        if published < start:
            return (f"older than 48 h: published {w3c(published)}, out of the news window "
                    f"since {w3c(published + NEWS_WINDOW)}")
        return f"dated after now ({w3c(published)}; now is {w3c(end)})"
    if clause == "news_excluded":
        return "excluded from news by Yoast News SEO (the post's news sitemap switch)"
    if clause == "category":
        values = ", ".join(provider.site.settings.news_excluded_categories)
        return f"news category excluded (news_excluded_categories: {values})"
    return f"not listed ({clause})"
