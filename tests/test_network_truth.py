"""Every site of the `ms-small` network equals its truth (URLs, lastmod, images, authors),
on SQLite and MariaDB, served one site per process and by one service for the network."""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Iterator

import pytest
from flask import Flask

from tests.conftest import require_mariadb
from tests.support import wpdb
from tests.support.network import MS_SQL
from tests.support.network import SITEMAPS
from tests.support.network import expected_urls
from tests.support.network import fetch_site
from tests.support.network import forbidden_urls
from tests.support.network import get
from tests.support.network import load_ms_sqlite
from tests.support.network import ms_truth
from tests.support.network import network_app
from tests.support.network import process_app
from tests.support.sitemaps import parse_index
from tests.support.sitemaps import parse_urlset

PUBLIC_SITES = [1, 2, 3]


@pytest.fixture(scope="session")
def ms_sqlite_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """ms-small loaded into SQLite."""
    return "sqlite:///" + str(load_ms_sqlite(tmp_path_factory.mktemp("ms") / "ms.sqlite"))


@pytest.fixture(scope="session")
def ms_mariadb_url() -> Iterator[str]:
    """ms-small loaded into MariaDB, read through a SELECT-only user."""
    require_mariadb()
    name = wpdb.create_mariadb("ms", MS_SQL)
    yield wpdb.mariadb_url(name)
    wpdb.drop_mariadb(name)


@pytest.fixture(params=["sqlite", pytest.param("mariadb", marks=pytest.mark.mariadb)])
def ms_url(request: pytest.FixtureRequest) -> str:
    """ms-small's database URL, once per backend."""
    url: str = request.getfixturevalue(f"ms_{request.param}_url")
    return url


@pytest.fixture(params=["process", "network"])
def serve(request: pytest.FixtureRequest, ms_url: str) -> Callable[[int], Flask]:
    """Factory: the app that serves blog N, one site per process or one for the network."""
    network = network_app(ms_url) if request.param == "network" else None

    def factory(blog_id: int) -> Flask:
        return network if network is not None else process_app(ms_url, blog_id)

    return factory


@pytest.mark.parametrize("blog_id", PUBLIC_SITES)
def test_urls_and_lastmod_equal_truth(serve: Callable[[int], Flask], blog_id: int) -> None:
    """Each sitemap's <loc>s, in order, and their <lastmod> equal the site's truth."""
    truth = ms_truth(blog_id)
    docs = fetch_site(serve(blog_id).test_client(), truth["home"] + "/sitemap_index.xml")
    for kind, name, doc in SITEMAPS:
        expected = expected_urls(truth, kind, name)
        urls = parse_urlset(docs[doc])
        assert [(u.loc, u.lastmod) for u in urls] == [
            (loc, v["lastmod"]) for loc, v in expected.items()], doc


@pytest.mark.parametrize("blog_id", PUBLIC_SITES)
def test_images_equal_truth(serve: Callable[[int], Flask], blog_id: int) -> None:
    """Each entry's images equal the truth's: the site's own uploads/sites/N/ URLs."""
    truth = ms_truth(blog_id)
    docs = fetch_site(serve(blog_id).test_client(), truth["home"] + "/sitemap_index.xml")
    count = 0
    for kind, name, doc in SITEMAPS[:3]:
        expected = expected_urls(truth, kind, name)
        served = {u.loc: u.images for u in parse_urlset(docs[doc])}
        assert served == {k: v["images"] for k, v in expected.items()}, doc
        count += sum(len(v) for v in served.values())
    assert count > 0 and all(truth["upload_baseurl"] in u for u in
                             _images(docs, SITEMAPS[:3]) if "/uploads/" in u)


def _images(docs: dict[str, bytes], sitemaps: list[tuple[str, str, str]]) -> list[str]:
    return [i for _, _, doc in sitemaps for u in parse_urlset(docs[doc]) for i in u.images]


@pytest.mark.parametrize("blog_id", PUBLIC_SITES)
def test_authors_are_the_site_members(serve: Callable[[int], Flask], blog_id: int) -> None:
    """The author sitemap lists exactly the truth's authors: members of that site only."""
    truth = ms_truth(blog_id)
    resp = get(serve(blog_id).test_client(), truth["home"] + "/author-sitemap.xml")
    logins = [u.loc.rstrip("/").rsplit("/", 1)[1] for u in parse_urlset(resp.data)]
    assert logins == [a["nicename"] for a in truth["authors"]["entries"]]


def test_removed_member_is_not_an_author_of_the_french_site(
        serve: Callable[[int], Flask]) -> None:
    """chen, removed from site 2 with posts left there, is not listed there (but is on 1)."""
    client = serve(2).test_client()
    french = get(client, "http://localhost/fr/author-sitemap.xml").data
    assert b"/author/chen/" not in french
    main = get(serve(1).test_client(), "http://localhost/author-sitemap.xml").data
    assert b"http://localhost/blog/author/chen/" in main


@pytest.mark.parametrize("blog_id", [1, 2, 3, 4])
def test_nothing_private_or_excluded_is_listed(serve: Callable[[int], Flask],
                                               blog_id: int) -> None:
    """No URL the site's truth excludes (site_private for site 4) appears in its sitemaps."""
    truth = ms_truth(blog_id)
    docs = fetch_site(serve(blog_id).test_client(), truth["home"] + "/sitemap_index.xml")
    listed = {u.loc for name, body in docs.items() if name != "sitemap_index"
              for u in parse_urlset(body)}
    forbidden = forbidden_urls(truth)
    assert forbidden and not listed & forbidden


def test_non_public_site_lists_nothing(serve: Callable[[int], Flask]) -> None:
    """Site 4 (public = 0): an empty index, and every sitemap of it is empty."""
    client = serve(4).test_client()
    index = get(client, "http://localhost/intranet/sitemap_index.xml")
    assert index.status_code == 200 and parse_index(index.data) == []
    for _, _, doc in SITEMAPS:
        resp = get(client, f"http://localhost/intranet/{doc}-sitemap.xml")
        assert resp.status_code in (200, 404) and (
            resp.status_code == 404 or parse_urlset(resp.data) == []), doc
