"""Languages and hreflang alternates for a batch of posts or terms (Polylang sites).

One query per kind for a whole page: the objects' languages, their translation groups, the
translations' statuses and rows; URLs come from the same builders as the entries' own
(sitemaps.links.post_links and wordpress.langlinks).
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from sqlalchemy import ColumnElement
from sqlalchemy import Connection

from wpsitemaps.content.urls import encode_url
from wpsitemaps.entries import Alternate
from wpsitemaps.entries import UrlEntry
from wpsitemaps.sitemaps.links import post_links
from wpsitemaps.wordpress import langlinks
from wpsitemaps.wordpress import objectlangs
from wpsitemaps.wordpress.contenttypes import ContentType
from wpsitemaps.wordpress.languages import Language
from wpsitemaps.wordpress.languages import Languages
from wpsitemaps.wordpress.queries import languages as ql
from wpsitemaps.wordpress.queries import posts as qp
from wpsitemaps.wordpress.queries import wpml as qw
from wpsitemaps.wordpress.queries.rows import PostRow
from wpsitemaps.wordpress.site import SiteContext

Alternates = tuple[Alternate, ...]


def translated_post_type(site: SiteContext, name: str) -> Languages | None:
    """The site's languages when posts of this type have one, else None."""
    langs = site.languages
    return langs if langs is not None and name in langs.post_types else None


def translated_taxonomy(site: SiteContext, name: str) -> Languages | None:
    """The site's languages when terms of this taxonomy have one, else None."""
    langs = site.languages
    return langs if langs is not None and name in langs.taxonomies else None


def host_language(site: SiteContext) -> Language | None:
    """The language of this request's host in Polylang's subdomain / domain modes, else None."""
    langs = site.languages
    return langs.by_slug(langs.current) if langs is not None and langs.current else None


def post_language_clause(site: SiteContext, post_type: str) -> ColumnElement[bool] | None:
    """On a language host, the SQL condition for the posts listed there: a translated type's
    posts in that language (PLL_WPSEO::wpseo_posts_where() with force_lang > 1, WPML's
    filter_single_type_where() per domain); an
    untranslated type's posts only on the home's host, where their URLs are. With WPML's
    hidden languages: a translated type's posts in none of them. None: no condition."""
    langs = translated_post_type(site, post_type)
    if langs is not None and langs.hidden:
        return qw.posts_not_in_languages(site.tables, langs.prefix, post_type, langs.hidden)
    lang = host_language(site)
    if lang is None:
        return None
    if langs is not None and langs.plugin == "wpml":
        return qw.posts_in_language(site.tables, langs.prefix, post_type, lang.slug)
    if langs is not None:
        return ql.posts_in_language(site.tables, lang.tt_id)
    on_home = langlinks.on_home_host(site.links, site.languages)
    return None if on_home else ql.posts_in_language(site.tables, None)


def term_off_host(site: SiteContext, taxonomy: str, lang: Language | None) -> str:
    """Why a term is not listed on this language host ('' when it is): a translated
    taxonomy's terms in other languages (Polylang filters get_terms() by the current
    language), an untranslated taxonomy's terms anywhere but on the home's host."""
    current = host_language(site)
    if current is None:
        return ""
    if translated_taxonomy(site, taxonomy) is not None:
        if lang is not None and lang.slug == current.slug:
            return ""
        return f"not in {current.slug}, the language of this host"
    if langlinks.on_home_host(site.links, site.languages):
        return ""
    return "untranslated: listed on the home's host only"


def hidden_terms(conn: Connection, site: SiteContext, taxonomy: str,
                 tt_ids: Mapping[int, int]) -> dict[int, str]:
    """{term_id: language code} of a translated taxonomy's terms in a WPML hidden language
    (not listed: their language is shown to no visitor)."""
    langs = translated_taxonomy(site, taxonomy)
    if langs is None or not langs.hidden:
        return {}
    found = objectlangs.term_languages(conn, site.tables, langs, taxonomy, tt_ids)
    return {tid: code for tid, code in found.items() if code in langs.hidden}


def as_alternates(pairs: Sequence[tuple[str, str]]) -> Alternates:
    """(hreflang, URL) pairs as entries, URLs encoded like every <loc>."""
    return tuple(Alternate(code, encode_url(url)) for code, url in pairs)


def group_alternates(langs: Languages, group: Mapping[str, int], urls: Mapping[int, str],
                     home: str, front_page: bool = False) -> Alternates:
    """hreflang of one object: each language of its group whose member has a URL (readable),
    in Polylang's language order."""
    pairs: list[tuple[Language, str]] = []
    for lang in langs.languages:
        oid = group.get(lang.slug)
        if oid is not None and oid in urls:
            pairs.append((lang, urls[oid]))
    return as_alternates(langlinks.hreflang(langs, pairs, home, front_page))


def post_alternates(conn: Connection, site: SiteContext, ctype: ContentType,
                    rows: Sequence[PostRow], own_urls: Mapping[int, str]) -> dict[int, Alternates]:
    """{ID: hreflang alternates} for rows of one translated type.

    PLL_Frontend_Links::get_translation_url() links a translation a visitor can read
    (current_user_can_read(): a public status, so `publish`, password-protected included),
    by its get_permalink().
    """
    langs = translated_post_type(site, ctype.name)
    if langs is None or not rows:
        return {}
    ids = [int(r.ID) for r in rows]
    groups = objectlangs.post_groups(conn, site.tables, langs, ctype.name, ids)
    others = {oid for g in groups.values() for oid in g.values()} - set(own_urls)
    statuses = ql.post_statuses(conn, site.tables, others)
    readable = [oid for oid, status in statuses.items() if status == "publish"]
    urls = dict(own_urls)
    if readable:
        urls.update(post_links(conn, site, ctype, qp.rows_by_id(conn, site.tables, readable)))
    fronts = set(langs.front_pages.values())
    out: dict[int, Alternates] = {}
    for pid, group in groups.items():
        alts = group_alternates(langs, group, urls, site.options.home, pid in fronts)
        if alts:
            out[pid] = alts
    return out


def _default_first(langs: Languages) -> list[Language]:
    """The languages with the default (the language a sitemap request is made in) first."""
    return sorted(langs.languages, key=lambda lang: lang.slug != langs.default)


def home_links(site: SiteContext, lastmod: Any) -> list[UrlEntry]:
    """The post sitemap's first links when the front page shows posts: every language's
    home (Yoast's own, in the default language, then PLL_WPSEO::add_post_type_archive()
    adds the others), each with the front page's hreflang."""
    langs = site.languages
    if langs is None:
        return []
    homes = [(lang, langlinks.language_home(site.links, langs, lang.slug))
             for lang in langs.languages]
    alts = as_alternates(langlinks.hreflang(langs, homes, site.options.home, front_page=True))
    out: list[UrlEntry] = []
    # On a language host Yoast's own home link is that host's home and PLL_WPSEO adds none.
    current = host_language(site)
    for lang in [current] if current is not None else _default_first(langs):
        loc = encode_url(dict((lg.slug, url) for lg, url in homes)[lang.slug])
        if all(e.loc != loc for e in out):
            out.append(UrlEntry(loc, lastmod, alternates=alts))
    return out


def archive_links(conn: Connection, site: SiteContext, ctype: ContentType, archive: str,
                  lastmod: Any) -> list[UrlEntry]:
    """A translated type's archive in every language (PLL_WPSEO::add_post_type_archive()),
    each with hreflang to the languages that have published posts of the type
    (PLL_Frontend_Links::get_translation_url(), is_post_type_archive())."""
    langs = translated_post_type(site, ctype.name)
    if langs is None:
        return [UrlEntry(encode_url(archive), lastmod)]
    urls = {lang.slug: langlinks.add_language(site.links, langs, archive, lang.slug)
            for lang in langs.languages}
    counts = objectlangs.published_counts(conn, site.tables, langs, ctype.name)
    pairs = [(lang, urls[lang.slug]) for lang in langs.languages
             if counts.get((lang.slug, 0), 0) > 0]
    alts = as_alternates(langlinks.hreflang(langs, pairs, site.options.home))
    current = host_language(site)
    if current is not None:  # the host's own archive only, when it has posts of the type
        listed = [current] if counts.get((current.slug, 0), 0) > 0 else []
    else:
        listed = _default_first(langs)
    return [UrlEntry(encode_url(urls[lang.slug]), lastmod, alternates=alts) for lang in listed]


def term_translations(conn: Connection, site: SiteContext, taxonomy: str,
                      tt_ids: Mapping[int, int]) -> tuple[dict[int, Language],
                                                          dict[int, dict[str, int]]]:
    """({term_id: language}, {term_id: translation group}) of a translated taxonomy's terms;
    `tt_ids` maps each term_id to its term_taxonomy_id."""
    langs = translated_taxonomy(site, taxonomy)
    if langs is None:
        return {}, {}
    found = objectlangs.term_languages(conn, site.tables, langs, taxonomy, tt_ids)
    return ({tid: lang for tid, slug in found.items() if (lang := langs.by_slug(slug))},
            objectlangs.term_groups(conn, site.tables, langs, taxonomy, tt_ids))


def term_link(site: SiteContext, taxonomy: str, url: str, lang: Language | None) -> str:
    """Polylang's term_link filter: the term's language in its URL when `force_lang` is set."""
    langs = translated_taxonomy(site, taxonomy)
    if langs is None or lang is None or not langs.force_lang:
        return url
    return langlinks.add_language(site.links, langs, url, lang.slug)


def author_link(site: SiteContext, url: str) -> str:
    """Polylang's author_link filter: the URL in the language of the request (the host's
    language, else the default)."""
    langs = site.languages
    if langs is None:
        return url
    return langlinks.add_language(site.links, langs, url, langs.current or langs.default)


def author_alternates(conn: Connection, site: SiteContext) -> Callable[[int, str], Alternates]:
    """A function (user ID, author URL without language) -> hreflang: the author archive in
    each language where the author has published posts of type post (count_posts())."""
    langs = site.languages
    if langs is None:
        return lambda _uid, _url: ()
    counts = objectlangs.published_counts(conn, site.tables, langs, "post", by_author=True)

    def alternates(user_id: int, url: str) -> Alternates:
        pairs = [(lang, langlinks.add_language(site.links, langs, url, lang.slug))
                 for lang in langs.languages if counts.get((lang.slug, user_id), 0) > 0]
        return as_alternates(langlinks.hreflang(langs, pairs, site.options.home))

    return alternates
