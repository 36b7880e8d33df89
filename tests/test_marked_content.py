"""Which rows a page reads post_content for (queries.posts.marked_content), on SQLite (LIKE)
and MariaDB (one REGEXP): the same rows, whatever the case of the markers (issue #13)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from sqlalchemy import Connection

from tests.support.builder import Site
from wpsitemaps.wordpress.queries import posts as qp
from wpsitemaps.wordpress.schema import build_tables

CONTENTS = {
    "lower": '<p>x</p><img src="/a.jpg">', "upper": "<IMG SRC=/b.jpg>",
    "mixed": "<p>y</p><Img src='/c.jpg'>", "shortcode": '[gallery ids="1,2"]',
    "block": "<!-- wp:gallery {\"ids\":[3]} -->", "paged": "one<!--nextpage-->two",
    "plain": "<p>no image here: imgur, gallery, nextpage</p>", "empty": "",
    "regex-like": "a.b*c [x] (y) \\d+ <p>",
}
MARKED = {"lower", "upper", "mixed", "shortcode", "block", "paged"}


@pytest.fixture(params=["sqlite", pytest.param("mariadb", marks=pytest.mark.mariadb)])
def conn(request: pytest.FixtureRequest, site_conn: Callable[..., Connection]) -> Connection:
    """One post per content on each database."""
    site = Site()
    for name, content in CONTENTS.items():
        site.post(name, name=name, content=content)
    return site_conn(site, request.param)


def test_content_is_read_only_for_marked_rows(conn: Connection) -> None:
    """The marked rows come with their whole content, the others with ''."""
    t = build_tables()
    rows = qp.page_rows(conn, t, qp.published(t, ["post"]), 0, 100, marked_only=True)
    got = {str(r.post_name): str(r.post_content) for r in rows}
    assert set(got) == set(CONTENTS)
    assert {name for name, content in got.items() if content} == MARKED
    assert all(got[name] == CONTENTS[name] for name in MARKED)
