"""Taxonomy sitemaps (category, post_tag, public custom ones), as Yoast's taxonomy provider.

A term is listed when it has published posts (count > 0) or, in a hierarchical taxonomy, when
a descendant has (get_terms(hide_empty) keeps such parents: their archive shows the
descendants' posts); not when noindexed or left out by the SEO plugins whose markers count
(term_marks(): Yoast's `wpseo_taxonomy_meta`, Rank Math, SEOPress and TSF term meta, the
running plugin's excluded terms), nor when such a canonical points elsewhere. lastmod is the
newest published post in the term or its descendants. Terms of one taxonomy are few compared
with posts, so selection and paging happen over the taxonomy's term rows in Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection

from wpsitemaps.changes.ledger import listed_deps
from wpsitemaps.content.urls import encode_url
from wpsitemaps.content.urls import is_listable
from wpsitemaps.entries import Alternate
from wpsitemaps.entries import PageBound
from wpsitemaps.entries import UrlEntry
from wpsitemaps.memo import memoized
from wpsitemaps.sitemaps.providers.base import TypeProvider
from wpsitemaps.sitemaps.providers.base import keyed_page
from wpsitemaps.sitemaps.providers.base import keyed_pages
from wpsitemaps.sitemaps.translations import group_alternates
from wpsitemaps.sitemaps.translations import hidden_terms
from wpsitemaps.sitemaps.translations import term_link
from wpsitemaps.sitemaps.translations import term_off_host
from wpsitemaps.sitemaps.translations import term_translations
from wpsitemaps.wordpress import permalinks
from wpsitemaps.wordpress.dates import latest
from wpsitemaps.wordpress.dates import utc
from wpsitemaps.wordpress.phpdata import as_dict
from wpsitemaps.wordpress.phpdata import unserialize
from wpsitemaps.wordpress.queries import terms as qt
from wpsitemaps.wordpress.queries.rows import TermRow
from wpsitemaps.wordpress.seoplugins import AIOSEO
from wpsitemaps.wordpress.seoplugins import RANK_MATH
from wpsitemaps.wordpress.seoplugins import SEOPRESS
from wpsitemaps.wordpress.seoplugins import TSF
from wpsitemaps.wordpress.seoplugins import YOAST
from wpsitemaps.wordpress.site import SiteContext


@dataclass(frozen=True)
class Term:
    """A listed term with its URL and the term_taxonomy_ids whose posts date it."""

    term_id: int
    loc: str
    tt_ids: tuple[int, ...]
    alternates: tuple[Alternate, ...] = ()


def _descendants(rows: Sequence[TermRow]) -> dict[int, list[int]]:
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


def _ancestors(term_id: int, by_id: dict[int, TermRow]) -> tuple[str, ...]:
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


# Term meta of the plugins that keep term settings there: SEOPress (any non-empty
# `_seopress_robots_index` leaves the term out of its sitemap,
# `inc/functions/sitemap/template-xml-sitemaps-single-term.php`), Rank Math, and The SEO
# Framework's serialized `autodescription-term-settings` (`noindex` 1, `canonical`).
TERM_META_KEYS = ("_seopress_robots_index", "_seopress_robots_canonical",
                  "rank_math_canonical_url", "autodescription-term-settings", "rank_math_robots")


def term_marks(conn: Connection, site: SiteContext, taxonomy: str,
               term_ids: Sequence[int]) -> dict[int, tuple[list[str], list[str]]]:
    """{term_id: (reasons it is noindexed or excluded, canonical overrides)} under the
    markers that count on the site (site.seo)."""
    seo = site.seo
    out: dict[int, tuple[list[str], list[str]]] = {tid: ([], []) for tid in term_ids}
    yoast = _yoast_term_meta(site, taxonomy) if seo.counts(YOAST) else {}
    rank_math = qt.rank_math_noindex_terms(conn, site.tables, term_ids) if seo.counts(
        RANK_MATH) else set()
    meta = qt.term_meta(conn, site.tables, term_ids, TERM_META_KEYS) if any(
        seo.runs(p) for p in (RANK_MATH, SEOPRESS, TSF)) else {}
    excluded = {tid: ps.plugin for ps in site.seo_sitemaps for tid in ps.exclude_terms}
    aioseo = qt.aioseo_terms_of(conn, site.tables, term_ids) if seo.aioseo_terms else {}
    by_default = [ps.plugin for ps in site.seo_sitemaps if taxonomy in ps.noindex_taxonomies]
    for tid, (noindex, canonicals) in out.items():
        pro_noindex, pro_canonical = aioseo.get(tid, (False, ""))
        if by_default and '"index"' not in str(meta.get(tid, {}).get("rank_math_robots", "")):
            noindex.append(f"taxonomy '{taxonomy}' is noindexed by default in "
                           f"{by_default[0]}'s titles (rank-math-options-titles "
                           f"tax_{taxonomy}_robots) and the term is not indexed one by one")
        settings, own = yoast.get(tid, {}), meta.get(tid, {})
        tsf = as_dict(unserialize(own.get("autodescription-term-settings"), "TSF term"))
        for plugin, on in ((YOAST, settings.get("wpseo_noindex") == "noindex"),
                           (RANK_MATH, tid in rank_math),
                           (SEOPRESS, seo.runs(SEOPRESS) and own.get("_seopress_robots_index")),
                           (TSF, seo.runs(TSF) and str(tsf.get("noindex")) == "1"),
                           (AIOSEO, pro_noindex)):
            if on:
                noindex.append(f"noindexed by {plugin}")
        if tid in excluded:
            noindex.append(f"left out by {excluded[tid]}'s sitemap settings (excluded terms)")
        for plugin, value in ((YOAST, settings.get("wpseo_canonical")),
                              (RANK_MATH, own.get("rank_math_canonical_url")),
                              (SEOPRESS, own.get("_seopress_robots_canonical")),
                              (TSF, tsf.get("canonical")), (AIOSEO, pro_canonical)):
            if value and (plugin == YOAST or seo.runs(plugin)):
                canonicals.append(str(value).strip())
    return out


class TaxonomyProvider(TypeProvider):
    """One taxonomy's sitemap (name = taxonomy name: category-sitemap.xml...)."""

    def value_deps(self) -> tuple[str, ...]:
        """The term list follows every term and post (a post dates its terms)."""
        return tuple(listed_deps("terms"))

    @memoized
    def terms(self) -> list[tuple[int, UrlEntry]]:
        """(term_id, entry) of the listed terms in term_id order, with their lastmod.

        Cached across requests like page bounds: a term's lastmod needs every published
        post in it and its descendants, which grows with the site.
        """
        def compute() -> list[tuple[int, UrlEntry]]:
            terms = self._terms()
            mods = self._lastmods(terms)
            return [(t.term_id, UrlEntry(t.loc, mods[t.term_id], alternates=t.alternates))
                    for t in terms]

        return self.cached("terms", compute)

    def _terms(self) -> list[Term]:
        return [term for _, _, term, _ in self.verdicts() if term is not None]

    def verdicts(self) -> list[tuple[int, str, Term | None, list[str]]]:
        """(term_id, loc, Term or None, reasons it is not listed) for every term of the
        taxonomy, by term_id: the selection itself, which `wpsitemaps explain` reads too."""
        conn, site = self.conn, self.site
        rows = qt.taxonomy_terms(conn, site.tables, self.name)
        by_id = {int(r.term_id): r for r in rows}
        family = _descendants(rows)
        marks = term_marks(conn, site, self.name, list(by_id))
        tt_ids = {tid: int(r.term_taxonomy_id) for tid, r in by_id.items()}
        languages, groups = term_translations(conn, site, self.name, tt_ids)
        hidden = hidden_terms(conn, site, self.name, tt_ids)
        urls = {tid: term_link(site, self.name, permalinks.term_url(
            site.links, self.ctype, tid, str(r.slug), _ancestors(tid, by_id)), languages.get(tid))
            for tid, r in by_id.items()}
        # Polylang links a translation whose archive has posts (its own or, hierarchical,
        # its descendants'): PLL_Frontend_Links::get_translation_url().
        with_posts = {tid for tid in by_id
                      if any(int(by_id[d].posts or 0) > 0 for d in family[tid])}
        # Terms no URL reaches (permalinks.term_problem()): not listed, nobody's hreflang.
        problems = {tid: problem for tid, r in by_id.items()
                    if (problem := permalinks.term_problem(self.ctype, str(r.slug or ""),
                                                           _ancestors(tid, by_id))) is not None}
        linked = {t: urls[t] for t in with_posts if t not in problems}
        out: list[tuple[int, str, Term | None, list[str]]] = []
        for r in rows:
            tid = int(r.term_id)
            reasons: list[str] = []
            if tid not in with_posts:
                reasons.append("empty: no published post in it or in a term below it")
            noindex, canonicals = marks[tid]
            reasons.extend(noindex)
            url = urls[tid]
            if tid in problems:
                reasons.append(f"no URL reaches it: {problems[tid]} (wpsitemaps check)")
            loc = encode_url(url)
            reasons.extend(f"canonical points to {c}" for c in dict.fromkeys(canonicals)
                           if c and c != url)
            if not is_listable(loc):
                reasons.append(f"its URL cannot be listed: {loc}")
            if tid in hidden:
                reasons.append(f"in {hidden[tid]}, a hidden WPML language")
            off_host = term_off_host(site, self.name, languages.get(tid))
            if off_host:
                reasons.append(off_host)
            term = None
            if not reasons:
                alts = self._alternates(tid, groups, linked)
                term = Term(tid, loc, tuple(int(by_id[d].term_taxonomy_id)
                                            for d in family[tid]), alts)
            out.append((tid, loc, term, reasons))
        return out

    def _alternates(self, term_id: int, groups: dict[int, dict[str, int]],
                    urls: dict[int, str]) -> tuple[Alternate, ...]:
        langs = self.site.languages
        group = groups.get(term_id)
        if langs is None or not group:
            return ()
        return group_alternates(langs, group, urls, self.site.options.home)

    def _lastmods(self, terms: Sequence[Term]) -> dict[int, datetime | None]:
        dates = qt.term_lastmods(self.conn, self.site.tables,
                                 {tt for term in terms for tt in term.tt_ids})
        return {term.term_id: latest(*(utc(dates.get(tt)) for tt in term.tt_ids))
                for term in terms}

    def compute_bounds(self) -> list[PageBound]:
        """Pages of `entries_per_page` terms."""
        return keyed_pages(self.terms, self.site.settings.entries_per_page)

    def entries(self, page: int, bound: PageBound) -> list[UrlEntry]:
        """The terms of one page."""
        return keyed_page(self.terms, bound, self.site.settings.entries_per_page)
