"""`wpsitemaps explain`: every reason in words, the truth's reasons, and how objects are found."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import Connection

from tests.conftest import PEER_CONFIG
from tests.support.builder import Site
from wpsitemaps.cli import main
from wpsitemaps.config import load_settings
from wpsitemaps.explain.command import explain
from wpsitemaps.explain.command import explain_with
from wpsitemaps.explain.model import Explanation
from wpsitemaps.explain.model import NotFound
from wpsitemaps.sitemaps.registry import Registry
from wpsitemaps.wordpress.db import make_engine
from wpsitemaps.wordpress.site import build_site

# The truth file's reason codes, recognised in explain's words.
WORDS = [("status_draft", "draft"), ("status_private", "private"),
         ("status_pending", "pending review"), ("status_future", "scheduled until "),
         ("status_trash", "in the trash"), ("password_protected", "password-protected"),
         ("yoast_noindex_author", "noindexed by Yoast (wpseo_noindex_author)"),
         ("yoast_noindex", "noindexed by Yoast"), ("rank_math_noindex", "noindexed by Rank Math"),
         ("yoast_canonical_elsewhere", "canonical points to "), ("empty", "empty: "),
         ("no_published_posts", "no published posts of type post"),
         ("taxonomy_not_in_sitemaps", "taxonomy ")]


def codes(reasons: list[str]) -> set[str]:
    """The truth's codes for explain's reasons (each reason matches one code)."""
    out = set()
    for reason in reasons:
        code = next((c for c, words in WORDS if reason == words or (
            words.endswith(" ") and reason.startswith(words))), None)
        out.add(code or reason)
    return out


def _connect(url: str, **config: Any) -> Iterator[Connection]:
    settings = load_settings({"DATABASE_URL": url, **config}, environ={})
    engine = make_engine(settings)
    with engine.connect() as conn:
        yield conn
    engine.dispose()


@pytest.fixture(scope="module")
def registry(peer_sqlite_url: str) -> Iterator[Registry]:
    """peer-small as a command sees it."""
    settings = load_settings({"DATABASE_URL": peer_sqlite_url, **PEER_CONFIG}, environ={})
    for conn in _connect(peer_sqlite_url, **PEER_CONFIG):
        yield Registry(conn, build_site(conn, settings))


def one(registry: Registry, text: str) -> Explanation:
    """The single object `text` names."""
    found = explain(registry, text)
    assert len(found) == 1, found
    return found[0]


def content_reasons(ex: Explanation) -> list[str]:
    """The content sitemap's reasons."""
    return ex.listings[0].reasons


def test_post_reasons_are_the_truths(registry: Registry, truth: dict[str, Any]) -> None:
    """Every excluded post of the truth gets exactly the truth's reasons, all of them."""
    for row in truth["excluded"]:
        ex = one(registry, str(row["id"]))
        assert codes(content_reasons(ex)) == set(row["reasons"]), (row, ex)
    assert len(truth["excluded"]) == 36


def test_term_and_author_reasons_are_the_truths(registry: Registry,
                                                truth: dict[str, Any]) -> None:
    """Every excluded term and user of the truth gets the truth's reasons."""
    for row in truth["excluded_terms"]:
        ex = one(registry, f"term:{row['id']}")
        assert codes(content_reasons(ex)) == set(row.get("reasons", [row["reason"]])), ex
        assert ex.url in (row["loc"], None)
    for row in truth["excluded_users"]:
        ex = one(registry, f"author:{row['id']}")
        assert codes(content_reasons(ex)) == set(row["reasons"]), (row, ex)


def test_public_and_p_urls_find_the_post(registry: Registry, truth: dict[str, Any]) -> None:
    """Each excluded row's get_permalink() (pretty or ?p=) finds it, and is its URL."""
    for row in truth["excluded"]:
        ex = one(registry, row["loc"])
        assert (ex.id, ex.url) == (row["id"], row["loc"])


def test_listed_urls_find_their_object(registry: Registry, truth: dict[str, Any]) -> None:
    """Every listed URL of the truth (posts, pages, events, terms) finds its object."""
    for ptype in truth["post_types"].values():
        for entry in ptype["entries"]:
            ex = one(registry, entry["loc"])
            assert (ex.id, ex.listings[0].listed) == (entry["id"], True)
    for tax in truth["taxonomies"].values():
        for entry in tax["entries"]:
            ex = one(registry, entry["loc"])
            assert (ex.kind, ex.id, ex.url) == ("term", entry["id"], entry["loc"])


def test_old_slug_urls_find_the_renamed_post(registry: Registry, truth: dict[str, Any]) -> None:
    """A URL under a post's old slug (_wp_old_slug) finds the post and says so."""
    rows = [r for r in truth["excluded"] + [e for t in truth["post_types"].values()
                                            for e in t["entries"]] if r.get("old_slug_urls")]
    assert rows
    for row in rows:
        for url in row["old_slug_urls"]:
            ex = one(registry, url)
            assert ex.id == row["id"] and ex.found_by.startswith("old slug"), ex


def test_author_urls_find_the_user(registry: Registry, truth: dict[str, Any]) -> None:
    """An author archive URL finds the user."""
    for row in truth["authors"]["entries"] + truth["excluded_users"]:
        assert one(registry, row["loc"]).id == row["id"]


def test_query_var_slug_finds_the_object(registry: Registry, truth: dict[str, Any]) -> None:
    """A plain-permalink URL by slug (?event=slug, ?tag=slug) finds the event or the tag."""
    event = truth["post_types"]["event"]["entries"][0]
    slug = event["loc"].rstrip("/").rsplit("/", 1)[-1]
    assert one(registry, f"http://127.0.0.1:8080/?event={slug}").id == event["id"]
    tag = truth["taxonomies"]["post_tag"]["entries"][0]
    assert one(registry, f"http://127.0.0.1:8080/?tag={tag['slug']}").id == tag["id"]


def test_unknown_slug_is_not_found(registry: Registry) -> None:
    """A URL nothing answers to raises NotFound with the slug in words."""
    with pytest.raises(NotFound, match="no-such-thing"):
        explain(registry, "http://127.0.0.1:8080/no-such-thing/")


def test_scheduled_post_says_until_when(registry: Registry) -> None:
    """A future post is 'scheduled until' its post_date_gmt."""
    assert content_reasons(one(registry, "51")) == ["scheduled until 2026-12-13T19:24:03+00:00"]


def test_internal_type_excluded_by_configuration(registry: Registry,
                                                 truth: dict[str, Any]) -> None:
    """peer_internal (configured exclude = true) is excluded by configuration."""
    ids = [r["id"] for r in truth["private"]["posts"]
           if r["reason"] == "type_not_public:peer_internal"]
    for pid in ids:
        assert content_reasons(one(registry, str(pid))) == [
            "post type 'peer_internal' is excluded by configuration "
            "(post_types.peer_internal.exclude)"]


def test_unregistered_type_is_not_public(peer_sqlite_url: str, truth: dict[str, Any]) -> None:
    """Without configuration, peer_internal (no rewrite rules, no Yoast settings) is not
    public."""
    pid = next(r["id"] for r in truth["private"]["posts"] if "peer_internal" in r["reason"])
    config = {k: v for k, v in PEER_CONFIG.items() if k != "POST_TYPES"}
    for conn in _connect(peer_sqlite_url, **config):
        ex = explain_with(conn, load_settings({"DATABASE_URL": peer_sqlite_url, **config},
                                              environ={}), str(pid))[0]
    assert content_reasons(ex)[0].startswith("post type 'peer_internal' is not public")


def test_news_window_older_than_48_hours(registry: Registry, truth: dict[str, Any]) -> None:
    """A listed post outside the window is 'older than 48 h', with the time it left."""
    older = [e for e in truth["excluded"] if e["post_type"] == "post" and one(
        registry, str(e["id"])).listings[2].reasons[-1:] == [
        "older than 48 h: published 2026-11-27T16:14:03+00:00, out of the news window since "
        "2026-11-29T16:14:03+00:00"]]
    assert [e["id"] for e in older] == [30]


def test_news_in_window_until(registry: Registry, truth: dict[str, Any]) -> None:
    """A news article says until when it stays in the window."""
    listing = one(registry, "1").listings[2]
    assert listing.listed and listing.file == "news-sitemap.xml"
    assert listing.notes == ["in the 48-hour news window until 2026-12-01T16:24:03+00:00"]


def test_news_category_excluded(peer_sqlite_url: str, truth: dict[str, Any]) -> None:
    """A news article in a category of news_excluded_categories says so."""
    config = {**PEER_CONFIG, "NEWS_EXCLUDED_CATEGORIES": ["uncategorized", "news", "world",
                                                          "europe", "local", "tech",
                                                          "gadgets", "kultur-gesellschaft"]}
    for conn in _connect(peer_sqlite_url, **config):
        settings = load_settings({"DATABASE_URL": peer_sqlite_url, **config}, environ={})
        reasons = [explain_with(conn, settings, str(e["id"]))[0].listings[2].reasons
                   for e in truth["news"]["entries"]]
    assert any(r and r[0].startswith("news category excluded") for r in reasons), reasons


def test_site_discouraging_search_engines(make_app: Any, tmp_path: Path) -> None:
    """With blog_public = 0 every sitemap gives that reason, even for a published post."""
    site = Site()
    pid = site.post("Hello", name="hello")
    site.option("blog_public", "0")
    url = site.write_sqlite(tmp_path / "private.sqlite")
    for conn in _connect(url, NOW="option:test_now"):
        ex = explain_with(conn, load_settings({"DATABASE_URL": url}, environ={}), str(pid))[0]
    assert [item.listed for item in ex.listings] == [False, False, False]
    assert content_reasons(ex)[0].startswith("the site discourages search engines")


@pytest.mark.parametrize(("key", "value", "plugin"), [
    ("_aioseop_noindex", "on", "All in One SEO"), ("_seopress_robots_index", "yes", "SEOPress"),
    ("rank_math_robots", 'a:1:{i:0;s:7:"noindex";}', "Rank Math")])
def test_other_seo_plugins_noindex(tmp_path: Path, key: str, value: str, plugin: str) -> None:
    """A post noindexed by another SEO plugin names that plugin."""
    site = Site()
    pid = site.post("Hidden", name="hidden", meta={key: value})
    url = site.write_sqlite(tmp_path / "seo.sqlite")
    for conn in _connect(url):
        ex = explain_with(conn, load_settings({"DATABASE_URL": url}, environ={}), str(pid))[0]
    assert content_reasons(ex) == [f"noindexed by {plugin}"]


def test_images_name_their_source(registry: Registry, truth: dict[str, Any]) -> None:
    """Image entries carry featured / content / gallery as the truth's image_sources say."""
    kinds = {"featured": "featured", "content_img": "content",
             "content_img_wp_image_class": "content", "gallery_ids": "gallery",
             "gallery_attached_children": "gallery"}
    checked = 0
    for entry in truth["post_types"]["post"]["entries"]:
        if not entry.get("image_sources"):
            continue
        found = [img.source for img in one(registry, str(entry["id"])).images]
        assert found == [kinds[s["from"]] for s in entry["image_sources"]], entry["id"]
        checked += 1
    assert checked >= 10


def test_video_left_out_says_why(registry: Registry, truth: dict[str, Any]) -> None:
    """A post whose only video has no thumbnail gets that reason for the video."""
    reasons = [v.reason for e in truth["post_types"]["post"]["entries"]
               for v in one(registry, str(e["id"])).videos if not v.listed]
    assert any(r and r.startswith("no thumbnail") for r in reasons), reasons


def test_cli_text_and_json(peer_sqlite_url: str, monkeypatch: pytest.MonkeyPatch,
                           tmp_path: Path) -> None:
    """The command prints text, or JSON with the same verdicts; exit 1 when not found."""
    config = tmp_path / "peer.toml"
    config.write_text(f'database_url = "{peer_sqlite_url}"\nnow = "option:peer_generated_at"\n')
    monkeypatch.setenv("WPSITEMAPS_CONFIG", str(config))
    runner = CliRunner()
    text = runner.invoke(main, ["explain", "http://127.0.0.1:8080/?p=19"])
    assert text.exit_code == 0 and "NOT LISTED\n    - draft\n" in text.output
    data = json.loads(runner.invoke(main, ["explain", "19", "--json"]).output)
    assert data[0]["listings"][0]["reasons"] == ["draft"]
    missing = runner.invoke(main, ["explain", "999999"])
    assert missing.exit_code == 1 and "no post with ID 999999" in missing.output


@pytest.mark.mariadb
def test_mariadb_gives_the_same_verdicts(registry: Registry, peer_mariadb_url: str,
                                         truth: dict[str, Any]) -> None:
    """On MariaDB every excluded object and every news article gets SQLite's verdicts."""
    from dataclasses import asdict

    targets = [str(r["id"]) for r in truth["excluded"] + truth["news"]["entries"]]
    targets += [f"term:{r['id']}" for r in truth["excluded_terms"]]
    targets += [f"author:{r['id']}" for r in truth["excluded_users"]]
    settings = load_settings({"DATABASE_URL": peer_mariadb_url, **PEER_CONFIG}, environ={})
    for conn in _connect(peer_mariadb_url, **PEER_CONFIG):
        other = Registry(conn, build_site(conn, settings))
        for target in targets:
            assert [asdict(e) for e in explain(other, target)] == [
                asdict(e) for e in explain(registry, target)], target


def test_static_front_and_posts_pages_are_first_links(tmp_path: Path) -> None:
    """The front page is listed as the page sitemap's first link (the home URL), the posts
    page as the post sitemap's."""
    site = Site()
    front = site.post("Home", post_type="page", name="home")
    blog = site.post("Blog", post_type="page", name="blog")
    site.post("A post", name="a-post")
    site.option("show_on_front", "page")
    site.option("page_on_front", str(front))
    site.option("page_for_posts", str(blog))
    url = site.write_sqlite(tmp_path / "front.sqlite")
    for conn in _connect(url):
        settings = load_settings({"DATABASE_URL": url, "NOW": "option:test_now"}, environ={})
        home, posts = (explain_with(conn, settings, str(i))[0].listings[0] for i in (front, blog))
    assert (home.listed, home.file, home.loc) == (True, "page-sitemap.xml", "http://example.test/")
    assert (posts.listed, posts.file, posts.loc) == (True, "post-sitemap.xml",
                                                     "http://example.test/blog/")
