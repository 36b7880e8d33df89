"""The languages of a multilingual site, read from Polylang's own option and terms.

Polylang 3.x (polylang/polylang, include/model.php, include/options.php) stores:
- the option `polylang` (serialized): `force_lang` (0 content, 1 directory, 2 subdomain,
  3 domain), `hide_default`, `rewrite` (1: no `/language/` base), `redirect_lang`,
  `default_lang`, `domains` (lang => URL, domain mode), `media_support`, and the translated
  custom `post_types` and `taxonomies`;
- one term per language in the taxonomy `language` (description: serialized `locale`, `rtl`,
  `flag_code`; order: term_group, then term_id) and a twin in `term_language` (`pll_<slug>`);
- the translated static front pages and posts pages are the translations of `page_on_front`
  and `page_for_posts` (include/static-pages.php, get_translation()).

This module holds the model and the parsing of Polylang's serialized values; loading (Polylang
or WPML) is in wordpress/langload.py, object languages in wordpress/objectlangs.py, URLs in
wordpress/langlinks.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from wpsitemaps.wordpress.phpdata import as_dict
from wpsitemaps.wordpress.phpdata import unserialize

ALWAYS_TRANSLATED_POST_TYPES = ("post", "page", "wp_block")
ALWAYS_TRANSLATED_TAXONOMIES = ("category", "post_tag")


@dataclass(frozen=True)
class Language:
    """One language: its slug, locale and the terms that tag objects with it."""

    slug: str
    name: str
    locale: str
    tt_id: int = 0  # Polylang: term_taxonomy_id of its `language` term (posts)
    term_tt_id: int = 0  # Polylang: term_taxonomy_id of its `term_language` term (terms)
    tag: str = ""  # WPML: icl_languages.tag, its hreflang code

    @property
    def w3c(self) -> str:
        """PLL_Language::$w3c: the locale with a hyphen (de_DE -> de-DE), used for hreflang."""
        return self.locale.replace("_", "-")


@dataclass(frozen=True)
class Languages:
    """The language plugin's settings and languages for one site (WPML mapped onto
    Polylang's terms: force_lang, hide_default...)."""

    languages: tuple[Language, ...]
    default: str
    force_lang: int = 1
    hide_default: bool = True
    rewrite: bool = True
    redirect_lang: bool = False
    domains: Mapping[str, str] = field(default_factory=dict)
    post_types: frozenset[str] = frozenset(ALWAYS_TRANSLATED_POST_TYPES)
    taxonomies: frozenset[str] = frozenset(ALWAYS_TRANSLATED_TAXONOMIES)
    front_pages: Mapping[str, int] = field(default_factory=dict)  # slug -> page_on_front
    posts_pages: Mapping[str, int] = field(default_factory=dict)  # slug -> page_for_posts
    plugin: str = "polylang"  # or "wpml"
    prefix: str = ""  # WPML: the table prefix of its icl_* tables
    # Polylang's subdomain / domain modes: the language of the host a request came in on
    # (its sitemaps list only that language: PLL_WPSEO::wpseo_posts_where()); '' otherwise.
    current: str = ""
    # WPML's hidden languages (`hidden_languages`): left out of `languages` (visitors do not
    # see them: SitePress::get_active_languages()); their objects are not listed.
    hidden: frozenset[str] = frozenset()
    # WPML String Translation: {post type: {language: its base slug}} where the base is
    # translated (`URL slug: <type>` strings; wordpress/langload.py).
    base_slugs: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def by_slug(self, slug: str | None) -> Language | None:
        """The language with this slug, if any."""
        return next((lang for lang in self.languages if lang.slug == slug), None)



def _description(value: str | None) -> dict[Any, Any]:
    return as_dict(unserialize(value, "language term description"))


def _group(value: str | None) -> dict[str, int]:
    """A translation group's description as {lang slug: object id}."""
    out: dict[str, int] = {}
    for slug, oid in _description(value).items():
        try:
            out[str(slug)] = int(oid)
        except (TypeError, ValueError):
            continue
    return out


def parse_settings(raw: str | None) -> dict[Any, Any]:
    """The `polylang` option as a dict ({} when absent or broken)."""
    return as_dict(unserialize(raw, "option polylang")) if raw else {}


def names(value: Any) -> frozenset[str]:
    """The values of a PHP list or array setting as a set of strings."""
    return _names(value)


def _names(value: Any) -> frozenset[str]:
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return frozenset(str(v) for v in items)


def flag(value: Any) -> bool:
    """A PHP-ish boolean setting ('1', 1, true) as bool."""
    return _flag(value)


def _flag(value: Any) -> bool:
    return str(value).strip() not in ("", "0", "False", "None")


def translation_group(value: str | None) -> dict[str, int]:
    """Public form of _group(): a serialized group as {lang slug: object id}."""
    return _group(value)
