"""peer-small with nothing configured but the database: `event` (archive rule) and `genre` (the
ambiguous rule: own query var + terms on published posts) are served as WordPress links them,
and the non-public `peer_internal` is not."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.support.sitemaps import fetch_all
from tests.support.sitemaps import parse_urlset
from wpsitemaps import create_app


@pytest.fixture
def bare_app(peer_url: str) -> Flask:
    """peer-small served with no type configuration (both backends)."""
    return create_app({"TESTING": True, "DATABASE_URL": peer_url,
                       "NOW": "option:peer_generated_at"})


@pytest.mark.parametrize("name", ["event", "genre"])
def test_custom_sitemaps_equal_truth(bare_app: Flask, truth: dict[str, Any],
                                     name: str) -> None:
    """The event and genre sitemaps list exactly the truth's URLs."""
    kind = "post_types" if name == "event" else "taxonomies"
    want = [f["loc"] for f in truth[kind][name].get("first_links", [])]
    want += [e["loc"] for e in truth[kind][name]["entries"]]
    body = bare_app.test_client().get(f"/{name}-sitemap.xml").data
    assert [u.loc for u in parse_urlset(body)] == want


def test_non_public_type_is_not_served(bare_app: Flask) -> None:
    """peer_internal has rewrite rules but no archive and no settings: never served."""
    docs = fetch_all(bare_app.test_client())
    assert "/peer_internal-sitemap.xml" not in docs
    assert bare_app.test_client().get("/peer_internal-sitemap.xml").status_code == 404
