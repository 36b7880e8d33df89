"""Yoast SEO's indexables table, shaped as Yoast's migrations create it, filled from a truth.

DDL: Yoast-dist/wordpress-seo src/config/migrations/20171228151840_WpYoastIndexable.php
(permalink mediumtext, permalink_hash varchar(191), object_id int(11) unsigned, object_type
varchar(32) NOT NULL, object_sub_type varchar(32), author_id, post_parent, title,
description, breadcrumb_title, post_status varchar(191), is_public, is_protected default 0,
has_public_posts, number_of_pages, canonical mediumtext, ..., is_robots_noindex default 0,
created_at, updated_at), widened by 20200428194858_ExpandIndexableColumnLengths.php (title
text) and 20201216124002_ExpandIndexableIDColumnLengths.php (bigint ids); `language`,
`region` from 20200420073606_AddColumnsToIndexables.php; `object_last_modified`,
`object_published_at` from 20211020091404_AddObjectTimestamps.php. Columns no reader here
uses (Open Graph, Twitter, scores) are left out.
"""

from __future__ import annotations

import hashlib
from typing import Any

COLUMNS = ("permalink", "permalink_hash", "object_id", "object_type", "object_sub_type",
           "author_id", "post_parent", "title", "post_status", "is_public", "is_protected",
           "has_public_posts", "canonical", "is_robots_noindex", "language", "region",
           "object_last_modified", "object_published_at", "created_at", "updated_at")

MYSQL_DDL = """CREATE TABLE `{prefix}yoast_indexable` (
  `id` int(11) unsigned NOT NULL AUTO_INCREMENT,
  `permalink` mediumtext, `permalink_hash` varchar(191) DEFAULT NULL,
  `object_id` bigint(20) DEFAULT NULL, `object_type` varchar(32) NOT NULL,
  `object_sub_type` varchar(32) DEFAULT NULL, `author_id` bigint(20) DEFAULT NULL,
  `post_parent` bigint(20) DEFAULT NULL, `title` text, `post_status` varchar(191) DEFAULT NULL,
  `is_public` tinyint(1) DEFAULT NULL, `is_protected` tinyint(1) DEFAULT 0,
  `has_public_posts` tinyint(1) DEFAULT NULL, `canonical` longtext,
  `is_robots_noindex` tinyint(1) DEFAULT 0, `language` varchar(32) DEFAULT NULL,
  `region` varchar(32) DEFAULT NULL, `object_last_modified` datetime DEFAULT NULL,
  `object_published_at` datetime DEFAULT NULL, `created_at` datetime DEFAULT NULL,
  `updated_at` timestamp NOT NULL DEFAULT current_timestamp(),
  PRIMARY KEY (`id`),
  KEY `object_type_and_sub_type` (`object_type`,`object_sub_type`),
  KEY `object_id_and_type` (`object_id`,`object_type`),
  KEY `permalink_hash_and_object_type` (`permalink_hash`,`object_type`)
) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci"""

SQLITE_DDL = """CREATE TABLE "{prefix}yoast_indexable" (
  "id" INTEGER PRIMARY KEY AUTOINCREMENT, "permalink" TEXT, "permalink_hash" TEXT,
  "object_id" INTEGER, "object_type" TEXT NOT NULL, "object_sub_type" TEXT,
  "author_id" INTEGER, "post_parent" INTEGER, "title" TEXT, "post_status" TEXT,
  "is_public" INTEGER, "is_protected" INTEGER DEFAULT 0, "has_public_posts" INTEGER,
  "canonical" TEXT, "is_robots_noindex" INTEGER DEFAULT 0, "language" TEXT, "region" TEXT,
  "object_last_modified" TEXT, "object_published_at" TEXT, "created_at" TEXT,
  "updated_at" TEXT)"""


def permalink_hash(permalink: str) -> str:
    """Yoast's Indexable_Helper permalink_hash: strlen . ':' . md5."""
    return f"{len(permalink.encode())}:{hashlib.md5(permalink.encode()).hexdigest()}"


def row(object_type: str, sub_type: str | None, object_id: int | None, permalink: str,
        status: str | None = "publish", **extra: Any) -> dict[str, Any]:
    """One indexable row as Yoast's builders write it (only the columns above)."""
    values: dict[str, Any] = dict.fromkeys(COLUMNS)
    values.update(permalink=permalink, permalink_hash=permalink_hash(permalink),
                  object_id=object_id, object_type=object_type, object_sub_type=sub_type,
                  post_status=status if object_type == "post" else None, is_protected=0,
                  is_robots_noindex=0, created_at="2026-11-30 10:00:00",
                  updated_at="2026-11-30 10:00:00")
    values.update(extra)
    return values


def insert_sql(prefix: str, rows: list[dict[str, Any]], placeholder: str) -> tuple[str, list[
        tuple[Any, ...]]]:
    """An INSERT statement for the rows (placeholder '?' for sqlite3, '%s' for PyMySQL)."""
    cols = ", ".join(COLUMNS)
    marks = ", ".join([placeholder] * len(COLUMNS))
    return (f"INSERT INTO {prefix}yoast_indexable ({cols}) VALUES ({marks})",
            [tuple(r[c] for c in COLUMNS) for r in rows])
