"""Every URL real WordPress built for the oracle fixtures and peer-small, rebuilt by permalinks.py.

The inputs are those WordPress recorded next to each URL (tests/oracle/README.md); the link
facts and content types come from the dump as the app reads them.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from tests.conftest import PEER_CONFIG
from tests.support import oracle_data
from tests.support.oracle_data import OracleCase
from wpsitemaps.config import load_settings
from wpsitemaps.wordpress.permalinks import PostLink
from wpsitemaps.wordpress.permalinks import archive_url
from wpsitemaps.wordpress.permalinks import author_url
from wpsitemaps.wordpress.permalinks import home_url
from wpsitemaps.wordpress.permalinks import paged_url
from wpsitemaps.wordpress.permalinks import post_url
from wpsitemaps.wordpress.permalinks import term_url


@pytest.fixture(scope="module", params=oracle_data.VARIANTS)
def case(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> OracleCase:
    """One oracle variant loaded into SQLite."""
    return oracle_data.load_case(request.param, tmp_path_factory.mktemp("oracle"))


def listed_posts(case: OracleCase) -> list[dict[str, Any]]:
    """The truth's published rows of listed post types."""
    return [p for p in case.truth["posts"] if p["listed"]]


def test_post_links_equal_wordpress(case: OracleCase) -> None:
    """Each listable published row gets exactly get_permalink()'s URL."""
    posts = listed_posts(case)
    got = {p["id"]: post_url(case.links, case.post_type(p["post_type"]),
                             oracle_data.post_link(p)) for p in posts}
    assert got == {p["id"]: p["loc"] for p in posts}


def test_page_links_equal_get_page_link(case: OracleCase) -> None:
    """Pages (front page and posts page included) equal get_page_link()."""
    pages = [p for p in listed_posts(case) if p["post_type"] == "page"]
    got = {p["id"]: post_url(case.links, case.post_type("page"), oracle_data.post_link(p))
           for p in pages}
    assert got == {p["id"]: p["page_link"] for p in pages}


def test_paged_links_equal_wordpress(case: OracleCase) -> None:
    """Pages 2..n of every multi-page row equal _wp_link_page()."""
    want = {(p["id"], n): url for p in listed_posts(case)
            for n, url in enumerate(p["pages"], start=2)}
    got = {(p["id"], n): paged_url(case.links, oracle_data.post_link(p), p["loc"], n)
           for p in listed_posts(case) for n in range(2, len(p["pages"]) + 2)}
    assert len(want) == 6
    assert got == want


def test_term_links_equal_wordpress(case: OracleCase) -> None:
    """Each term of a listed taxonomy gets exactly get_term_link()'s URL."""
    terms = [t for t in case.truth["terms"] if t["listed"]]
    got = {t["id"]: term_url(case.links, case.taxonomy(t["taxonomy"]), t["id"], t["slug"],
                             tuple(t["ancestors"])) for t in terms}
    assert got == {t["id"]: t["loc"] for t in terms}


def test_author_links_equal_wordpress(case: OracleCase) -> None:
    """Each user gets exactly get_author_posts_url()'s URL."""
    users = case.truth["users"]
    got = {u["id"]: author_url(case.links, case.author, u["id"], u["nicename"]) for u in users}
    assert got == {u["id"]: u["loc"] for u in users}


def test_archive_links_equal_wordpress(case: OracleCase) -> None:
    """Each listed custom type's archive equals get_post_type_archive_link(), or is none."""
    custom = {n: i for n, i in case.truth["post_types"].items()
              if i["listed"] and not i["builtin"]}
    got = {n: archive_url(case.links, case.post_type(n)) for n in custom}
    assert got == {n: i["archive_link"] or None for n, i in custom.items()}


def test_home_url_equals_wordpress(case: OracleCase) -> None:
    """home_url('/') equals WordPress's."""
    assert home_url(case.links, "/") == case.truth["home_url_slash"]


# ---- peer-small: inputs come from the dump, URLs from its truth ----------------------------


@pytest.fixture(scope="module")
def peer(peer_sqlite_url: str) -> tuple[OracleCase, sqlite3.Connection]:
    """peer-small read as the app reads it, plus a raw connection for the inputs."""
    conf = load_settings({"DATABASE_URL": peer_sqlite_url, **PEER_CONFIG}, environ={})
    opts = oracle_data.read_options(peer_sqlite_url, conf)
    types, author = oracle_data.site_types(opts, conf)
    case = OracleCase("peer", peer_sqlite_url, oracle_data.link_site(opts), types, author, {})
    return case, sqlite3.connect(peer_sqlite_url.removeprefix("sqlite:///"))


def peer_post(con: sqlite3.Connection, post_id: int) -> PostLink:
    """PostLink of a peer row; the URI walks post_parent as get_page_uri() does."""
    sql = "SELECT post_type, post_name, post_date, post_parent FROM wp_posts WHERE ID = ?"
    ptype, name, date, parent = con.execute(sql, (post_id,)).fetchone()
    uri = name
    while parent:
        pname, parent = con.execute(
            "SELECT post_name, post_parent FROM wp_posts WHERE ID = ?", (parent,)).fetchone()
        uri = f"{pname}/{uri}"
    return PostLink(post_id, ptype, name, date, uri)


def test_peer_post_type_entries_equal_truth(peer: tuple[OracleCase, sqlite3.Connection],
                                            truth: dict[str, Any]) -> None:
    """Every peer-small post, page and event entry and its pages 2..n equal the truth."""
    case, con = peer
    want: dict[tuple[int, int], str] = {}
    got: dict[tuple[int, int], str] = {}
    for name, data in truth["post_types"].items():
        for entry in data["entries"]:
            link = peer_post(con, entry["id"])
            url = post_url(case.links, case.post_type(name), link)
            want[(entry["id"], 1)], got[(entry["id"], 1)] = entry["loc"], url
            for n, page in enumerate(entry["pages"], start=2):
                want[(entry["id"], n)] = page
                got[(entry["id"], n)] = paged_url(case.links, link, url, n)
    assert len(want) > 50
    assert got == want


def test_peer_event_archive_equals_truth(peer: tuple[OracleCase, sqlite3.Connection],
                                         truth: dict[str, Any]) -> None:
    """The event archive link equals get_post_type_archive_link()."""
    case, _con = peer
    want = truth["post_type_info"]["event"]["archive_link"]
    assert archive_url(case.links, case.post_type("event")) == want


def term_ancestors(con: sqlite3.Connection, taxonomy: str, parent: int) -> tuple[str, ...]:
    """Slugs of a term's ancestors, root first."""
    out: list[str] = []
    while parent:
        slug, parent = con.execute(
            "SELECT t.slug, tt.parent FROM wp_terms t JOIN wp_term_taxonomy tt "
            "ON tt.term_id = t.term_id WHERE t.term_id = ? AND tt.taxonomy = ?",
            (parent, taxonomy)).fetchone()
        out.insert(0, slug)
    return tuple(out)


def test_peer_term_and_author_links_equal_truth(peer: tuple[OracleCase, sqlite3.Connection],
                                                truth: dict[str, Any]) -> None:
    """Every peer-small term entry and author entry equals the truth."""
    case, con = peer
    want, got = {}, {}
    for tax, data in truth["taxonomies"].items():
        for t in data["entries"]:
            want[(tax, t["id"])] = t["loc"]
            got[(tax, t["id"])] = term_url(case.links, case.taxonomy(tax), t["id"], t["slug"],
                                           term_ancestors(con, tax, t["parent"]))
    for u in truth["authors"]["entries"]:
        want[("author", u["id"])] = u["loc"]
        got[("author", u["id"])] = author_url(case.links, case.author, u["id"], u["nicename"])
    assert len(want) == 22
    assert got == want
