"""Property tests: the content parsers never raise and only return listable http(s) URLs."""

from __future__ import annotations

from datetime import UTC
from datetime import datetime

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from tests.support.sitemaps import assert_valid
from wpsitemaps.content import urls
from wpsitemaps.content.html import own_line_urls
from wpsitemaps.content.html import scan
from wpsitemaps.content.html import shortcodes
from wpsitemaps.content.images import find_images
from wpsitemaps.content.images import resolve_images
from wpsitemaps.content.images import scan_images
from wpsitemaps.content.videos import find_videos
from wpsitemaps.content.videos import video_metadata
from wpsitemaps.content.videos import with_attachments
from wpsitemaps.entries import ImageEntry
from wpsitemaps.entries import UrlEntry
from wpsitemaps.sitemaps.render import render_urlset

HOME = "http://127.0.0.1:8080"

_srcs = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["/wp-content/uploads/a.jpg", "//cdn.example.net/x.png", "data:x",
                     "javascript:alert(1)", "http://[::1", "http://127.0.0.1:8080/照.jpg",
                     "https://youtu.be/M7lc1UVf-VE", "https://vimeo.com/76979873",
                     "https://www.youtube.com/watch?v=M7lc1UVf-VE", "/v.mp4?_=1", "  ", "%zz"]),
)
_pieces = st.one_of(
    st.text(max_size=30),
    st.builds('<img src="{}" class="wp-image-{} {}">'.format, _srcs, st.integers(-3, 99),
              st.sampled_from(["", "size-full"])),
    st.builds('<iframe src="{}"></iframe>'.format, _srcs),
    st.builds('<video poster="{}"><source src="{}"></video>'.format, _srcs, _srcs),
    st.builds('[video src="{}" mp4={}]'.format, _srcs, _srcs),
    st.builds('[gallery ids="{}" exclude={}]'.format, st.text(max_size=10), _srcs),
    st.builds("[embed]{}[/embed]".format, _srcs),
    st.builds("<!-- wp:{} {} -->".format, st.sampled_from(["video", "gallery", "embed", "/embed"]),
              st.one_of(st.text(max_size=20), st.sampled_from(['{"id":25}', '{"ids":[1,"x"]}',
                                                               '{"url":"https://youtu.be/x"}',
                                                               '{"id":[1]}', "{}"]))),
    st.builds("\n{}\n".format, _srcs),
    st.sampled_from(["<", ">", "</img>", "<!", "<![CDATA[", "<!-- ", "[[gallery]]", "<p>", "</p>",
                     "<script>", "&amp;", "&#xD800;", "\x00", "\r\n"]),
)
markup = st.lists(_pieces, max_size=12).map("".join)


def _listable(url: str | None) -> bool:
    """Absent, or an absolute http(s) URL fit for a sitemap after encoding."""
    return url is None or (url.startswith(("http://", "https://"))
                           and urls.is_listable(urls.encode_url(url)))


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_tokenizer_never_raises(content: str) -> None:
    """scan(), shortcodes() and own_line_urls() accept any text."""
    scan(content, frozenset({"img", "iframe", "video", "source"}))
    list(shortcodes(content, "gallery"))
    assert all(url.lower().startswith(("http://", "https://")) for _, url in own_line_urls(content))


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), markup))
def test_image_urls_are_listable(content: str) -> None:
    """Every image URL found or resolved is an absolute, listable http(s) URL."""
    result = scan_images(content, HOME)
    assert all(_listable(ref.url) for ref in result.refs)
    ids = {r.attachment_id for r in result.refs if r.attachment_id is not None}
    files = {i: f"{HOME}/wp-content/uploads/{i} ü.jpg" for i in ids}
    resolved = resolve_images(min(ids, default=None), find_images(content, HOME), files, [1, 2])
    assert all(urls.is_listable(u) and urls.encode_url(u) == u for u in resolved)
    assert len(resolved) == len(set(resolved)) <= 1000


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), markup))
def test_video_urls_are_listable(content: str) -> None:
    """Every video URL (player, file, thumbnail, poster) is absolute, listable http(s)."""
    videos = with_attachments(1, find_videos(content, HOME), [])
    for video in videos:
        assert all(_listable(u) for u in (video.player_loc, video.content_loc,
                                          video.thumbnail_loc, video.poster))
        assert video.player_loc or video.content_loc
    assert len({v.key for v in videos}) == len(videos)


@given(st.one_of(st.none(), st.text(), st.binary().map(lambda b: b.decode("latin-1"))))
def test_video_metadata_never_raises(raw: str | None) -> None:
    """Any stored metadata string gives a VideoMeta with a duration in range or None."""
    duration = video_metadata(raw).duration
    assert duration is None or 1 <= duration <= 28800


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(), markup))
def test_found_urls_pass_the_schema(content: str) -> None:
    """Image and video URLs found in any content, once encoded, pass the sitemap schemas."""
    found = [ref.url for ref in scan_images(content, HOME).refs if ref.url]
    for video in find_videos(content, HOME):
        found += [u for u in (video.player_loc, video.content_loc, video.thumbnail_loc) if u]
    locs = [urls.encode_url(u) for u in found]
    entry = UrlEntry(HOME + "/p/", datetime(2026, 1, 1, tzinfo=UTC),
                     tuple(ImageEntry(loc) for loc in locs if urls.is_listable(loc)))
    assert_valid(render_urlset([entry], "//127.0.0.1:8080/main-sitemap.xsl"), "found URLs")
