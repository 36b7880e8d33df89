"""Taxonomy sitemaps (category, post_tag, public custom ones), as Yoast's taxonomy provider.

A term is listed when it has published posts (count > 0) or, in a hierarchical taxonomy, when
a descendant has (get_terms(hide_empty) keeps such parents: their archive shows the
descendants' posts); not when noindexed in `wpseo_taxonomy_meta` or Rank Math term meta, nor
when its Yoast canonical points elsewhere. lastmod is the newest published post in the term
or its descendants. Terms of one taxonomy are few compared with posts, so selection and
paging happen over the taxonomy's term rows in Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection

from wpsitemaps import permalinks
from wpsitemaps import queries_terms as qt
from wpsitemaps.boundscache import cached
from wpsitemaps.contenttypes import ContentType
from wpsitemaps.dates import latest
from wpsitemaps.dates import utc
from wpsitemaps.entries import PageBound
from wpsitemaps.entries import UrlEntry
from wpsitemaps.phpdata import as_dict
from wpsitemaps.site import SiteContext
from wpsitemaps.urls import encode_url
from wpsitemaps.urls import is_listable


@dataclass(frozen=True)
class Term:
    """A listed term with its URL and the term_taxonomy_ids whose posts date it."""

    term_id: int
    loc: str
    tt_ids: tuple[int, ...]


def _descendants(rows: Sequence[Any]) -> dict[int, list[int]]:
    """{term_id: [term_id of itself and every descendant]} (cycle-safe)."""
    children: dict[int, list[int]] = {}
    for r in rows:
        children.setdefault(int(r.parent or 0), []).append(int(r.term_id))
    out: dict[int, list[int]] = {}
    for r in rows:
        seen, stack = [], [int(r.term_id)]
        while stack:
            current = stack.pop()
            if current in seen:
                continue
            seen.append(current)
            stack.extend(children.get(current, []))
        out[int(r.term_id)] = seen
    return out


def _ancestors(term_id: int, by_id: dict[int, Any]) -> tuple[str, ...]:
    """Slugs of the ancestors from the root (get_ancestors(), reversed)."""
    slugs: list[str] = []
    seen = {term_id}
    parent = int(by_id[term_id].parent or 0)
    while parent in by_id and parent not in seen:
        seen.add(parent)
        slugs.append(str(by_id[parent].slug))
        parent = int(by_id[parent].parent or 0)
    return tuple(reversed(slugs))


def _yoast_term_meta(site: SiteContext, taxonomy: str) -> dict[int, dict[Any, Any]]:
    """wpseo_taxonomy_meta[taxonomy] as {term_id: settings}."""
    raw = as_dict(site.options.wpseo_taxonomy_meta.get(taxonomy))
    out: dict[int, dict[Any, Any]] = {}
    for key, value in raw.items():
        if str(key).isdigit():
            out[int(key)] = as_dict(value)
    return out


@dataclass(frozen=True)
class TaxonomyProvider:
    """One taxonomy's sitemap."""

    ctype: ContentType
    stylesheet: str = "main"

    @property
    def name(self) -> str:
        """Sitemap name = taxonomy name (category-sitemap.xml, post_tag-sitemap.xml...)."""
        return self.ctype.name

    def terms(self, conn: Connection, site: SiteContext) -> list[tuple[Term, datetime | None]]:
        """The listed terms in term_id order with their lastmod.

        Cached like page bounds (boundscache): a term's lastmod needs every published post
        in it and its descendants, which grows with the site.
        """
        def compute() -> list[tuple[Term, datetime | None]]:
            terms = self._terms(conn, site)
            mods = self._lastmods(conn, site, terms)
            return [(t, mods[t.term_id]) for t in terms]

        result: list[tuple[Term, datetime | None]] = cached(site, ("terms", self), compute)
        return result

    def _terms(self, conn: Connection, site: SiteContext) -> list[Term]:
        rows = qt.taxonomy_terms(conn, site.tables, self.name)
        by_id = {int(r.term_id): r for r in rows}
        family = _descendants(rows)
        yoast = _yoast_term_meta(site, self.name)
        rank_math = qt.rank_math_noindex_terms(conn, site.tables, by_id)
        out: list[Term] = []
        for r in rows:
            tid = int(r.term_id)
            if not any(int(by_id[d].count or 0) > 0 for d in family[tid]):
                continue
            settings = yoast.get(tid, {})
            if settings.get("wpseo_noindex") == "noindex" or tid in rank_math:
                continue
            url = permalinks.term_url(site.links, self.ctype, tid, str(r.slug),
                                      _ancestors(tid, by_id))
            canonical = str(settings.get("wpseo_canonical") or "").strip()
            loc = encode_url(url)
            if (canonical and canonical != url) or not is_listable(loc):
                continue
            out.append(Term(tid, loc, tuple(int(by_id[d].term_taxonomy_id)
                                            for d in family[tid])))
        return out

    def _lastmods(self, conn: Connection, site: SiteContext,
                  terms: Sequence[Term]) -> dict[int, datetime | None]:
        dates = qt.term_lastmods(conn, site.tables, {tt for term in terms for tt in term.tt_ids})
        return {term.term_id: latest(*(utc(dates.get(tt)) for tt in term.tt_ids))
                for term in terms}

    def bounds(self, conn: Connection, site: SiteContext) -> list[PageBound]:
        """Pages of `entries_per_page` terms."""
        terms = self.terms(conn, site)
        size = site.settings.entries_per_page
        return [PageBound(terms[i][0].term_id, latest(*(m for _, m in terms[i:i + size])))
                for i in range(0, len(terms), size)]

    def entries(self, conn: Connection, site: SiteContext, page: int,
                bound: PageBound) -> list[UrlEntry]:
        """The terms of one page."""
        terms = [(t, m) for t, m in self.terms(conn, site) if t.term_id >= bound.first_key]
        return [UrlEntry(t.loc, m) for t, m in terms[:site.settings.entries_per_page]]
