"""Videos of a post for `video:video`, read from raw post_content without network access.

Pure functions, no database. Detected forms and their `found_as` label (the truth file's):
`<iframe>` players (`iframe_in_content`), a YouTube/Vimeo/video-file URL alone on its line or
paragraph as WP_Embed::autoembed() embeds it (`url_on_own_line_oembed`), `wp:embed` blocks
(`embed_block_oembed`), `[video]` shortcodes (`video_shortcode`), `wp:video` blocks
(`video_block`), and two labels of our own: `[embed]URL[/embed]` (`embed_shortcode`) and
`<video>`/`<source>` outside a video block (`video_tag_in_content`). `attached_only` marks a
video attachment of the post that the content does not show (with_attachments()).

For a page of posts the provider calls find_videos() per post, then `video_needs(...)` to load
every video attachment it needs in batched queries (`post_mime_type LIKE 'video/%'` by ID,
by parent, then by `_wp_attached_file` for the files those did not give), builds
VideoAttachment rows (video_metadata() reads `_wp_attachment_metadata`), indexes them once
(PageAttachments) and calls with_attachments() per post.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import replace
from typing import Any
from typing import Literal
from urllib.parse import parse_qs
from urllib.parse import urlsplit
from urllib.parse import urlunsplit

from wpsitemaps.content import urls
from wpsitemaps.content.html import Tag
from wpsitemaps.content.html import own_line_urls
from wpsitemaps.content.html import scan
from wpsitemaps.content.html import shortcodes
from wpsitemaps.wordpress import phpdata
from wpsitemaps.wordpress.ids import MAX_ID
from wpsitemaps.wordpress.ids import json_id

VideoKind = Literal["youtube", "vimeo", "local_attachment", "external_file"]
MAX_DURATION = 28800  # Google: 1 second .. 8 hours
_YT_ID = re.compile(r"^[A-Za-z0-9_-]{11}$")
_YT_HOSTS = {"youtube.com", "m.youtube.com", "music.youtube.com", "youtube-nocookie.com"}
_YT_PATHS = ("embed", "shorts", "live", "v", "e")
_FILE_EXT = re.compile(r"\.(mp4|m4v|webm|ogv|flv|mov)$", re.I)  # wp_embed_handler_video + mov
_SHORTCODE_SOURCES = ("src", "mp4", "m4v", "webm", "ogv", "flv")  # wp_video_shortcode() order
_EMBED_BLOCKS = {"core/embed", "core-embed/youtube", "core-embed/vimeo"}


@dataclass(frozen=True)
class VideoRef:
    """One video of a post: a player (YouTube, Vimeo) or a file, with how it was found."""

    kind: VideoKind
    found_as: str
    video_id: str | None = None
    player_loc: str | None = None
    content_loc: str | None = None
    thumbnail_loc: str | None = None
    attachment_id: int | None = None
    poster: str | None = None

    @property
    def key(self) -> tuple[str, str]:
        """Identity within a post: (kind, provider id, file URL or attachment ID)."""
        ident = self.video_id or self.content_loc or f"#{self.attachment_id}"
        return self.kind, ident


@dataclass(frozen=True)
class VideoMeta:
    """What _wp_attachment_metadata tells about a video file (None when unknown)."""

    duration: int | None = None
    width: int | None = None
    height: int | None = None
    filesize: int | None = None


@dataclass(frozen=True)
class VideoAttachment:
    """A video/* attachment: ID, post_parent, absolute file URL, metadata."""

    id: int
    parent: int
    url: str
    meta: VideoMeta = VideoMeta()


@dataclass(frozen=True)
class VideoNeeds:
    """Video attachments a page of posts needs: by ID, by parent, by upload-relative file."""

    ids: frozenset[int]
    parents: frozenset[int]
    files: frozenset[str]


def _youtube_id(host: str, path: str, query: str) -> str | None:
    """The 11-character id of a youtube.com / youtu.be / youtube-nocookie.com URL."""
    parts = [p for p in path.split("/") if p]
    if host == "youtu.be":
        candidate = parts[0] if parts else ""
    elif host in _YT_HOSTS and parts[:1] == ["watch"]:
        candidate = (parse_qs(query).get("v") or [""])[0]
    elif host in _YT_HOSTS and len(parts) >= 2 and parts[0] in _YT_PATHS:
        candidate = parts[1]
    else:
        return None
    return candidate if _YT_ID.match(candidate) else None


def _vimeo_id(host: str, path: str) -> str | None:
    """The numeric id of a vimeo.com or player.vimeo.com URL (first numeric path segment)."""
    if host not in ("vimeo.com", "player.vimeo.com"):
        return None
    parts = [p for p in path.split("/") if p]
    return next((p for p in parts if re.fullmatch(r"[0-9]{1,19}", p)), None)


def player_video(url: str, found_as: str) -> VideoRef | None:
    """A YouTube or Vimeo video from a watch/share/embed URL, with canonical player_loc."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if parts.scheme not in ("http", "https", ""):
        return None
    host = urls.host_key(urlunsplit(("http", parts.netloc, "", "", "")))
    yt = _youtube_id(host, parts.path, parts.query)
    if yt:
        return VideoRef("youtube", found_as, yt, f"https://www.youtube.com/embed/{yt}",
                        thumbnail_loc=f"https://i.ytimg.com/vi/{yt}/hqdefault.jpg")
    vimeo = _vimeo_id(host, parts.path)
    if vimeo:
        return VideoRef("vimeo", found_as, vimeo, f"https://player.vimeo.com/video/{vimeo}")
    return None


def _clean_url(src: str, home: str) -> str | None:
    """Absolute, encoded, listable http(s) URL of a file, without [video]'s `?_=N`."""
    try:
        parts = urlsplit(urls.absolute(src, home))
    except ValueError:
        return None
    query = "&".join(q for q in parts.query.split("&") if q and not re.match(r"_=\d+$", q))
    url = urls.encode_url(urlunsplit(parts._replace(query=query, fragment="")))
    return url if urls.is_listable(url) else None


def file_video(src: str, home: str, found_as: str, attachment_id: int | None = None,
               poster: str = "") -> VideoRef | None:
    """A video file: local_attachment on the site's host, else external_file."""
    url = _clean_url(src, home) if src.strip() else None
    if url is None and attachment_id is None:
        return None
    local = url is None or urls.same_host(url, home)
    return VideoRef("local_attachment" if local else "external_file", found_as,
                    content_loc=url, attachment_id=attachment_id,
                    poster=_clean_url(poster, home) if poster.strip() else None)


def _url_video(url: str, home: str, found_as: str) -> VideoRef | None:
    """A URL WordPress would embed: a YouTube/Vimeo page or a video file."""
    player = player_video(url, found_as)
    if player is not None or not re.match(r"https?://", url, re.I):
        return player
    try:
        path = urlsplit(url).path
    except ValueError:
        return None
    return file_video(url, home, found_as) if _FILE_EXT.search(path) else None


def _block_id(tag: Tag) -> int | None:
    """The attachment ID of a wp:video block around a tag."""
    value: Any = tag.block.attrs.get("id") if tag.block else None
    return json_id(value)


def _tag_videos(tags: Sequence[Tag], home: str) -> Iterable[tuple[int, VideoRef]]:
    """Videos of `<iframe>`, `<video src>` and the first `<source src>` of each `<video>`."""
    video: Tag | None = None  # the open <video> element, until its first source is taken
    for tag in tags:
        in_block = tag.block is not None and tag.block.name == "core/video"
        label = "video_block" if in_block else "video_tag_in_content"
        found: VideoRef | None = None
        if tag.name == "iframe":
            embed = tag.block is not None and tag.block.name in _EMBED_BLOCKS
            found = player_video(tag.attrs.get("src", ""),
                                 "embed_block_oembed" if embed else "iframe_in_content")
        elif tag.name == "video":
            video = tag
            if tag.attrs.get("src", "").strip():
                found, video = file_video(tag.attrs["src"], home, label, _block_id(tag),
                                          tag.attrs.get("poster", "")), None
        elif tag.name == "source" and video is not None and tag.attrs.get("src", "").strip():
            found, video = file_video(tag.attrs["src"], home, label, _block_id(video),
                                      video.attrs.get("poster", "")), None
        elif tag.name == "/video":
            video = None
        if found is not None:
            yield tag.offset, found


def _candidates(content: str, home: str) -> list[tuple[int, VideoRef]]:
    """Every detection with its offset in content, before ordering and dedupe."""
    doc = scan(content, frozenset({"iframe", "video", "source"}))
    found: list[tuple[int, VideoRef | None]] = list(_tag_videos(doc.tags, home))
    shown = {v.attachment_id for _, v in found if v is not None}
    for block in doc.blocks:
        if block.name in _EMBED_BLOCKS and isinstance(block.attrs.get("url"), str):
            found.append((block.offset, player_video(block.attrs["url"], "embed_block_oembed")))
        elif block.name == "core/video" and _positive(block.attrs.get("id"), MAX_ID) not in shown:
            # A video block whose markup has no <video src>: the attachment is the video.
            found.append((block.offset, file_video("", home, "video_block",
                                                   _positive(block.attrs.get("id"), MAX_ID))))
    for code in shortcodes(content, "video"):
        src = next((code.attrs[k] for k in _SHORTCODE_SOURCES if code.attrs.get(k)), "")
        found.append((code.offset, file_video(src, home, "video_shortcode",
                                              poster=code.attrs.get("poster", ""))))
    for code in shortcodes(content, "embed"):
        found.append((code.offset, _url_video(code.content.strip(), home, "embed_shortcode")))
    for offset, url in own_line_urls(content):
        found.append((offset, _url_video(url, home, "url_on_own_line_oembed")))
    return [(o, v) for o, v in found if v is not None]


def find_videos(content: str, home: str) -> list[VideoRef]:
    """Videos of raw post_content in document order, one per (kind, id or file URL)."""
    seen: set[tuple[str, str]] = set()
    out: list[VideoRef] = []
    for _, video in sorted(_candidates(content, home), key=lambda pair: pair[0]):
        if video.key not in seen:
            seen.add(video.key)
            out.append(video)
    return out


def upload_relative(url: str, upload_baseurl: str) -> str | None:
    """attachment_url_to_postid()'s key: the URL's path below the upload base, or None."""
    base = urls.encode_url(upload_baseurl.rstrip("/")) + "/"
    key = urls.encode_url(url)
    if urls.host_key(key) != urls.host_key(base):
        return None
    path, base_path = urlsplit(key).path, urlsplit(base).path
    return path[len(base_path):] if path.startswith(base_path) else None


def video_needs(posts: Iterable[tuple[int, Sequence[VideoRef]]], upload_baseurl: str,
                ) -> VideoNeeds:
    """Video attachments to load for (post_id, refs) pairs of one page, in one query."""
    ids: set[int] = set()
    files: set[str] = set()
    parents: set[int] = set()
    for post_id, refs in posts:
        parents.add(post_id)
        for ref in refs:
            if ref.attachment_id is not None:
                ids.add(ref.attachment_id)
            elif ref.kind == "local_attachment" and ref.content_loc:
                rel = upload_relative(ref.content_loc, upload_baseurl)
                if rel:
                    files.add(rel)
    return VideoNeeds(frozenset(ids), frozenset(parents), frozenset(files))


class PageAttachments:
    """A page's video attachments looked up by ID, by file URL and by parent: built once per
    page, not once per post (rebuilding the URL map per post was 355,000 URL encodings for a
    page of 1,000 posts and 352 attachments)."""

    def __init__(self, attachments: Iterable[VideoAttachment]) -> None:
        self.by_id = {a.id: a for a in attachments}
        # Two attachments of one file: the later one (by ID order) answers for the URL.
        self.by_url = {urls.encode_url(a.url): a for a in self.by_id.values()}
        self.by_parent: dict[int, list[VideoAttachment]] = {}
        for att in self.by_id.values():
            self.by_parent.setdefault(att.parent, []).append(att)


def with_attachments(post_id: int, refs: Sequence[VideoRef],
                     attachments: Iterable[VideoAttachment] | PageAttachments,
                     ) -> list[VideoRef]:
    """Link local files to their attachments and add attached videos the content lacks."""
    found = (attachments if isinstance(attachments, PageAttachments)
             else PageAttachments(attachments))
    out: list[VideoRef] = []
    for ref in refs:
        att = found.by_id.get(ref.attachment_id or 0) or found.by_url.get(ref.content_loc or "")
        if att is not None and ref.kind == "local_attachment":
            ref = replace(ref, attachment_id=att.id, content_loc=urls.encode_url(att.url))
        if ref.content_loc is None and ref.player_loc is None:
            continue  # a wp:video block whose attachment is gone
        out.append(ref)
    used = {r.attachment_id for r in out}
    for att in found.by_parent.get(post_id, []):
        if att.id not in used:
            out.append(VideoRef("local_attachment", "attached_only",
                                content_loc=urls.encode_url(att.url), attachment_id=att.id))
    return out


def _positive(value: Any, limit: int | None = None) -> int | None:
    """A positive number (int, float or numeric string) as int, within limit, else None."""
    try:
        number = int(float(value))
    except (TypeError, ValueError, OverflowError):
        return None
    return number if number > 0 and (limit is None or number <= limit) else None


def video_metadata(raw: str | None) -> VideoMeta:
    """Duration (1..28800 s), width, height and filesize from _wp_attachment_metadata."""
    data = phpdata.as_dict(phpdata.unserialize(raw, "_wp_attachment_metadata"))
    return VideoMeta(_positive(data.get("length"), MAX_DURATION), _positive(data.get("width")),
                     _positive(data.get("height")), _positive(data.get("filesize")))
