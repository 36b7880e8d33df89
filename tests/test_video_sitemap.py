"""video-sitemap.xml end to end: the peer dump's truth, each detection form, fields, paging."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any
from xml.etree import ElementTree as ET

import pytest
from flask import Flask

from tests.support.builder import Site
from tests.support.sitemaps import SM
from tests.support.sitemaps import VIDEO
from tests.support.sitemaps import assert_valid
from tests.support.sitemaps import parse_index
from tests.support.sitemaps import path_of
from wpsitemaps.content.urls import encode_url
from wpsitemaps.demo.wp import php_serialize

HOME = "http://example.test"
UPLOADS = HOME + "/wp-content/uploads/"
YT = "https://www.youtube.com/embed/"
VIMEO = "https://player.vimeo.com/video/"
FIELDS_LOGGER = "wpsitemaps.content.videofields"
MakeApp = Callable[..., Flask]


def video_map(body: bytes) -> dict[str, list[dict[str, Any]]]:
    """{loc: [video fields]} of a urlset; tags as a list, uploader info under 'info'."""
    out: dict[str, list[dict[str, Any]]] = {}
    for url in ET.fromstring(body).findall(SM + "url"):
        videos = []
        for video in url.findall(VIDEO + "video"):
            fields: dict[str, Any] = {child.tag.removeprefix(VIDEO): child.text
                                      for child in video if child.tag != VIDEO + "tag"}
            fields["tag"] = [t.text for t in video.findall(VIDEO + "tag")]
            uploader = video.find(VIDEO + "uploader")
            fields["info"] = uploader.get("info") if uploader is not None else None
            videos.append(fields)
        out[url.findtext(SM + "loc") or ""] = videos
    return out


def fetch(app: Flask, path: str = "/video-sitemap.xml") -> bytes:
    """GET a video sitemap page, check status and validity, return the body."""
    resp = app.test_client().get(path)
    assert resp.status_code == 200, path
    assert_valid(resp.data, path)
    return resp.data


# --- the peer dump ------------------------------------------------------------------------


def _thumbnail(entry: dict[str, Any], video: dict[str, Any]) -> str | None:
    """What the truth says the thumbnail must be: YouTube's, else the featured image."""
    found = video.get("thumbnail_loc") or entry.get("post_thumbnail")
    return encode_url(found) if found else None


def _loc_of(video: dict[str, Any]) -> tuple[str | None, str | None]:
    return video.get("player_loc"), video.get("content_loc")


def test_peer_video_sitemap_is_indexed_and_valid(peer_app: Flask) -> None:
    """The index lists video-sitemap.xml and it passes validate.py --google."""
    index = peer_app.test_client().get("/sitemap_index.xml").data
    assert "http://127.0.0.1:8080/video-sitemap.xml" in [loc for loc, _ in parse_index(index)]
    assert video_map(fetch(peer_app))


def test_peer_truth_videos_are_listed(peer_app: Flask, truth: dict[str, Any]) -> None:
    """Every truth video with a thumbnail is under its post's loc with the truth's fields."""
    served = video_map(fetch(peer_app))
    checked = 0
    for entry in truth["videos"]["entries"]:
        for video in entry["videos"]:
            thumb = _thumbnail(entry, video)
            if thumb is None:
                continue
            got = {_loc_of(v): v for v in served[entry["loc"]]}[_loc_of(video)]
            assert got["thumbnail_loc"] == thumb
            assert got.get("duration") == (str(video["duration"]) if "duration" in video
                                           else None)
            assert got["publication_date"] == entry["publication_date"]
            checked += 1
    assert checked == 13


def test_peer_urls_are_exactly_posts_with_usable_videos(peer_app: Flask,
                                                       truth: dict[str, Any]) -> None:
    """The <url>s are the truth's video posts that have a video with a thumbnail."""
    served = video_map(fetch(peer_app))
    wanted = {e["loc"]: sum(1 for v in e["videos"] if _thumbnail(e, v))
              for e in truth["videos"]["entries"]}
    assert {loc: len(v) for loc, v in served.items()} == {k: n for k, n in wanted.items() if n}


def test_peer_videos_without_thumbnail_are_logged(peer_app: Flask, truth: dict[str, Any],
                                                  caplog: pytest.LogCaptureFixture) -> None:
    """Vimeo and local files of posts without featured image are left out, with the reason."""
    caplog.set_level(logging.DEBUG, logger=FIELDS_LOGGER)
    fetch(peer_app)
    missing = {(e["id"], v.get("video_id") or v["content_loc"])
               for e in truth["videos"]["entries"] for v in e["videos"] if not _thumbnail(e, v)}
    logged = {m for m in caplog.messages if "left out: no thumbnail" in m}
    assert len(missing) == 11
    for post_id, ident in missing:
        assert any(m.startswith(f"post {post_id}: ") and ident in m for m in logged), ident


def test_peer_default_thumbnail_serves_every_truth_video(peer_url: str, truth: dict[str, Any]
                                                        ) -> None:
    """With video_default_thumbnail set, all 24 videos of the truth are served, the ones
    without a thumbnail of their own showing the default."""
    from tests.conftest import PEER_CONFIG
    from wpsitemaps import create_app

    default = "https://cdn.example.org/video-default.jpg"
    app = create_app({"TESTING": True, "DATABASE_URL": peer_url, **PEER_CONFIG,
                      "VIDEO_DEFAULT_THUMBNAIL": default})
    served = video_map(fetch(app))
    expected = {e["loc"]: sorted(_thumbnail(e, v) or default for v in e["videos"])
                for e in truth["videos"]["entries"]}
    assert sum(len(v) for v in expected.values()) == 24
    assert {loc: sorted(v["thumbnail_loc"] for v in vs) for loc, vs in served.items()} == expected


def test_peer_titles_and_descriptions(peer_app: Flask, truth: dict[str, Any]) -> None:
    """Titles are the decoded stored titles; descriptions the excerpt or the content text."""
    assert any(not e["title_raw"] for e in truth["videos"]["entries"])
    served = video_map(fetch(peer_app))
    for entry in truth["videos"]["entries"]:
        for got in served.get(entry["loc"], []):
            # An empty post title falls back to the description's start (Google needs one).
            title = entry["title_raw"] or got["description"]
            assert got["title"] == (title if len(title) <= 100 else title[:99].rstrip() + "…")
            if entry["description_from"] == "post_excerpt":
                assert got["description"] == entry["description"]
            else:
                assert got["description"].startswith(entry["description"].removesuffix(" […]"))


def test_peer_no_video_from_hidden_posts(peer_app: Flask, truth: dict[str, Any]) -> None:
    """No <url> belongs to a private, excluded or non-public post."""
    served = set(video_map(fetch(peer_app)))
    hidden = {e[k] for e in truth["excluded"] + list(truth["private"].get("posts", []))
              for k in ("loc", "would_be_loc") if isinstance(e, dict) and e.get(k)}
    listed = {e["loc"] for t in truth["post_types"].values() for e in t["entries"]}
    assert served and served <= listed
    assert not served & hidden


def test_peer_uploader_and_tags(peer_app: Flask, truth: dict[str, Any]) -> None:
    """Uploader is the author's display name with the author URL; tags are the post's."""
    served = video_map(fetch(peer_app))
    authors = {a["id"]: a for a in truth["authors"]["entries"]}
    anna = next(a for a in authors.values() if a["login"] == "anna")
    videos = [v for vs in served.values() for v in vs]
    assert any(v["uploader"] == "Anna Müller" and v["info"] == anna["loc"] for v in videos)
    assert any(v["tag"] for v in videos)
    assert all(len(v["tag"]) <= 32 for v in videos)


# --- detection forms on built sites (markup as WordPress stored it in the dump) ----------


def _site_with(content: str, featured: bool = True, **post: Any) -> tuple[Site, int]:
    """A site with one published post holding content (and a featured image)."""
    site = Site(home=HOME)
    pid = site.post("Clip post", content=content, excerpt="An excerpt.", **post)
    if featured:
        image = site.attachment("2026/11/poster.jpg", parent=pid)
        site.postmeta(pid, "_thumbnail_id", str(image))
    return site, pid


def _videos(make_app: MakeApp, site: Site, pid: int) -> list[dict[str, Any]]:
    """The video fields served for post pid."""
    return video_map(fetch(make_app(site))).get(f"{HOME}/post-{pid}/", [])


IFRAME = ('<!-- wp:html -->\n<iframe width="560" height="315" '
          'src="https://www.youtube.com/embed/dQw4w9WgXcQ" title="YouTube video player" '
          'frameborder="0" allowfullscreen></iframe>\n<!-- /wp:html -->')
EMBED_BLOCK = (
    '<!-- wp:embed {"url":"https://www.youtube.com/watch?v=jNQXAC9IVRw","type":"video",'
    '"providerNameSlug":"youtube","responsive":true} -->\n<figure class="wp-block-embed '
    'is-type-video is-provider-youtube wp-block-embed-youtube"><div class="wp-block-embed__'
    'wrapper">\nhttps://www.youtube.com/watch?v=jNQXAC9IVRw\n</div></figure>\n'
    '<!-- /wp:embed -->')
VIMEO_BLOCK = EMBED_BLOCK.replace("https://www.youtube.com/watch?v=jNQXAC9IVRw",
                                  "https://vimeo.com/76979873").replace("youtube", "vimeo")
VIMEO_IFRAME = ('<iframe title="Peer vimeo 76979873" src="https://player.vimeo.com/video/'
                '76979873?dnt=1&amp;app_id=122963" width="500" height="281" frameborder="0" '
                'allowfullscreen></iframe>')
FILE = "https://media.example.com/clips/clip-18"

FORMS = [
    ("youtube_iframe", IFRAME, YT + "dQw4w9WgXcQ", None),
    ("watch_own_line", "<p>Intro.</p>\n\nhttps://www.youtube.com/watch?v=M7lc1UVf-VE\n\n",
     YT + "M7lc1UVf-VE", None),
    ("youtu_be_own_line", "\n\nhttps://youtu.be/aqz-KE-bpKQ\n\n", YT + "aqz-KE-bpKQ", None),
    ("shorts_own_line", "\nhttps://www.youtube.com/shorts/ScMzIvxBSi4\n", YT + "ScMzIvxBSi4",
     None),
    ("embed_url_own_line", "\nhttps://www.youtube.com/embed/ScMzIvxBSi4\n",
     YT + "ScMzIvxBSi4", None),
    ("youtube_embed_block", EMBED_BLOCK, YT + "jNQXAC9IVRw", None),
    ("vimeo_own_line", "\n\nhttps://vimeo.com/76979873\n\n", VIMEO + "76979873", None),
    ("vimeo_iframe", VIMEO_IFRAME, VIMEO + "76979873", None),
    ("vimeo_embed_block", VIMEO_BLOCK, VIMEO + "76979873", None),
    ("video_src", f'<!-- wp:shortcode -->\n[video src="{FILE}.mp4"]\n<!-- /wp:shortcode -->',
     None, FILE + ".mp4"),
    ("video_mp4", f'[video width="1280" height="720" mp4="{FILE}.mp4"][/video]', None,
     FILE + ".mp4"),
    ("video_webm", f'[video webm="{FILE}.webm"][/video]', None, FILE + ".webm"),
    ("video_ogv", f'[video ogv="{FILE}.ogv"]', None, FILE + ".ogv"),
    ("video_tag_source", f'<video controls><source src="{FILE}.webm" type="video/webm">'
     "</video>", None, FILE + ".webm"),
    ("video_tag_src", f'<video controls src="{FILE}.mp4"></video>', None, FILE + ".mp4"),
]


@pytest.mark.parametrize(("label", "content", "player", "file"), FORMS,
                         ids=[f[0] for f in FORMS])
def test_detection_form(make_app: MakeApp, label: str, content: str, player: str | None,
                        file: str | None) -> None:
    """Each detection form yields one video with the canonical player or file location."""
    site, pid = _site_with(content)
    videos = _videos(make_app, site, pid)
    assert [(v.get("player_loc"), v.get("content_loc")) for v in videos] == [(player, file)]
    if player and player.startswith(YT):
        vid = player.removeprefix(YT)
        assert videos[0]["thumbnail_loc"] == f"https://i.ytimg.com/vi/{vid}/hqdefault.jpg"
    else:
        assert videos[0]["thumbnail_loc"] == UPLOADS + "2026/11/poster.jpg"


def _local_site(content: str, attach: bool = True) -> tuple[Site, int, int]:
    """A post with a video/mp4 attachment (length 95 s) and optional content."""
    site, pid = _site_with(content)
    aid = site.attachment("2026/11/clip.mp4", parent=pid if attach else 0, mime="video/mp4",
                          metadata={"length": 95, "width": 1280, "height": 720})
    return site, pid, aid


def test_wp_video_block_of_attachment(make_app: MakeApp) -> None:
    """A wp:video block names its attachment: file URL and its length as duration."""
    site, pid = _site_with("")
    aid = site.attachment("2026/11/clip.mp4", parent=pid, mime="video/mp4",
                          metadata={"length": 95})
    site.rows["posts"][pid - 1]["post_content"] = (
        f'<!-- wp:video {{"id":{aid}}} -->\n<figure class="wp-block-video"><video controls '
        f'src="{UPLOADS}2026/11/clip.mp4"></video></figure>\n<!-- /wp:video -->')
    videos = _videos(make_app, site, pid)
    assert [(v["content_loc"], v["duration"]) for v in videos] == [
        (UPLOADS + "2026/11/clip.mp4", "95")]


def test_attached_video_not_in_content(make_app: MakeApp) -> None:
    """A video attachment attached to the post is listed even when the content lacks it."""
    site, pid, _ = _local_site("<p>No player here.</p>")
    videos = _videos(make_app, site, pid)
    assert [(v["content_loc"], v["duration"]) for v in videos] == [
        (UPLOADS + "2026/11/clip.mp4", "95")]


def test_shortcode_of_unattached_library_file(make_app: MakeApp) -> None:
    """[video src] of a library file found by its upload path gets the file's duration."""
    site, pid, _ = _local_site(f'[video src="{UPLOADS}2026/11/clip.mp4?_=1"]', attach=False)
    videos = _videos(make_app, site, pid)
    assert [(v["content_loc"], v["duration"]) for v in videos] == [
        (UPLOADS + "2026/11/clip.mp4", "95")]


def test_poster_is_the_thumbnail(make_app: MakeApp) -> None:
    """A <video poster> is the thumbnail of a file without featured image."""
    site, pid = _site_with(f'<video src="{FILE}.mp4" poster="/wp-content/uploads/p.jpg">'
                           "</video>", featured=False)
    assert [v["thumbnail_loc"] for v in _videos(make_app, site, pid)] == [UPLOADS + "p.jpg"]


def test_attachment_cover_image_is_the_thumbnail(make_app: MakeApp) -> None:
    """The video attachment's own _thumbnail_id (cover art) is used before nothing."""
    site, pid = _site_with("", featured=False)
    aid = site.attachment("2026/11/clip.mp4", parent=pid, mime="video/mp4")
    cover = site.attachment("2026/11/clip-cover.jpg", parent=aid)
    site.postmeta(aid, "_thumbnail_id", str(cover))
    assert [v["thumbnail_loc"] for v in _videos(make_app, site, pid)] == [
        UPLOADS + "2026/11/clip-cover.jpg"]


def test_no_thumbnail_left_out_with_reason(make_app: MakeApp,
                                          caplog: pytest.LogCaptureFixture) -> None:
    """A Vimeo video of a post without featured image is left out and the reason logged."""
    caplog.set_level(logging.DEBUG, logger=FIELDS_LOGGER)
    site, pid = _site_with("\nhttps://vimeo.com/76979873\n", featured=False)
    assert _videos(make_app, site, pid) == []
    assert f"post {pid}: vimeo video 76979873 left out: no thumbnail" in caplog.text


def test_no_location_left_out_with_reason(make_app: MakeApp,
                                         caplog: pytest.LogCaptureFixture) -> None:
    """A file whose URL cannot be listed (over 2,048 characters) is left out, reason logged."""
    caplog.set_level(logging.DEBUG, logger=FIELDS_LOGGER)
    site, pid = _site_with("")
    aid = site.attachment("2026/11/" + "a" * 2100 + ".mp4", parent=pid, mime="video/mp4")
    site.rows["posts"][pid - 1]["post_content"] = f'<!-- wp:video {{"id":{aid}}} /-->'
    assert _videos(make_app, site, pid) == []
    assert "left out: no player_loc or content_loc" in caplog.text


def test_hidden_posts_are_not_scanned(make_app: MakeApp) -> None:
    """Drafts, private, password and noindexed posts give no video <url>."""
    site = Site(home=HOME)
    site.post("Draft", status="draft", content=IFRAME)
    site.post("Private", status="private", content=IFRAME)
    site.post("Locked", password="x", content=IFRAME)
    site.post("Noindex", content=IFRAME, meta={"_yoast_wpseo_meta-robots-noindex": "1"})
    shown = site.post("Shown", content=IFRAME)
    assert list(video_map(fetch(make_app(site)))) == [f"{HOME}/post-{shown}/"]


def test_fields_from_post(make_app: MakeApp) -> None:
    """Title decoded and cut to 100, description from content text, tags, uploader."""
    site = Site(home=HOME)
    author = site.user("bob", "Bob O&#039;Brien &amp; Co")
    tags = [site.term(f"Tag &amp; {i:02}", "post_tag") for i in range(40)]
    pid = site.post("Tom &amp; Jerry " + "x" * 120, author=author,
                    terms=(site.uncategorized, *tags),
                    content="<!-- wp:paragraph -->\n<p>Caf&eacute; [gallery] <b>bold</b></p>"
                            "\n<!-- /wp:paragraph -->\n" + IFRAME)
    (video,) = _videos(make_app, site, pid)
    assert video["title"].startswith("Tom & Jerry xx") and len(video["title"]) == 100
    assert video["description"] == "Café bold"
    assert video["uploader"] == "Bob O'Brien & Co"
    assert video["info"] == f"{HOME}/author/bob/"
    assert video["tag"] == [f"Tag & {i:02}" for i in range(32)]


# --- Yoast Video SEO ------------------------------------------------------------------------


def test_yoast_video_meta_takes_precedence(make_app: MakeApp) -> None:
    """Yoast's stored values for the same video replace ours."""
    meta = php_serialize({"type": "youtube", "id": "dQw4w9WgXcQ",
                          "url": "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
                          "player_loc": "https://www.youtube.com/embed/dQw4w9WgXcQ",
                          "thumbnail_loc": "http://example.test/wp-content/uploads/yt.jpg",
                          "duration": "212", "title": "Yoast &amp; title",
                          "description": "Yoast description",
                          "publication_date": "2026-01-02T03:04:05+00:00",
                          "tag": ["one", "two"]})
    site, pid = _site_with(IFRAME, meta={"_yoast_wpseo_video_meta": meta})
    (video,) = _videos(make_app, site, pid)
    assert video["thumbnail_loc"] == UPLOADS + "yt.jpg"
    assert (video["title"], video["description"]) == ("Yoast & title", "Yoast description")
    assert (video["duration"], video["tag"]) == ("212", ["one", "two"])
    assert video["publication_date"] == "2026-01-02T03:04:05+00:00"


def test_yoast_video_meta_adds_unknown_player(make_app: MakeApp) -> None:
    """A Yoast video we do not detect (e.g. Wistia) is added before ours."""
    meta = php_serialize({"type": "wistia", "player_loc": "https://fast.wistia.net/embed/"
                          "iframe/abc123", "thumbnail_loc": "https://embed.wistia.com/t.jpg"})
    site, pid = _site_with(IFRAME, meta={"_yoast_wpseo_video_meta": meta})
    assert [v["player_loc"] for v in _videos(make_app, site, pid)] == [
        "https://fast.wistia.net/embed/iframe/abc123", YT + "dQw4w9WgXcQ"]


def test_yoast_metabox_overrides_first_video(make_app: MakeApp) -> None:
    """videositemap-thumbnail and -duration apply to the first video without video_meta."""
    site, pid = _site_with(IFRAME, meta={
        "_yoast_wpseo_videositemap-thumbnail": "http://example.test/custom.png",
        "_yoast_wpseo_videositemap-duration": "61"})
    (video,) = _videos(make_app, site, pid)
    assert (video["thumbnail_loc"], video["duration"]) == (HOME + "/custom.png", "61")


def test_yoast_disable_leaves_post_out(make_app: MakeApp) -> None:
    """videositemap-disable = on removes the post from the video sitemap."""
    site, pid = _site_with(IFRAME, meta={"_yoast_wpseo_videositemap-disable": "on"})
    assert _videos(make_app, site, pid) == []


# --- pages ---------------------------------------------------------------------------------


def _paged_site() -> tuple[Site, list[int]]:
    """5 candidate posts (4 with a video, 1 only linking a channel) among plain posts."""
    site = Site(home=HOME)
    with_video = []
    for i in range(9):
        if i in (1, 3, 5, 7):
            with_video.append(site.post(f"V{i}", content=f"\nhttps://youtu.be/aqz-KE-bpK{i}\n"))
        elif i == 4:
            site.post("Link", content='<a href="https://www.youtube.com/@channel">Follow</a>')
        else:
            site.post(f"Plain {i}", content="<p>Nothing.</p>")
    return site, with_video


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("mariadb", marks=pytest.mark.mariadb)])
def test_pages_of_candidates(make_app: MakeApp, backend: str) -> None:
    """Pages hold ENTRIES_PER_PAGE candidate posts by ID; all videos appear exactly once."""
    site, with_video = _paged_site()
    app = make_app(site, backend=backend, ENTRIES_PER_PAGE=2)
    index = [path_of(loc) for loc, _ in parse_index(
        app.test_client().get("/sitemap_index.xml").data) if "video-sitemap" in loc]
    assert index == ["/video-sitemap.xml", "/video-sitemap2.xml", "/video-sitemap3.xml"]
    pages = [list(video_map(fetch(app, path))) for path in index]
    assert [len(p) for p in pages] == [2, 1, 1]
    assert [loc for p in pages for loc in p] == [f"{HOME}/post-{i}/" for i in with_video]
    assert app.test_client().get("/video-sitemap4.xml").status_code == 404


def test_site_without_videos_has_no_video_sitemap(make_app: MakeApp) -> None:
    """No candidate posts: the index omits the video sitemap, which is an empty urlset."""
    site = Site(home=HOME)
    site.post("Plain", content="<p>Text about YouTube without a link.</p>")
    app = make_app(site)
    index = app.test_client().get("/sitemap_index.xml").data
    assert not [loc for loc, _ in parse_index(index) if "video" in loc]
    assert video_map(fetch(app)) == {}


def test_static_front_page_videos_use_home_url(make_app: MakeApp) -> None:
    """A static front page (left out of page-sitemap's entries) lists its video at home."""
    site = Site(home=HOME)
    front = site.post("Home", post_type="page", content=IFRAME)
    site.option("show_on_front", "page")
    site.option("page_on_front", str(front))
    assert list(video_map(fetch(make_app(site)))) == [f"{HOME}/"]


def test_page_byte_budget_stops_the_page(make_app: MakeApp, monkeypatch: pytest.MonkeyPatch,
                                         caplog: pytest.LogCaptureFixture) -> None:
    """Past the byte budget the rest of a page is left out with a warning, never oversize."""
    from wpsitemaps.sitemaps.providers import video

    monkeypatch.setattr(video, "MAX_PAGE_BYTES", 2500)
    site = Site(home=HOME)
    for _ in range(3):
        site.post("V", content=IFRAME)
    served = video_map(fetch(make_app(site)))
    assert 1 <= len(served) < 3
    assert "is full at" in caplog.text


def test_link_to_channel_only_gives_no_video_sitemap(make_app: MakeApp) -> None:
    """A candidate post without a usable video does not make the index list an empty page."""
    site = Site(home=HOME)
    site.post("Link", content='<a href="https://www.youtube.com/@channel">Follow us</a>')
    app = make_app(site)
    index = app.test_client().get("/sitemap_index.xml").data
    assert not [loc for loc, _ in parse_index(index) if "video" in loc]
    assert video_map(fetch(app)) == {}


def test_canonical_rule_and_primary_category_as_in_the_post_sitemap(make_app: MakeApp) -> None:
    """The video sitemap lists exactly the video posts the post sitemap lists, at the same URL:
    a foreign canonical leaves a post out, a self-canonical keeps it, and a %category% URL
    follows Yoast's primary category (settled on the page's rows, issue #13)."""
    site = Site(home=HOME, permalink_structure="/%category%/%postname%/")
    site.option("active_plugins", php_serialize(["wordpress-seo/wp-seo.php"]))
    news = site.term("News", "category", slug="news")
    world = site.term("World", "category", slug="world")
    site.post("Elsewhere", content=IFRAME, name="elsewhere",
              meta={"_yoast_wpseo_canonical": "https://other.test/original/"})
    site.post("Itself", content=IFRAME, name="itself",
              meta={"_yoast_wpseo_canonical": f"{HOME}/uncategorized/itself/"})
    site.post("Primary", content=IFRAME, name="primary", terms=(news, world),
              meta={"_yoast_wpseo_primary_category": str(world)})
    app = make_app(site)
    posts = [url.findtext(SM + "loc") for url in
             ET.fromstring(fetch(app, "/post-sitemap.xml")).findall(SM + "url")]
    videos = list(video_map(fetch(app)))
    assert videos == [f"{HOME}/uncategorized/itself/", f"{HOME}/world/primary/"]
    assert set(videos) <= set(posts)


def test_files_of_the_page_attachments_are_not_looked_up_again(
        site_conn: Callable[..., Any]) -> None:
    """A file already found as the post's own attachment costs no lookup by file name (that
    reads every attachment's `_wp_attached_file`); a file of another post's attachment is
    still found by its name."""
    from sqlalchemy import event

    from wpsitemaps.wordpress.queries.video import video_attachments
    from wpsitemaps.wordpress.schema import build_tables

    site, pid, aid = _local_site("")
    other = site.post("Other post", content="")
    elsewhere = site.attachment("2026/11/elsewhere.mp4", parent=other, mime="video/mp4")
    conn = site_conn(site)
    statements: list[str] = []
    event.listen(conn.engine, "before_cursor_execute",
                 lambda *args: statements.append(str(args[2])))
    tables = build_tables(site.prefix)
    rows = video_attachments(conn, tables, [], [pid], ["2026/11/clip.mp4"])
    assert [int(r[0]) for r in rows] == [aid]
    assert len(statements) == 1  # the lookup by parent only
    rows = video_attachments(conn, tables, [], [pid],
                             ["2026/11/clip.mp4", "2026/11/elsewhere.mp4"])
    assert [int(r[0]) for r in rows] == [aid, elsewhere]
