"""WPML sites: languages, URLs and hreflang read from WPML's documented tables and settings.

The rows are shaped as https://wpml.org/documentation/support/wpml-tables/ describes them
(tests/support/wpml.py); no real WPML wrote them (it is not freely available to run here).
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.conftest import require_mariadb
from tests.support import wpdb
from tests.support.builder import Site
from tests.support.sitemaps import assert_valid
from tests.support.sitemaps import parse_urlset
from tests.support.wpml import Wpml
from wpsitemaps import create_app

XHTML = "{http://www.w3.org/1999/xhtml}"
NEWS = "{http://www.google.com/schemas/sitemap-news/0.9}"
LANGS = [("en", "en_US", "en"), ("de", "de_DE", "de"), ("br", "pt_BR", "pt-br")]
BACKENDS = ["sqlite", pytest.param("mariadb", marks=pytest.mark.mariadb)]
Writer = Callable[[Wpml, str], str]


@pytest.fixture
def write(tmp_path: Path) -> Iterator[Writer]:
    """Factory: write a WPML site to SQLite or MariaDB (dropped after the test); its URL."""
    made: list[str] = []

    def writer(wpml: Wpml, backend: str) -> str:
        if backend == "sqlite":
            return wpml.write_sqlite(tmp_path / f"wpml{len(made)}.sqlite")
        require_mariadb()
        url, name = wpml.write_mariadb(f"wpml{len(made)}")
        made.append(name)
        return url

    yield writer
    for name in made:
        wpdb.drop_mariadb(name)


def wpml_app(tmp_path: Path, write: Writer | None = None, backend: str = "sqlite",
             **settings: Any) -> Flask:
    """A WPML site: a post in en/de/pt-BR, an untranslated post, a draft translation and a
    translated category pair."""
    site = Site()
    wpml = Wpml(site, LANGS, **settings)
    news = site.term("News", "category", slug="news")
    nachrichten = site.term("Nachrichten", "category", slug="nachrichten")
    wpml.group("tax_category", {"en": news, "de": nachrichten})
    wpml.group("tax_category", {"en": site.uncategorized})
    fresh = site.now - timedelta(hours=3)
    hello = site.post("Hello", name="hello", terms=(news,), date=fresh)
    hallo = site.post("Hallo", name="hallo", terms=(nachrichten,), date=fresh)
    ola = site.post("Olá", name="ola", terms=(news,), date=fresh)
    wpml.group("post_post", {"en": hello, "de": hallo, "br": ola})
    alone = site.post("Alone", name="alone", terms=(news,))
    draft = site.post("Entwurf", name="entwurf", status="draft")
    wpml.group("post_post", {"en": alone, "de": draft})
    url = write(wpml, backend) if write else wpml.write_sqlite(tmp_path / "wpml.sqlite")
    return create_app({"TESTING": True, "DATABASE_URL": url, "TABLE_PREFIX": "wp_",
                       "NOW": "option:test_now"})


def links(app: Flask, name: str, host: str = "http://localhost",
          ) -> dict[str, list[tuple[str, str]]]:
    """{loc: [(hreflang, href)]} of one served sitemap (validated), requested on `host`."""
    body = app.test_client().get(f"/{name}-sitemap.xml", base_url=host).data
    assert_valid(body, name)
    return {u.loc: [(a.get("hreflang", ""), a.get("href", ""))
                    for a in u.element.findall(XHTML + "link")] for u in parse_urlset(body)}


def test_directories_with_tags_as_hreflang(tmp_path: Path) -> None:
    """Directory mode: /de/…, the default language without; hreflang from icl_languages.tag."""
    got = links(wpml_app(tmp_path), "post")
    assert got["http://example.test/hello/"] == [
        ("en", "http://example.test/hello/"), ("de", "http://example.test/de/hallo/"),
        ("pt-br", "http://example.test/br/ola/")]
    assert got["http://example.test/alone/"] == []


def test_directory_for_default_language(tmp_path: Path) -> None:
    """urls.directory_for_default_language puts the default language in /en/ too."""
    got = links(wpml_app(tmp_path, urls={"directory_for_default_language": 1}), "post")
    assert "http://example.test/en/hello/" in got


def test_language_parameter(tmp_path: Path) -> None:
    """language_negotiation_type 3: ?lang=de, the default language without."""
    got = links(wpml_app(tmp_path, language_negotiation_type=3), "post")
    assert "http://example.test/hallo/?lang=de" in got and "http://example.test/hello/" in got


@pytest.mark.parametrize("backend", BACKENDS)
def test_language_domains(tmp_path: Path, write: Writer, backend: str) -> None:
    """language_negotiation_type 2: each language on its domain from language_domains, and
    each domain serves its own language's set (WPML_WPSEO_XML_Sitemaps_Filter per domain:
    filter_single_type_where() on Yoast's queries, the terms filter kept)."""
    app = wpml_app(tmp_path, write, backend, language_negotiation_type=2,
                   language_domains={"de": "example.de", "br": "example.com.br"})
    english = links(app, "post", "http://example.test")
    german = links(app, "post", "http://example.de")
    brazilian = links(app, "post", "http://example.com.br")
    assert set(german) == {"http://example.de/", "http://example.de/hallo/"}
    assert set(brazilian) == {"http://example.com.br/", "http://example.com.br/ola/"}
    assert {"http://example.test/hello/", "http://example.test/alone/"} <= set(english)
    assert not any("example.de" in loc or "example.com.br" in loc for loc in english)
    assert german["http://example.de/hallo/"] == english["http://example.test/hello/"]
    categories = links(app, "category", "http://example.de")
    assert set(categories) == {"http://example.de/category/nachrichten/"}


def test_translated_terms_by_term_taxonomy_id(tmp_path: Path) -> None:
    """Terms (looked up as tax_category by term_taxonomy_id, here equal to the term_id): the
    German category is /de/category/nachrichten/, linked to its English twin."""
    got = links(wpml_app(tmp_path), "category")
    assert got["http://example.test/de/category/nachrichten/"] == [
        ("en", "http://example.test/category/news/"),
        ("de", "http://example.test/de/category/nachrichten/")]


def test_news_language_from_wpml(tmp_path: Path) -> None:
    """news:language is each article's WPML language (pt_BR -> pt)."""
    body = wpml_app(tmp_path).test_client().get("/news-sitemap.xml").data
    got = {u.loc: u.element.findtext(f"{NEWS}news/{NEWS}publication/{NEWS}language")
           for u in parse_urlset(body)}
    assert got["http://example.test/br/ola/"] == "pt"
    assert got["http://example.test/de/hallo/"] == "de"


def test_settings_without_tables_are_ignored(tmp_path: Path) -> None:
    """WPML's option left behind without its tables: a one-language site, no error."""
    site = Site()
    site.option("icl_sitepress_settings", {"default_language": "en",
                                           "active_languages": ["en", "de"]})
    site.post("Hello", name="hello")
    app = create_app({"TESTING": True, "DATABASE_URL": site.write_sqlite(tmp_path / "w.sqlite"),
                      "TABLE_PREFIX": "wp_", "NOW": "option:test_now"})
    assert "http://example.test/hello/" in links(app, "post")


@pytest.mark.parametrize("backend", BACKENDS)
def test_hidden_language_is_not_listed(tmp_path: Path, write: Writer, backend: str) -> None:
    """hidden_languages (WPML_WPSEO_XML_Sitemaps_Filter::exclude_hidden_language_posts(),
    SitePress::get_active_languages()): German posts, categories and home are not listed and
    no hreflang points to them; the other languages keep theirs."""
    app = wpml_app(tmp_path, write, backend, hidden_languages=["de"])
    posts = links(app, "post")
    assert "http://example.test/de/hallo/" not in posts
    assert "http://example.test/de/" not in posts and "http://example.test/br/" in posts
    assert posts["http://example.test/hello/"] == [
        ("en", "http://example.test/hello/"), ("pt-br", "http://example.test/br/ola/")]
    categories = links(app, "category")
    assert "http://example.test/category/news/" in categories
    assert not any("nachrichten" in loc for loc in categories)
    assert categories["http://example.test/category/news/"] == []
    body = app.test_client().get("/news-sitemap.xml").data
    assert_valid(body, "news")
    news = [u.loc for u in parse_urlset(body)]
    assert "http://example.test/br/ola/" in news and "http://example.test/de/hallo/" not in news


@pytest.mark.parametrize("backend", BACKENDS)
def test_translated_base_slugs(write: Writer, backend: str) -> None:
    """String Translation's `URL slug: event` (WPML_Slug_Translation::post_type_link_filter()):
    the German event under /de/veranstaltungen/, the Brazilian one keeps /events/ (its
    translation is not complete), the English original /events/; hreflang the same."""
    site = Site()
    wpml = Wpml(site, LANGS, custom_posts_sync_option={"event": 1},
                posts_slug_translation={"on": 1, "types": {"event": 1}})
    members = {code: site.post(f"Concert {code}", post_type="event", name=f"concert-{code}")
               for code, _, _ in LANGS}
    wpml.group("post_event", members)
    wpml.base_slug("event", "en", "events", {"de": ("veranstaltungen", 10),
                                             "br": ("eventos", 2)})
    url = write(wpml, backend)
    app = create_app({"TESTING": True, "DATABASE_URL": url, "TABLE_PREFIX": "wp_",
                      "NOW": "option:test_now",
                      "POST_TYPES": {"event": {"rewrite_slug": "events"}}})
    got = links(app, "event")
    want = [("en", "http://example.test/events/concert-en/"),
            ("de", "http://example.test/de/veranstaltungen/concert-de/"),
            ("pt-br", "http://example.test/br/events/concert-br/")]
    assert got == {loc: want for _, loc in want}
