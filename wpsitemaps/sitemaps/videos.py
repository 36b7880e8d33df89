"""Everything the videos of one page of posts need, fetched with a fixed number of queries.

Content is parsed per post (videos.find_videos); then one batched query per kind loads the
video attachments (by ID, parent or file), their metadata and cover images, the posts'
featured images, Yoast Video SEO meta, authors and tags. Never one query per post.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field

from sqlalchemy import Connection

from wpsitemaps.content import images
from wpsitemaps.content import yoastvideo
from wpsitemaps.content.videos import PageAttachments
from wpsitemaps.content.videos import VideoAttachment
from wpsitemaps.content.videos import VideoRef
from wpsitemaps.content.videos import find_videos
from wpsitemaps.content.videos import video_metadata
from wpsitemaps.content.videos import video_needs
from wpsitemaps.content.videos import with_attachments
from wpsitemaps.content.yoastvideo import YoastVideo
from wpsitemaps.wordpress.queries import posts as qp
from wpsitemaps.wordpress.queries import video as qv
from wpsitemaps.wordpress.queries.rows import PostRow
from wpsitemaps.wordpress.site import SiteContext

THUMBNAIL_KEY = "_thumbnail_id"
POST_KEYS = (THUMBNAIL_KEY, *yoastvideo.KEYS)


@dataclass
class PageVideos:
    """Per-page lookups: refs per post, attachments, image URLs, Yoast data, authors, tags."""

    refs: dict[int, list[VideoRef]] = field(default_factory=dict)
    attachments: dict[int, VideoAttachment] = field(default_factory=dict)
    attachment_thumbs: dict[int, str] = field(default_factory=dict)
    featured: dict[int, str] = field(default_factory=dict)
    yoast: dict[int, YoastVideo] = field(default_factory=dict)
    authors: dict[int, tuple[str, str]] = field(default_factory=dict)
    tags: dict[int, list[str]] = field(default_factory=dict)


def _image_id(meta: dict[str, str]) -> int | None:
    """A positive `_thumbnail_id`, else None."""
    raw = meta.get(THUMBNAIL_KEY, "").strip()
    return int(raw) if raw.isdigit() and int(raw) > 0 else None


def _attachments(conn: Connection, site: SiteContext,
                 found: list[tuple[int, list[VideoRef]]]) -> list[VideoAttachment]:
    """The video attachments the page's refs and posts need, with parsed metadata."""
    needs = video_needs(found, site.options.upload_baseurl)
    rows = qv.video_attachments(conn, site.tables, needs.ids, needs.parents, needs.files)
    ids = [int(r[0]) for r in rows]
    meta = qp.meta_values(conn, site.tables, ids, ["_wp_attachment_metadata"])
    base = site.options.upload_baseurl
    return [VideoAttachment(int(r[0]), int(r[1] or 0), images.attachment_url(base, str(r[2])),
                            video_metadata(meta.get(int(r[0]), {}).get("_wp_attachment_metadata")))
            for r in rows if r[2]]


def load_page_videos(conn: Connection, site: SiteContext,
                     rows: Sequence[PostRow]) -> PageVideos:
    """Detect every post's videos and load what their fields need, in batched queries."""
    t, home = site.tables, site.options.home
    out = PageVideos()
    ids = [int(r.ID) for r in rows]
    post_meta = qp.meta_values(conn, t, ids, POST_KEYS)
    found = [(int(r.ID), find_videos(site.options.public_content(str(r.post_content or "")),
                                     home)) for r in rows]
    attachments = _attachments(conn, site, found)
    page = PageAttachments(attachments)
    out.attachments = page.by_id
    for pid, refs in found:
        out.refs[pid] = with_attachments(pid, refs, page)
        yoast = yoastvideo.read_yoast(post_meta.get(pid, {}), home)
        if yoast is not None:
            out.yoast[pid] = yoast
    cover_meta = qp.meta_values(conn, t, list(out.attachments), [THUMBNAIL_KEY])
    covers = {aid: _image_id(m) for aid, m in cover_meta.items()}
    featured = {pid: _image_id(post_meta.get(pid, {})) for pid in ids}
    wanted = {i for i in (*covers.values(), *featured.values()) if i is not None}
    files = qp.attachment_files(conn, t, wanted) if wanted else {}
    base = site.options.upload_baseurl
    urls = {aid: images.attachment_url(base, f) for aid, f in files.items()}
    out.attachment_thumbs = {a: urls[i] for a, i in covers.items() if i in urls}
    out.featured = {p: urls[i] for p, i in featured.items() if i in urls}
    posts_with_videos = [pid for pid in ids if out.refs.get(pid) or pid in out.yoast]
    with_videos = set(posts_with_videos)  # once, not per row
    out.authors = qv.authors(conn, t, {int(r.post_author or 0) for r in rows
                                       if int(r.ID) in with_videos})
    out.tags = qv.tag_names(conn, t, posts_with_videos)
    return out
