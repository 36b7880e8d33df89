"""Load a site's languages: Polylang's option and terms, or WPML's settings and tables.

Polylang 3.x: see wordpress/languages.py. WPML (https://wpml.org/documentation/support/
wpml-tables/): the option `icl_sitepress_settings` (serialized; `language_negotiation_type`
1 = directory, 2 = domain per language, 3 = `?lang=` parameter; `urls` →
`directory_for_default_language`; `default_language`; `active_languages`;
`language_domains`; `custom_posts_sync_option` / `taxonomies_sync_option`, 1 = translated;
`hidden_languages`, the codes of active languages only editors see)
and the table `{prefix}icl_languages` (`code`, `default_locale`, `tag`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.exc import SQLAlchemyError

from wpsitemaps.wordpress.languages import ALWAYS_TRANSLATED_POST_TYPES
from wpsitemaps.wordpress.languages import ALWAYS_TRANSLATED_TAXONOMIES
from wpsitemaps.wordpress.languages import Language
from wpsitemaps.wordpress.languages import Languages
from wpsitemaps.wordpress.languages import flag
from wpsitemaps.wordpress.languages import names
from wpsitemaps.wordpress.languages import parse_settings
from wpsitemaps.wordpress.limits import transient
from wpsitemaps.wordpress.objectlangs import post_groups
from wpsitemaps.wordpress.objectlangs import post_languages
from wpsitemaps.wordpress.options import SiteOptions
from wpsitemaps.wordpress.phpdata import as_dict
from wpsitemaps.wordpress.phpdata import unserialize
from wpsitemaps.wordpress.queries import languages as ql
from wpsitemaps.wordpress.queries import wpml as qw
from wpsitemaps.wordpress.schema import WPTables

# WPML's language_negotiation_type -> the links model it matches (wordpress/langlinks.py).
WPML_MODES = {1: 1, 2: 3, 3: 4}


def load_languages(conn: Connection, t: WPTables, opts: SiteOptions,
                   prefix: str = "wp_") -> Languages | None:
    """The site's languages (Polylang first, then WPML), or None on a one-language site."""
    langs = _polylang(conn, t, opts)
    if langs is None and opts.raw.get("icl_sitepress_settings"):
        langs = _wpml(conn, opts, prefix)
    if langs is None:
        return None
    return _with_static_pages(conn, t, opts, langs)


def _polylang(conn: Connection, t: WPTables, opts: SiteOptions) -> Languages | None:
    settings = parse_settings(opts.raw.get("polylang"))
    if not settings:
        return None
    rows = ql.language_terms(conn, t)
    twins = {str(r.slug): int(r.term_taxonomy_id) for r in rows if r.taxonomy == "term_language"}
    languages = tuple(
        Language(str(r.slug), str(r.name), _locale(r.description, str(r.slug)),
                 int(r.term_taxonomy_id), twins.get(f"pll_{r.slug}", 0))
        for r in rows if r.taxonomy == "language")
    if not languages:
        return None
    media = ("attachment",) if flag(settings.get("media_support")) else ()
    return Languages(
        languages, str(settings.get("default_lang") or languages[0].slug),
        force_lang=_int(settings.get("force_lang"), 1),
        hide_default=flag(settings.get("hide_default")), rewrite=flag(settings.get("rewrite")),
        redirect_lang=flag(settings.get("redirect_lang")),
        domains={str(k): str(v).rstrip("/") for k, v in as_dict(settings.get("domains")).items()
                 if v},
        post_types=frozenset(ALWAYS_TRANSLATED_POST_TYPES + media) | names(
            settings.get("post_types")),
        taxonomies=frozenset(ALWAYS_TRANSLATED_TAXONOMIES) | names(settings.get("taxonomies")))


def _wpml(conn: Connection, opts: SiteOptions, prefix: str) -> Languages | None:
    settings = as_dict(unserialize(opts.raw.get("icl_sitepress_settings"),
                                   "option icl_sitepress_settings"))
    active = [str(c) for c in (as_dict(settings.get("active_languages")).values())]
    try:
        rows = {str(r.code): r for r in qw.languages(conn, prefix)}
    except SQLAlchemyError as exc:
        if transient(exc):
            raise  # a timeout is not a missing table: the site must not lose its languages
        return None  # WPML's settings without its tables: nothing to go on
    order = [str(c) for c in as_dict(settings.get("languages_order")).values()] or active
    # Hidden languages are active but shown to no visitor (SitePress::get_active_languages()
    # drops them unless a logged-in editor asked to see them).
    hidden = frozenset(str(c) for c in as_dict(settings.get("hidden_languages")).values())
    codes = [c for c in order if c in active and c in rows and c not in hidden] + [
        c for c in active if c in rows and c not in order and c not in hidden]
    if not codes:
        return None
    languages = tuple(Language(c, str(rows[c].english_name or c),
                               str(rows[c].default_locale or c), tag=str(rows[c].tag or ""))
                      for c in codes)
    scheme = opts.home.split("://", 1)[0]
    domains = {str(k): (str(v) if "://" in str(v) else f"{scheme}://{v}").rstrip("/")
               for k, v in as_dict(settings.get("language_domains")).items() if v}
    urls = as_dict(settings.get("urls"))
    mode = WPML_MODES.get(_int(settings.get("language_negotiation_type"), 1), 1)
    return Languages(
        languages, str(settings.get("default_language") or codes[0]),
        force_lang=mode,
        # Only directories can show the default language (directory_for_default_language).
        hide_default=mode != 1 or not flag(urls.get("directory_for_default_language")),
        rewrite=True, redirect_lang=True, domains=domains,
        post_types=frozenset(ALWAYS_TRANSLATED_POST_TYPES) | _synced(
            settings.get("custom_posts_sync_option")),
        taxonomies=frozenset(ALWAYS_TRANSLATED_TAXONOMIES) | _synced(
            settings.get("taxonomies_sync_option")),
        plugin="wpml", prefix=prefix, hidden=hidden,
        base_slugs=_base_slugs(conn, opts, settings, prefix, codes))


# ICL_TM_COMPLETE: a string translation WPML uses (WPML_ST_Slug::is_translation_complete()).
STRING_COMPLETE = 10


def _base_slugs(conn: Connection, opts: SiteOptions, settings: dict[Any, Any], prefix: str,
                codes: list[str]) -> dict[str, dict[str, str]]:
    """{post type: {language: base slug}} of the custom types whose base WPML String
    Translation translates (WPML_Slug_Translation::post_type_link_filter()): on when the
    option `wpml_base_slug_translation` is (older sites: `posts_slug_translation.on`, which
    WPML migrates to it) and the type is ticked in `posts_slug_translation.types`. A
    language's slug is the string's original value in its original language, else a
    complete translation (WPML_ST_Slug::filter_value()); without one the base stays."""
    slug_settings = as_dict(settings.get("posts_slug_translation"))
    enabled = opts.raw.get("wpml_base_slug_translation")
    if not flag(enabled if enabled is not None else slug_settings.get("on")):
        return {}
    types = [str(k) for k, v in as_dict(slug_settings.get("types")).items() if flag(v)]
    if not types:
        return {}
    try:
        rows = qw.slug_strings(conn, prefix, [f"URL slug: {t}" for t in types])
    except SQLAlchemyError as exc:
        if transient(exc):
            raise
        return {}  # String Translation's tables are not there: bases stay as registered
    out: dict[str, dict[str, str]] = {}
    for name, original_lang, original, lang, value, status in rows:
        slugs = out.setdefault(name.removeprefix("URL slug: "), {})
        if original_lang and original:
            slugs[original_lang] = original.strip("/")
        if lang and value and status == STRING_COMPLETE and lang != original_lang:
            slugs[str(lang)] = str(value).strip("/")
    return {t: {c: v for c, v in slugs.items() if c in codes} for t, slugs in out.items()}


def _synced(value: Any) -> frozenset[str]:
    """Types WPML translates (sync option 1, or 2: 'translatable, use original if missing')."""
    return frozenset(str(k) for k, v in as_dict(value).items() if str(v) in ("1", "2"))


def _with_static_pages(conn: Connection, t: WPTables, opts: SiteOptions,
                       langs: Languages) -> Languages:
    """The per-language front pages and posts pages (PLL_Static_Pages::get_translation():
    the translations of page_on_front / page_for_posts, or the page itself in its language)."""
    if opts.show_on_front != "page":
        return langs
    wanted = [pid for pid in (opts.page_on_front, opts.page_for_posts) if pid > 0]
    groups = post_groups(conn, t, langs, "page", wanted)
    own = post_languages(conn, t, langs, "page", wanted)
    out: list[dict[str, int]] = []
    for pid in (opts.page_on_front, opts.page_for_posts):
        group = groups.get(pid, {}) if pid > 0 else {}
        if pid > 0 and not group and pid in own:
            group = {own[pid]: pid}
        out.append({lang.slug: group[lang.slug] for lang in langs.languages
                    if lang.slug in group})
    return replace(langs, front_pages=out[0], posts_pages=out[1])


def _locale(description: str | None, fallback: str) -> str:
    return str(as_dict(unserialize(description, "language term description")).get("locale")
               or fallback)


def _int(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default
