"""Page fingerprints computed by the database (issue #26), on the peer-small dump written by
real WordPress, SQLite and MariaDB.

Random edits of what a sitemap page is built from (a post's title, slug, date, status,
password; its noindex, canonical and featured image meta; its featured image's file, sizes
and alt text; a term's slug and posts; an author's nicename), each made straight in the
database, must move the fingerprint of the post page that lists the object, and leave the
other post pages' fingerprints alone; a term's or author's edit moves none of them (the
dump's links are /%postname%/; the term and author sitemaps are fingerprinted from the
lists the value cache holds, unchanged by issue #26). Requests go through HTTP with a page
store, no window and no change source, so every request revalidates its page by its
fingerprint.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import create_engine
from sqlalchemy import text

from tests.conftest import PEER_CONFIG
from tests.conftest import require_mariadb
from tests.support import wpdb
from wpsitemaps import create_app
from wpsitemaps.serving import documents
from wpsitemaps.sitemaps.fingerprint import page_fingerprint
from wpsitemaps.sitemaps.providers.base import Provider

PER_PAGE = 10  # the dump's 50 published posts on 5 pages
POST_PAGES = ["/post-sitemap.xml"] + [f"/post-sitemap{n}.xml" for n in range(2, 6)]
OTHERS = ["/page-sitemap.xml"]


class Site:
    """The app serving a fresh copy of the dump, a writer on the same database, and the
    fingerprint each page's last request computed."""

    def __init__(self, url: str, writer_url: str, store: Path,
                 monkeypatch: pytest.MonkeyPatch) -> None:
        self.app: Flask = create_app({
            "TESTING": True, "DATABASE_URL": url, **PEER_CONFIG, "STORE": str(store),
            "STORE_WINDOW": 0, "CHANGE_SOURCE": "none",
            "ENTRIES_PER_PAGE": PER_PAGE})
        self.writer = create_engine(writer_url)
        self.seen: dict[tuple[str, int], str | None] = {}
        real = page_fingerprint

        def recording(provider: Provider, page: int, bound: Any) -> str | None:
            found = real(provider, page, bound)
            self.seen[(provider.name, page)] = found
            return found

        monkeypatch.setattr(documents, "page_fingerprint", recording)

    def fingerprints(self) -> dict[str, str | None]:
        """{path: fingerprint} of every post page and the other listed documents, each
        requested once (rendered the first time, revalidated after)."""
        out: dict[str, str | None] = {}
        client = self.app.test_client()
        for path in POST_PAGES + OTHERS:
            self.seen.clear()
            assert client.get(path).status_code == 200, path
            assert len(self.seen) == 1, (path, self.seen)
            out[path] = next(iter(self.seen.values()))
        return out

    def listing(self) -> dict[str, list[int]]:
        """{post page: IDs of the posts it lists} (by their permalinks, /%postname%/)."""
        ids = {str(r[1]): int(r[0]) for r in self.rows(
            "SELECT ID, post_name FROM wp_posts WHERE post_type = 'post'")}
        client = self.app.test_client()
        return {path: sorted(ids[slug] for slug in re.findall(
                    r"<loc>[^<]*/([^/<]+)/</loc>", client.get(path).get_data(as_text=True))
                    if slug in ids) for path in POST_PAGES}

    def page_of(self, post_id: int) -> str:
        """The post page listing post_id."""
        return next(p for p, ids in self.listing().items() if post_id in ids)

    def range_of(self, post_id: int) -> str | None:
        """The post page whose ID range holds post_id (listed or not)."""
        starts = [(ids[0], p) for p, ids in self.listing().items() if ids]
        return max(((first, p) for first, p in starts if first <= post_id), default=(0, None))[1]

    def run(self, sql: str, **params: Any) -> None:
        with self.writer.begin() as conn:
            conn.execute(text(sql), params)

    def one(self, sql: str, **params: Any) -> Any:
        with self.writer.connect() as conn:
            return conn.execute(text(sql), params).scalar()

    def rows(self, sql: str, **params: Any) -> list[Any]:
        with self.writer.connect() as conn:
            return list(conn.execute(text(sql), params))


def _set_meta(site: Site, post_id: int, key: str, value: str) -> None:
    if site.one("SELECT COUNT(*) FROM wp_postmeta WHERE post_id = :p AND meta_key = :k",
                p=post_id, k=key):
        site.run("UPDATE wp_postmeta SET meta_value = :v WHERE post_id = :p AND meta_key = :k",
                 v=value, p=post_id, k=key)
    else:
        site.run("INSERT INTO wp_postmeta (post_id, meta_key, meta_value) VALUES (:p, :k, :v)",
                 p=post_id, k=key, v=value)


def _listed_post(site: Site, rng: random.Random, thumbnail: bool = False) -> int:
    """A published post that none of the dump's SEO meta leaves out (and, if asked, one
    with a featured image)."""
    ids = [int(r[0]) for r in site.rows(
        "SELECT ID FROM wp_posts p WHERE post_type = 'post' AND post_status = 'publish'"
        " AND post_password = '' AND NOT EXISTS (SELECT 1 FROM wp_postmeta m"
        " WHERE m.post_id = p.ID AND m.meta_key IN ('_yoast_wpseo_canonical',"
        " '_yoast_wpseo_meta-robots-noindex', 'rank_math_robots'))"
        + (" AND EXISTS (SELECT 1 FROM wp_postmeta t WHERE t.post_id = p.ID"
           " AND t.meta_key = '_thumbnail_id')" if thumbnail else "")
        + " ORDER BY ID")]
    assert ids
    return rng.choice(ids)


def _thumbnail(site: Site, post_id: int) -> int:
    return int(site.one("SELECT meta_value FROM wp_postmeta WHERE post_id = :p"
                        " AND meta_key = '_thumbnail_id'", p=post_id))


PostEdit = Callable[[Site, random.Random, int], None]
DocumentEdit = Callable[[Site, random.Random], str]  # says which document lists the object


def edit_title(site: Site, rng: random.Random, pid: int) -> None:
    site.run("UPDATE wp_posts SET post_title = :t WHERE ID = :id", t=f"Edited {rng.random()}",
             id=pid)


def edit_slug(site: Site, rng: random.Random, pid: int) -> None:
    site.run("UPDATE wp_posts SET post_name = :s WHERE ID = :id",
             s=f"moved-{rng.randrange(10**6)}", id=pid)


def edit_date(site: Site, rng: random.Random, pid: int) -> None:
    day = f"2026-0{rng.randrange(1, 9)}-1{rng.randrange(10)} 10:00:00"
    site.run("UPDATE wp_posts SET post_date = :d, post_date_gmt = :d WHERE ID = :id",
             d=day, id=pid)


def edit_status(site: Site, rng: random.Random, pid: int) -> None:
    site.run("UPDATE wp_posts SET post_status = :s WHERE ID = :id",
             s=rng.choice(["draft", "private", "trash"]), id=pid)


def edit_password(site: Site, rng: random.Random, pid: int) -> None:
    site.run("UPDATE wp_posts SET post_password = 'secret' WHERE ID = :id", id=pid)


def edit_noindex(site: Site, rng: random.Random, pid: int) -> None:
    _set_meta(site, pid, "_yoast_wpseo_meta-robots-noindex", "1")


def edit_canonical(site: Site, rng: random.Random, pid: int) -> None:
    _set_meta(site, pid, "_yoast_wpseo_canonical", "https://elsewhere.test/copy/")


def edit_thumbnail(site: Site, rng: random.Random, pid: int) -> None:
    images = [int(r[0]) for r in site.rows(
        "SELECT ID FROM wp_posts WHERE post_type = 'attachment' ORDER BY ID")]
    _set_meta(site, pid, "_thumbnail_id", str(rng.choice(images)))


def edit_attached_file(site: Site, rng: random.Random, pid: int) -> None:
    _set_meta(site, _thumbnail(site, pid), "_wp_attached_file",
              f"2026/11/replaced-{rng.randrange(10**6)}.jpg")


def edit_attachment_metadata(site: Site, rng: random.Random, pid: int) -> None:
    _set_meta(site, _thumbnail(site, pid), "_wp_attachment_metadata",
              f'a:1:{{s:5:"width";i:{rng.randrange(100, 2000)};}}')


def edit_alt(site: Site, rng: random.Random, pid: int) -> None:
    _set_meta(site, _thumbnail(site, pid), "_wp_attachment_image_alt",
              f"new alt {rng.random()}")


def edit_term_slug(site: Site, rng: random.Random) -> str:
    terms = [int(r[0]) for r in site.rows(
        "SELECT t.term_id FROM wp_terms t JOIN wp_term_taxonomy x ON x.term_id = t.term_id"
        " WHERE x.taxonomy = 'category' AND x.count > 0 ORDER BY t.term_id")]
    site.run("UPDATE wp_terms SET slug = :s WHERE term_id = :id",
             s=f"renamed-{rng.randrange(10**6)}", id=rng.choice(terms))
    return "/category-sitemap.xml"


def edit_term_assignment(site: Site, rng: random.Random) -> str:
    # The newest post joins a category that had no posts: the category becomes listed.
    newest = site.one("SELECT ID FROM wp_posts WHERE post_type = 'post'"
                      " AND post_status = 'publish' ORDER BY post_date_gmt DESC, ID DESC")
    empty = [int(r[0]) for r in site.rows(
        "SELECT term_taxonomy_id FROM wp_term_taxonomy WHERE taxonomy = 'category'"
        " AND term_taxonomy_id NOT IN (SELECT term_taxonomy_id FROM wp_term_relationships)")]
    if not empty:
        site.run("INSERT INTO wp_terms (name, slug, term_group) VALUES ('Fresh', 'fresh', 0)")
        term = site.one("SELECT term_id FROM wp_terms WHERE slug = 'fresh'")
        site.run("INSERT INTO wp_term_taxonomy (term_id, taxonomy, description, parent, count)"
                 " VALUES (:t, 'category', '', 0, 0)", t=term)
        empty = [int(site.one("SELECT term_taxonomy_id FROM wp_term_taxonomy"
                              " WHERE term_id = :t", t=term))]
    tt = rng.choice(empty)
    site.run("INSERT INTO wp_term_relationships (object_id, term_taxonomy_id, term_order)"
             " VALUES (:o, :t, 0)", o=newest, t=tt)
    site.run("UPDATE wp_term_taxonomy SET count = 1 WHERE term_taxonomy_id = :t", t=tt)
    return "/category-sitemap.xml"


def edit_author_nicename(site: Site, rng: random.Random) -> str:
    users = [int(r[0]) for r in site.rows(
        "SELECT DISTINCT post_author FROM wp_posts WHERE post_type = 'post'"
        " AND post_status = 'publish' ORDER BY post_author")]
    site.run("UPDATE wp_users SET user_nicename = :n WHERE ID = :id",
             n=f"writer-{rng.randrange(10**6)}", id=rng.choice(users))
    return "/author-sitemap.xml"


POST_EDITS: list[PostEdit] = [edit_title, edit_slug, edit_date, edit_status, edit_password,
                              edit_noindex, edit_canonical, edit_thumbnail]
THUMBNAIL_EDITS: list[PostEdit] = [edit_attached_file, edit_attachment_metadata, edit_alt]
DOCUMENT_EDITS: list[DocumentEdit] = [edit_term_slug, edit_term_assignment,
                                      edit_author_nicename]


@pytest.fixture(params=["sqlite", pytest.param("mariadb", marks=pytest.mark.mariadb)])
def fresh_peer(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A fresh, writable copy of the dump: (the app's URL, the writer's URL)."""
    if request.param == "sqlite":
        path = wpdb.load_peer_sqlite(tmp_path / "peer.sqlite")
        yield f"sqlite:///{path}", f"sqlite:///{path}"
        return
    require_mariadb()
    name = wpdb.create_mariadb("fpagg", wpdb.PEER_SQL)
    try:
        yield wpdb.mariadb_url(name), wpdb.mariadb_url(name, read_only_user=False)
    finally:
        wpdb.drop_mariadb(name)


@pytest.mark.parametrize("seed", [1, 2])
def test_every_edit_moves_the_fingerprint_of_its_page_only(
        fresh_peer: tuple[str, str], seed: int, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each edit, in a random order on a random object, moves the fingerprint of the page
    listing the object and no other post page's; with nothing changed, none moves."""
    site = Site(*fresh_peer, tmp_path / "store", monkeypatch)
    rng = random.Random(seed)
    before = site.fingerprints()
    assert all(before[p] for p in POST_PAGES)
    assert site.fingerprints() == before  # stable: nothing changed
    edits: list[PostEdit | DocumentEdit] = [*POST_EDITS, *THUMBNAIL_EDITS, *DOCUMENT_EDITS]
    for edit in rng.sample(edits, len(edits)):
        expected: set[str | None] = set()
        if edit in DOCUMENT_EDITS:
            document = edit(site, rng)
        else:
            pid = _listed_post(site, rng, thumbnail=edit in THUMBNAIL_EDITS)
            expected.add(site.page_of(pid))
            if edit in THUMBNAIL_EDITS:
                # The page whose range holds the image's parent may show it (a gallery):
                # its fingerprint reads the files of the attachments hanging off its range.
                # Every post it is the featured image of shows it (edit_thumbnail may have
                # shared one).
                image = _thumbnail(site, pid)
                parent = site.one("SELECT post_parent FROM wp_posts WHERE ID = :id", id=image)
                if parent and edit is edit_attached_file:
                    expected.add(site.range_of(int(parent)))
                listed = site.listing()
                expected |= {page for page, ids in listed.items() for r in site.rows(
                    "SELECT post_id FROM wp_postmeta WHERE meta_key = '_thumbnail_id'"
                    " AND meta_value = :v", v=str(image)) if int(r[0]) in ids}
                expected.discard(None)
            edit(site, rng, pid)  # type: ignore[call-arg]
        after = site.fingerprints()
        moved = {p for p in after if after[p] != before[p]}
        if expected:
            assert moved & set(POST_PAGES) == expected, (edit.__name__, moved)
        else:  # a term or author: /%postname%/ links do not read it (unrelated to posts)
            assert not moved & set(POST_PAGES), (edit.__name__, document, moved)
        before = after
    site.writer.dispose()


PRINT_FINGERPRINTS = """
import json, sys
import pytest
from tests.test_fingerprint_aggregates import Site
site = Site(sys.argv[1], sys.argv[2], __import__("pathlib").Path(sys.argv[3]), pytest.MonkeyPatch())
print(json.dumps(site.fingerprints()))
"""


def test_fingerprints_are_equal_across_processes(fresh_peer: tuple[str, str],
                                                 tmp_path: Path) -> None:
    """Two worker processes (different hash seeds, one store, as a server's workers) compute
    the same fingerprint of every page: the digests come from the database, not hash()."""
    seen = []
    for seed in ("1", "2"):
        out = subprocess.run(
            [sys.executable, "-c", PRINT_FINGERPRINTS, *fresh_peer, str(tmp_path / "store")],
            capture_output=True, text=True, check=True, cwd=Path(__file__).parent.parent,
            env={**os.environ, "PYTHONHASHSEED": seed})
        seen.append(json.loads(out.stdout.strip().splitlines()[-1]))
    assert all(seen[0][p] for p in POST_PAGES)
    assert seen[0] == seen[1]
