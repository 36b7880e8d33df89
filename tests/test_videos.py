"""Video detection: the peer dump's truth, then one detection form or rule per test."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support import peer_rows
from wpsitemaps.content.images import attachment_url
from wpsitemaps.content.videos import VideoAttachment
from wpsitemaps.content.videos import VideoMeta
from wpsitemaps.content.videos import VideoRef
from wpsitemaps.content.videos import find_videos
from wpsitemaps.content.videos import upload_relative
from wpsitemaps.content.videos import video_metadata
from wpsitemaps.content.videos import video_needs
from wpsitemaps.content.videos import with_attachments

HOME = "http://127.0.0.1:8080"
UPLOADS = "http://127.0.0.1:8080/wp-content/uploads"
YT = "https://www.youtube.com/embed/"


@pytest.fixture(scope="module")
def db(peer_sqlite_url: str) -> Iterator[sqlite3.Connection]:
    """The peer dump on SQLite, read directly."""
    con = peer_rows.connect(peer_sqlite_url)
    yield con
    con.close()


@pytest.fixture(scope="module")
def video_files(db: sqlite3.Connection) -> list[VideoAttachment]:
    """Every video attachment of the dump with its parsed metadata."""
    return [VideoAttachment(i, parent, attachment_url(UPLOADS, f), video_metadata(m))
            for i, parent, f, m in peer_rows.video_attachments(db)]


def _videos(db: sqlite3.Connection, files: list[VideoAttachment], post_id: int,
            ) -> list[VideoRef]:
    """Detect one dump post's videos the way the provider will."""
    return with_attachments(post_id, find_videos(peer_rows.content(db, post_id), HOME), files)


def _ident(video: dict[str, Any]) -> tuple[str, str]:
    """A truth video's (kind, id or content_loc)."""
    return video["kind"], video.get("video_id") or video["content_loc"]


def test_truth_videos_found(db: sqlite3.Connection, video_files: list[VideoAttachment],
                            truth: dict[str, Any]) -> None:
    """Each truth post yields exactly the truth's (kind, id or file) set and labels."""
    count = 0
    for entry in truth["videos"]["entries"]:
        got = _videos(db, video_files, entry["id"])
        assert {v.key for v in got} == {_ident(v) for v in entry["videos"]}, entry["id"]
        assert [v.found_as for v in got] == [v["found_as"] for v in entry["videos"]]
        count += len(got)
    assert count == truth["counts"]["videos"] == 24


def test_truth_video_locations(db: sqlite3.Connection, video_files: list[VideoAttachment],
                               truth: dict[str, Any]) -> None:
    """player_loc, thumbnail_loc, content_loc and attachment_id equal the truth's."""
    fields = ("player_loc", "thumbnail_loc", "content_loc", "attachment_id")
    for entry in truth["videos"]["entries"]:
        got = {v.key: v for v in _videos(db, video_files, entry["id"])}
        for want in entry["videos"]:
            video = got[_ident(want)]
            assert {f: getattr(video, f) for f in fields} == {f: want.get(f) for f in fields}


def test_truth_video_metadata(video_files: list[VideoAttachment], truth: dict[str, Any]) -> None:
    """Duration, width, height and filesize of local files equal the truth's."""
    meta = {a.id: a.meta for a in video_files}
    local = [v for e in truth["videos"]["entries"] for v in e["videos"] if "attachment_id" in v]
    assert len(local) == 7
    for want in local:
        assert meta[want["attachment_id"]] == VideoMeta(want["duration"], want["width"],
                                                        want["height"], want["filesize"])


def test_no_videos_elsewhere(db: sqlite3.Connection, video_files: list[VideoAttachment],
                             truth: dict[str, Any]) -> None:
    """Post-type entries the truth lists no video for yield none (no false positives)."""
    with_video = {e["id"] for e in truth["videos"]["entries"]}
    others = [e["id"] for t in truth["post_types"].values() for e in t["entries"]
              if e["id"] not in with_video]
    assert len(others) == 26
    assert {i: _videos(db, video_files, i) for i in others} == {i: [] for i in others}


def test_video_needs_finds_files_in_one_batch(db: sqlite3.Connection) -> None:
    """video_needs gives block IDs, parents and upload-relative files of shortcode videos."""
    posts = [(i, find_videos(peer_rows.content(db, i), HOME)) for i in (22, 37, 64)]
    needs = video_needs(posts, UPLOADS)
    assert (needs.ids, needs.parents, needs.files) == ({25}, {22, 37, 64}, {"2026/11/clip-8.mp4"})
    placeholders = ",".join("?" * len(needs.files))
    rows = db.execute("SELECT post_id FROM wp_postmeta WHERE meta_key = '_wp_attached_file' "
                      f"AND meta_value IN ({placeholders})", sorted(needs.files)).fetchall()
    assert rows == [(38,)]


def test_youtube_iframe(db: sqlite3.Connection) -> None:
    """A YouTube `<iframe>` in a Custom HTML block is iframe_in_content with thumbnail."""
    assert find_videos(peer_rows.content(db, 8), HOME) == [VideoRef(
        "youtube", "iframe_in_content", "dQw4w9WgXcQ", YT + "dQw4w9WgXcQ",
        thumbnail_loc="https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg")]


def test_youtu_be_on_own_line(db: sqlite3.Connection) -> None:
    """A bare youtu.be URL on its own line is auto-embedded (post 123, dump markup)."""
    content = peer_rows.content(db, 123)
    assert "https://youtu.be/" in content
    assert [(v.kind, v.found_as) for v in find_videos(content, HOME)] == [
        ("youtube", "url_on_own_line_oembed")]


@pytest.mark.parametrize("url", [
    "https://www.youtube.com/watch?v=M7lc1UVf-VE&t=42s", "https://youtu.be/M7lc1UVf-VE",
    "https://youtube.com/shorts/M7lc1UVf-VE", "https://m.youtube.com/watch?v=M7lc1UVf-VE",
    "https://www.youtube.com/embed/M7lc1UVf-VE?feature=oembed",
    "https://www.youtube-nocookie.com/embed/M7lc1UVf-VE", "https://www.youtube.com/live/M7lc1UVf-VE",
])
def test_youtube_url_forms(url: str) -> None:
    """Every YouTube URL form gives the same id and canonical player_loc."""
    videos = find_videos(f"<p>Intro</p>\n\n{url}\n\n<p>Outro</p>", HOME)
    assert [(v.video_id, v.player_loc) for v in videos] == [("M7lc1UVf-VE", YT + "M7lc1UVf-VE")]


def test_url_inside_text_is_not_embedded() -> None:
    """A URL inside a sentence or a link is not auto-embedded."""
    content = ('<p>See https://youtu.be/M7lc1UVf-VE now</p>\n'
               '<a href="https://youtu.be/M7lc1UVf-VE">https://youtu.be/M7lc1UVf-VE</a>')
    assert find_videos(content, HOME) == []


def test_url_alone_in_paragraph() -> None:
    """A URL alone in a `<p>` is auto-embedded (autoembed's second pattern)."""
    videos = find_videos("<p>text</p><p> https://vimeo.com/76979873 </p>", HOME)
    assert [v.player_loc for v in videos] == ["https://player.vimeo.com/video/76979873"]


def test_youtube_embed_block_dedupes_its_url_line(db: sqlite3.Connection) -> None:
    """The embed block's URL line does not count twice and keeps the block's label."""
    assert [(v.video_id, v.found_as) for v in find_videos(peer_rows.content(db, 101), HOME)] == [
        ("jNQXAC9IVRw", "embed_block_oembed")]


def test_vimeo_forms() -> None:
    """Vimeo page URLs, channel URLs and player iframes give the numeric id."""
    content = ('https://vimeo.com/76979873\n'
               'https://vimeo.com/channels/staffpicks/76979885\n'
               '<iframe src="https://player.vimeo.com/video/76979897?dnt=1&amp;app_id=1"></iframe>')
    videos = find_videos(content, HOME)
    assert [(v.kind, v.video_id, v.thumbnail_loc) for v in videos] == [
        ("vimeo", "76979873", None), ("vimeo", "76979885", None), ("vimeo", "76979897", None)]


def test_vimeo_embed_block() -> None:
    """A wp:embed block with a Vimeo URL is embed_block_oembed."""
    content = ('<!-- wp:embed {"url":"https://vimeo.com/76979873","type":"video",'
               '"providerNameSlug":"vimeo"} -->\n<figure><div class="wp-block-embed__wrapper">\n'
               'https://vimeo.com/76979873\n</div></figure>\n<!-- /wp:embed -->')
    assert [(v.kind, v.found_as) for v in find_videos(content, HOME)] == [
        ("vimeo", "embed_block_oembed")]


def test_video_shortcode_mp4_attribute(db: sqlite3.Connection) -> None:
    """[video mp4=...][/video] of a local file is a local_attachment video_shortcode."""
    assert find_videos(peer_rows.content(db, 37), HOME) == [VideoRef(
        "local_attachment", "video_shortcode", content_loc=f"{UPLOADS}/2026/11/clip-8.mp4")]


def test_video_shortcode_drops_instance_query() -> None:
    """WordPress's `?_=N` instance counter is dropped, other query arguments are kept."""
    videos = find_videos('[video src="https://media.example.com/a.mp4?_=2&k=1" poster="/p.jpg"]',
                         HOME)
    assert [(v.kind, v.content_loc, v.poster) for v in videos] == [
        ("external_file", "https://media.example.com/a.mp4?k=1", f"{HOME}/p.jpg")]


@pytest.mark.parametrize("attr", ["webm", "ogv", "m4v"])
def test_video_shortcode_other_formats(attr: str) -> None:
    """[video webm|ogv|m4v=...] is read when there is no src."""
    videos = find_videos(f'[video {attr}="/wp-content/uploads/v.{attr}"]', HOME)
    assert [v.content_loc for v in videos] == [f"{UPLOADS}/v.{attr}"]


def test_video_block_carries_attachment_id(db: sqlite3.Connection) -> None:
    """A wp:video block gives its file and the block's attachment id."""
    assert find_videos(peer_rows.content(db, 22), HOME) == [VideoRef(
        "local_attachment", "video_block", content_loc=f"{UPLOADS}/2026/11/video-block-4.mp4",
        attachment_id=25)]


def test_video_block_without_src_needs_attachment() -> None:
    """A wp:video block without markup yields its attachment, filled in from the rows."""
    refs = find_videos('<!-- wp:video {"id":25} /-->', HOME)
    assert [(r.content_loc, r.attachment_id) for r in refs] == [(None, 25)]
    att = VideoAttachment(25, 22, f"{UPLOADS}/v.mp4")
    assert [r.content_loc for r in with_attachments(22, refs, [att])] == [f"{UPLOADS}/v.mp4"]


def test_video_and_source_tags() -> None:
    """A `<video>` takes its first `<source>` and poster; audio sources are ignored."""
    content = ('<audio><source src="/a.mp3"></audio>'
               '<video poster="/p.jpg" controls><source src="/v.webm"><source src="/v.mp4">'
               '</video>')
    assert find_videos(content, HOME) == [VideoRef(
        "local_attachment", "video_tag_in_content", content_loc=f"{HOME}/v.webm",
        poster=f"{HOME}/p.jpg")]


def test_mp4_url_on_own_line() -> None:
    """A bare .mp4 URL on its own line is embedded as a video file (wp_embed_handler_video)."""
    videos = find_videos("x\nhttps://media.example.com/clips/a.mp4\ny", HOME)
    assert [(v.kind, v.content_loc) for v in videos] == [
        ("external_file", "https://media.example.com/clips/a.mp4")]


def test_embed_shortcode() -> None:
    """[embed]URL[/embed] is an oEmbed of its URL."""
    videos = find_videos("[embed]https://youtu.be/M7lc1UVf-VE[/embed]", HOME)
    assert [(v.video_id, v.found_as) for v in videos] == [("M7lc1UVf-VE", "embed_shortcode")]


def test_same_video_twice_is_listed_once() -> None:
    """An iframe and a bare URL of the same YouTube video give one video."""
    content = f'<iframe src="{YT}M7lc1UVf-VE"></iframe>\n\nhttps://youtu.be/M7lc1UVf-VE\n'
    assert [v.found_as for v in find_videos(content, HOME)] == ["iframe_in_content"]


def test_attached_only_video_is_added() -> None:
    """A video attached to the post but not shown in it is added as attached_only."""
    att = VideoAttachment(71, 69, f"{UPLOADS}/2026/02/clip-20.mp4")
    assert with_attachments(69, [], [att]) == [VideoRef(
        "local_attachment", "attached_only", content_loc=att.url, attachment_id=71)]


def test_shortcode_file_is_linked_to_attachment() -> None:
    """A local [video] URL gets the attachment whose file it is (attachment_url_to_postid)."""
    ref = VideoRef("local_attachment", "video_shortcode", content_loc=f"{UPLOADS}/c.mp4")
    att = VideoAttachment(38, 37, f"{UPLOADS}/c.mp4")
    assert with_attachments(37, [ref], [att])[0].attachment_id == 38


def test_upload_relative_rejects_other_hosts() -> None:
    """Only URLs below the upload base map to a _wp_attached_file."""
    assert upload_relative(f"{UPLOADS}/2024/a.mp4", UPLOADS) == "2024/a.mp4"
    assert upload_relative("https://media.example.com/wp-content/uploads/a.mp4", UPLOADS) is None


@pytest.mark.parametrize(("raw", "expected"), [
    ('a:3:{s:6:"length";i:38;s:5:"width";i:1280;s:6:"height";i:720;}', VideoMeta(38, 1280, 720)),
    ('a:1:{s:6:"length";i:0;}', VideoMeta()),
    ('a:1:{s:6:"length";i:28801;}', VideoMeta()),
    ('a:1:{s:6:"length";s:4:"12.7";}', VideoMeta(12)),
    ("a:1:{broken", VideoMeta()),
    (None, VideoMeta()),
])
def test_video_metadata(raw: str | None, expected: VideoMeta) -> None:
    """Length is kept only within 1..28800 seconds; broken metadata gives nothing."""
    assert video_metadata(raw) == expected


def test_vimeo_id_is_ascii_digits() -> None:
    """A path segment of non-ASCII digits is not a Vimeo id."""
    assert find_videos("\nhttps://vimeo.com/²³\n", HOME) == []
