"""The background refresh recomputes a site's values itself, through serving, not by asking
the app for its index (issue #23): no store window can answer it instead."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.support.builder import Site
from wpsitemaps.serving.refresh import Refresher
from wpsitemaps.serving.service import Background
from wpsitemaps.sitemaps.providers.posts import PostTypeProvider
from wpsitemaps.web.context import service_of


def three_posts() -> Site:
    """A site whose post sitemap has pages to bound."""
    site = Site()
    for i in range(3):
        site.post(f"Post {i}", name=f"post-{i}")
    return site


def wait_idle(refresher: Background) -> None:
    """Until the running background refresh (if any) has finished."""
    deadline = time.monotonic() + 10
    while refresher.running() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not refresher.running(), "the background refresh did not finish"


def test_a_late_refresh_inside_the_store_window_recomputes(
        make_app: Callable[..., Flask], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A refresh that starts 0.5 s after the request that asked for it, inside the default
    2 s store window, still recomputes the page bounds."""
    app = make_app(three_posts(), STORE=str(tmp_path / "pages"), STORE_WINDOW=2)
    service = service_of(app)
    client = app.test_client()
    assert client.get("/sitemap_index.xml").status_code == 200
    refresher = service.background
    assert refresher is not None
    wait_idle(refresher)
    computed: list[str] = []
    real_bounds, real_run = PostTypeProvider.compute_bounds, Refresher.run

    def counted(self: PostTypeProvider) -> Any:
        computed.append(self.name)
        return real_bounds(self)

    def late(self: Refresher, resolved: Any) -> None:
        time.sleep(0.5)
        real_run(self, resolved)

    monkeypatch.setattr(PostTypeProvider, "compute_bounds", counted)
    monkeypatch.setattr(Refresher, "run", late)
    service.values.clock = lambda: time.monotonic() + 10_000  # every value is stale now
    assert client.get("/post-sitemap.xml").status_code == 200  # serves stale, starts it
    time.sleep(0.1)
    wait_idle(refresher)
    assert "post" in computed
