"""Rows of the peer-small dump (SQLite) that the pure content parsers are fed in tests."""

from __future__ import annotations

import sqlite3
from typing import Any

from wpsitemaps.content import images


def connect(sqlite_url: str) -> sqlite3.Connection:
    """Open the peer SQLite file read-only from its SQLAlchemy URL."""
    path = sqlite_url.removeprefix("sqlite:///")
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


def content(db: sqlite3.Connection, post_id: int) -> str:
    """post_content of one row."""
    row = db.execute("SELECT post_content FROM wp_posts WHERE ID = ?", (post_id,)).fetchone()
    return str(row[0])


def meta(db: sqlite3.Connection, post_id: int, key: str) -> str | None:
    """One post meta value (the first row), or None."""
    row = db.execute("SELECT meta_value FROM wp_postmeta WHERE post_id = ? AND meta_key = ? "
                     "ORDER BY meta_id LIMIT 1", (post_id, key)).fetchone()
    return None if row is None else str(row[0])


def featured_id(db: sqlite3.Connection, post_id: int) -> int | None:
    """_thumbnail_id of a post as an int, or None."""
    value = meta(db, post_id, "_thumbnail_id")
    return int(value) if value and value.isdigit() else None


def image_attachments(db: sqlite3.Connection, upload_baseurl: str,
                      ) -> tuple[dict[int, str], dict[int, list[int]]]:
    """All image attachments as images.index_attachments() builds them (gallery order)."""
    rows = db.execute(
        "SELECT p.ID, p.post_parent, m.meta_value FROM wp_posts p JOIN wp_postmeta m "
        "ON m.post_id = p.ID AND m.meta_key = '_wp_attached_file' "
        "WHERE p.post_type = 'attachment' AND p.post_mime_type LIKE 'image/%' "
        "ORDER BY p.post_parent, p.menu_order, p.ID").fetchall()
    return images.index_attachments(rows, upload_baseurl)


def video_attachments(db: sqlite3.Connection) -> list[tuple[int, int, str, str | None]]:
    """(ID, post_parent, _wp_attached_file, _wp_attachment_metadata) of video attachments."""
    rows: list[Any] = db.execute(
        "SELECT p.ID, p.post_parent, f.meta_value, m.meta_value FROM wp_posts p "
        "JOIN wp_postmeta f ON f.post_id = p.ID AND f.meta_key = '_wp_attached_file' "
        "LEFT JOIN wp_postmeta m ON m.post_id = p.ID AND m.meta_key = '_wp_attachment_metadata' "
        "WHERE p.post_type = 'attachment' AND p.post_mime_type LIKE 'video/%' "
        "ORDER BY p.ID").fetchall()
    return [(int(r[0]), int(r[1]), str(r[2]), r[3]) for r in rows]
