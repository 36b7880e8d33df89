"""Image parser and resolver: the peer dump's truth, then one rule per test."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support import peer_rows
from wpsitemaps.content import urls
from wpsitemaps.content.images import ImageRef
from wpsitemaps.content.images import attachment_url
from wpsitemaps.content.images import find_images
from wpsitemaps.content.images import image_needs
from wpsitemaps.content.images import resolve_image_sources
from wpsitemaps.content.images import resolve_images
from wpsitemaps.content.images import scan_images

HOME = "http://127.0.0.1:8080"
UPLOADS = "http://127.0.0.1:8080/wp-content/uploads"
# Markup as the dump stores it (post 8, 14, 40 and 12).
BLOCK_IMG = ('<figure class="wp-block-image size-large"><img src="http://127.0.0.1:8080/'
             'wp-content/uploads/2026/11/Strasenfest-U-0-1024x683.jpg" alt="Inline 0" '
             'class="wp-image-10"/></figure>')
FULL_IMG = ('<img class="alignnone size-full wp-image-6" src="http://127.0.0.1:8080/wp-content/'
            'uploads/2024/12/logo-small.png" alt="" width="120" height="90" />')
CJK_IMG = ('<img class="alignnone size-medium wp-image-5" src="http://127.0.0.1:8080/wp-content/'
           'uploads/2024/09/照片-北京-200x300.jpg" alt="北京的照片" width="200" height="300" />')


@pytest.fixture(scope="module")
def db(peer_sqlite_url: str) -> Iterator[sqlite3.Connection]:
    """The peer dump on SQLite, read directly."""
    con = peer_rows.connect(peer_sqlite_url)
    yield con
    con.close()


@pytest.fixture(scope="module")
def library(db: sqlite3.Connection, truth: dict[str, Any],
            ) -> tuple[dict[int, str], dict[int, list[int]]]:
    """Every image attachment's URL and each post's attached images."""
    return peer_rows.image_attachments(db, truth["upload_baseurl"])


def _entries(truth: dict[str, Any]) -> list[dict[str, Any]]:
    """All post-type entries of the truth file."""
    return [e for t in truth["post_types"].values() for e in t["entries"]]


def _resolve(db: sqlite3.Connection, library: tuple[dict[int, str], dict[int, list[int]]],
             post_id: int) -> list[Any]:
    """Resolve one dump post's images the way the provider will."""
    files, children = library
    refs = find_images(peer_rows.content(db, post_id), HOME)
    return resolve_image_sources(peer_rows.featured_id(db, post_id), refs, files,
                                 children.get(post_id, []))


def test_truth_images_per_entry(db: sqlite3.Connection, library: Any,
                                truth: dict[str, Any]) -> None:
    """Every post-type entry gets exactly the truth's image URLs, in order."""
    checked = 0
    for entry in _entries(truth):
        got = [img.url for img in _resolve(db, library, entry["id"])]
        assert got == [urls.encode_url(u) for u in entry["images"]], entry["id"]
        checked += len(got)
    assert checked == 43


def test_truth_image_sources(db: sqlite3.Connection, library: Any,
                             truth: dict[str, Any]) -> None:
    """Each image's kind and attachment ID match the truth's image_sources."""
    for entry in _entries(truth):
        got = [(img.kind, img.attachment_id) for img in _resolve(db, library, entry["id"])]
        want = [(s["from"], s.get("attachment_id")) for s in entry["image_sources"]]
        assert got == want, entry["id"]


def test_truth_skipped_images(db: sqlite3.Connection, truth: dict[str, Any]) -> None:
    """The `<img>` the truth skips are skipped for the same reason with the same URL."""
    for entry in _entries(truth):
        skipped = scan_images(peer_rows.content(db, entry["id"]), HOME).skipped
        got = [(s.src, s.url, s.reason) for s in skipped]
        assert got == [(s["src"], s["url"], s["reason"]) for s in entry["images_skipped"]]


def test_image_needs_batches_a_page(db: sqlite3.Connection, truth: dict[str, Any]) -> None:
    """image_needs lists featured, class and gallery IDs and the [gallery] parents."""
    posts = [(i, peer_rows.featured_id(db, i), find_images(peer_rows.content(db, i), HOME))
             for i in (8, 14, 22)]
    needs = image_needs(posts)
    assert needs.ids == {9, 10, 15, 16, 17}  # wp-image-6 is size-full: not upgraded
    assert needs.parents == {22}


def test_root_relative_src() -> None:
    """A root-relative src is resolved against home's origin."""
    refs = find_images('<img src="/wp-content/uploads/a.jpg">', "https://ex.org/blog")
    assert refs[0].url == "https://ex.org/wp-content/uploads/a.jpg"


def test_protocol_relative_src_takes_home_scheme() -> None:
    """A protocol-relative src on the site's host gets home's scheme."""
    refs = find_images('<img src="//ex.org/a.jpg">', "https://ex.org")
    assert refs[0].url == "https://ex.org/a.jpg"


def test_other_host_is_skipped() -> None:
    """An image on another host is skipped with reason other_host."""
    result = scan_images('<img src="//cdn.example.net/assets/pic-1.png">', HOME)
    assert result.refs == []
    assert [s.reason for s in result.skipped] == ["other_host"]


def test_www_is_ignored_in_host_check() -> None:
    """www.example.org and example.org are the same site."""
    refs = find_images('<img src="https://www.ex.org/a.jpg">', "https://ex.org")
    assert [r.url for r in refs] == ["https://www.ex.org/a.jpg"]


def test_size_full_is_not_upgraded() -> None:
    """A size-full image keeps its src, as WordPress inserted the full file already."""
    assert find_images(FULL_IMG, HOME) == [ImageRef(
        "content_img", f"{UPLOADS}/2024/12/logo-small.png", None,
        f"{UPLOADS}/2024/12/logo-small.png")]


def test_wp_image_class_upgrades_to_attachment() -> None:
    """A wp-image-N image resolves to attachment N's full URL, not the -1024x683 file."""
    refs = find_images(BLOCK_IMG, HOME)
    assert resolve_images(None, refs, {10: f"{UPLOADS}/2026/11/Strasenfest-U-0.jpg"}, []) == [
        f"{UPLOADS}/2026/11/Strasenfest-U-0.jpg"]


def test_wp_image_class_missing_attachment_keeps_src() -> None:
    """When attachment N does not exist the src as written is used (Yoast's fallback)."""
    assert resolve_images(None, find_images(BLOCK_IMG, HOME), {}, []) == [
        f"{UPLOADS}/2026/11/Strasenfest-U-0-1024x683.jpg"]


def test_gallery_ids_in_order() -> None:
    """[gallery ids] yields its attachments in the order written."""
    refs = find_images('[gallery ids="17,15,16"]', HOME)
    files = {i: f"{UPLOADS}/g{i}.jpg" for i in (15, 16, 17)}
    assert resolve_images(None, refs, files, []) == [files[17], files[15], files[16]]


def test_gallery_without_ids_uses_attached_children() -> None:
    """[gallery] without ids shows the post's attached images, minus exclude=."""
    refs = find_images('[gallery columns="2" size="medium" exclude="24"]', HOME)
    files = {i: f"{UPLOADS}/a{i}.jpg" for i in (23, 24, 25)}
    assert resolve_images(None, refs, files, [23, 24, 25]) == [files[23], files[25]]


def test_escaped_gallery_shortcode_is_ignored() -> None:
    """[[gallery]] prints the shortcode literally, so it shows no images."""
    assert find_images("[[gallery ids=\"1\"]]", HOME) == []


def test_old_gallery_block_ids() -> None:
    """A pre-5.9 gallery block's ids attribute is read after the content images."""
    refs = find_images('<!-- wp:gallery {"ids":[92,93]} -->\n<figure></figure>\n'
                       '<!-- /wp:gallery -->', HOME)
    assert [(r.kind, r.attachment_id) for r in refs] == [
        ("gallery_block_ids", 92), ("gallery_block_ids", 93)]


def test_galleries_come_after_content_images() -> None:
    """Gallery images follow every `<img>`, whatever their position (Yoast's order)."""
    refs = find_images('[gallery ids="15"]' + FULL_IMG, HOME)
    assert [r.kind for r in refs] == ["content_img", "gallery_ids"]


def test_scaled_featured_image() -> None:
    """A >2560 px upload is listed as the -scaled file _wp_attached_file names."""
    url = attachment_url(UPLOADS, "2025/05/featured-33-scaled.jpg")
    assert resolve_images(113, [], {113: url}, []) == [f"{UPLOADS}/2025/05/featured-33-scaled.jpg"]


def test_cjk_file_name_is_percent_encoded() -> None:
    """A raw UTF-8 file name comes out percent-encoded."""
    refs = find_images(CJK_IMG, HOME)
    got = resolve_images(None, refs, {5: f"{UPLOADS}/2024/09/照片-北京.jpg"}, [])
    assert got == [f"{UPLOADS}/2024/09/%E7%85%A7%E7%89%87-%E5%8C%97%E4%BA%AC.jpg"]


def test_duplicates_are_dropped_first_kept() -> None:
    """The featured image repeated in content and gallery appears once, first."""
    refs = find_images(BLOCK_IMG + '[gallery ids="10,11"]', HOME)
    files = {10: f"{UPLOADS}/a.jpg", 11: f"{UPLOADS}/b.jpg"}
    got = resolve_image_sources(10, refs, files, [])
    assert [(i.kind, i.attachment_id) for i in got] == [("featured", 10), ("gallery_ids", 11)]


def test_raw_and_encoded_forms_dedupe() -> None:
    """A raw UTF-8 URL and its percent-encoded twin count as one image."""
    content = '<img src="/a/照.jpg"><img src="/a/%E7%85%A7.jpg">'
    assert len(resolve_images(None, find_images(content, HOME), {}, [])) == 1


def test_at_most_1000_images() -> None:
    """No post lists more than 1,000 images."""
    content = "".join(f'<img src="/i/{n}.jpg">' for n in range(1005))
    assert len(resolve_images(None, find_images(content, HOME), {}, [])) == 1000


@pytest.mark.parametrize("src", ["data:image/png;base64,iVBORw0KGgo=", "javascript:alert(1)",
                                 "ftp://127.0.0.1:8080/a.jpg", "mailto:a@b.c"])
def test_non_http_sources_are_rejected(src: str) -> None:
    """data:, javascript: and other non-http(s) sources are skipped as not_http."""
    result = scan_images(f'<img src="{src}">', HOME)
    assert (result.refs, [s.reason for s in result.skipped]) == ([], ["not_http"])


def test_empty_src_is_skipped() -> None:
    """An `<img>` without src is skipped as empty_src."""
    assert [s.reason for s in scan_images("<img alt=x>", HOME).skipped] == ["empty_src"]


def test_img_in_html_comment_is_ignored() -> None:
    """An `<img>` commented out is not an image of the page."""
    assert find_images('<!-- <img src="/a.jpg"> -->', HOME) == []


def test_entities_in_src_are_decoded() -> None:
    """&amp; in a src attribute is the character &."""
    assert find_images('<img src="/a.jpg?x=1&amp;y=2">', HOME)[0].url == f"{HOME}/a.jpg?x=1&y=2"


def test_missing_featured_attachment_is_dropped() -> None:
    """A _thumbnail_id pointing at a deleted attachment yields nothing."""
    assert resolve_images(999, [], {}, []) == []


def test_stray_end_tag_is_not_an_image() -> None:
    """A `</img>` end tag is neither an image nor a skipped one."""
    result = scan_images('<img src="/a.jpg"></img>', HOME)
    assert (len(result.refs), result.skipped) == (1, [])


def test_gallery_ids_are_ascii_integers() -> None:
    """wp_parse_id_list(): '12abc' is 12, 0 and non-ASCII digits like '²' are dropped."""
    refs = find_images('[gallery ids="12abc,0,²,-7,12"]', HOME)
    assert [r.attachment_id for r in refs] == [12, 7]
