"""Each trace of a public post type or taxonomy, on data shaped exactly as the plugin that
writes it stores it (the plugin source is cited in wordpress/traces.py and plugintypes.py)."""

from __future__ import annotations

import json
from typing import Any

from wpsitemaps.config import Settings
from wpsitemaps.config import load_settings
from wpsitemaps.demo.wp import php_serialize
from wpsitemaps.wordpress.contenttypes import SiteTypes
from wpsitemaps.wordpress.discovery import discover
from wpsitemaps.wordpress.options import parse_options
from wpsitemaps.wordpress.site import evidence_from

# What WordPress writes for a public `book` type and `genre` taxonomy with default rewrite.
BOOK_RULES = {"book/([^/]+)(?:/([0-9]+))?/?$": "index.php?book=$matches[1]&page=$matches[2]",
              "genre/([^/]+)/?$": "index.php?genre=$matches[1]"}


def settings(**extra: Any) -> Settings:
    """Settings with nothing configured but a database URL."""
    return load_settings({"DATABASE_URL": "sqlite://", **extra}, environ={})


def types(options: dict[str, Any], structure: str = "/%postname%/", **extra: Any) -> SiteTypes:
    """Discovery on these options (dicts are PHP-serialized, as WordPress stores them)."""
    raw = {"home": "http://x.test", "permalink_structure": structure,
           "rewrite_rules": php_serialize(BOOK_RULES) if structure else ""}
    raw |= {k: v if isinstance(v, str) else php_serialize(v) for k, v in options.items()}
    opts = parse_options(raw)
    return discover(opts, settings(**extra), evidence_from(opts))


def names(found: SiteTypes) -> tuple[list[str], list[str]]:
    """The custom post types and taxonomies listed."""
    return ([t.name for t in found.post_types if not t.evidence == "builtin"],
            [t.name for t in found.taxonomies if not t.evidence == "builtin"])


def test_rules_alone_list_nothing() -> None:
    """Without an archive rule or settings, rules alone are no proof of a public type."""
    assert names(types({})) == ([], [])


def test_yoast_titles_list_types() -> None:
    """Yoast's wpseo_titles keys (title-book, noindex-tax-genre) list both."""
    titles = {"title-book": "%%title%%", "noindex-book": False, "title-tax-genre": "x",
              "noindex-tax-genre": False, "title-home-wpseo": "x", "noindex-author-wpseo": False}
    assert names(types({"wpseo_titles": titles})) == (["book"], ["genre"])


def test_rank_math_titles_list_types() -> None:
    """Rank Math's installer keys pt_book_title/_robots and tax_genre_title/_robots list both;
    pt_x_custom_robots alone names nothing."""
    titles = {"pt_book_title": "%title% %sep% %sitename%", "pt_book_robots": ["index"],
              "pt_book_custom_robots": "off", "pt_book_archive_title": "%title%",
              "tax_genre_title": "%term%", "tax_genre_robots": ["index"],
              "tax_genre_custom_robots": "off", "pt_post_title": "%title%",
              "pt_post_robots": []}
    assert names(types({"rank-math-options-titles": titles})) == (["book"], ["genre"])


def test_aioseo_dynamic_options_list_types() -> None:
    """All in One SEO's JSON searchAppearance.postTypes/taxonomies list both."""
    dynamic = {"sitemap": {"priority": {"postTypes": {}, "taxonomies": {}}},
               "searchAppearance": {"postTypes": {"post": {"show": True},
                                                  "book": {"show": True}},
                                    "taxonomies": {"genre": {"show": True}},
                                    "archives": {"book": {"show": True}}}}
    assert names(types({"aioseo_options_dynamic": json.dumps(dynamic)})) == (["book"],
                                                                             ["genre"])


def test_seopress_titles_list_types() -> None:
    """SEOPress's seopress_titles_single_titles / _tax_titles keys list both."""
    titles = {"seopress_titles_sep": "-",
              "seopress_titles_single_titles": {"book": {"title": "%%post_title%%"}},
              "seopress_titles_tax_titles": {"genre": {"title": "%%term_title%%"}}}
    assert names(types({"seopress_titles_option_name": titles})) == (["book"], ["genre"])


def test_settings_of_a_deactivated_plugin_list_nothing() -> None:
    """Settings naming a type WordPress wrote no rules for (pretty permalinks) are stale."""
    titles = {"seopress_titles_single_titles": {"movie": {"title": "x"}}}
    found = types({"seopress_titles_option_name": titles})
    assert names(found) == ([], [])
    assert "no rewrite rules" in next(r.evidence for r in found.report if r.name == "movie")


def test_settings_list_types_on_plain_permalinks() -> None:
    """With plain permalinks (no rules at all) settings are enough: ?book=slug links."""
    found = types({"wpseo_titles": {"title-book": "x"}}, structure="")
    book = found.post_type("book")
    assert book is not None and book.base is None and book.query_var == "book"


def test_events_calendar_options_give_its_urls() -> None:
    """tribe_events_calendar_options: single slug, events page archive, category base."""
    rules = {"fest/([^/]+)(?:/([0-9]+))?/?$":
             "index.php?tribe_events=$matches[1]&page=$matches[2]",
             "programm/category/(.+?)/?$": "index.php?tribe_events_cat=$matches[1]"}
    found = types({"rewrite_rules": rules, "tribe_events_calendar_options":
                   {"eventsSlug": "programm", "singleEventSlug": "fest", "schema-version": "6"}})
    event, cat = found.post_type("tribe_events"), found.taxonomy("tribe_events_cat")
    assert event is not None and (event.base, event.archive) == ("fest", "programm")
    assert cat is not None and (cat.base, cat.hierarchical) == ("programm/category", True)


def test_ambiguous_taxonomy_follows_the_probe() -> None:
    """A taxonomy known from its own query var rule is listed when the probe finds terms on
    published posts of listed types, and reported otherwise."""
    raw = {"home": "http://x.test", "permalink_structure": "/%postname%/",
           "rewrite_rules": php_serialize(BOOK_RULES)}
    asked: list[tuple[list[str], list[str]]] = []

    def probe(taxonomies: Any, post_types: Any) -> set[str]:
        asked.append((list(taxonomies), list(post_types)))
        return {"genre"}

    found = discover(parse_options(raw), settings(), probe=probe)
    assert asked == [(["genre"], ["post", "page"])]
    genre = found.taxonomy("genre")
    assert genre is not None and "defaults to public" in genre.evidence
    empty = discover(parse_options(raw), settings(), probe=lambda t, p: set())
    assert empty.taxonomy("genre") is None


def test_woocommerce_options_without_its_rules_list_nothing() -> None:
    """WooCommerce's options outlive the plugin: without its rules (pretty permalinks) the
    product type is reported as inactive, not listed."""
    found = types({"woocommerce_version": "7.9.0",
                   "woocommerce_permalinks": {"product_base": "product"}})
    assert found.post_type("product") is None
    report = next(r for r in found.report if r.name == "product")
    assert not report.listed and "inactive" in report.evidence
