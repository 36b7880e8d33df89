"""Publishing into a served test site as WordPress does, and reading back where posts are.

`Publisher` writes to the app's own database (SQLite, or MariaDB as root) the rows
wp_insert_post() writes, and the two ways a post already in the table goes live: the editor
publishing a draft (status, slug and dates set to now: wp_update_post()) and WP-Cron
publishing a scheduled post (status only: wp_publish_post()). `post_pages()` reads the index
and every post sitemap page it lists, as a crawler does, checking what each page must answer.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from flask import Flask

from tests.support import wpdb
from tests.support.builder import ZERO
from tests.support.sitemaps import parse_index
from tests.support.sitemaps import parse_urlset
from tests.support.sitemaps import path_of
from wpsitemaps.serving.refresh import Refresher
from wpsitemaps.web.context import service_of

HOME = "http://example.test/"
SQL_DATE = "%Y-%m-%d %H:%M:%S"
COLUMNS = ("ID", "post_author", "post_date", "post_date_gmt", "post_content", "post_title",
           "post_excerpt", "post_status", "comment_status", "ping_status", "post_password",
           "post_name", "to_ping", "pinged", "post_modified", "post_modified_gmt",
           "post_content_filtered", "post_parent", "guid", "menu_order", "post_type",
           "post_mime_type", "comment_count")


def post_url(pid: int) -> str:
    """The URL of post `pid` under /%postname%/ with the slugs used here (post-ID)."""
    return f"{HOME}post-{pid}/"


class Publisher:
    """Writes posts into the database an app serves (its site's clock is `now`, in UTC)."""

    def __init__(self, app: Flask, now: datetime, next_id: int) -> None:
        self.url: str = service_of(app).settings.database_url
        self.now = now
        self.next_id = next_id

    def execute(self, sql: str, *params: Any) -> None:
        """Run one writing statement ('?' placeholders) on the app's database."""
        if self.url.startswith("sqlite:///"):
            con = sqlite3.connect(self.url.removeprefix("sqlite:///"))
            try:
                con.execute(sql, params)
                con.commit()
            finally:
                con.close()
            return
        name = self.url.rsplit("/", 1)[1].split("?", 1)[0]
        with wpdb.root_conn(name) as con, con.cursor() as cur:
            cur.execute(sql.replace("?", "%s"), params)

    def insert(self, status: str = "publish", post_type: str = "post",
               date: datetime | None = None) -> int:
        """A new row with the next ID (dated now unless `date`); returns its ID."""
        pid, when = self.next_id, (date or self.now).strftime(SQL_DATE)
        self.next_id += 1
        draft = status in ("draft", "auto-draft")
        values = {"ID": pid, "post_author": 1, "post_date": when,
                  "post_date_gmt": ZERO if draft else when, "post_title": f"Post {pid}",
                  "post_status": status, "comment_status": "open", "ping_status": "open",
                  "post_name": "" if draft else f"post-{pid}", "post_modified": when,
                  "post_modified_gmt": when, "guid": f"{HOME}?p={pid}",
                  "post_type": post_type}
        row = [values.get(c, 0 if c in ("post_parent", "menu_order", "comment_count") else "")
               for c in COLUMNS]
        self.execute(f"INSERT INTO wp_posts ({', '.join(COLUMNS)})"
                     f" VALUES ({', '.join('?' for _ in COLUMNS)})", *row)
        return pid

    def publish_draft(self, pid: int, date: datetime | None = None) -> None:
        """The editor publishes draft `pid`: slug set, dated now (or `date`, backdated),
        modified now."""
        when, now = (date or self.now).strftime(SQL_DATE), self.now.strftime(SQL_DATE)
        self.execute("UPDATE wp_posts SET post_status = 'publish', post_name = ?,"
                     " post_date = ?, post_date_gmt = ?, post_modified = ?,"
                     " post_modified_gmt = ? WHERE ID = ?",
                     f"post-{pid}", when, when, now, now, pid)

    def cron_publish(self, pid: int) -> None:
        """WP-Cron publishes scheduled post `pid`: only its status changes."""
        self.execute("UPDATE wp_posts SET post_status = 'publish' WHERE ID = ?", pid)


def refresh_bounds(app: Flask) -> None:
    """Run the background refresh in the foreground: every cached value of the index (page
    bounds among them) is computed again."""
    service = service_of(app)
    Refresher(service).run(service.resolve("localhost", "/"))


def newest(dates: Sequence[str | None]) -> str | None:
    """The newest of W3C datetimes written with the same offset (None when there is none)."""
    known = [d for d in dates if d is not None]
    return max(known) if known else None


def post_pages(app: Flask) -> list[list[str]]:
    """The post URLs of every post sitemap page the index lists, in page order, after
    checking that the index lists pages 1..n, that each answers 200 with its newest entry
    dating it in the index, and that page n + 1 answers 404 (the home URL left out)."""
    client = app.test_client()
    index = client.get("/sitemap_index.xml")
    assert index.status_code == 200
    listed = [(loc, mod) for loc, mod in parse_index(index.data) if "/post-sitemap" in loc]
    names = [f"{HOME}post-sitemap{n if n > 1 else ''}.xml" for n in range(1, len(listed) + 1)]
    assert [loc for loc, _ in listed] == names
    pages: list[list[str]] = []
    for loc, lastmod in listed:
        resp = client.get(path_of(loc))
        assert resp.status_code == 200, loc
        urls = parse_urlset(resp.data)
        assert lastmod == newest([u.lastmod for u in urls]), loc
        pages.append([u.loc for u in urls if u.loc != HOME])
    beyond = f"/post-sitemap{max(len(listed), 1) + 1}.xml"
    assert client.get(beyond).status_code == 404, beyond
    return pages
