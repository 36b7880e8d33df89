"""Every sitemap name is served once, as WordPress's registry refuses a taken name; the add-on
sitemaps take Yoast's `yoast-video` / `yoast-news` names when theirs is taken."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from tests.support.builder import Site
from tests.support.sitemaps import assert_valid
from tests.support.sitemaps import parse_index
from tests.support.sitemaps import parse_urlset

MakeApp = Callable[..., Flask]
HOME = "http://example.test"
CLIP = ('<!-- wp:html -->\n<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" '
        'width="560" height="315"></iframe>\n<!-- /wp:html -->')
VIDEO_NS = b"http://www.google.com/schemas/sitemap-video/1.1"


def _site(post_type: str = "post", taxonomy: str | None = None) -> Site:
    """A site with a post that shows a YouTube video (within the news window), one post of
    `post_type` and, if given, a term of `taxonomy` on the post."""
    site = Site(home=HOME)
    pid = site.post("Clip", name="clip", content=CLIP, date=site.now)
    if post_type != "post":
        site.post("Typed", name="typed", post_type=post_type)
    if taxonomy is not None:
        site.relate(pid, site.term("Topic", taxonomy, slug="topic"))
    return site


def _names(app: Flask) -> list[str]:
    """The sitemap file names the index lists, in order."""
    body = app.test_client().get("/sitemap_index.xml").data
    return [loc.rsplit("/", 1)[1] for loc, _ in parse_index(body)]


def _config(post_type: str | None = None, taxonomy: str | None = None) -> dict[str, Any]:
    config: dict[str, Any] = {}
    if post_type:
        config["POST_TYPES"] = {post_type: {"rewrite_slug": post_type}}
    if taxonomy:
        config["TAXONOMIES"] = {taxonomy: {"rewrite_slug": taxonomy}}
    return config


def test_post_type_video_keeps_its_name_and_the_video_sitemap_moves(make_app: MakeApp) -> None:
    """A post type `video` owns video-sitemap.xml; the video sitemap is yoast-video-sitemap.xml."""
    app = make_app(_site("video"), **_config(post_type="video"))
    names = _names(app)
    assert names.count("video-sitemap.xml") == 1 and "yoast-video-sitemap.xml" in names
    typed = app.test_client().get("/video-sitemap.xml").data
    assert [u.loc for u in parse_urlset(typed)] == [f"{HOME}/video/typed/"]
    videos = app.test_client().get("/yoast-video-sitemap.xml").data
    assert_valid(videos)
    assert VIDEO_NS in videos and f"{HOME}/clip/".encode() in videos


def test_taxonomy_news_keeps_its_name_and_the_news_sitemap_moves(make_app: MakeApp) -> None:
    """A taxonomy `news` owns news-sitemap.xml; the news sitemap is yoast-news-sitemap.xml."""
    app = make_app(_site(taxonomy="news"), **_config(taxonomy="news"))
    names = _names(app)
    assert names.count("news-sitemap.xml") == 1 and "yoast-news-sitemap.xml" in names
    terms = app.test_client().get("/news-sitemap.xml").data
    assert [u.loc for u in parse_urlset(terms)] == [f"{HOME}/news/topic/"]
    news = app.test_client().get("/yoast-news-sitemap.xml").data
    assert b"<news:news>" in news and f"{HOME}/clip/".encode() in news


def test_taxonomy_video_moves_the_video_sitemap(make_app: MakeApp) -> None:
    """A taxonomy `video` owns video-sitemap.xml; the video sitemap is yoast-video-sitemap.xml."""
    app = make_app(_site(taxonomy="video"), **_config(taxonomy="video"))
    names = _names(app)
    assert names.count("video-sitemap.xml") == 1 and "yoast-video-sitemap.xml" in names
    assert VIDEO_NS not in app.test_client().get("/video-sitemap.xml").data


def test_post_type_news_moves_the_news_sitemap(make_app: MakeApp) -> None:
    """A post type `news` owns news-sitemap.xml (Yoast News SEO's own rename)."""
    app = make_app(_site("news"), **_config(post_type="news"))
    names = _names(app)
    assert names.count("news-sitemap.xml") == 1 and "yoast-news-sitemap.xml" in names
    typed = app.test_client().get("/news-sitemap.xml").data
    assert b"<news:news>" not in typed


def test_taxonomy_named_like_a_post_type_is_left_out_loudly(
        make_app: MakeApp, caplog: pytest.LogCaptureFixture) -> None:
    """A taxonomy `genre` beside a post type `genre`: the post type is served, the taxonomy
    is not, and a warning says so."""
    site = _site("genre", taxonomy="genre")
    config = {**_config(post_type="genre"), "TAXONOMIES": {"genre": {"rewrite_slug": "kind"}}}
    app = make_app(site, **config)
    with caplog.at_level(logging.WARNING, logger="wpsitemaps.sitemaps.registry"):
        names = _names(app)
    assert names.count("genre-sitemap.xml") == 1
    served = app.test_client().get("/genre-sitemap.xml").data
    assert [u.loc for u in parse_urlset(served)] == [f"{HOME}/genre/typed/"]
    assert any("taxonomy 'genre' is not served" in r.getMessage() for r in caplog.records)


def test_post_type_author_hides_the_author_sitemap_loudly(
        make_app: MakeApp, caplog: pytest.LogCaptureFixture) -> None:
    """A post type `author` owns author-sitemap.xml; the author sitemap is not served, loudly."""
    app = make_app(_site("author"), **_config(post_type="author"))
    with caplog.at_level(logging.WARNING, logger="wpsitemaps.sitemaps.registry"):
        names = _names(app)
    assert names.count("author-sitemap.xml") == 1
    served = app.test_client().get("/author-sitemap.xml").data
    assert [u.loc for u in parse_urlset(served)] == [f"{HOME}/author/typed/"]
    assert any("author sitemap is not served" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize(("post_type", "taxonomy"), [("video", None), (None, "news"),
                                                     (None, "video"), ("news", None)])
def test_index_never_lists_a_name_twice(make_app: MakeApp, post_type: str | None,
                                        taxonomy: str | None) -> None:
    """Whatever the clash, each file name appears once in the index."""
    app = make_app(_site(post_type or "post", taxonomy), **_config(post_type, taxonomy))
    names = _names(app)
    assert len(names) == len(set(names))
