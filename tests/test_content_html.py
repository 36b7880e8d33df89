"""The content tokenizer: block delimiters, shortcodes and auto-embed lines."""

from __future__ import annotations

from wpsitemaps.content.html import own_line_urls
from wpsitemaps.content.html import parse_atts
from wpsitemaps.content.html import parse_block_comment
from wpsitemaps.content.html import scan
from wpsitemaps.content.html import shortcodes

GALLERY = ('<!-- wp:gallery {"linkTo":"none"} -->\n<figure class="wp-block-gallery">'
           '<!-- wp:image {"id":92,"sizeSlug":"large"} -->\n<figure><img src="/a.jpg" '
           'class="wp-image-92" /></figure>\n<!-- /wp:image -->\n</figure>\n'
           '<!-- /wp:gallery -->\n<img src="/b.jpg">')


def test_block_comment_names_get_core_namespace() -> None:
    """`wp:video` is core/video and its JSON attributes are parsed."""
    parsed = parse_block_comment(' wp:video {"id":25} ')
    assert parsed is not None
    block, closer, void = parsed
    assert (block.name, block.attrs, closer, void) == ("core/video", {"id": 25}, False, False)


def test_void_and_closing_block_comments() -> None:
    """`<!-- wp:x /-->` is void and `<!-- /wp:x -->` a closer; other comments are not blocks."""
    void = parse_block_comment(" wp:core-embed/youtube {} /")
    closer = parse_block_comment(" /wp:gallery ")
    assert void is not None and (void[0].name, void[2]) == ("core-embed/youtube", True)
    assert closer is not None and closer[1] is True
    assert parse_block_comment("more") is None


def test_broken_block_json_gives_empty_attrs() -> None:
    """Unparseable block attributes are treated as none."""
    parsed = parse_block_comment(' wp:video {"id": } ')
    assert parsed is not None and parsed[0].attrs == {}


def test_tags_know_their_innermost_block() -> None:
    """A tag inside nested blocks carries the innermost; after the closers, none."""
    doc = scan(GALLERY, frozenset({"img"}))
    assert [(t.attrs["src"], t.block and t.block.name) for t in doc.tags] == [
        ("/a.jpg", "core/image"), ("/b.jpg", None)]
    assert [b.name for b in doc.blocks] == ["core/gallery", "core/image"]


def test_tag_offsets_point_at_the_tag() -> None:
    """Offsets index the raw content where the tag starts."""
    content = "é\n<p>x</p>\n  <img src=a>"
    (tag,) = scan(content, frozenset({"img"})).tags
    assert content[tag.offset:tag.offset + 4] == "<img"


def test_parse_atts_quoting_forms() -> None:
    """Double, single and unquoted values; keys lower-cased; positional values dropped."""
    assert parse_atts(' IDS="1,2" size=\'medium\' columns=3 loop') == {
        "ids": "1,2", "size": "medium", "columns": "3"}


def test_shortcode_with_content_and_escape() -> None:
    """Enclosing shortcodes keep their content; [[x]] is escaped and skipped."""
    found = list(shortcodes('[video mp4="b.mp4"]x[/video] [videos] [[video src="a"]]', "video"))
    assert [(s.attrs, s.content) for s in found] == [({"mp4": "b.mp4"}, "x")]


def test_own_line_ignores_newlines_inside_tags() -> None:
    """A URL on its own line inside a tag or comment is not auto-embedded."""
    content = '<a\nhref="x">\n</a><!--\nhttps://youtu.be/M7lc1UVf-VE\n-->\nhttps://vimeo.com/1\n'
    assert [url for _, url in own_line_urls(content)] == ["https://vimeo.com/1"]


def test_own_line_decodes_entities() -> None:
    """&amp; in a bare URL is decoded as WordPress's oEmbed request would see it."""
    assert own_line_urls("https://youtube.com/watch?v=M7lc1UVf-VE&amp;t=1") == [
        (0, "https://youtube.com/watch?v=M7lc1UVf-VE&t=1")]
