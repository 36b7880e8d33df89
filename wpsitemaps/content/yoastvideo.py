"""Yoast Video SEO's stored post meta, which takes precedence over our own detection.

Yoast Video SEO (WPSEO_Meta_Video, WPSEO_Video_Sitemap::update_video_post_meta()) keeps ONE
video per post, detected when the post was saved, in these post meta keys (its meta prefix is
`_yoast_wpseo_`). Honoured here:

* `_yoast_wpseo_videositemap-disable` = `on`: the post's videos are left out entirely.
* `_yoast_wpseo_video_meta`: a PHP-serialized array (or the string `none`). Keys read:
  `player_loc`, `content_loc`, `thumbnail_loc`, `duration`, `title`, `description`,
  `publication_date`, `tag` (array or string); `url`, `type` and `id` only to match it with a
  video we found. A matched video takes every non-empty value; an unmatched one is added first.
* `_yoast_wpseo_videositemap-thumbnail`: a thumbnail URL chosen in the metabox (wins).
* `_yoast_wpseo_videositemap-duration`: seconds entered in the metabox, used when > 0.

They apply to Yoast's video, or to the post's first video when `video_meta` is absent. Other
keys (`videositemap-rating`, `-not-family-friendly`, `-tags`, which Yoast merges into
`video_meta['tag']` itself) have no field in our output. The meta is honoured whether or not
the plugin is still active: it is the editor's last word on the video.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from dataclasses import replace
from datetime import UTC
from datetime import datetime
from typing import Any

from wpsitemaps.content.videofields import VideoExtras
from wpsitemaps.content.videofields import duration
from wpsitemaps.content.videofields import listable_url
from wpsitemaps.content.videofields import plain_text
from wpsitemaps.content.videofields import tag_list
from wpsitemaps.content.videos import VideoRef
from wpsitemaps.content.videos import file_video
from wpsitemaps.content.videos import player_video
from wpsitemaps.wordpress import phpdata

PREFIX = "_yoast_wpseo_"
META_KEY = PREFIX + "video_meta"
DISABLE_KEY = PREFIX + "videositemap-disable"
THUMBNAIL_KEY = PREFIX + "videositemap-thumbnail"
DURATION_KEY = PREFIX + "videositemap-duration"
KEYS = (META_KEY, DISABLE_KEY, THUMBNAIL_KEY, DURATION_KEY)
FOUND_AS = "yoast_video_meta"


@dataclass(frozen=True)
class YoastVideo:
    """What Yoast Video SEO stored for one post."""

    disabled: bool = False
    video: VideoRef | None = None  # its video_meta video, when it has a location
    extras: VideoExtras = VideoExtras()


def _scalar(value: Any) -> str | None:
    """A scalar meta value as a stripped string, None when empty or not a scalar."""
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        return None
    return str(value).strip() or None


def _text(value: Any) -> str | None:
    """A scalar meta value as decoded plain text (Yoast stores it HTML-escaped)."""
    raw = _scalar(value)
    return (plain_text(html.unescape(raw)) or None) if raw else None


def _url(value: Any) -> str | None:
    """A scalar meta value as a listable URL (entities decoded), else None."""
    raw = _scalar(value)
    return listable_url(html.unescape(raw)) if raw else None


def _date(value: Any) -> datetime | None:
    """Yoast's publication_date (ISO 8601, as date('c') writes it) as an aware datetime."""
    try:
        parsed = datetime.fromisoformat(str(value).strip())
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)


def _tags(value: Any) -> tuple[str, ...] | None:
    """video_meta['tag']: a list of names, or one string."""
    if isinstance(value, str):
        return tag_list([value])
    names = [str(v) for v in phpdata.as_list(value) if isinstance(v, str | int)]
    return tag_list(names) if names else None


def _ref(data: dict[Any, Any], home: str) -> VideoRef | None:
    """Yoast's video as a VideoRef (provider ids recognised, locations kept)."""
    player = _url(data.get("player_loc"))
    content = _url(data.get("content_loc"))
    for source in (player, _url(data.get("url")), content):
        known = player_video(source, FOUND_AS) if source else None
        if known is not None:
            return replace(known, player_loc=player or known.player_loc, content_loc=content)
    if content:
        found = file_video(content, home, FOUND_AS)
        return replace(found, player_loc=player) if found else None
    return VideoRef("external_file", FOUND_AS, player_loc=player) if player else None


def read_yoast(meta: dict[str, str], home: str) -> YoastVideo | None:
    """Yoast Video SEO's data of a post from its meta values, None when there is none."""
    if not any(meta.get(k) for k in KEYS):
        return None
    data = phpdata.as_dict(phpdata.unserialize(meta.get(META_KEY), META_KEY))
    override = duration(meta.get(DURATION_KEY))
    extras = VideoExtras(
        duration=override or duration(data.get("duration")),
        thumbnail=_url(meta.get(THUMBNAIL_KEY)) or _url(data.get("thumbnail_loc")),
        title=_text(data.get("title")), description=_text(data.get("description")),
        published=_date(data.get("publication_date")) if data.get("publication_date") else None,
        tags=_tags(data["tag"]) if "tag" in data else None)
    return YoastVideo(meta.get(DISABLE_KEY, "").strip() == "on", _ref(data, home), extras)


def _same(ours: VideoRef, theirs: VideoRef) -> bool:
    """Whether two refs name the same video (provider id, or file / player URL)."""
    if ours.video_id and theirs.video_id:
        return ours.kind == theirs.kind and ours.video_id == theirs.video_id
    return bool((ours.content_loc and ours.content_loc == theirs.content_loc)
                or (ours.player_loc and ours.player_loc == theirs.player_loc))


def merge(refs: list[VideoRef], yoast: YoastVideo) -> tuple[list[VideoRef], int | None]:
    """Our refs with Yoast's video matched (its locations win) or added first; its index."""
    theirs = yoast.video
    if theirs is None:
        return refs, (0 if refs else None)
    for index, ours in enumerate(refs):
        if _same(ours, theirs):
            merged = replace(ours, player_loc=theirs.player_loc or ours.player_loc,
                             content_loc=theirs.content_loc or ours.content_loc)
            return refs[:index] + [merged] + refs[index + 1:], index
    return [theirs, *refs], 0
