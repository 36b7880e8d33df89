"""Attachments of the demo site: wp_insert_attachment() rows plus their post meta."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from typing import TYPE_CHECKING

from wpsitemaps.demo.content import CAMERAS
from wpsitemaps.demo.wp import ZERO_DATE
from wpsitemaps.demo.wp import image_meta
from wpsitemaps.demo.wp import image_metadata
from wpsitemaps.demo.wp import mysql_date
from wpsitemaps.demo.wp import php_serialize
from wpsitemaps.demo.wp import sanitize_file_name
from wpsitemaps.demo.wp import sanitize_title
from wpsitemaps.demo.wp import video_metadata

if TYPE_CHECKING:
    from wpsitemaps.demo.model import Emitter
    from wpsitemaps.demo.model import Row


@dataclass
class Post:
    """One wp_posts row being written (times are Unix seconds)."""

    id: int
    author: int
    date: float
    modified: float
    title: str
    status: str = "publish"
    type: str = "post"
    name: str = ""
    content: str = ""
    excerpt: str = ""
    password: str = ""
    parent: int = 0
    guid: str = ""
    mime: str = ""
    comment_status: str = "open"
    ping_status: str = "open"
    floating: bool = False  # drafts: post_date_gmt stays the zero date
    comment_count: int = 0
    menu_order: int = 0
    meta: list[tuple[str, str]] = field(default_factory=list)


def post_rows(em: Emitter, p: Post) -> Iterator[tuple[str, Row]]:
    """The wp_posts row of `p` followed by its wp_postmeta rows."""
    yield "posts", (p.id, p.author, em.local(p.date),
                    ZERO_DATE if p.floating else mysql_date(p.date), p.content, p.title,
                    p.excerpt, p.status, p.comment_status, p.ping_status, p.password, p.name,
                    "", "", em.local(p.modified), mysql_date(p.modified), "", p.parent,
                    p.guid, p.menu_order, p.type, p.mime, p.comment_count)
    for key, value in p.meta:
        yield em.meta(p.id, key, value)


def _upload_dir(em: Emitter, parent: Post) -> str:
    """wp_upload_dir() for an upload to `parent`: the year/month of its local post_date."""
    return em.local(parent.date)[:7].replace("-", "/")


def _attachment(em: Emitter, parent: Post, title: str, path: str, mime: str,
                caption: str = "") -> Post:
    """The attachment row media_handle_upload() writes for a file uploaded to `parent`."""
    return Post(id=em.new_id("posts"), author=parent.author, date=parent.date,
                modified=parent.date, title=title, status="inherit", type="attachment",
                name=sanitize_title(title), excerpt=caption, parent=parent.id,
                guid=em.uploads + path, mime=mime, ping_status="closed")


@dataclass
class Image:
    """An uploaded image: its attachment row and what content needs to point at it."""

    post: Post
    large_url: str
    alt: str


def image(em: Emitter, parent: Post, title: str, size: tuple[int, int], alt: str,
          caption: str = "") -> Image:
    """Upload a JPEG: attachment row, _wp_attached_file, _wp_attachment_metadata, alt text."""
    path = f"{_upload_dir(em, parent)}/{sanitize_file_name(title)}.jpg"
    width, height = size
    camera = CAMERAS[em.rng.randrange(len(CAMERAS))] if em.rng.random() < 0.3 else None
    filesize = width * height * 54 // 1000 + em.rng.randrange(4000)
    meta = image_metadata(path, width, height, filesize,
                          image_meta(camera, int(parent.date) - 86400))
    att = _attachment(em, parent, title, path, "image/jpeg", caption)
    att.meta = [("_wp_attached_file", meta["file"]),
                ("_wp_attachment_metadata", php_serialize(meta)),
                ("_wp_attachment_image_alt", alt)]
    folder = path.rpartition("/")[0]
    large = meta["sizes"].get("large", {"file": meta["file"].rpartition("/")[2]})["file"]
    return Image(att, f"{em.uploads}{folder}/{large}", alt)


def video(em: Emitter, parent: Post, title: str) -> tuple[Post, str, int, int]:
    """Upload an mp4: attachment row and getID3 metadata; returns (row, url, width, height)."""
    path = f"{_upload_dir(em, parent)}/{sanitize_file_name(title)}.mp4"
    width, height = (1920, 1080) if em.rng.random() < 0.5 else (1280, 720)
    length = em.rng.randint(8, 600)
    meta = video_metadata(length * 180_000 + em.rng.randrange(9000), length, width, height,
                          int(parent.date) - 3 * 86400)
    att = _attachment(em, parent, title, path, "video/mp4")
    att.meta = [("_wp_attached_file", path), ("_wp_attachment_metadata", php_serialize(meta))]
    return att, em.uploads + path, width, height
