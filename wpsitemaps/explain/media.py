"""Explain a post's image entries (and where each was found) and its videos."""

from __future__ import annotations

from typing import Any

from wpsitemaps.content.videos import VideoRef
from wpsitemaps.entries import VideoEntry
from wpsitemaps.explain.model import ImageFound
from wpsitemaps.explain.model import Listing
from wpsitemaps.explain.model import VideoFound
from wpsitemaps.explain.model import listed_at
from wpsitemaps.explain.model import page_by_id
from wpsitemaps.sitemaps.images import page_image_sources
from wpsitemaps.sitemaps.providers.base import NotReady
from wpsitemaps.sitemaps.providers.posts import META_KEYS
from wpsitemaps.sitemaps.providers.video import VideoProvider
from wpsitemaps.sitemaps.providers.video import post_video_verdicts
from wpsitemaps.sitemaps.registry import Registry
from wpsitemaps.sitemaps.videos import load_page_videos
from wpsitemaps.wordpress.queries import posts as qp

SOURCES = {"featured": "featured", "content_img": "content",
           "content_img_wp_image_class": "content", "gallery_ids": "gallery",
           "gallery_block_ids": "gallery", "gallery_attached_children": "gallery"}


def explain_images(registry: Registry, row: Any) -> list[ImageFound]:
    """The post's image:image entries, each with its source (featured, content, gallery)."""
    site, pid = registry.site, int(row.ID)
    meta = qp.meta_values(registry.conn, site.tables, [pid], META_KEYS)
    found = page_image_sources(registry.conn, site, [row], meta).get(pid, [])
    return [ImageFound(img.url, SOURCES.get(img.kind, img.kind), img.attachment_id)
            for img in found]


def describe(ref: VideoRef | None) -> str:
    """A video in a few words: 'youtube dQw4w9WgXcQ (iframe_in_content)'."""
    if ref is None:
        return "all videos of the post"
    ident = ref.video_id or ref.content_loc or f"attachment {ref.attachment_id}"
    return f"{ref.kind} {ident} ({ref.found_as})"


def explain_videos(registry: Registry, row: Any, in_content: bool,
                   ) -> tuple[Listing, list[VideoFound]]:
    """The video sitemap's verdict and each video's own (the provider's page-building code
    run for this one post)."""
    provider = next((p for p in registry.providers if isinstance(p, VideoProvider)), None)
    if provider is None or not in_content:
        return Listing("video", "video", False, reasons=["not in its content sitemap"]), []
    site, pid = registry.site, int(row.ID)
    candidate = qp.evaluate(registry.conn, site.tables, [("video", provider.condition)], pid)
    if not candidate["video"]:
        return Listing("video", "video", False, reasons=[
            "no video in its content (no player iframe, embed, [video] or video file)"]), []
    found = load_page_videos(registry.conn, site, [row])
    videos = [VideoFound(describe(ref), isinstance(v, VideoEntry),
                         None if isinstance(v, VideoEntry) else v)
              for ref, v in post_video_verdicts(row, found, site)]
    if not any(v.listed for v in videos):
        why = "none of its videos can be listed" if videos else "no video found in its content"
        return Listing("video", "video", False, reasons=[why]), videos
    try:
        bounds = provider.bounds
    except NotReady:
        listing = Listing("video", "video", True)
        listing.notes.append("page not known yet: the video scan runs in the background")
        return listing, videos
    return listed_at("video", "video", bounds, page_by_id(bounds, pid), None), videos
