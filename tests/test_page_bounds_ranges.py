"""page_bounds_in_ranges() gives page_bounds()' pages (issue #13: the video candidates' scan
is walked in ranges of IDs, each statement under the driver's read timeout)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC
from datetime import datetime
from datetime import timedelta

import pytest
from sqlalchemy import Connection

from tests.support.builder import Site
from wpsitemaps.wordpress.queries import posts as qp
from wpsitemaps.wordpress.schema import build_tables


def mixed_site() -> Site:
    """Posts, drafts, pages and attachments interleaved, dates out of ID order."""
    site = Site()
    start = datetime(2024, 1, 1, tzinfo=UTC)
    for i in range(23):
        status = "draft" if i % 5 == 0 else "publish"
        kind = "page" if i % 7 == 0 else "post"
        pid = site.post(f"P{i}", post_type=kind, status=status,
                        date=start + timedelta(days=(i * 37) % 19),
                        modified=start + timedelta(days=(i * 11) % 29))
        if i % 3 == 0:
            site.post("img", post_type="attachment", status="inherit", parent=pid)
    return site


@pytest.fixture(params=["sqlite", pytest.param("mariadb", marks=pytest.mark.mariadb)])
def conn(request: pytest.FixtureRequest, site_conn: Callable[..., Connection]) -> Connection:
    """The mixed site on each database."""
    return site_conn(mixed_site(), request.param)


@pytest.mark.parametrize("per_page,span", [(2, 1), (2, 3), (3, 5), (4, 100), (1000, 7)])
def test_ranges_give_the_same_pages(conn: Connection, per_page: int, span: int) -> None:
    """Same first IDs, last IDs and newest dates, whatever the range and page sizes."""
    t = build_tables()
    where = qp.published(t, ["post", "page"])
    whole = qp.page_bounds(conn, t, where, per_page)
    assert len(whole) > 1 or per_page == 1000
    assert qp.page_bounds_in_ranges(conn, t, where, per_page, span) == whole
