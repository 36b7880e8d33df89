"""The served sitemaps of the shared WordPress dump equal what WordPress computed (truth file),
on SQLite and on MariaDB."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.support.sitemaps import fetch_all
from tests.support.sitemaps import parse_urlset
from wpsitemaps.content.urls import encode_url


def _entries(truth: dict[str, Any], kind: str, name: str) -> list[dict[str, Any]]:
    if kind == "post_types":
        entries: list[dict[str, Any]] = truth["post_types"][name]["entries"]
        return entries
    if kind == "taxonomies":
        terms: list[dict[str, Any]] = truth["taxonomies"][name]["entries"]
        return terms
    authors: list[dict[str, Any]] = truth["authors"]["entries"]
    return authors


def _expected_urls(truth: dict[str, Any], kind: str, name: str) -> dict[str, dict[str, Any]]:
    """{loc: {lastmod, images}} of a sitemap as the truth file has it (first links included)."""
    out: dict[str, dict[str, Any]] = {}
    if kind == "post_types":
        for link in truth["post_types"][name]["first_links"]:
            out[link["loc"]] = {"lastmod": link["lastmod"], "images": []}
    for e in _entries(truth, kind, name):
        images = [encode_url(i) for i in e.get("images", [])]
        out[e["loc"]] = {"lastmod": e["lastmod"], "images": images}
        for paged in e.get("pages", []):
            out[paged] = {"lastmod": e["lastmod"], "images": []}
    return out


SITEMAPS = [("post_types", "post", "/post-sitemap.xml"),
            ("post_types", "page", "/page-sitemap.xml"),
            ("post_types", "event", "/event-sitemap.xml"),
            ("taxonomies", "category", "/category-sitemap.xml"),
            ("taxonomies", "post_tag", "/post_tag-sitemap.xml"),
            ("taxonomies", "genre", "/genre-sitemap.xml"),
            ("authors", "author", "/author-sitemap.xml")]


@pytest.mark.parametrize(("kind", "name", "path"), SITEMAPS)
def test_locs_equal_truth(peer_app: Flask, truth: dict[str, Any], kind: str, name: str,
                          path: str) -> None:
    """The set and order of <loc>s equals the URLs WordPress computed for that sitemap."""
    urls = parse_urlset(peer_app.test_client().get(path).data)
    assert [u.loc for u in urls] == list(_expected_urls(truth, kind, name))


@pytest.mark.parametrize(("kind", "name", "path"), SITEMAPS)
def test_lastmod_equals_truth(peer_app: Flask, truth: dict[str, Any], kind: str, name: str,
                              path: str) -> None:
    """Each <lastmod> equals the truth's (absent where the truth has none)."""
    expected = _expected_urls(truth, kind, name)
    urls = parse_urlset(peer_app.test_client().get(path).data)
    assert {u.loc: u.lastmod for u in urls} == {k: v["lastmod"] for k, v in expected.items()}


@pytest.mark.parametrize(("kind", "name", "path"), SITEMAPS[:3])
def test_images_equal_truth(peer_app: Flask, truth: dict[str, Any], kind: str, name: str,
                            path: str) -> None:
    """Each URL's image:loc list equals the truth's images, in order."""
    expected = _expected_urls(truth, kind, name)
    urls = parse_urlset(peer_app.test_client().get(path).data)
    assert {u.loc: u.images for u in urls} == {k: v["images"] for k, v in expected.items()}


def test_index_lists_every_sitemap_with_newest_lastmod(peer_app: Flask,
                                                       truth: dict[str, Any]) -> None:
    """The index lists the seven content sitemaps in Yoast's order with their newest entry
    lastmod, then the video and news sitemaps (tested in their own files)."""
    docs = fetch_all(peer_app.test_client())
    assert list(docs)[1:] == [p for _, _, p in SITEMAPS] + ["/video-sitemap.xml",
                                                           "/news-sitemap.xml"]
    for kind, name, path in SITEMAPS:
        dates = [v["lastmod"] for v in _expected_urls(truth, kind, name).values() if v["lastmod"]]
        assert max(dates) in docs["/sitemap_index.xml"].decode(), path


def _forbidden_strings(truth: dict[str, Any]) -> set[str]:
    """URLs and slugs of everything that must never appear."""
    out: set[str] = set()
    for item in truth["excluded"] + truth["private"]["posts"]:
        for key in ("loc", "would_be_loc"):
            if item.get(key):
                out.add(item[key])
        out.update(item.get("old_slug_urls") or [])
        if item.get("post_name") and len(item["post_name"]) > 6:
            out.add("/" + item["post_name"] + "/")
    for item in truth["excluded_terms"] + truth["excluded_users"]:
        if item.get("loc"):
            out.add(item["loc"])
    return out


def test_nothing_private_or_excluded_appears(peer_app: Flask, truth: dict[str, Any]) -> None:
    """No URL, would-be URL, old slug URL or slug of a private or excluded object is served."""
    docs = fetch_all(peer_app.test_client())
    served = b"\n".join(docs.values()).decode("utf-8")
    locs = set()
    for path, body in docs.items():
        if path != "/sitemap_index.xml":
            locs.update(u.loc for u in parse_urlset(body))
    forbidden = _forbidden_strings(truth)
    assert forbidden, "the truth file lists private objects"
    leaked = sorted(s for s in forbidden if s in locs or (s.startswith("/") and s in served))
    assert leaked == []


def test_private_ids_never_served(peer_app: Flask, truth: dict[str, Any]) -> None:
    """No ?p=ID / ?page_id=ID style link of a private post appears anywhere."""
    served = b"\n".join(fetch_all(peer_app.test_client()).values()).decode("utf-8")
    for pid in truth["private_ids"]["posts"]:
        assert f"?p={pid}<" not in served and f"?page_id={pid}<" not in served
