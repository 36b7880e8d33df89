"""Pages served through the page store (issue #13): same bytes, 304s, variants, start-up."""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.conftest import PEER_CONFIG
from tests.support.sitemaps import assert_valid
from tests.support.storeclock import store_of
from tests.support.storeclock import with_clock
from wpsitemaps import create_app
from wpsitemaps.serving import documents
from wpsitemaps.web.context import service_of

PATHS = ["/sitemap_index.xml", "/post-sitemap.xml", "/page-sitemap.xml", "/event-sitemap.xml",
         "/category-sitemap.xml", "/post_tag-sitemap.xml", "/genre-sitemap.xml",
         "/author-sitemap.xml", "/video-sitemap.xml", "/news-sitemap.xml"]
BROWSER = {"Sec-Fetch-Dest": "document", "Sec-Fetch-Mode": "navigate"}


def peer(url: str, store: str, **config: Any) -> Flask:
    """peer-small served with the given store."""
    return create_app({"TESTING": True, "DATABASE_URL": url, **PEER_CONFIG, "STORE": store,
                       **config})


@pytest.fixture
def stored_app(peer_sqlite_url: str, tmp_path: Path) -> Flask:
    """peer-small with a page store in tmp_path."""
    return peer(peer_sqlite_url, str(tmp_path / "pages"))


@pytest.fixture
def fresh_app(peer_sqlite_url: str) -> Flask:
    """peer-small without a store: every answer is a fresh render."""
    return peer(peer_sqlite_url, "off")


@pytest.mark.parametrize("headers", [{}, {"Accept-Encoding": "gzip"}, BROWSER],
                         ids=["xml", "gzip", "html"])
def test_stored_bytes_equal_a_fresh_render(stored_app: Flask, fresh_app: Flask,
                                           headers: dict[str, str]) -> None:
    """Every document served from the store is byte for byte what a fresh render serves."""
    stored, fresh = stored_app.test_client(), fresh_app.test_client()
    for path in PATHS:
        first = stored.get(path, headers=headers)
        again = stored.get(path, headers=headers)
        expected = fresh.get(path, headers=headers)
        assert again.data == first.data == expected.data, path
        assert again.headers["ETag"] == expected.headers["ETag"], path
        assert again.headers.get("Content-Encoding") == expected.headers.get("Content-Encoding")


def test_gzip_twin_equals_fresh(stored_app: Flask, fresh_app: Flask) -> None:
    """The .xml.gz file served with a stored twin is the fresh one."""
    stored_app.test_client().get("/post-sitemap.xml", headers={"Accept-Encoding": "gzip"})
    served = stored_app.test_client().get("/post-sitemap.xml.gz")
    assert served.data == fresh_app.test_client().get("/post-sitemap.xml.gz").data
    assert_valid(gzip.decompress(served.data))


def test_stored_page_is_not_rendered_again(stored_app: Flask,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """An unchanged page is served from the store: the renderer is not called."""
    client = stored_app.test_client()
    first = client.get("/post-sitemap.xml")
    monkeypatch.setattr(documents, "render_urlset", _refuse)
    assert client.get("/post-sitemap.xml").data == first.data


def test_304_needs_no_render(stored_app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """If-None-Match is answered 304 from the fingerprint and the stored tag alone."""
    client = stored_app.test_client()
    etag = client.get("/post-sitemap.xml").headers["ETag"]
    monkeypatch.setattr(documents, "render_urlset", _refuse)
    monkeypatch.setattr(store_of(stored_app).backend, "get", _refuse)
    resp = client.get("/post-sitemap.xml", headers={"If-None-Match": etag})
    assert resp.status_code == 304
    assert resp.headers["ETag"] == etag


def test_variant_etags_are_distinct(stored_app: Flask) -> None:
    """XML, gzip-encoded XML, the .xml.gz file and the HTML rendering have four tags."""
    client = stored_app.test_client()
    tags = {client.get("/post-sitemap.xml").headers["ETag"],
            client.get("/post-sitemap.xml", headers={"Accept-Encoding": "gzip"}).headers["ETag"],
            client.get("/post-sitemap.xml.gz").headers["ETag"],
            client.get("/post-sitemap.xml", headers=BROWSER).headers["ETag"]}
    assert len(tags) == 4


def test_gzip_tag_answers_304_from_the_store(stored_app: Flask) -> None:
    """A client holding the gzip-encoded variant revalidates it with its own tag."""
    client = stored_app.test_client()
    gz = {"Accept-Encoding": "gzip"}
    etag = client.get("/post-sitemap.xml", headers=gz).headers["ETag"]
    resp = client.get("/post-sitemap.xml", headers={**gz, "If-None-Match": etag})
    assert resp.status_code == 304


def test_window_serves_without_asking(peer_sqlite_url: str, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Inside store_window the stored page is served without computing its fingerprint
    (outside it, with no change check, it is computed)."""
    from wpsitemaps.serving import pagestore as store

    app = peer(peer_sqlite_url, str(tmp_path / "pages"), STORE_WINDOW=5, CHANGE_SOURCE="none")
    clock = with_clock(app)
    client = app.test_client()
    client.get("/post-sitemap.xml")
    calls: list[int] = []
    real = store.PageStore.valid

    def counting(self: store.PageStore, key: str, fingerprint: Any, *rest: Any) -> Any:
        return real(self, key, lambda: calls.append(1) or fingerprint(), *rest)

    monkeypatch.setattr(store.PageStore, "valid", counting)
    client.get("/post-sitemap.xml")
    assert calls == []
    clock.advance(5)
    client.get("/post-sitemap.xml")
    assert calls == [1]


@pytest.mark.parametrize("path", ["/post-sitemap.xml", "/sitemap_index.xml",
                                  "/category-sitemap.xml"])
def test_window_answers_without_reading_the_database(peer_sqlite_url: str, tmp_path: Path,
                                                     path: str) -> None:
    """Inside store_window a stored document (and its 304) is answered before anything is
    read from the database, with the bytes and headers of the answer that stored it."""
    from sqlalchemy import event

    app = peer(peer_sqlite_url, str(tmp_path / "pages"), STORE_WINDOW=5)
    with_clock(app)
    client = app.test_client()
    first = client.get(path)
    statements: list[str] = []
    engine = service_of(app).engine
    event.listen(engine, "before_cursor_execute",
                 lambda *args: statements.append(str(args[2])))
    again = client.get(path)
    etag = again.headers["ETag"].strip('"')
    not_modified = client.get(path, headers={"If-None-Match": etag})
    assert statements == []
    assert again.status_code == 200 and again.data == first.data
    assert {k: v for k, v in again.headers if k != "Date"} == \
        {k: v for k, v in first.headers if k != "Date"}
    assert not_modified.status_code == 304


def test_window_leaves_the_browser_view_to_the_site(peer_sqlite_url: str,
                                                    tmp_path: Path) -> None:
    """The HTML view needs the site (its pager): it is not answered before reading it."""
    from sqlalchemy import event

    app = peer(peer_sqlite_url, str(tmp_path / "pages"), STORE_WINDOW=5)
    with_clock(app)
    client = app.test_client()
    client.get("/post-sitemap.xml", headers=BROWSER)
    statements: list[str] = []
    event.listen(service_of(app).engine, "before_cursor_execute",
                 lambda *args: statements.append(str(args[2])))
    assert client.get("/post-sitemap.xml", headers=BROWSER).status_code == 200
    assert statements != []


def test_worker_with_an_unusable_directory_serves_without_it(peer_sqlite_url: str,
                                                             tmp_path: Path) -> None:
    """An app (a gunicorn worker) made while its store directory cannot be created serves
    every page without it; stopping start-up is `wpsitemaps serve`'s job (below)."""
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    app = peer(peer_sqlite_url, str(blocker / "pages"))
    fresh = peer(peer_sqlite_url, "off").test_client()
    for path in PATHS:
        resp = app.test_client().get(path)
        assert resp.status_code == 200
        assert resp.data == fresh.get(path).data


def test_store_off_needs_no_directory(peer_sqlite_url: str) -> None:
    """STORE=off serves pages without any store."""
    app = peer(peer_sqlite_url, "off")
    assert app.test_client().get("/post-sitemap.xml").status_code == 200
    assert service_of(app).pages is None


def test_key_format(stored_app: Flask, tmp_path: Path) -> None:
    """Documents are stored as {namespace}/{site.key}/{document} (docs/performance.md)."""
    stored_app.test_client().get("/post-sitemap.xml")
    space = store_of(stored_app).namespace
    assert (tmp_path / "pages" / space / "blog1" / "post-sitemap.xml").is_file()


def _refuse(*_args: Any, **_kwargs: Any) -> Any:
    raise AssertionError("must not be called")


def test_serve_checks_the_store_first(tmp_path: Path, peer_sqlite_url: str,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """`wpsitemaps serve` with an unusable store exits 2 with one line, before gunicorn."""
    from click.testing import CliRunner

    from wpsitemaps import cli

    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setattr(cli, "run_gunicorn", _refuse)
    result = CliRunner().invoke(cli.main, ["serve"], env={
        "WPSITEMAPS_DATABASE_URL": peer_sqlite_url, "WPSITEMAPS_STORE": str(blocker / "x")})
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("wpsitemaps: WPSITEMAPS_STORE: ")


def test_gzip_file_comes_from_the_stored_twin(stored_app: Flask,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Once stored, the .xml.gz file is served without compressing the page again."""
    from wpsitemaps.serving import variants
    from wpsitemaps.web import gzip as web_gzip

    client = stored_app.test_client()
    first = client.get("/post-sitemap.xml.gz")
    monkeypatch.setattr(web_gzip, "gzip_bytes", _refuse)
    monkeypatch.setattr(variants, "gzip_bytes", _refuse)
    again = client.get("/post-sitemap.xml.gz")
    assert again.status_code == 200 and again.data == first.data


def test_a_document_prepared_in_the_background_is_stored_once_across_processes(
        peer_sqlite_url: str, tmp_path: Path) -> None:
    """Refresher.prepare renders a document into the store for the next request; while
    another process holds the document's lease (it prepares it already), it does nothing."""
    import time

    from wpsitemaps.cache.leases import Keeper
    from wpsitemaps.serving.addresses import Address
    from wpsitemaps.serving.refresh import Refresher

    app = peer(peer_sqlite_url, str(tmp_path / "pages"))
    service = service_of(app)
    pages = service.pages
    assert pages is not None
    resolved = service.resolve("localhost", "/")
    key = pages.key(resolved.key, "post-sitemap.xml")
    refresher = Refresher(service)

    def prepared() -> bool:
        refresher.prepare(resolved, Address("post"))
        deadline = time.monotonic() + 30
        while refresher.preparing():
            assert time.monotonic() < deadline
            time.sleep(0.05)
        return pages.backend.head(key) is not None

    other = Keeper()  # another worker, preparing the same document
    lease = other.take(pages.guard, key + ".prepare")
    assert lease is not None and lease.stored
    assert not prepared()
    other.give_back(lease)
    assert prepared()
    stored = pages.backend.get(key)
    assert stored is not None
    # The bytes a render without any store gives.
    assert stored.body == peer(peer_sqlite_url, "off").test_client().get("/post-sitemap.xml").data
