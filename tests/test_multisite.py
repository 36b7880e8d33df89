"""Multisite: a sub-site's tables carry its own prefix, users stay on the base prefix."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from flask import Flask

from tests.support.builder import Site
from tests.support.sitemaps import assert_valid
from tests.support.sitemaps import parse_urlset
from wpsitemaps import create_app


def test_sub_site_reads_users_from_the_base_prefix(tmp_path: Path) -> None:
    """TABLE_PREFIX wp_2_ with BASE_PREFIX wp_ finds authors in wp_users."""
    site = Site(prefix="wp_2_")
    writer = site.user("writer", "Writer")
    site.post("Sub-site post", name="sub-site-post", author=writer)
    path = tmp_path / "multi.sqlite"
    site.write_sqlite(path)
    con = sqlite3.connect(path)
    # WordPress multisite keeps one users table for the network, on the base prefix.
    con.execute("ALTER TABLE wp_2_users RENAME TO wp_users")
    con.execute("ALTER TABLE wp_2_usermeta RENAME TO wp_usermeta")
    con.commit()
    con.close()
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{path}",
                      "TABLE_PREFIX": "wp_2_", "BASE_PREFIX": "wp_", "NOW": "option:test_now"})
    body = app.test_client().get("/author-sitemap.xml").data
    assert_valid(body)
    assert [u.loc for u in parse_urlset(body)] == ["http://example.test/author/writer/"]


def test_sub_site_without_base_prefix_fails_cleanly(make_app: Callable[..., Flask],
                                                    tmp_path: Path) -> None:
    """Without BASE_PREFIX the missing wp_2_users table is a 503, not a traceback."""
    site = Site(prefix="wp_2_")
    site.post("Sub-site post", name="sub-site-post")
    path = tmp_path / "multi.sqlite"
    site.write_sqlite(path)
    con = sqlite3.connect(path)
    con.execute("ALTER TABLE wp_2_users RENAME TO wp_users")
    con.commit()
    con.close()
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{path}",
                      "TABLE_PREFIX": "wp_2_", "NOW": "option:test_now"})
    resp = app.test_client().get("/author-sitemap.xml")
    assert resp.status_code == 503 and "Retry-After" in resp.headers
