"""SQL for the video sitemap: which listable posts may show a video, and their relations.

The pre-filter is deliberately loose (a superset): every form videos.find_videos() can
detect needs one of CONTENT_PATTERNS in post_content, a video/* attachment attached to the
post, or Yoast Video SEO's stored meta. Python then decides per post on one page only.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from sqlalchemy import ColumnElement
from sqlalchemy import Connection
from sqlalchemy import and_
from sqlalchemy import exists
from sqlalchemy import or_
from sqlalchemy import select

from wpsitemaps.wordpress.queries.posts import chunks
from wpsitemaps.wordpress.schema import WPTables

YOAST_VIDEO_META = "_yoast_wpseo_video_meta"
# Substrings one of which every detectable form contains: YouTube / Vimeo URLs (page,
# share, player and nocookie hosts), [video] shortcodes, video blocks, <video> tags, and
# video file URLs that WordPress auto-embeds (wp_embed_handler_video's extensions + mov).
CONTENT_PATTERNS = ("youtube.com/", "youtu.be/", "youtube-nocookie.com/", "vimeo.com/",
                    "[video", "wp:video", "<video", ".mp4", ".m4v", ".webm", ".ogv", ".flv",
                    ".mov")


def may_have_videos(t: WPTables) -> ColumnElement[bool]:
    """Posts whose content, video attachments or Yoast Video SEO meta may give a video."""
    p, m = t.posts, t.postmeta
    child = p.alias("video_child")
    attached = exists().where(child.c.post_parent == p.c.ID,
                              child.c.post_type == "attachment",
                              child.c.post_mime_type.like("video/%"))
    yoast = exists().where(m.c.post_id == p.c.ID, m.c.meta_key == YOAST_VIDEO_META,
                           m.c.meta_value.not_in(["", "none"]))
    content = [p.c.post_content.like(f"%{pattern}%") for pattern in CONTENT_PATTERNS]
    return or_(*content, attached, yoast)


def video_attachments(conn: Connection, t: WPTables, ids: Iterable[int],
                      parents: Iterable[int], files: Iterable[str]) -> list[Any]:
    """(ID, post_parent, _wp_attached_file) of video/* attachments by ID, parent or file.

    A file is looked up only when no attachment found by ID or parent has it (a video
    uploaded to the post that shows it, the usual case, costs nothing more). The others are
    looked up as WordPress's attachment_url_to_postid() does, from `_wp_attached_file`
    (indexed by meta_key only, so this reads every attachment's file name once): joined to
    wp_posts the other way round, the server scanned the whole posts table instead (2.9 s
    of a 100,000-post video page)."""
    p, m = t.posts, t.postmeta
    base = (select(p.c.ID, p.c.post_parent, m.c.meta_value)
            .join(m, and_(m.c.post_id == p.c.ID, m.c.meta_key == "_wp_attached_file"))
            .where(p.c.post_type == "attachment", p.c.post_mime_type.like("video/%")))
    found: dict[int, Any] = {}
    lookups: list[tuple[Any, list[Any]]] = [(p.c.ID, list(ids)), (p.c.post_parent, list(parents))]
    for column, values in lookups:
        for chunk in chunks(values):
            for row in conn.execute(base.where(column.in_(chunk))):
                found.setdefault(int(row[0]), row)
    known = {str(row[2]) for row in found.values()}
    wanted = sorted(set(files) - known)
    for start in range(0, len(wanted), 1000):
        named = select(m.c.post_id).where(m.c.meta_key == "_wp_attached_file",
                                          m.c.meta_value.in_(wanted[start:start + 1000]))
        owners = [int(pid) for (pid,) in conn.execute(named) if int(pid) not in found]
        for chunk in chunks(owners):
            for row in conn.execute(base.where(p.c.ID.in_(chunk))):
                found.setdefault(int(row[0]), row)
    return [found[k] for k in sorted(found)]


def authors(conn: Connection, t: WPTables, ids: Iterable[int]) -> dict[int, tuple[str, str]]:
    """{user ID: (user_nicename, display_name)}."""
    u = t.users
    out: dict[int, tuple[str, str]] = {}
    for chunk in chunks(ids):
        for uid, nicename, display in conn.execute(
                select(u.c.ID, u.c.user_nicename, u.c.display_name).where(u.c.ID.in_(chunk))):
            out[int(uid)] = (str(nicename or ""), str(display or ""))
    return out


def tag_names(conn: Connection, t: WPTables, post_ids: Iterable[int],
              taxonomy: str = "post_tag") -> dict[int, list[str]]:
    """{post ID: term names} of one taxonomy, by name as wp_get_object_terms() orders them."""
    tr, tt, terms = t.term_relationships, t.term_taxonomy, t.terms
    out: dict[int, list[str]] = defaultdict(list)
    for chunk in chunks(post_ids):
        stmt = (select(tr.c.object_id, terms.c.name)
                .join(tt, tt.c.term_taxonomy_id == tr.c.term_taxonomy_id)
                .join(terms, terms.c.term_id == tt.c.term_id)
                .where(tr.c.object_id.in_(chunk), tt.c.taxonomy == taxonomy)
                .order_by(tr.c.object_id, terms.c.name, terms.c.term_id))
        for obj, name in conn.execute(stmt):
            out[int(obj)].append(str(name or ""))
    return out
