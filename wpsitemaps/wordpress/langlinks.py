"""Language in URLs exactly as Polylang's links models put it there. Pure functions.

Mirrors Polylang 3.4 (polylang/polylang): include/links-directory.php (force_lang 0 or 1 with
pretty permalinks: `/de/…`, `/language/de/…` without `rewrite`), links-subdomain.php
(force_lang 2: `de.example.com`), links-domain.php (force_lang 3: one domain per language),
links-default.php (plain permalinks: `?lang=de`), links-model.php / links-permalinks.php
(each language's home URL and static front page URL), and the `wp_head` hreflang rules of
frontend/frontend-filters-links.php. WPML's directory and domain modes give the same URLs;
its parameter mode is PARAMETER (`?lang=de`, the default language without).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import urlsplit

from wpsitemaps.wordpress.languages import Language
from wpsitemaps.wordpress.languages import Languages
from wpsitemaps.wordpress.permalinks import LinkSite
from wpsitemaps.wordpress.permalinks import add_query_arg
from wpsitemaps.wordpress.permalinks import home_url
from wpsitemaps.wordpress.permalinks import trailing

# Polylang's force_lang values; PARAMETER is WPML's `?lang=` mode (language_negotiation_type 3).
DIRECTORY, SUBDOMAIN, DOMAIN, PARAMETER = 1, 2, 3, 4


def _root(site: LinkSite) -> str:
    """PLL_Links_Permalinks::$root: 'index.php/' for PATHINFO permalinks, else ''."""
    return "index.php/" if re.match(r"^/*index\.php", site.structure) else ""


def _hidden(langs: Languages, slug: str) -> bool:
    return langs.hide_default and slug == langs.default


def _scheme_less(url: str) -> str:
    return re.sub(r"^https?://", "://", url)


def add_language(site: LinkSite, langs: Languages, url: str, slug: str | None) -> str:
    """PLL_Links_*::add_language_to_link($url, $slug) for the site's links model."""
    if not slug:
        return url
    if not site.structure or langs.force_lang == PARAMETER:
        return url if _hidden(langs, slug) else add_query_arg(url, "lang", slug)
    if langs.force_lang == SUBDOMAIN:
        www = "://www." if "://www." in site.home else "://"
        if f"://{slug}." in url or _hidden(langs, slug):
            return url
        return url.replace(www, f"://{slug}.")
    if langs.force_lang == DOMAIN:
        host = urlsplit(langs.domains.get(slug, "")).hostname
        if not host:
            return url
        home_host = re.escape(urlsplit(site.home).hostname or "")
        return re.sub(f"://({home_host})($|/.*)", lambda m: f"://{host}{m.group(2)}", url,
                      count=1)
    base = "" if langs.rewrite else "language/"
    prefix = "" if _hidden(langs, slug) else f"{base}{slug}/"
    root = _scheme_less(f"{site.home}/{_root(site)}")
    if root + prefix in url:
        return url
    return url.replace(root, root + prefix, 1)


def language_home(site: LinkSite, langs: Languages, slug: str) -> str:
    """PLL_Links_*::home_url($lang): the language's home, with a trailing slash."""
    if not site.structure or langs.force_lang == PARAMETER:
        home = site.home + "/"
        return home if _hidden(langs, slug) else add_query_arg(home, "lang", slug)
    if langs.force_lang == DOMAIN:
        return (langs.domains.get(slug) or site.home).rstrip("/") + "/"
    if langs.force_lang == SUBDOMAIN:
        return add_language(site, langs, site.home + "/", slug)
    base = "" if langs.rewrite else "language/"
    path = "" if _hidden(langs, slug) else f"/{_root(site)}{base}{slug}"
    return (site.home + path).rstrip("/") + "/"


def front_page_home(site: LinkSite, langs: Languages, slug: str, page_uri: str) -> str:
    """PLL_Links_Model::set_language_home_url(): where a language's static front page is.

    With `redirect_lang` (or in subdomain / domain mode) it is the language home; otherwise
    front_page_url(): the page's own URL with the language, or the bare home for the hidden
    default language.
    """
    if langs.redirect_lang or langs.force_lang in (SUBDOMAIN, DOMAIN):
        return language_home(site, langs, slug)
    if _hidden(langs, slug):
        return site.home + "/"
    page_id = langs.front_pages.get(slug, 0)
    if not site.structure:
        url = home_url(site, f"/?page_id={page_id}")
    else:
        url = trailing(site, home_url(site, _root(site) + page_uri))
    return add_language(site, langs, url, slug) if langs.force_lang else url


def hreflang(langs: Languages, urls: Sequence[tuple[Language, str]], home: str,
             front_page: bool = False) -> tuple[tuple[str, str], ...]:
    """PLL_Frontend_Filters_Links::wp_head(): (hreflang, URL) pairs for an object's
    translations (itself included), or () when there is no other language.

    The code is the language part of the W3C locale (`de`), the whole locale (`de-DE`) only
    when two listed languages share that part; the front page adds x-default (the site root)
    when the default language has its own directory and languages are not on domains.
    """
    if len(urls) < 2:
        return ()
    if langs.plugin == "wpml":
        # WPML_SEO_HeadLangs::get_hreflang_code(): icl_languages.tag (else the locale),
        # lower case with hyphens; no x-default.
        return tuple(((lang.tag or lang.locale).lower().replace("_", "-"), url)
                     for lang, url in urls)
    bases = [lang.w3c.split("-")[0] for lang, _ in urls]
    out = [(lang.w3c if bases.count(base) > 1 else base, url)
           for (lang, url), base in zip(urls, bases, strict=True)]
    if front_page and not langs.hide_default and langs.force_lang < DOMAIN:
        out.append(("x-default", home.rstrip("/") + "/"))
    return tuple(out)


def language_hosts(site: LinkSite, langs: Languages) -> dict[str, str]:
    """{host name: language slug} when each language has its own host, else {}.

    Polylang with subdomains or domains (force_lang 2 / 3, pretty permalinks: with plain
    ones PLL_Links_Default is used whatever force_lang says), WPML with a domain per
    language (WPML_WPSEO_XML_Sitemaps_Filter::is_per_domain()). The host of the site's own
    home belongs to the language whose home it is (the default language in both modes,
    PLL_Links_Subdomain / PLL_Links_Domain); a host no language has is left out.
    """
    if not site.structure or langs.force_lang not in (SUBDOMAIN, DOMAIN):
        return {}
    out: dict[str, str] = {}
    for lang in langs.languages:
        host = (urlsplit(language_home(site, langs, lang.slug)).hostname or "").lower()
        if host:
            out.setdefault(host, lang.slug)
    return out


def serving_home(site: LinkSite, langs: Languages | None) -> str:
    """The home, without trailing slash, that a request's sitemaps are served from: the
    current language's home on its own host (PLL_WPSEO::wpseo_home_url() switches the
    language of Yoast's sitemap URLs), else the site's home."""
    if langs is None or not langs.current:
        return site.home
    return language_home(site, langs, langs.current).rstrip("/")


def on_home_host(site: LinkSite, langs: Languages | None) -> bool:
    """Whether this request's host is the site's own home host. Objects Polylang does not
    translate keep their home-host URLs, which Yoast lists only there (on a language host
    its link classifier calls them external)."""
    home = (urlsplit(site.home).hostname or "").lower()
    return (urlsplit(serving_home(site, langs)).hostname or "").lower() == home


def translated_base(site: LinkSite, url: str, base: str | None, slug: str | None) -> str:
    """A custom type's URL with its base slug in the post's language, as WPML String
    Translation builds it before the language goes in (WPML_Slug_Translation::
    post_type_link_filter(): `/events/` -> `/veranstaltungen/` in the permalink structure,
    `events=` -> `veranstaltungen=` in a plain link)."""
    base = (base or "").strip("/")
    if not base or not slug or slug == base:
        return url
    if not site.structure:
        return url.replace(f"{base}=", f"{slug}=", 1)
    root = f"{site.home}/{_root(site)}"
    if url.startswith(root + base + "/"):
        return root + slug + "/" + url[len(root + base + "/"):]
    return url
