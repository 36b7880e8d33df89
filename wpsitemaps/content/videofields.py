"""video:video fields by Google's rules, from a post and one detected video. Pure functions.

Title: the post title, entities decoded, tags stripped, at most 100 characters. Description:
the excerpt, else the content as text (block comments, shortcodes, tags and auto-embedded
URL lines removed, entities decoded, whitespace collapsed), else the title; at most 2,048
characters. Thumbnail: YouTube's hqdefault, else the video's poster, else the video
attachment's own image (`_thumbnail_id`, which WordPress sets from a file's cover art),
else the post's featured image. A video without thumbnail or location is left out.
"""

from __future__ import annotations

import html
import logging
import re
from dataclasses import dataclass
from datetime import datetime

from wpsitemaps.content.urls import encode_url
from wpsitemaps.content.urls import is_listable
from wpsitemaps.content.videos import MAX_DURATION
from wpsitemaps.content.videos import VideoRef
from wpsitemaps.entries import VideoEntry

log = logging.getLogger(__name__)
MAX_TITLE = 100
MAX_DESCRIPTION = 2048
MAX_TAGS = 32
MAX_UPLOADER = 255
ELLIPSIS = "…"

_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)
_HIDDEN = re.compile(r"<(script|style|iframe|video|audio|object|template)\b.*?</\1\s*>",
                     re.S | re.I)
_TAG = re.compile(r"</?[A-Za-z!?/][^>]*>?")
# strip_shortcodes() for WordPress core's shortcodes: the tag and what it encloses.
_SHORTCODE = re.compile(
    r"\[\[?(audio|caption|wp_caption|embed|gallery|playlist|video)(?![\w-])[^\]]*\]"
    r"(?:[^\[]*(?:\[(?!/\1\])[^\[]*)*\[/\1\])?\]?", re.S)
_URL_LINE = re.compile(r"^\s*https?://\S+\s*$", re.M | re.I)
_SPACE = re.compile(r"\s+")


def clip(text: str, limit: int) -> str:
    """Text cut to `limit` characters, ending in an ellipsis when it was cut."""
    if len(text) <= limit:
        return text
    return text[:limit - 1].rstrip() + ELLIPSIS


def plain_text(markup: str) -> str:
    """Visible text of post markup: no comments, shortcodes, tags, embed URLs or entities."""
    text = _COMMENT.sub(" ", markup)
    text = _SHORTCODE.sub(" ", text)
    text = _HIDDEN.sub(" ", text)
    text = _URL_LINE.sub(" ", text)
    text = _TAG.sub(" ", text)
    return _SPACE.sub(" ", html.unescape(text)).strip()


def video_title(post_title: str, description: str = "") -> str:
    """video:title: the post title as text (or the description's start when it is empty)."""
    return clip(plain_text(post_title) or description, MAX_TITLE)


def video_description(excerpt: str, content: str, title: str) -> str:
    """video:description: excerpt, else content text, else title; 2,048 characters at most."""
    for source in (excerpt, content, title):
        text = plain_text(source)
        if text:
            return clip(text, MAX_DESCRIPTION)
    return ""


def tag_list(names: list[str]) -> tuple[str, ...]:
    """Up to 32 distinct decoded tag names, in order."""
    out: list[str] = []
    for name in names:
        text = plain_text(name)
        if text and text not in out:
            out.append(text)
    return tuple(out[:MAX_TAGS])


def duration(value: object) -> int | None:
    """A duration in seconds within Google's 1..28800, else None."""
    try:
        seconds = int(float(str(value)))
    except (TypeError, ValueError, OverflowError):
        return None
    return seconds if 1 <= seconds <= MAX_DURATION else None


def listable_url(value: str | None) -> str | None:
    """An encoded absolute http(s) URL fit for the sitemap, else None."""
    if not value or not value.strip():
        return None
    url = encode_url(value)
    return url if is_listable(url) else None


@dataclass(frozen=True)
class PostFacts:
    """What every video of one post shares."""

    id: int
    title: str
    description: str
    published: datetime | None
    featured: str | None = None
    tags: tuple[str, ...] = ()
    uploader: str | None = None
    uploader_info: str | None = None
    default_thumbnail: str | None = None  # the video_default_thumbnail setting


@dataclass(frozen=True)
class VideoExtras:
    """Per-video values found outside the content (attachment, Yoast Video SEO)."""

    duration: int | None = None
    attachment_thumbnail: str | None = None
    thumbnail: str | None = None  # an explicit override (Yoast): wins over everything
    title: str | None = None
    description: str | None = None
    published: datetime | None = None
    tags: tuple[str, ...] | None = None


def thumbnail_for(ref: VideoRef, post: PostFacts, extras: VideoExtras) -> str | None:
    """The first usable thumbnail: override, YouTube, poster, attachment image, featured,
    then the site's configured default (Google rejects a video without one)."""
    for candidate in (extras.thumbnail, ref.thumbnail_loc, ref.poster,
                      extras.attachment_thumbnail, post.featured, post.default_thumbnail):
        url = listable_url(candidate)
        if url:
            return url
    return None


def build_video(ref: VideoRef, post: PostFacts, extras: VideoExtras) -> VideoEntry | None:
    """The video:video entry, or None (reason logged at DEBUG) when Google would reject it."""
    verdict = video_verdict(ref, post, extras)
    return None if isinstance(verdict, str) else verdict


def video_verdict(ref: VideoRef, post: PostFacts, extras: VideoExtras) -> VideoEntry | str:
    """The video:video entry, or why Google would reject it (in words, for explain; logged
    at DEBUG)."""
    verdict = _verdict(ref, post, extras)
    if isinstance(verdict, str):
        log.debug("post %s: %s video %s left out: %s", post.id, ref.kind,
                  ref.video_id or ref.content_loc or "", verdict)
    return verdict


def _verdict(ref: VideoRef, post: PostFacts, extras: VideoExtras) -> VideoEntry | str:
    content_loc = listable_url(ref.content_loc)
    player_loc = listable_url(ref.player_loc)
    if content_loc is None and player_loc is None:
        return "no player_loc or content_loc"
    thumbnail = thumbnail_for(ref, post, extras)
    if thumbnail is None:
        return ("no thumbnail (no poster, attachment image, featured image or "
                "video_default_thumbnail)")
    description = clip(extras.description or post.description, MAX_DESCRIPTION)
    title = clip(extras.title or post.title, MAX_TITLE) or clip(description, MAX_TITLE)
    if not title:
        return "no title"
    return VideoEntry(thumbnail, title, description or title, content_loc, player_loc,
                      extras.duration, extras.published or post.published,
                      extras.tags if extras.tags is not None else post.tags,
                      clip(post.uploader, MAX_UPLOADER) if post.uploader else None,
                      post.uploader_info if post.uploader else None)
