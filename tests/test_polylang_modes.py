"""Polylang's other URL settings (pll-small is directory mode with the default language shown):
hidden default language, subdomains, domains, plain permalinks, language from content.

The sites are builder sites whose Polylang rows are shaped as Polylang 3.4.6 stores them
(tests/support/polylang.py); the expected URLs follow Polylang's own tests
(tests/phpunit/tests/test-links-directory.php, -subdomain.php, -domain.php, -default.php).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from tests.support.builder import Site
from tests.support.polylang import Polylang
from tests.support.sitemaps import assert_valid
from tests.support.sitemaps import parse_urlset

XHTML = "{http://www.w3.org/1999/xhtml}"
NEWS = "{http://www.google.com/schemas/sitemap-news/0.9}"


def multilingual(structure: str = "/%postname%/", front: bool = False,
                 languages: tuple[tuple[str, str], ...] = (("en", "en_US"), ("de", "de_DE")),
                 about: bool = False, **options: Any) -> Site:
    """en + de: a translated post pair, an untranslated post, a draft translation, a translated
    category pair and (optionally) translated static front pages and a translated page."""
    site = Site(permalink_structure=structure)
    pll = Polylang(site, list(languages), **options)
    news_en = pll.term(site.term("News", "category", slug="news"), "en")
    news_de = pll.term(site.term("Nachrichten", "category", slug="nachrichten"), "de")
    pll.translations("term", {"en": news_en, "de": news_de})
    hello = pll.post(site.post("Hello", name="hello", terms=(news_en,)), "en")
    hallo = pll.post(site.post("Hallo", name="hallo", terms=(news_de,)), "de")
    extras = {slug: pll.post(site.post(f"Hello {slug}", name=f"hello-{slug}"), slug)
              for slug, _ in languages[2:]}
    pll.translations("post", {"en": hello, "de": hallo, **extras})
    pll.post(site.post("Only English", name="only-english", terms=(news_en,)), "en")
    lonely = pll.post(site.post("Lonely", name="lonely", terms=(news_en,)), "en")
    draft = pll.post(site.post("Entwurf", name="entwurf", status="draft"), "de")
    pll.translations("post", {"en": lonely, "de": draft})
    if front:
        home_en = pll.post(site.post("Home", post_type="page", name="home"), "en")
        home_de = pll.post(site.post("Startseite", post_type="page", name="startseite"), "de")
        pll.translations("post", {"en": home_en, "de": home_de})
        site.options.update(show_on_front="page", page_on_front=str(home_en))
    if about:
        about_en = pll.post(site.post("About", post_type="page", name="about"), "en")
        about_de = pll.post(site.post("Über uns", post_type="page", name="ueber-uns"), "de")
        pll.translations("post", {"en": about_en, "de": about_de})
    return site


def links(app: Flask, name: str, host: str = "http://localhost",
          ) -> dict[str, list[tuple[str, str]]]:
    """{loc: [(hreflang, href)]} of one served sitemap (validated), requested on `host`."""
    body = app.test_client().get(f"/{name}-sitemap.xml", base_url=host).data
    assert_valid(body, name)
    return {u.loc: [(a.get("hreflang", ""), a.get("href", ""))
                    for a in u.element.findall(XHTML + "link")] for u in parse_urlset(body)}


def test_hidden_default_language(make_app: Callable[..., Flask]) -> None:
    """hide_default: English URLs have no directory, German ones /de/, no x-default."""
    app = make_app(multilingual(hide_default=1))
    got = links(app, "post")
    assert got["http://example.test/hello/"] == [
        ("en", "http://example.test/hello/"), ("de", "http://example.test/de/hallo/")]
    assert got["http://example.test/de/hallo/"] == got["http://example.test/hello/"]
    assert got["http://example.test/only-english/"] == []
    assert got["http://example.test/lonely/"] == []


def test_default_language_shown(make_app: Callable[..., Flask]) -> None:
    """hide_default 0: every language has its directory, English included."""
    got = links(make_app(multilingual(hide_default=0)), "post")
    assert "http://example.test/en/hello/" in got and "http://example.test/de/hallo/" in got


def test_language_base_without_rewrite(make_app: Callable[..., Flask]) -> None:
    """rewrite 0 keeps Polylang's /language/ base: /language/de/hallo/."""
    got = links(make_app(multilingual(rewrite=0)), "post")
    assert "http://example.test/language/de/hallo/" in got


def test_translated_terms_carry_their_language(make_app: Callable[..., Flask]) -> None:
    """A German category is /de/category/nachrichten/ with hreflang to its English twin."""
    got = links(make_app(multilingual()), "category")
    assert got["http://example.test/de/category/nachrichten/"] == [
        ("en", "http://example.test/category/news/"),
        ("de", "http://example.test/de/category/nachrichten/")]


def test_subdomains(make_app: Callable[..., Flask]) -> None:
    """force_lang 2: German on de.example.test, the hidden default on the bare host."""
    got = links(make_app(multilingual(force_lang=2)), "post")
    assert got["http://example.test/hello/"] == [
        ("en", "http://example.test/hello/"), ("de", "http://de.example.test/hallo/")]


def test_domains(make_app: Callable[..., Flask]) -> None:
    """force_lang 3: each language on its own domain from the `domains` setting, each
    domain serving its own language's posts (tests/test_pll_hosts.py: Yoast's sets)."""
    site = multilingual(force_lang=3, hide_default=0,
                        domains={"en": "http://example.test", "de": "http://example.de"})
    app = make_app(site)
    german = links(app, "post", "http://example.de")
    english = links(app, "post", "http://example.test")
    assert "http://example.de/hallo/" in german and "http://example.test/hello/" in english
    assert "http://example.test/hello/" not in german
    assert "http://example.de/hallo/" not in english
    assert german["http://example.de/hallo/"] == english["http://example.test/hello/"]


def test_domains_front_pages_have_no_x_default(make_app: Callable[..., Flask]) -> None:
    """On domains each front page is its domain's root and Polylang prints no x-default."""
    site = multilingual(front=True, force_lang=3, hide_default=0, about=True,
                        domains={"en": "http://example.test", "de": "http://example.de"})
    app = make_app(site)
    got = links(app, "page", "http://example.test")
    assert got["http://example.test/"] == [("en", "http://example.test/"),
                                          ("de", "http://example.de/")]
    assert "http://example.de/" in links(app, "page", "http://example.de")


def test_plain_permalinks(make_app: Callable[..., Flask]) -> None:
    """Plain permalinks: ?p=ID&lang=de (links-default.php), the hidden default without."""
    site = multilingual(structure="")
    got = links(make_app(site), "post")
    assert got["http://example.test/?p=1"] == [("en", "http://example.test/?p=1"),
                                              ("de", "http://example.test/?p=2&lang=de")]


def test_language_from_content(make_app: Callable[..., Flask]) -> None:
    """force_lang 0: posts keep their URL; the languages still form hreflang groups."""
    got = links(make_app(multilingual(force_lang=0)), "post")
    assert got["http://example.test/hallo/"] == [("en", "http://example.test/hello/"),
                                                ("de", "http://example.test/hallo/")]


def test_front_page_without_redirect(make_app: Callable[..., Flask]) -> None:
    """redirect_lang 0: the German front page keeps its page URL, the hidden default is /."""
    got = links(make_app(multilingual(front=True)), "page")
    assert got["http://example.test/"] == [("en", "http://example.test/"),
                                          ("de", "http://example.test/de/startseite/")]


def test_front_page_with_redirect_and_x_default(make_app: Callable[..., Flask]) -> None:
    """redirect_lang 1, default shown: front pages are /en/ and /de/, plus x-default /."""
    got = links(make_app(multilingual(front=True, redirect_lang=1, hide_default=0)), "page")
    assert got["http://example.test/en/"] == [("en", "http://example.test/en/"),
                                             ("de", "http://example.test/de/"),
                                             ("x-default", "http://example.test/")]


def test_shared_language_gets_region(make_app: Callable[..., Flask]) -> None:
    """Two locales of one language (pt_BR, pt_PT) keep their region in hreflang, others not."""
    site = multilingual(languages=(("en", "en_US"), ("de", "de_DE"), ("br", "pt_BR"),
                                   ("pt", "pt_PT")))
    got = links(make_app(site), "post")
    assert [code for code, _ in got["http://example.test/hello/"]] == [
        "en", "de", "pt-BR", "pt-PT"]


def test_posts_on_front_lists_every_language_home(make_app: Callable[..., Flask]) -> None:
    """Front page showing posts: the post sitemap starts with each language's home."""
    locs = list(links(make_app(multilingual(hide_default=0)), "post"))
    assert locs[:2] == ["http://example.test/en/", "http://example.test/de/"]


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("mariadb",
                                                            marks=pytest.mark.mariadb)])
def test_news_language(make_app: Callable[..., Flask], backend: str) -> None:
    """news:language is each article's own language."""
    app = make_app(multilingual(), backend=backend)
    body = app.test_client().get("/news-sitemap.xml").data
    got = {u.loc: u.element.findtext(f"{NEWS}news/{NEWS}publication/{NEWS}language")
           for u in parse_urlset(body)}
    assert got["http://example.test/de/hallo/"] == "de"
    assert got["http://example.test/hello/"] == "en"


def test_one_language_site_has_no_hreflang(make_app: Callable[..., Flask]) -> None:
    """Without Polylang's option nothing changes: no xhtml namespace at all."""
    site = Site()
    site.post("Hello", name="hello")
    body = make_app(site).test_client().get("/post-sitemap.xml").data
    assert b"xhtml" not in body
