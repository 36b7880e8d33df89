"""The pure video field rules: text, clipping, durations, Yoast Video SEO meta."""

from __future__ import annotations

from wpsitemaps.content.videofields import PostFacts
from wpsitemaps.content.videofields import VideoExtras
from wpsitemaps.content.videofields import build_video
from wpsitemaps.content.videofields import clip
from wpsitemaps.content.videofields import duration
from wpsitemaps.content.videofields import plain_text
from wpsitemaps.content.videofields import tag_list
from wpsitemaps.content.videofields import video_description
from wpsitemaps.content.videos import VideoRef
from wpsitemaps.content.yoastvideo import read_yoast
from wpsitemaps.demo.wp import php_serialize

HOME = "http://example.test"
POST = PostFacts(1, "Title", "Description", None, featured=HOME + "/f.jpg")


def test_clip_marks_cut_text() -> None:
    """Cut text ends in an ellipsis and fits the limit exactly."""
    assert clip("abcdef", 6) == "abcdef"
    assert clip("abc def", 5) == "abc…"
    assert len(clip("x" * 3000, 2048)) == 2048


def test_plain_text_drops_markup_shortcodes_and_embed_lines() -> None:
    """Block comments, core shortcodes, tags, players and own-line URLs do not become text."""
    markup = ('<!-- wp:paragraph -->\n<p>A &amp; B</p>\n<!-- /wp:paragraph -->\n'
              '[caption id="1"]<img src="x.jpg"> Cap[/caption]\n[video src="a.mp4"][/video]\n'
              '<iframe src="https://www.youtube.com/embed/x"></iframe>\n'
              'https://vimeo.com/1\n<p>C\n\n  D</p> [1] a < b')
    assert plain_text(markup) == "A & B C D [1] a < b"


def test_description_falls_back_to_content_then_title() -> None:
    """Excerpt first, then content text, then the title."""
    assert video_description("", "<p>Body</p>", "T") == "Body"
    assert video_description("", "[gallery]", "T &amp; U") == "T & U"
    assert video_description("Ex", "Body", "T") == "Ex"


def test_duration_range() -> None:
    """Only 1..28800 seconds are a duration."""
    assert [duration(v) for v in ("0", "1", "28800", "28801", "x", None, "9.7")] == [
        None, 1, 28800, None, None, None, 9]


def test_tags_are_decoded_distinct_and_at_most_32() -> None:
    """Tag names are decoded, deduplicated and capped at 32."""
    assert tag_list(["A &amp; B", "A & B", ""]) == ("A & B",)
    assert len(tag_list([f"t{i}" for i in range(40)])) == 32


def test_build_video_prefers_override_thumbnail() -> None:
    """An explicit thumbnail beats YouTube's, which beats the featured image."""
    ref = VideoRef("youtube", "x", "abcdefghijk", "https://www.youtube.com/embed/abcdefghijk",
                   thumbnail_loc="https://i.ytimg.com/vi/abcdefghijk/hqdefault.jpg")
    plain = build_video(ref, POST, VideoExtras())
    assert plain is not None and plain.thumbnail_loc.startswith("https://i.ytimg")
    chosen = build_video(ref, POST, VideoExtras(thumbnail=HOME + "/t.png"))
    assert chosen is not None and chosen.thumbnail_loc == HOME + "/t.png"


def test_read_yoast_none_without_keys() -> None:
    """Posts without Yoast Video SEO meta have no Yoast data; 'none' has no video."""
    assert read_yoast({}, HOME) is None
    yoast = read_yoast({"_yoast_wpseo_video_meta": "none"}, HOME)
    assert yoast is not None and yoast.video is None and not yoast.disabled


def test_read_yoast_recognises_youtube_url() -> None:
    """Yoast's `url` of a YouTube video gives the canonical id and player."""
    meta = php_serialize({"url": "https://youtu.be/abcdefghijk", "duration": 30,
                          "tag": "solo"})
    yoast = read_yoast({"_yoast_wpseo_video_meta": meta}, HOME)
    assert yoast is not None and yoast.video is not None
    assert (yoast.video.video_id, yoast.extras.duration, yoast.extras.tags) == (
        "abcdefghijk", 30, ("solo",))
