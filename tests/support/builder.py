"""Build small WordPress databases in tests, shaped like what WordPress writes.

Rows are collected in memory and written to SQLite (our migrations/ DDL) or MariaDB in one
go. Defaults follow wp_insert_post(): local and GMT dates, post_modified = post_date, the
zero date for drafts, term counts maintained as _update_post_term_count() does.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from dataclasses import dataclass
from dataclasses import field
from datetime import UTC
from datetime import datetime
from datetime import timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from tests.support import wpdb
from wpsitemaps.demo.wp import php_serialize

ZERO = "0000-00-00 00:00:00"

TABLE_COLUMNS = {
    "posts": ["ID", "post_author", "post_date", "post_date_gmt", "post_content", "post_title",
              "post_excerpt", "post_status", "comment_status", "ping_status", "post_password",
              "post_name", "to_ping", "pinged", "post_modified", "post_modified_gmt",
              "post_content_filtered", "post_parent", "guid", "menu_order", "post_type",
              "post_mime_type", "comment_count"],
    "postmeta": ["meta_id", "post_id", "meta_key", "meta_value"],
    "terms": ["term_id", "name", "slug", "term_group"],
    "term_taxonomy": ["term_taxonomy_id", "term_id", "taxonomy", "description", "parent",
                      "count"],
    "term_relationships": ["object_id", "term_taxonomy_id", "term_order"],
    "termmeta": ["meta_id", "term_id", "meta_key", "meta_value"],
    "users": ["ID", "user_login", "user_pass", "user_nicename", "user_email", "user_url",
              "user_registered", "user_activation_key", "user_status", "display_name"],
    "usermeta": ["umeta_id", "user_id", "meta_key", "meta_value"],
    "options": ["option_id", "option_name", "option_value", "autoload"],
}


@dataclass
class Site:
    """An in-memory WordPress site; add rows, then write it somewhere."""

    home: str = "http://example.test"
    siteurl: str | None = None
    permalink_structure: str = "/%postname%/"
    timezone: str = "UTC"
    prefix: str = "wp_"
    now: datetime = datetime(2026, 11, 29, 12, 0, 0, tzinfo=UTC)
    rows: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: defaultdict(list))
    options: dict[str, str] = field(default_factory=dict)
    _ids: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    def __post_init__(self) -> None:
        self.options.update({
            "home": self.home, "siteurl": self.siteurl or self.home,
            "permalink_structure": self.permalink_structure, "category_base": "",
            "tag_base": "", "show_on_front": "posts", "page_on_front": "0",
            "page_for_posts": "0", "blog_public": "1", "blogname": "Test Site",
            "timezone_string": self.timezone, "gmt_offset": "0", "upload_path": "",
            "upload_url_path": "", "rewrite_rules": "",
            "test_now": str(int(self.now.timestamp())),
        })
        self.uncategorized = self.term("Uncategorized", "category", slug="uncategorized")
        self.admin = self.user("admin", "Admin")

    def _next(self, table: str) -> int:
        self._ids[table] += 1
        return self._ids[table]

    def user(self, login: str, display_name: str | None = None, **meta: str) -> int:
        """Add a user (and usermeta) and return its ID."""
        uid = self._next("users")
        self.rows["users"].append({
            "ID": uid, "user_login": login, "user_pass": "x", "user_nicename": login.lower(),
            "user_email": f"{login}@example.test", "user_url": "",
            "user_registered": "2020-01-01 00:00:00", "user_activation_key": "",
            "user_status": 0, "display_name": display_name or login})
        for key, value in meta.items():
            self.usermeta(uid, key, value)
        return uid

    def usermeta(self, user_id: int, key: str, value: str) -> None:
        """Add one usermeta row."""
        self.rows["usermeta"].append({"umeta_id": self._next("usermeta"), "user_id": user_id,
                                      "meta_key": key, "meta_value": value})

    def term(self, name: str, taxonomy: str, slug: str | None = None, parent: int = 0) -> int:
        """Add a term of a taxonomy; returns its term_taxonomy_id (equal to term_id here)."""
        tid = self._next("terms")
        self.rows["terms"].append({"term_id": tid, "name": name,
                                   "slug": slug or name.lower().replace(" ", "-"),
                                   "term_group": 0})
        self.rows["term_taxonomy"].append({"term_taxonomy_id": tid, "term_id": tid,
                                           "taxonomy": taxonomy, "description": "",
                                           "parent": parent, "count": 0})
        return tid

    def termmeta(self, term_id: int, key: str, value: str) -> None:
        """Add one termmeta row."""
        self.rows["termmeta"].append({"meta_id": self._next("termmeta"), "term_id": term_id,
                                      "meta_key": key, "meta_value": value})

    def post(self, title: str = "A post", *, post_type: str = "post", status: str = "publish",
             name: str | None = None, author: int | None = None, date: datetime | None = None,
             modified: datetime | None = None, content: str = "", excerpt: str = "",
             password: str = "", parent: int = 0, mime: str = "", terms: tuple[int, ...] = (),
             meta: dict[str, str] | None = None, menu_order: int = 0,
             guid: str | None = None) -> int:
        """Add a post row the way wp_insert_post() stores it; returns its ID."""
        pid = self._next("posts")
        when = date or (self.now - timedelta(days=pid))
        mod = modified or when
        tz = ZoneInfo(self.timezone)
        draft = status in ("draft", "pending", "auto-draft")
        slug = name if name is not None else ("" if draft else f"post-{pid}")
        self.rows["posts"].append({
            "ID": pid, "post_author": author or self.admin,
            "post_date": when.astimezone(tz).strftime("%Y-%m-%d %H:%M:%S"),
            "post_date_gmt": ZERO if draft else when.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S"),
            "post_content": content, "post_title": title, "post_excerpt": excerpt,
            "post_status": status, "comment_status": "open", "ping_status": "open",
            "post_password": password, "post_name": slug, "to_ping": "", "pinged": "",
            "post_modified": mod.astimezone(tz).strftime("%Y-%m-%d %H:%M:%S"),
            "post_modified_gmt": mod.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S"),
            "post_content_filtered": "", "post_parent": parent,
            "guid": guid or f"{self.home}/?p={pid}", "menu_order": menu_order,
            "post_type": post_type, "post_mime_type": mime, "comment_count": 0})
        for key, value in (meta or {}).items():
            self.postmeta(pid, key, value)
        if post_type == "post" and not terms:
            terms = (self.uncategorized,)
        for tt in terms:
            self.relate(pid, tt, counts=status == "publish")
        return pid

    def attachment(self, file: str, *, parent: int = 0, mime: str = "image/jpeg",
                   metadata: dict[str, Any] | None = None) -> int:
        """Add an attachment with _wp_attached_file (and _wp_attachment_metadata)."""
        base = self.options["siteurl"] + "/wp-content/uploads/"
        aid = self.post(file.rsplit("/", 1)[-1], post_type="attachment", status="inherit",
                        parent=parent, mime=mime, guid=base + file,
                        name=file.rsplit("/", 1)[-1].rsplit(".", 1)[0].lower())
        self.postmeta(aid, "_wp_attached_file", file)
        if metadata is not None:
            self.postmeta(aid, "_wp_attachment_metadata", php_serialize(metadata))
        return aid

    def postmeta(self, post_id: int, key: str, value: str) -> None:
        """Add one postmeta row."""
        self.rows["postmeta"].append({"meta_id": self._next("postmeta"), "post_id": post_id,
                                      "meta_key": key, "meta_value": value})

    def relate(self, object_id: int, term_taxonomy_id: int, counts: bool = True) -> None:
        """Attach a term; the count goes up for published objects, as WordPress does."""
        self.rows["term_relationships"].append({"object_id": object_id,
                                                "term_taxonomy_id": term_taxonomy_id,
                                                "term_order": 0})
        if counts:
            for tt in self.rows["term_taxonomy"]:
                if tt["term_taxonomy_id"] == term_taxonomy_id:
                    tt["count"] += 1

    def option(self, name: str, value: Any) -> None:
        """Set an option (dicts and lists are PHP-serialized)."""
        self.options[name] = value if isinstance(value, str) else php_serialize(value)

    def _table_rows(self) -> dict[str, list[dict[str, Any]]]:
        out = dict(self.rows)
        out["options"] = [{"option_id": i + 1, "option_name": k, "option_value": v,
                           "autoload": "yes"} for i, (k, v) in enumerate(self.options.items())]
        return out

    def write_sqlite(self, path: Path) -> str:
        """Write to a new SQLite file; returns its SQLAlchemy URL."""
        wpdb.sqlite_with_schema(path, self.prefix)
        con = sqlite3.connect(path)
        for table, rows in self._table_rows().items():
            cols = TABLE_COLUMNS[table]
            sql = (f'INSERT INTO "{self.prefix}{table}" ({", ".join(cols)}) '
                   f'VALUES ({", ".join("?" for _ in cols)})')
            con.executemany(sql, [[r[c] for c in cols] for r in rows])
        con.commit()
        con.close()
        return f"sqlite:///{path}"

    def write_mariadb(self, label: str) -> str:
        """Write to a new MariaDB database; returns its URL for the read-only user."""
        name = wpdb.create_mariadb(label, prefix=self.prefix)
        with wpdb.root_conn(name) as con, con.cursor() as cur:
            for table, rows in self._table_rows().items():
                cols = TABLE_COLUMNS[table]
                sql = (f"INSERT INTO `{self.prefix}{table}` ({', '.join(cols)}) "
                       f"VALUES ({', '.join('%s' for _ in cols)})")
                cur.executemany(sql, [[r[c] for c in cols] for r in rows])
        return wpdb.mariadb_url(name)
