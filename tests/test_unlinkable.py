"""Objects no URL reaches (an empty slug or nicename, dot segments, '#', an unknown permalink
tag) are left out of every sitemap and named by `wpsitemaps check`; the ID-based links of
plain permalinks keep them listed, as WordPress links them there (docs/sitemaps.md)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from flask import Flask

from tests.support.builder import Site
from tests.support.sitemaps import assert_valid
from tests.support.sitemaps import fetch_all
from tests.support.sitemaps import parse_urlset
from tests.test_polylang_modes import links
from tests.test_polylang_modes import multilingual
from wpsitemaps import create_app
from wpsitemaps.check import run_check
from wpsitemaps.config import load_settings
from wpsitemaps.explain.others import explain_author
from wpsitemaps.explain.posts import explain_post
from wpsitemaps.sitemaps.registry import Registry
from wpsitemaps.wordpress.db import make_engine
from wpsitemaps.wordpress.queries import lookup
from wpsitemaps.wordpress.site import build_site

HOME = "http://example.test"
BACKENDS = ["sqlite", pytest.param("mariadb", marks=pytest.mark.mariadb)]


def odd_site(structure: str = "/%postname%/") -> tuple[Site, dict[str, int]]:
    """A site with one good object of each kind and one odd object of each kind."""
    site = Site(permalink_structure=structure)
    ids: dict[str, int] = {}
    writer = site.user("writer", "Writer")
    nobody = site.user("nobody", "Nobody")
    site.rows["users"][-1]["user_nicename"] = ""
    ids["author"] = nobody
    good_cat = site.term("Good", "category", slug="good")
    empty_cat = site.term("Empty", "category", slug="x")
    site.rows["terms"][-1]["slug"] = ""
    ids["category"] = empty_cat
    dotted_tag = site.term("Dots", "post_tag", slug="./")
    ids["post_tag"] = dotted_tag
    site.post("Good", name="good-post", author=writer, terms=(good_cat,))
    ids["empty"] = site.post("No slug", name="", author=writer, terms=(empty_cat,))
    ids["dots"] = site.post("Dots", name="a/../b", author=nobody, terms=(dotted_tag,))
    ids["hash"] = site.post("Hash", name="x#y", author=writer)
    ids["escaped"] = site.post("Escaped dots", name="c/%2E%2e/d", author=writer)
    site.post("Good page", post_type="page", name="good-page")
    ids["page"] = site.post("Dot page", post_type="page", name="..")
    for row in site.rows["term_taxonomy"]:
        row["count"] = 1
    return site, ids


def all_locs(app: Flask, first: bool = True) -> list[str]:
    """Every <loc> of every sitemap the index lists, each document validated; first=False
    leaves out each sitemap's first link (the home URL of posts and pages)."""
    locs: list[str] = []
    for path, body in fetch_all(app.test_client()).items():
        assert_valid(body, path)
        if path != "/sitemap_index.xml":
            found = [url.loc for url in parse_urlset(body)]
            locs.extend(found if first or path not in ("/post-sitemap.xml", "/page-sitemap.xml")
                        else found[1:])
    return locs


def finding(kind: str, count: int, problem: str, example: int) -> str:
    """The `check` line naming objects left out."""
    return (f"finding       {kind}: {count} left out of the sitemaps, no URL reaches it "
            f"({problem}); e.g. ID {example}; fix it in WordPress")


def left_out(lines: list[str]) -> list[str]:
    """The `check` lines about objects no URL reaches."""
    return [line for line in lines if "no URL reaches it" in line]


def check_lines(url: str) -> list[str]:
    """The lines `wpsitemaps check` prints for a database."""
    lines: list[str] = []
    assert run_check(load_settings(environ={"WPSITEMAPS_DATABASE_URL": url}),
                     lines.append) == 0
    return lines


@pytest.mark.parametrize("backend", BACKENDS)
def test_unreachable_objects_are_left_out(make_app: Callable[..., Flask], backend: str) -> None:
    """No sitemap lists the home URL twice, /author/, /category/, a dot segment or a '#'."""
    site, _ = odd_site()
    locs = all_locs(make_app(site, backend), first=False)
    assert f"{HOME}/good-post/" in locs and f"{HOME}/good-page/" in locs
    assert f"{HOME}/author/writer/" in locs and f"{HOME}/category/good/" in locs
    for bad in (f"{HOME}/", f"{HOME}/author/", f"{HOME}/category/", f"{HOME}/tag/./"):
        assert bad not in locs
    assert not [loc for loc in locs if "/../" in loc or "/./" in loc or loc.endswith("/../")
                or "#" in loc or "%2e" in loc.lower()]


@pytest.mark.parametrize("backend", BACKENDS)
def test_check_names_what_is_left_out(write_site: Callable[[Site, str], str],
                                      backend: str) -> None:
    """`check` prints one line per kind and reason, with the count and one ID."""
    site, ids = odd_site()
    lines = check_lines(write_site(site, backend))
    assert left_out(lines) == [
        finding("post", 1, "empty slug", ids["empty"]),
        finding("post", 2, "dot segment in slug", ids["dots"]),
        finding("post", 1, "'#' in slug", ids["hash"]),
        finding("page", 1, "dot segment in slug", ids["page"]),
        finding("category", 1, "empty slug", ids["category"]),
        finding("post_tag", 1, "dot segment in slug", ids["post_tag"]),
        finding("author", 1, "empty slug", ids["author"]),
    ]


def test_plain_permalinks_keep_them_listed(make_app: Callable[..., Flask],
                                           tmp_path: Path) -> None:
    """With plain permalinks WordPress links by ID (?p=, ?page_id=, ?author=, ?cat=), so
    only the tag, linked by its slug, is left out."""
    site, ids = odd_site(structure="")
    locs = all_locs(make_app(site))
    for pid in (ids["empty"], ids["dots"], ids["hash"], ids["escaped"]):
        assert f"{HOME}/?p={pid}" in locs
    assert f"{HOME}/?page_id={ids['page']}" in locs
    assert f"{HOME}/?author={ids['author']}" in locs
    assert f"{HOME}/?cat={ids['category']}" in locs
    assert left_out(check_lines(site.write_sqlite(tmp_path / "plain.sqlite"))) == []


def test_unknown_structure_tag_leaves_posts_out(make_app: Callable[..., Flask],
                                                tmp_path: Path) -> None:
    """A '%bogus%' tag, which get_permalink() leaves in every post's URL, takes the posts
    out (not '%25bogus%25' URLs) and `check` counts them; pages keep their URLs."""
    site, ids = odd_site(structure="/%bogus%/%postname%/")
    locs = all_locs(make_app(site))
    assert not [loc for loc in locs if "bogus" in loc]
    assert f"{HOME}/good-page/" in locs
    left = left_out(check_lines(site.write_sqlite(tmp_path / "bogus.sqlite")))
    first_post = min(ids["empty"], ids["dots"], ids["hash"]) - 1  # the good post
    assert left[0] == finding("post", 5, "unknown permalink tag %bogus%", first_post)


def test_hash_in_structure_leaves_posts_out(make_app: Callable[..., Flask],
                                            tmp_path: Path) -> None:
    """A structure '/%postname%/#more' makes every post's URL the home page plus a fragment
    path: no post is listed with a '#', and `check` counts them."""
    site, _ = odd_site(structure="/%postname%/#more")
    locs = all_locs(make_app(site))
    assert not [loc for loc in locs if "#" in loc or "%23" in loc]
    left = left_out(check_lines(site.write_sqlite(tmp_path / "hash.sqlite")))
    assert left[0].startswith("finding       post: 5 left out of the sitemaps, no URL reaches "
                              "it ('#' in the permalink structure); e.g. ID ")


def test_query_var_links_cut_by_hash_or_ampersand(make_app: Callable[..., Flask]) -> None:
    """With plain links a custom type is '?book=slug', pasted unencoded by add_query_arg():
    '#' or '&' in the slug cuts the value, dots and '/' do not."""
    site = Site(permalink_structure="")
    kept = site.post("Kept", post_type="book", name="a/../b")
    site.post("Hash", post_type="book", name="x#y")
    site.post("Amp", post_type="book", name="fish&chips")
    locs = all_locs(make_app(site, POST_TYPES={"book": {}}))
    books = [loc for loc in locs if "?book=" in loc]
    assert books == [f"{HOME}/?book=a/../b"], (books, kept)


def test_no_hreflang_points_at_them(make_app: Callable[..., Flask]) -> None:
    """On a Polylang site, the English post and category keep their own entries but name no
    German translation whose slug is empty (its URL would be the German home or base)."""
    site = multilingual()
    for table, key, value in (("posts", "post_name", "hallo"), ("terms", "slug", "nachrichten")):
        row = next(r for r in site.rows[table] if r[key] == value)
        row[key] = ""
    app = make_app(site)
    posts, categories = links(app, "post"), links(app, "category")
    assert posts[f"{HOME}/hello/"] == [] and categories[f"{HOME}/category/news/"] == []
    assert f"{HOME}/de/category/" not in categories


def test_explain_gives_the_reason(make_app: Callable[..., Flask],
                                  write_site: Callable[[Site, str], str]) -> None:
    """`explain` says why: the fresh post without slug is in neither the post nor the news
    sitemap (which builds its entries the same way), nor is the author without nicename."""
    site, ids = odd_site()
    fresh = site.post("Fresh, no slug", name="", date=site.now - timedelta(hours=2))
    url = write_site(site, "sqlite")
    client = make_app_for(url).test_client()
    news = client.get("/news-sitemap.xml")
    assert news.status_code == 200
    assert [u.loc for u in parse_urlset(news.data)] == [f"{HOME}/good-post/"]
    settings = load_settings({"DATABASE_URL": url, "NOW": "option:test_now"}, environ={})
    engine = make_engine(settings)
    try:
        with engine.connect() as conn:
            registry = Registry(conn, build_site(conn, settings))
            post = explain_post(registry, lookup.post(conn, registry.site.tables, fresh), "ID")
            author = explain_author(registry, ids["author"], "ID")
    finally:
        engine.dispose()
    why = "no URL reaches it: empty slug (wpsitemaps check)"
    assert [(item.sitemap, item.listed, item.reasons) for item in post.listings
            if item.sitemap in ("content", "news")] == [("content", False, [why]),
                                                        ("news", False, [why])]
    assert [(item.listed, item.reasons) for item in author.listings] == [(False, [why])]


def make_app_for(url: str) -> Flask:
    """The app on a database already written (the site's clock option)."""
    return create_app({"TESTING": True, "DATABASE_URL": url, "NOW": "option:test_now"})
