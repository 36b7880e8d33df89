"""One service for a network: host + path -> site as get_site_by_path() does, 404 where no
site answers, 410 for archived, spam and deleted sites, per-site settings and robots.txt.

Variations of ms-small (archived, spam, deleted, a site created later) are derived in the
tests from an SQLite copy with UPDATE / CREATE TABLE, as WordPress would leave the rows."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from flask import Flask

from tests.support.network import fetch_site
from tests.support.network import get
from tests.support.network import load_ms_sqlite
from tests.support.network import network_app
from tests.support.network import process_app
from tests.support.network import sqlite_exec
from tests.support.sitemaps import parse_index
from tests.support.sitemaps import parse_urlset
from wpsitemaps.serving.sites import Sites
from wpsitemaps.web.context import resolution
from wpsitemaps.web.context import service_of
from wpsitemaps.web.context import session

SITE_TABLES = ("posts", "postmeta", "options", "terms", "term_taxonomy", "term_relationships",
               "termmeta", "comments", "commentmeta", "links")


@pytest.fixture(scope="module")
def ms_master(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """ms-small in SQLite, loaded once for the module."""
    return load_ms_sqlite(tmp_path_factory.mktemp("msr") / "ms.sqlite")


@pytest.fixture
def ms_copy(ms_master: Path, tmp_path: Path) -> str:
    """A private SQLite copy a test may change."""
    path = tmp_path / "ms.sqlite"
    shutil.copy(ms_master, path)
    return f"sqlite:///{path}"


@pytest.fixture
def network(ms_copy: str) -> Flask:
    """The network service over the private copy."""
    return network_app(ms_copy)


def _locs(app: Flask, url: str) -> list[str]:
    resp = get(app.test_client(), url)
    assert resp.status_code == 200, url
    return [u.loc for u in parse_urlset(resp.data)]


def test_mapped_domain_serves_its_own_site(network: Flask) -> None:
    """Host 127.0.0.1 (site 3's mapped domain) gets site 3's posts, not the main site's."""
    locs = _locs(network, "http://127.0.0.1/post-sitemap.xml")
    assert locs[0] == "http://127.0.0.1/" and all(
        u.startswith("http://127.0.0.1/archives/") for u in locs[1:])


def test_sub_directory_site_serves_its_own_sitemaps(network: Flask) -> None:
    """/fr/ on localhost is site 2: every listed sitemap and URL is under /fr/."""
    docs = fetch_site(network.test_client(), "http://localhost/fr/sitemap_index.xml")
    locs = [loc for loc, _ in parse_index(docs["sitemap_index"])]
    assert locs and all(loc.startswith("http://localhost/fr/") for loc in locs)
    assert all(u.loc.startswith("http://localhost/fr/") for name, body in docs.items()
               if name != "sitemap_index" for u in parse_urlset(body))


def test_main_site_answers_at_the_root(network: Flask) -> None:
    """Host localhost at the root is the main site (its /blog/ permalinks)."""
    assert "http://localhost/blog/category/news/" in _locs(
        network, "http://localhost/category-sitemap.xml")


def test_path_of_no_site_is_404(network: Flask) -> None:
    """/nosuch/… falls to the main site, which has no such route: 404."""
    resp = get(network.test_client(), "http://localhost/nosuch/post-sitemap.xml")
    assert resp.status_code == 404


def test_path_a_site_was_moved_from_is_404(network: Flask) -> None:
    """localhost/docs/ (site 3 before it was mapped) serves nothing, as WordPress answers 404."""
    resp = get(network.test_client(), "http://localhost/docs/sitemap_index.xml")
    assert resp.status_code == 404


def test_unknown_host_is_404(network: Flask) -> None:
    """A Host no site has gets 404 and no sitemap of any site."""
    resp = get(network.test_client(), "http://evil.example/sitemap_index.xml")
    assert resp.status_code == 404 and b"<urlset" not in resp.data


def test_forged_host_does_not_reach_another_sites_path(network: Flask) -> None:
    """Host 127.0.0.1 with site 2's path is site 3's (path /): /fr/… is 404 there."""
    client = network.test_client()
    assert get(client, "http://127.0.0.1/fr/post-sitemap.xml").status_code == 404
    assert get(client, "http://127.0.0.1/fr/sitemap_index.xml").status_code == 404


def test_forged_host_with_a_path_in_it_is_404(network: Flask) -> None:
    """A Host header carrying a path or junk matches no site."""
    resp = network.test_client().get("/sitemap_index.xml",
                                      headers={"Host": "localhost/fr"})
    assert resp.status_code == 404


def test_port_and_www_reach_the_same_site(network: Flask) -> None:
    """localhost:8080 and www.localhost are the main site, as WordPress drops www. too."""
    client = network.test_client()
    main = get(client, "http://localhost/post-sitemap.xml").data
    assert get(client, "http://localhost:8080/post-sitemap.xml").data == main
    assert get(client, "http://www.localhost/post-sitemap.xml").data == main


def test_each_site_has_its_own_key(network: Flask) -> None:
    """SiteContext.blog_id (and so site.key, the store's key) differs per site."""
    keys = []
    for base, path in (("http://localhost", "/"), ("http://localhost", "/fr/"),
                       ("http://127.0.0.1", "/")):
        with network.test_request_context(path + "sitemap_index.xml", base_url=base):
            assert session().site.key == resolution().key
            keys.append(session().site.key)
    assert keys == ["blog1", "blog2", "blog3"]


@pytest.mark.parametrize(("flag", "message"), [
    ("archived", b"This site has been archived or suspended."),
    ("spam", b"This site has been archived or suspended."),
    ("deleted", b"This site is no longer available.")])
def test_dead_site_answers_410_everywhere(ms_copy: str, flag: str, message: bytes) -> None:
    """An archived, spam or deleted site answers 410 for its index, sitemaps and .gz twins."""
    sqlite_exec(ms_copy, f"UPDATE wp_blogs SET {flag} = 1 WHERE blog_id = 2")
    client = network_app(ms_copy).test_client()
    for path in ("sitemap_index.xml", "post-sitemap.xml", "post-sitemap.xml.gz",
                 "main-sitemap.xsl", "nothing-here"):
        resp = get(client, f"http://localhost/fr/{path}")
        assert resp.status_code == 410 and message in resp.data, path
        assert b"http://" not in resp.data


def test_dead_mapped_site_answers_410_for_robots_txt(ms_copy: str) -> None:
    """The archived mapped-domain site's robots.txt is 410, as WordPress answers it."""
    sqlite_exec(ms_copy, "UPDATE wp_blogs SET archived = 1 WHERE blog_id = 3")
    resp = get(network_app(ms_copy).test_client(), "http://127.0.0.1/robots.txt")
    assert resp.status_code == 410


def test_dead_site_answers_410_one_site_per_process(ms_copy: str) -> None:
    """Served alone (TABLE_PREFIX wp_2_), an archived site answers 410 as well."""
    sqlite_exec(ms_copy, "UPDATE wp_blogs SET archived = 1 WHERE blog_id = 2")
    resp = get(process_app(ms_copy, 2).test_client(), "http://localhost/fr/sitemap_index.xml")
    assert resp.status_code == 410


def test_dead_site_leaves_the_others_alone(ms_copy: str) -> None:
    """Archiving site 2 changes nothing for site 1."""
    before = get(network_app(ms_copy).test_client(), "http://localhost/post-sitemap.xml").data
    sqlite_exec(ms_copy, "UPDATE wp_blogs SET spam = 1 WHERE blog_id = 2")
    after = get(network_app(ms_copy).test_client(), "http://localhost/post-sitemap.xml").data
    assert after == before


def test_wp_blogs_public_zero_lists_nothing(ms_copy: str) -> None:
    """public = 0 in wp_blogs alone (blog_public option still 1) empties the index."""
    sqlite_exec(ms_copy, "UPDATE wp_blogs SET public = 0 WHERE blog_id = 2")
    resp = get(network_app(ms_copy).test_client(), "http://localhost/fr/sitemap_index.xml")
    assert resp.status_code == 200 and parse_index(resp.data) == []


def _create_site(url: str, blog_id: int, path: str) -> None:
    """Add a site as wpmu_create_blog() leaves it: a wp_blogs row and its own tables."""
    home = f"http://localhost{path.rstrip('/')}"
    sqlite_exec(url, *(f"CREATE TABLE wp_{blog_id}_{t} AS SELECT * FROM wp_2_{t}"
                       for t in SITE_TABLES),
                f"UPDATE wp_{blog_id}_options SET option_value = '{home}' "
                "WHERE option_name IN ('home', 'siteurl')",
                "INSERT INTO wp_blogs (blog_id, site_id, domain, path, registered, last_updated,"
                " public, archived, mature, spam, deleted, lang_id) VALUES "
                f"({blog_id}, 1, 'localhost', '{path}', '2026-12-01 06:00:00',"
                " '2026-12-01 06:00:00', 1, 0, 0, 0, 0, 0)")


def test_new_site_appears_within_cache_ttl(ms_copy: str) -> None:
    """A site created while the service runs is served once cache_ttl has passed."""
    app = network_app(ms_copy, CACHE_TTL=300)
    now = [1000.0]
    service_of(app).sites = Sites(service_of(app).settings, clock=lambda: now[0])
    client = app.test_client()
    assert get(client, "http://localhost/new/sitemap_index.xml").status_code == 404
    _create_site(ms_copy, 5, "/new/")
    now[0] += 301
    resp = get(client, "http://localhost/new/post-sitemap.xml")
    assert resp.status_code == 200
    locs = [u.loc for u in parse_urlset(resp.data)]
    assert locs[0] == "http://localhost/new/" and len(locs) > 5


def test_site_settings_override_per_site(ms_copy: str) -> None:
    """[sites.2] exclude_post_types = ["event"] drops site 2's event sitemap only."""
    app = network_app(ms_copy, SITES={"2": {"exclude_post_types": ["event"]}})
    client = app.test_client()
    assert get(client, "http://localhost/fr/event-sitemap.xml").status_code == 404
    assert get(client, "http://localhost/event-sitemap.xml").status_code == 200


def test_site_contexts_stay_within_the_lru_bound(network: Flask, ms_copy: str) -> None:
    """With site_cache_size = 2, serving three sites keeps two contexts."""
    app = network_app(ms_copy, SITE_CACHE_SIZE=2)
    client = app.test_client()
    for url in ("http://localhost/", "http://localhost/fr/", "http://127.0.0.1/"):
        assert get(client, url + "sitemap_index.xml").status_code == 200
    assert service_of(app).sites.cached_contexts() == 2


def test_network_robots_txt_lists_every_public_live_site(ms_copy: str) -> None:
    """The root robots.txt lists the index of sites 1, 2 and mapped 3; not 4 or archived."""
    sqlite_exec(ms_copy, "UPDATE wp_blogs SET archived = 1 WHERE blog_id = 2")
    _create_site(ms_copy, 5, "/new/")
    body = get(network_app(ms_copy).test_client(), "http://localhost/robots.txt").data
    lines = [line for line in body.decode().splitlines() if line.startswith("Sitemap:")]
    assert lines == ["Sitemap: http://localhost/sitemap_index.xml",
                     "Sitemap: http://127.0.0.1/sitemap_index.xml",
                     "Sitemap: http://localhost/new/sitemap_index.xml"]


def test_robots_txt_of_a_sub_directory_site_is_404(network: Flask) -> None:
    """/fr/robots.txt is 404, as WordPress answers it: robots.txt lives at the root."""
    assert get(network.test_client(), "http://localhost/fr/robots.txt").status_code == 404


def test_database_down_while_resolving_is_503(tmp_path: Path) -> None:
    """When the database cannot be read to find the site, 503 with Retry-After."""
    app = network_app(f"sqlite:///{tmp_path / 'missing' / 'x.sqlite'}")
    resp = get(app.test_client(), "http://localhost/sitemap_index.xml")
    assert resp.status_code == 503 and "Retry-After" in resp.headers


def test_option_change_is_seen_at_once(ms_copy: str) -> None:
    """A kept site context is rebuilt as soon as the site's options change."""
    app = network_app(ms_copy)
    client = app.test_client()
    before = _locs(app, "http://localhost/fr/page-sitemap.xml")
    sqlite_exec(ms_copy, "UPDATE wp_2_options SET option_value = 'http://localhost/fr2' "
                         "WHERE option_name = 'home'")
    after = [u.loc for u in parse_urlset(get(client, "http://localhost/fr/page-sitemap.xml").data)]
    assert before[0] == "http://localhost/fr/" and after[0] == "http://localhost/fr2/"


def test_network_robots_txt_skips_a_site_without_tables(ms_copy: str) -> None:
    """A wp_blogs row whose tables are gone is left out; the other sites are listed."""
    sqlite_exec(ms_copy, "INSERT INTO wp_blogs (blog_id, site_id, domain, path, registered, "
                         "last_updated, public, archived, mature, spam, deleted, lang_id) VALUES "
                         "(9, 1, 'localhost', '/ghost/', '2026-12-01 06:00:00', "
                         "'2026-12-01 06:00:00', 1, 0, 0, 0, 0, 0)")
    resp = get(network_app(ms_copy).test_client(), "http://localhost/robots.txt")
    lines = [line for line in resp.data.decode().splitlines() if line.startswith("Sitemap:")]
    assert resp.status_code == 200 and len(lines) == 3 and "ghost" not in resp.data.decode()


def test_network_sites_found_while_database_fails(ms_copy: str, tmp_path: Path) -> None:
    """When the database fails, each site of a network is still found by host and path (a
    worker's last answers, else the page store's) and its stored documents are served."""
    store = str(tmp_path / "store")
    urls = ("http://localhost/fr/post-sitemap.xml", "http://127.0.0.1/post-sitemap.xml",
            "http://localhost/post-sitemap.xml")
    running = network_app(ms_copy, STORE=store)
    bodies = {url: get(running.test_client(), url).data for url in urls}
    Path(ms_copy.removeprefix("sqlite:///")).write_bytes(b"not a database\x00" * 100)
    started = network_app(ms_copy, STORE=store)
    for app in (running, started):
        for url, body in bodies.items():
            resp = get(app.test_client(), url)
            assert resp.status_code == 200 and resp.data == body and "Age" in resp.headers
