"""The Google News sitemap (news-sitemap.xml), as Yoast News SEO's WPSEO_News_Sitemap.

Articles: published, indexable posts of `news_post_types` (the content sitemaps' own SQL
condition, so the same noindex / password / canonical rules apply), minus posts in
`news_excluded_categories` and posts switched off by Yoast News SEO post meta, with
`post_date_gmt` in the last 48 hours (both ends inclusive), newest first, at most 1,000 per
page (Google's limit for one news sitemap).
"""

from __future__ import annotations

import html
import re
from collections import defaultdict
from dataclasses import replace
from datetime import datetime
from datetime import timedelta
from urllib.parse import quote

from sqlalchemy import ColumnElement
from sqlalchemy import Connection
from sqlalchemy import and_
from sqlalchemy import false
from sqlalchemy import or_
from sqlalchemy import true

from wpsitemaps.cache.values import Values
from wpsitemaps.entries import NewsEntry
from wpsitemaps.entries import PageBound
from wpsitemaps.entries import UrlEntry
from wpsitemaps.memo import memoized
from wpsitemaps.sitemaps.links import post_languages
from wpsitemaps.sitemaps.providers.base import Provider
from wpsitemaps.sitemaps.providers.posts import PostTypeProvider
from wpsitemaps.sitemaps.providers.posts import post_entries
from wpsitemaps.wordpress.dates import latest
from wpsitemaps.wordpress.dates import utc
from wpsitemaps.wordpress.queries import news as qnews
from wpsitemaps.wordpress.queries.rows import PostRow
from wpsitemaps.wordpress.seoplugins import YOAST
from wpsitemaps.wordpress.site import SiteContext

NEWS_WINDOW = timedelta(hours=48)
NEWS_MAX_PER_PAGE = 1000
# Tags as an HTML tokenizer sees them: '<' then a letter, '/', '!' or '?'. A bare '<' (as in
# "5 <3 Sitemaps") is text, unlike PHP's strip_tags(), which would cut the title there.
_SCRIPT_STYLE = re.compile(r"<(script|style)\b[^>]*>.*?</\1\s*>", re.I | re.S)
_TAG = re.compile(r"<(?:[A-Za-z/][^>]*|!--.*?--|![^>]*|\?[^>]*)>", re.S)
_LANG = re.compile(r"[a-z]{2,3}")
_TRADITIONAL_CHINESE = ("tw", "hk", "mo")


def news_language(locale: str) -> str:
    """Google News language code for a WordPress locale (de_DE -> de, zh_TW -> zh-tw).

    Google accepts ISO 639-1/639-2 codes (2 or 3 letters) plus zh-cn and zh-tw. Yoast takes
    the first two letters of get_locale(), which breaks 3-letter locales (ast, haw_US) and
    Chinese; anything unusable falls back to 'en' as Yoast does.
    """
    parts = re.split(r"[_\-@.]", locale.strip().lower())
    lang = parts[0]
    if lang == "zh":
        region = parts[1] if len(parts) > 1 else ""
        return "zh-tw" if region in _TRADITIONAL_CHINESE else "zh-cn"
    return lang if _LANG.fullmatch(lang) else "en"


def news_title(post_title: str) -> str:
    """The stored post_title without tags (wp_strip_all_tags()) and with entities decoded."""
    text = _TAG.sub("", _SCRIPT_STYLE.sub("", post_title))
    return html.unescape(text).strip()


def publication_name(site: SiteContext) -> str:
    """news_name from the settings, else the blogname with its entities decoded."""
    return site.settings.news_name or html.unescape(site.options.blogname)


def excluded_category_keys(values: tuple[str, ...]) -> tuple[list[int], list[str]]:
    """Split news_excluded_categories into term IDs (all digits) and slugs.

    WordPress stores non-Latin slugs percent-encoded in lower case (sanitize_title()), so a
    slug typed as text ('新闻') is also tried in that form.
    """
    ids: list[int] = []
    slugs: list[str] = []
    for value in (v.strip() for v in values):
        if value.isdigit():
            ids.append(int(value))
        elif value:
            slugs.extend({value, quote(value.lower(), safe="-_").lower()})
    return ids, slugs


class NewsProvider(Provider):
    """The news sitemap; `name` is 'yoast-news' when a post type is called 'news' (as Yoast)."""

    stylesheet = "news"

    def __init__(self, conn: Connection, site: SiteContext, values: Values,
                 post_types: tuple[PostTypeProvider, ...], name: str = "news") -> None:
        super().__init__(conn, site, values)
        self.post_types = post_types
        self.name = name

    @memoized
    def clauses(self) -> list[tuple[str, ColumnElement[bool]]]:
        """The news condition as named clauses (ANDed by `condition`, evaluated one by one
        by `wpsitemaps explain`): listed, window, news_excluded, category."""
        t, site = self.site.tables, self.site
        start, end = self.window
        window = qnews.in_window(t, start, end)
        # A type the content sitemaps do not list (unknown, excluded, or noindexed as a whole
        # in wpseo_titles) has no news either; the rest reuse the content sitemaps' rules,
        # each type's canonical keep-list computed over the window only (issue #13).
        listed = [p.listable_within(window) for p in self.post_types
                  if p.name in site.settings.news_post_types]
        if not listed:
            return [("listed", false())]
        ids, slugs = excluded_category_keys(site.settings.news_excluded_categories)
        # Yoast News SEO's exclusions are Yoast's: leftovers where another plugin runs.
        yoast = site.seo.counts(YOAST)
        return [("listed", or_(*listed)), ("window", window),
                ("news_excluded", ~qnews.news_excluded(t) if yoast else true()),
                ("category", ~qnews.in_categories(t, ids, slugs))]

    @property
    def window(self) -> tuple[datetime, datetime]:
        """The news window (both ends inclusive): the last 48 hours before the site's now."""
        now = self.site.now.replace(microsecond=0)
        return now - NEWS_WINDOW, now

    @memoized
    def condition(self) -> ColumnElement[bool]:
        """The SQL condition for news rows."""
        return and_(*(cond for _, cond in self.clauses))

    @memoized
    def bounds(self) -> list[PageBound]:
        """Computed per request, never from the value cache: an article must show within a
        minute (issue #13), and the keys are bounded by the 48-hour window."""
        return self.compute_bounds()

    def per_page(self) -> int:
        """Entries per news page: the configured page size, never above Google's 1,000."""
        return min(NEWS_MAX_PER_PAGE, self.site.settings.entries_per_page)

    def compute_bounds(self) -> list[PageBound]:
        """Pages cut from the window's (ID, dates) list, newest first.

        The order is by date, so an ID range cannot describe a page. first_key is the ID of
        the page's first (newest) post; entries() resumes at that post's (post_date_gmt, ID)
        position, a keyset that needs no OFFSET and survives posts being added before it.
        """
        keys = qnews.window_keys(self.conn, self.site.tables, self.condition)
        size = self.per_page()
        out: list[PageBound] = []
        for start in range(0, len(keys), size):
            chunk = keys[start:start + size]
            lastmod = latest(*(latest(k.date, k.modified) for k in chunk))
            out.append(PageBound(chunk[0].id, lastmod))
        return out

    def entries(self, page: int, bound: PageBound) -> list[UrlEntry]:
        """One page of news entries starting at the bound's anchor post."""
        rows = qnews.newest_from(self.conn, self.site.tables, self.condition, bound.first_key,
                            self.per_page())
        return news_entries(self.conn, self.site, rows)


def news_entries(conn: Connection, site: SiteContext, rows: list[PostRow]) -> list[UrlEntry]:
    """UrlEntries with news:news and image:image for rows, in the rows' order.

    posts.post_entries() per type (one entry per article: the <!--nextpage--> states are
    pages of the article, not articles), plus news:news.
    """
    by_type: dict[str, list[PostRow]] = defaultdict(list)
    for r in rows:
        by_type[str(r.post_type)].append(r)
    name, language = publication_name(site), news_language(site.options.locale)
    # On a Polylang site an article's language is its own (Yoast News SEO asks get_locale(),
    # which Polylang switches to the post's language on its page).
    languages = {pid: lang for type_name, type_rows in by_type.items()
                 for pid, lang in post_languages(conn, site, type_name,
                                                 [int(r.ID) for r in type_rows]).items()}
    built: dict[int, UrlEntry] = {}
    for type_name, type_rows in by_type.items():
        ctype = site.types.post_type(type_name)
        if ctype is None:
            continue
        entries = post_entries(conn, site, ctype, type_rows)
        for r in type_rows:
            pid = int(r.ID)
            published: datetime | None = utc(r.post_date_gmt)
            if published is None or pid not in entries:
                continue
            lang = languages.get(pid)
            news = NewsEntry(name, news_language(lang.locale) if lang else language, published,
                             news_title(str(r.post_title or "")))
            built[pid] = replace(entries[pid], news=news)
    return [built[int(r.ID)] for r in rows if int(r.ID) in built]
