"""Images of a post for `image:image`, as Yoast's WPSEO_Sitemap_Image_Parser finds them.

Pure functions, no database. The provider drives them for one page of posts like this:

1. `refs = find_images(post_content, home)` for every post of the page;
2. `needs = image_needs([(post_id, featured_id, refs), ...])`: `needs.ids` are the attachment
   IDs to load (featured images, `wp-image-N` classes, gallery ids) and `needs.parents` the
   posts whose attached images a `[gallery]` without ids shows;
3. ONE query for the whole page: image attachments (`post_type = 'attachment'`,
   `post_mime_type LIKE 'image/%'`) with their `_wp_attached_file`, where
   `ID IN needs.ids OR post_parent IN needs.parents`, ordered by post_parent, menu_order, ID;
   `index_attachments(rows, upload_baseurl)` turns those rows into `attachments`
   (ID -> absolute URL) and `children` (parent ID -> attached image IDs, in gallery order);
4. `resolve_images(featured_id, refs, attachments, children.get(post_id, []))` per post.

Order (Yoast's): the featured image, then each `<img>` in document order, then gallery images;
duplicates dropped (first kept), at most 1,000, each URL passed through urls.encode_url.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Literal
from urllib.parse import urlsplit

from wpsitemaps.content import urls
from wpsitemaps.content.html import scan
from wpsitemaps.content.html import shortcodes
from wpsitemaps.wordpress.ids import json_id
from wpsitemaps.wordpress.ids import parse_id

log = logging.getLogger(__name__)

MAX_IMAGES = 1000
ImageKind = Literal["content_img", "content_img_wp_image_class", "gallery_ids",
                    "gallery_block_ids", "gallery_attached_children"]
# The tag name in any ASCII case (as the tokenizer lower-cases it); shortcode and block
# names are case-sensitive. Character classes, not re.I: on non-ASCII text re.I is 4x slower.
_MAY_HAVE_IMAGES = re.compile(r"<[iI][mM][gG]|\[gallery|wp:gallery")
_WP_IMAGE = re.compile(r"wp-image-(\d+)")


@dataclass(frozen=True)
class ImageRef:
    """One image reference found in post_content (kinds as the truth file's `from`)."""

    kind: ImageKind
    url: str | None = None  # absolute src on the site's host (content_img*), else None
    attachment_id: int | None = None
    src_attr: str | None = None  # the src as written
    query: str = ""  # query of an upgraded wp-image src, kept as Yoast keeps it
    exclude: tuple[int, ...] = ()  # [gallery exclude="..."]


@dataclass(frozen=True)
class SkippedImage:
    """An `<img>` left out and why (empty_src, not_http, invalid_url, other_host)."""

    src: str
    url: str
    reason: str


@dataclass
class ImageScan:
    """find_images() with the skipped `<img>` kept for debug logging and tests."""

    refs: list[ImageRef] = field(default_factory=list)
    skipped: list[SkippedImage] = field(default_factory=list)


@dataclass(frozen=True)
class ResolvedImage:
    """A final image URL with where it came from (the truth file's image_sources)."""

    url: str
    kind: str
    attachment_id: int | None = None


@dataclass(frozen=True)
class ImageNeeds:
    """Attachments a page of posts needs: by ID, and the attached images of parents."""

    ids: frozenset[int]
    parents: frozenset[int]


def _int_list(value: str) -> list[int]:
    """'1, 2,x,3' -> [1, 2, 3]: wp_parse_id_list(), absint() of each part, zeros dropped."""
    out: list[int] = []
    for part in re.split(r"[\s,]+", value):
        digits = re.match(r"[+-]?([0-9]{1,18})", part)  # ASCII only: '²'.isdigit() is True
        if digits and int(digits[1]) > 0 and int(digits[1]) not in out:
            out.append(int(digits[1]))
    return out


def _img_ref(attrs: Mapping[str, str], home: str) -> ImageRef | SkippedImage:
    """One `<img>`: Yoast's parse_html_images() rules for a single tag."""
    src = attrs.get("src", "").strip()
    if not src:
        return SkippedImage(src, "", "empty_src")
    try:
        url = urls.absolute(src, home)
        parts = urlsplit(url)
    except ValueError:
        return SkippedImage(src, "", "invalid_url")
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return SkippedImage(src, url, "not_http")
    key = urls.netloc_host_key(parts.netloc)
    on_host = bool(key) and key == urls.host_key(home)
    match = _WP_IMAGE.search(attrs.get("class", ""))
    # Yoast upgrades WordPress-inserted images to the full file unless the class says
    # size-full; the host check then applies to the attachment URL, which is local.
    image_id = parse_id(match[1]) if match else None
    if image_id is not None and "size-full" not in attrs.get("class", ""):
        return ImageRef("content_img_wp_image_class", url if on_host else None,
                        image_id, src, parts.query)
    if not on_host:
        return SkippedImage(src, url, "other_host")
    return ImageRef("content_img", url, None, src)


def _as_list(value: object) -> list[object]:
    """A block attribute that should be a list ({"ids": 5} is not)."""
    return value if isinstance(value, list) else []


def _gallery_refs(content: str, blocks_ids: list[list[int]]) -> list[ImageRef]:
    """[gallery] shortcodes (ids/include, or the attached images) and gallery block ids."""
    refs: list[ImageRef] = []
    for code in shortcodes(content, "gallery"):
        ids = _int_list(code.attrs.get("ids") or code.attrs.get("include") or "")
        if ids:
            refs.extend(ImageRef("gallery_ids", attachment_id=i) for i in ids)
        elif code.attrs.get("id", "").strip() not in ("", "0"):
            log.debug("[gallery id=%s] of another post is not resolved", code.attrs["id"])
        else:
            exclude = tuple(_int_list(code.attrs.get("exclude", "")))
            refs.append(ImageRef("gallery_attached_children", exclude=exclude))
    for ids in blocks_ids:
        refs.extend(ImageRef("gallery_block_ids", attachment_id=i) for i in ids)
    return refs


def scan_images(content: str, home: str) -> ImageScan:
    """Every image reference of raw post_content plus the `<img>` skipped, with reasons."""
    result = ImageScan()
    if _MAY_HAVE_IMAGES.search(content) is None:
        return result  # nothing to tokenise: no <img>, no gallery shortcode or block
    # Only gallery blocks matter here (their ids); <img> needs no block context.
    doc = scan(content, frozenset({"img"}), only_blocks=("wp:gallery",))
    for tag in doc.tags:
        if tag.name != "img":
            continue  # a stray </img>
        found = _img_ref(tag.attrs, home)
        if isinstance(found, SkippedImage):
            result.skipped.append(found)
        else:
            result.refs.append(found)
    # Pre-5.9 gallery blocks keep their images in attrs.ids; newer ones nest wp:image
    # blocks whose <img class="wp-image-N"> was found above (duplicates go in resolve).
    block_ids = [[i for i in map(json_id, _as_list(b.attrs.get("ids"))) if i is not None]
                 for b in doc.blocks if b.name == "core/gallery"]
    result.refs.extend(_gallery_refs(content, block_ids))
    return result


def find_images(content: str, home: str) -> list[ImageRef]:
    """Image references of raw post_content, `<img>` in document order, then galleries."""
    result = scan_images(content, home)
    for skipped in result.skipped:
        log.debug("image skipped (%s): %s", skipped.reason, skipped.src)
    return result.refs


def image_needs(posts: Iterable[tuple[int, int | None, Sequence[ImageRef]]]) -> ImageNeeds:
    """Attachment IDs and gallery parents to load for (post_id, featured_id, refs) triples."""
    ids: set[int] = set()
    parents: set[int] = set()
    for post_id, featured_id, refs in posts:
        if featured_id:
            ids.add(featured_id)
        for ref in refs:
            if ref.attachment_id is not None:
                ids.add(ref.attachment_id)
            elif ref.kind == "gallery_attached_children":
                parents.add(post_id)
    return ImageNeeds(frozenset(ids), frozenset(parents))


def attachment_url(upload_baseurl: str, attached_file: str) -> str:
    """wp_get_attachment_url() from _wp_attached_file (relative to the upload base)."""
    if attached_file[:8].lower().startswith(("http://", "https://")):
        return attached_file
    marker = "wp-content/uploads/"
    if marker in attached_file:  # an old absolute path stored by some importers
        attached_file = attached_file.split(marker, 1)[1]
    return upload_baseurl.rstrip("/") + "/" + attached_file.lstrip("/")


def index_attachments(rows: Iterable[tuple[int, int, str]], upload_baseurl: str,
                      ) -> tuple[dict[int, str], dict[int, list[int]]]:
    """(ID, post_parent, _wp_attached_file) rows, gallery-ordered -> (urls, children)."""
    files: dict[int, str] = {}
    children: dict[int, list[int]] = {}
    for att_id, parent, attached_file in rows:
        if not attached_file:
            continue
        files[att_id] = attachment_url(upload_baseurl, attached_file)
        if parent:
            children.setdefault(parent, []).append(att_id)
    return files, children


def _candidates(featured_id: int | None, refs: Sequence[ImageRef],
                attachments: Mapping[int, str], attached_children: Sequence[int],
                ) -> Iterable[tuple[str, str, int | None]]:
    """(url, kind, attachment id) in Yoast's order, before dedupe and encoding."""
    if featured_id and featured_id in attachments:
        yield attachments[featured_id], "featured", featured_id
    for ref in refs:
        if ref.kind == "gallery_attached_children":
            for child in attached_children:
                if child in attachments and child not in ref.exclude:
                    yield attachments[child], ref.kind, child
        elif ref.attachment_id is not None and ref.attachment_id in attachments:
            url = attachments[ref.attachment_id]
            yield (f"{url}?{ref.query}" if ref.query else url), ref.kind, ref.attachment_id
        elif ref.url is not None:
            # A wp-image-N whose attachment is gone: Yoast keeps the src as written.
            yield ref.url, ("content_img" if ref.attachment_id else ref.kind), None


def resolve_image_sources(featured_id: int | None, refs: Sequence[ImageRef],
                          attachments: Mapping[int, str], attached_children: Sequence[int],
                          ) -> list[ResolvedImage]:
    """resolve_images() with each URL's origin (kind, attachment ID) kept."""
    seen: set[str] = set()
    out: list[ResolvedImage] = []
    for raw, kind, att_id in _candidates(featured_id, refs, attachments, attached_children):
        url = urls.encode_url(raw)
        if url in seen or not urls.is_listable(url):
            continue
        seen.add(url)
        out.append(ResolvedImage(url, kind, att_id))
        if len(out) >= MAX_IMAGES:
            break
    return out


def resolve_images(featured_id: int | None, refs: Sequence[ImageRef],
                   attachments: Mapping[int, str], attached_children: Sequence[int],
                   ) -> list[str]:
    """Final image URLs of a post: featured, content, galleries; encoded, unique, <= 1,000."""
    return [img.url for img in resolve_image_sources(featured_id, refs, attachments,
                                                     attached_children)]
