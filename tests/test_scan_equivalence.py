"""The fast regex tokenizer (content.html.scan) reads post_content exactly as the standard
library's HTML tokenizer (scan_reference) does."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import example
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from wpsitemaps.content.html import scan
from wpsitemaps.content.html import scan_reference

WANTED = (frozenset({"img"}), frozenset({"iframe", "video", "source"}))

PIECES = st.sampled_from([
    "<img src='a.jpg'>", '<img src="b.jpg" class="wp-image-5 size-large"/>', "<IMG SRC=c.jpg>",
    "<img src=\"a&amp;b.jpg\" alt='x > y'>", "<img\nsrc='d.jpg'\n>", "<img src>", "<img/>",
    "<!-- wp:image {\"id\":5} -->", "<!-- /wp:image -->", "<!-- wp:gallery {\"ids\":[1,2]} /-->",
    "<!-- wp:video {\"id\":7} -->", "<!-- /wp:video -->", "<!-- plain comment -->", "<!--",
    "-->", "<script>var s = '<img src=x>';</script>", "<style>p{}</style>", "<p>", "</p>",
    "<video controls src='v.mp4'>", "<source src='s.webm'>", "</video>",
    "<iframe src='https://www.youtube.com/embed/abc'></iframe>", "<br>", "<a href='x'>",
    "text ", "\n", "é", "<", ">", "&amp;", "'", '"', "=", "[gallery ids=\"1,2\"]",
    "<img src='x' src='y'>", "<img data-src=z.jpg>", "<!DOCTYPE html>", "<?php ?>", "</img>",
])


@settings(max_examples=1500, deadline=None)
@given(st.lists(PIECES, max_size=30).map("".join))
@example("<text <'<img src='a.jpg'>")  # a quote in an attribute name (found by this test)
def test_same_tokens_as_html_parser_for_markup_pieces(content: str) -> None:
    """For any mix of WordPress markup pieces both tokenizers give the same document."""
    for wanted in WANTED:
        assert scan(content, wanted) == scan_reference(content, wanted)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from("<>/!-='\" abcimgsrcvideo\n&;#[]{}:"), max_size=80))
def test_same_tokens_for_arbitrary_angle_bracket_text(content: str) -> None:
    """Odd fragments (stray brackets, quotes, unterminated comments) read the same too."""
    for wanted in WANTED:
        assert scan(content, wanted) == scan_reference(content, wanted)


def test_same_tokens_on_every_post_of_the_dump(peer_sqlite_url: str) -> None:
    """Every post_content of the WordPress dump reads the same with both tokenizers."""
    con = sqlite3.connect(peer_sqlite_url.removeprefix("sqlite:///"))
    rows = [r[0] for r in con.execute("SELECT post_content FROM wp_posts")]
    assert len(rows) > 200
    for content in rows:
        for wanted in WANTED:
            assert scan(content, wanted) == scan_reference(content, wanted)


@pytest.mark.parametrize("content", ["<script><img src=a></script>", "<!-- <img src=a> -->"])
def test_no_tags_inside_scripts_and_comments(content: str) -> None:
    """An <img> inside a script or comment is not an image."""
    assert scan(content, frozenset({"img"})).tags == []
