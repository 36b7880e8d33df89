"""The shared multisite fixture `ms-small`: paths, per-site truths, app settings per mode,
and fetching one site's sitemaps through HTTP (by host and path)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.support import wpdb
from tests.support.sitemaps import assert_valid
from tests.support.sitemaps import parse_index
from wpsitemaps import create_app
from wpsitemaps.content.urls import encode_url

MS_SQL = wpdb.SHARED / "wordpress" / "ms-small.sql"
MS_NETWORK = wpdb.SHARED / "wordpress" / "ms-small.network.json"
# What the fixture's README says every site registers in PHP code.
MS_CONFIG: dict[str, Any] = {
    "POST_TYPES": {"event": {"rewrite_slug": "events", "has_archive": True},
                   "peer_internal": {"exclude": True}},
    "TAXONOMIES": {"genre": {"rewrite_slug": "genre"}},
    "NOW": "option:peer_generated_at",
}
SITEMAPS = [("post_types", "post", "post"), ("post_types", "page", "page"),
            ("post_types", "event", "event"), ("taxonomies", "category", "category"),
            ("taxonomies", "post_tag", "post_tag"), ("taxonomies", "genre", "genre"),
            ("authors", "author", "author")]


def ms_truth(blog_id: int) -> dict[str, Any]:
    """ms-small.siteN.truth.json."""
    path = wpdb.SHARED / "wordpress" / f"ms-small.site{blog_id}.truth.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def load_ms_sqlite(path: Path) -> Path:
    """ms-small in an SQLite file (the shared loader)."""
    import subprocess
    import sys

    subprocess.run([sys.executable, str(wpdb.LOAD_SQLITE), str(MS_SQL), str(path)], check=True,
                   capture_output=True)
    return path


def sqlite_exec(url: str, *statements: str) -> None:
    """Change an SQLite copy of the fixture (derived variations: archived, spam...)."""
    con = sqlite3.connect(url.removeprefix("sqlite:///"))
    for sql in statements:
        con.execute(sql)
    con.commit()
    con.close()


def network_app(url: str, **extra: Any) -> Flask:
    """One service for the whole network (base prefix wp_)."""
    return create_app({"TESTING": True, "DATABASE_URL": url, "TABLE_PREFIX": "wp_",
                       **MS_CONFIG, **extra})


def process_app(url: str, blog_id: int, **extra: Any) -> Flask:
    """One site per process, as the README's multisite recipe configures it."""
    prefix = "wp_" if blog_id == 1 else f"wp_{blog_id}_"
    return create_app({"TESTING": True, "DATABASE_URL": url, "TABLE_PREFIX": prefix,
                       "BASE_PREFIX": "wp_", "NETWORK": False, **MS_CONFIG, **extra})


def site_address(blog_id: int) -> tuple[str, str]:
    """(base_url, path prefix) where WordPress answers a site: http://domain, /fr."""
    sites = json.loads(MS_NETWORK.read_text(encoding="utf-8"))["sites"]
    row = next(s for s in sites if s["blog_id"] == blog_id)
    return f"http://{row['domain']}", row["path"].rstrip("/")


def get(client: FlaskClient, url: str) -> Any:
    """GET an absolute URL (host and path) through the test client."""
    scheme, _, rest = url.partition("://")
    host, _, path = rest.partition("/")
    return client.get("/" + path, base_url=f"{scheme}://{host}")


def fetch_site(client: FlaskClient, index_url: str) -> dict[str, bytes]:
    """A site's index and every sitemap it lists, validated, by sitemap name."""
    index = get(client, index_url)
    assert index.status_code == 200, (index_url, index.status)
    assert_valid(index.data, index_url)
    out = {"sitemap_index": index.data}
    for loc, _ in parse_index(index.data):
        resp = get(client, loc)
        assert resp.status_code == 200, loc
        assert_valid(resp.data, loc)
        out[loc.rsplit("/", 1)[1].removesuffix("-sitemap.xml")] = resp.data
    return out


def expected_urls(truth: dict[str, Any], kind: str, name: str) -> dict[str, dict[str, Any]]:
    """{loc: {lastmod, images}} of a sitemap as the truth has it (first links included)."""
    out: dict[str, dict[str, Any]] = {}
    if kind == "post_types":
        for link in truth["post_types"][name]["first_links"]:
            out[link["loc"]] = {"lastmod": link["lastmod"], "images": []}
        entries = truth["post_types"][name]["entries"]
    elif kind == "taxonomies":
        entries = truth["taxonomies"][name]["entries"]
    else:
        entries = truth["authors"]["entries"]
    for e in entries:
        out[e["loc"]] = {"lastmod": e["lastmod"],
                         "images": [encode_url(i) for i in e.get("images", [])]}
        for paged in e.get("pages", []):
            out[paged] = {"lastmod": e["lastmod"], "images": []}
    return out


def forbidden_urls(truth: dict[str, Any]) -> set[str]:
    """Every URL of the truth that must never be listed."""
    out: set[str] = set()
    for item in truth["excluded"] + truth["private"]["posts"]:
        out.update(item[k] for k in ("loc", "would_be_loc") if item.get(k))
    for item in (truth["excluded_terms"] + truth["excluded_users"] + truth["private"]["terms"]
                 + truth["private"]["users"]):
        if item.get("loc"):
            out.add(item["loc"])
    return out
