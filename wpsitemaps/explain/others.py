"""Explain a term (any taxonomy) or an author: their one sitemap, listed or why not."""

from __future__ import annotations

import html
from collections.abc import Sequence

from wpsitemaps.entries import UrlEntry
from wpsitemaps.explain.model import Explanation
from wpsitemaps.explain.model import Listing
from wpsitemaps.explain.model import NotFound
from wpsitemaps.explain.model import sitemap_file
from wpsitemaps.explain.reasons import site_reasons
from wpsitemaps.explain.reasons import type_reason
from wpsitemaps.sitemaps.providers.authors import AuthorProvider
from wpsitemaps.sitemaps.providers.taxonomies import TaxonomyProvider
from wpsitemaps.sitemaps.registry import Registry
from wpsitemaps.wordpress import permalinks
from wpsitemaps.wordpress.queries import lookup
from wpsitemaps.wordpress.queries import users as qu
from wpsitemaps.wordpress.seoplugins import RANK_MATH
from wpsitemaps.wordpress.seoplugins import YOAST


def _listed(name: str, keyed: Sequence[tuple[int, UrlEntry]], key: int, size: int) -> Listing:
    """A positive verdict in a keyed provider (terms, authors): page by position."""
    index = next(i for i, (k, _) in enumerate(keyed) if k == key)
    page = index // size + 1
    return Listing("content", name, True, sitemap_file(name, page), page,
                   -(-len(keyed) // size), keyed[index][1].loc)


def explain_term(registry: Registry, term_id: int, found_by: str) -> list[Explanation]:
    """One Explanation per taxonomy the term_id belongs to (usually one)."""
    site = registry.site
    rows = lookup.term_taxonomies(registry.conn, site.tables, term_id)
    if not rows:
        raise NotFound(f"no term with ID {term_id}")
    out: list[Explanation] = []
    for taxonomy, _slug, name in rows:
        ex = Explanation("term", term_id, str(taxonomy), html.unescape(str(name or "")),
                         found_by)
        reasons = site_reasons(site)
        provider = registry.lookup(str(taxonomy))
        if not isinstance(provider, TaxonomyProvider):
            reasons.append(type_reason(site, str(taxonomy), taxonomy=True))
            ex.listings.append(Listing("content", str(taxonomy), False, reasons=reasons))
            out.append(ex)
            continue
        _, ex.url, _, why = next(v for v in provider.verdicts() if v[0] == term_id)
        reasons.extend(why)
        if reasons:
            ex.listings.append(Listing("content", provider.name, False, reasons=reasons))
        else:
            listing = _listed(provider.name, provider.terms, term_id,
                              site.settings.entries_per_page)
            ex.url = listing.loc
            ex.listings.append(listing)
        out.append(ex)
    return out


def explain_author(registry: Registry, user_id: int, found_by: str) -> Explanation:
    """The author sitemap's verdict on one user: its named clauses, then its URL."""
    site = registry.site
    row = lookup.user(registry.conn, site.tables, user_id)
    if row is None:
        raise NotFound(f"no user with ID {user_id}")
    ex = Explanation("author", user_id, "author", html.unescape(str(row.display_name or "")),
                     found_by, url=permalinks.author_url(site.links, site.author_type, user_id,
                                                         str(row.user_nicename or "")))
    reasons = site_reasons(site)
    provider = registry.lookup("author")
    if not isinstance(provider, AuthorProvider):
        off = next((ps.plugin for ps in site.seo_sitemaps if ps.authors is False), None)
        reasons.append(f"the author sitemap is switched off in {off}'s sitemap settings"
                       if off else "the author sitemap is switched off in Yoast's settings "
                       "(disable-author or noindex-author-wpseo)")
        ex.listings.append(Listing("content", "author", False, reasons=reasons))
        return ex
    verdict = qu.evaluate_author(registry.conn, site.tables, user_id, site.seo) or {}
    if not verdict.get("posts"):
        reasons.append("no published posts of type post")
    if not verdict.get("noindex", True):
        reasons.append("noindexed by Rank Math (rank_math_robots)" if site.seo.runs(RANK_MATH)
                       and not site.seo.counts(YOAST) else
                       "noindexed by Yoast (wpseo_noindex_author)")
    if not reasons and all(uid != user_id for uid, _ in provider.authors):
        problem = permalinks.author_problem(site.author_type, str(row.user_nicename or ""))
        reasons.append("its URL cannot be listed" if problem is None
                       else f"no URL reaches it: {problem} (wpsitemaps check)")
    if reasons:
        ex.listings.append(Listing("content", "author", False, reasons=reasons))
    else:
        ex.listings.append(_listed("author", provider.authors, user_id,
                                   site.settings.entries_per_page))
    return ex
