"""What `check` says about SEO plugins: which one decides, and the markers every known plugin
left in the database, counted, each said honoured or ignored (issue #24)."""

from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import Connection

from wpsitemaps.wordpress.phpdata import as_dict
from wpsitemaps.wordpress.plugintables import aioseo_posts
from wpsitemaps.wordpress.queries import seo as qseo
from wpsitemaps.wordpress.seoplugins import AIOSEO
from wpsitemaps.wordpress.seoplugins import KNOWN
from wpsitemaps.wordpress.seoplugins import RANK_MATH
from wpsitemaps.wordpress.seoplugins import SEOPRESS
from wpsitemaps.wordpress.seoplugins import TSF
from wpsitemaps.wordpress.seoplugins import YOAST
from wpsitemaps.wordpress.site import SiteContext


class Marker(NamedTuple):
    """One kind of marker a plugin stores: in post, term or user meta; `value` exact, or
    `like` a pattern ('_%': any non-empty value)."""

    plugin: str
    what: str  # 'noindex' or 'canonical'
    kind: str  # 'post', 'term', 'user'
    key: str
    value: str | None = None
    like: str | None = None


MARKERS = (
    Marker(YOAST, "noindex", "post", "_yoast_wpseo_meta-robots-noindex", "1"),
    Marker(YOAST, "canonical", "post", "_yoast_wpseo_canonical", like="_%"),
    Marker(YOAST, "noindex", "user", "wpseo_noindex_author", "on"),
    Marker(RANK_MATH, "noindex", "post", "rank_math_robots", like="%noindex%"),
    Marker(RANK_MATH, "canonical", "post", "rank_math_canonical_url", like="_%"),
    Marker(RANK_MATH, "noindex", "term", "rank_math_robots", like="%noindex%"),
    Marker(RANK_MATH, "noindex", "user", "rank_math_robots", like="%noindex%"),
    Marker(AIOSEO, "noindex", "post", "_aioseop_noindex", "on"),
    Marker(AIOSEO, "canonical", "post", "_aioseop_custom_link", like="_%"),
    Marker(SEOPRESS, "noindex", "post", "_seopress_robots_index", "yes"),
    Marker(SEOPRESS, "canonical", "post", "_seopress_robots_canonical", like="_%"),
    Marker(SEOPRESS, "noindex", "term", "_seopress_robots_index", like="_%"),
    Marker(TSF, "noindex", "post", "_genesis_noindex", "1"),
    Marker(TSF, "canonical", "post", "_genesis_canonical_uri", like="_%"),
    Marker(TSF, "noindex", "term", "autodescription-term-settings",
           like='%s:7:"noindex";i:1;%'),
)
COUNTERS = {"post": qseo.postmeta_count, "term": qseo.termmeta_count,
            "user": qseo.usermeta_count}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _yoast_terms(site: SiteContext) -> int:
    """Terms Yoast noindexes in `wpseo_taxonomy_meta`."""
    return sum(1 for terms in site.options.wpseo_taxonomy_meta.values()
               for settings in as_dict(terms).values()
               if as_dict(settings).get("wpseo_noindex") == "noindex")


def _honoured(site: SiteContext, marker: Marker) -> bool:
    """Whether the listing rules apply this marker (AIOSEO's 3.x meta only where no known
    plugin runs; SEOPress's and TSF's term and canonical markers only where they run)."""
    seo = site.seo
    if marker.plugin == AIOSEO:
        return seo.fallback and marker.what == "noindex"
    if marker.kind == "user":
        return seo.counts(marker.plugin) if marker.plugin == YOAST else seo.runs(marker.plugin)
    if marker.what == "canonical" or marker.kind == "term":
        return seo.runs(marker.plugin) or (seo.fallback and marker.plugin in (YOAST, RANK_MATH))
    return seo.counts(marker.plugin)


def _counts(conn: Connection, site: SiteContext) -> dict[tuple[str, str, bool], list[str]]:
    """{(plugin, what, honoured): ['999 posts', '1 term']} of every marker found, posts
    first, then terms, then users."""
    found: dict[tuple[str, str, bool], dict[str, int]] = {}
    for m in MARKERS:
        n = COUNTERS[m.kind](conn, site.tables, m.key, m.value, m.like)
        if n:
            kinds = found.setdefault((m.plugin, m.what, _honoured(site, m)), {})
            kinds[m.kind] = kinds.get(m.kind, 0) + n
    yoast_terms = _yoast_terms(site)
    if yoast_terms:
        found.setdefault((YOAST, "noindex", site.seo.counts(YOAST)), {})["term"] = yoast_terms
    return {key: [_plural(kinds[k], k) for k in ("post", "term", "user") if k in kinds]
            for key, kinds in found.items()}


def seo_lines(conn: Connection, site: SiteContext) -> list[str]:
    """`check`'s SEO lines: the deciding plugin(s), unreadable plugin tables, AIOSEO 4's
    noindexed posts, and every plugin's markers, honoured or ignored."""
    seo = site.seo
    lines = [f"seo plugins   {seo.describe()}"]
    table = aioseo_posts(site.settings.table_prefix)
    if AIOSEO in seo.unreadable:
        lines.append(f"seo PROBLEM   All in One SEO is active but {table.name} cannot be read "
                     "(missing, or no SELECT on it): its per-post noindex is not applied")
    elif seo.runs(AIOSEO):
        n = qseo.aioseo_noindex_count(conn, table)
        lines.append(f"seo markers   {_plural(n, 'post')} noindexed in {table.name}: honoured")
    counts = _counts(conn, site)
    for plugin in KNOWN:
        for what in ("noindex", "canonical"):
            for honoured in (True, False):
                found = counts.get((plugin, what, honoured))
                if found:
                    verb = "carries" if found == [_plural(1, found[0].split()[-1])] else "carry"
                    label = "All in One SEO 3" if plugin == AIOSEO else plugin
                    lines.append(f"seo markers   {' and '.join(found)} {verb} {label} {what}; "
                                 + _verdict(site, plugin, honoured))
    return lines


def _verdict(site: SiteContext, plugin: str, honoured: bool) -> str:
    """Why a marker is honoured or ignored, in words."""
    seo = site.seo
    if honoured:
        return "no known SEO plugin is active: honoured" if seo.fallback else "honoured"
    if plugin == AIOSEO and seo.fallback:
        return "not read (All in One SEO 3 post meta): ignored"
    if plugin == AIOSEO and seo.runs(AIOSEO):
        return "All in One SEO 4 reads its own table, not this 3.x post meta: ignored"
    if seo.runs(plugin):
        return f"{plugin} does not use it for its sitemap: ignored"
    return f"{plugin} is not active: ignored"
