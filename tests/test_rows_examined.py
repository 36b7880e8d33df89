"""Rows the database reads for one warm request do not grow with the site (issue #13).

Two generated sites, 2,000 and 20,000 public posts (the demo generator: images, galleries,
<!--nextpage-->, Yoast canonical overrides on 1 post in 8, foreign canonicals, Rank Math and
AIOSEO noindex), are served by the app on MariaDB. After warm-up requests (the page bounds
and other per-refresh values are cached, the page is in the store), MariaDB's Handler_read%
session counters around one request must agree within 20 % between the two sizes, document
by document. With the page store on (the suite's default, window 0) that request is the
store's revalidation; with WPSITEMAPS_TEST_STORE=off it is a full render.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from tests.conftest import require_mariadb
from tests.support import wpdb
from tests.support.handlers import HandlerReads
from tests.support.handlers import rows_read
from wpsitemaps import create_app
from wpsitemaps.demo.run import DEMO_CONFIG
from wpsitemaps.demo.write import mysql_sql
from wpsitemaps.web.context import service_of

pytestmark = pytest.mark.mariadb
NOW = 1795969443
SIZES = (2000, 20000)
PER_PAGE = 200
TOLERANCE = 1.2


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[int, Flask]]:
    """An app per size, each on its own generated MariaDB database."""
    require_mariadb()
    config = tmp_path_factory.mktemp("rows") / "demo.toml"
    config.write_text(DEMO_CONFIG, encoding="utf-8")
    names: list[str] = []
    apps: dict[int, Flask] = {}
    try:
        for size in SIZES:
            names.append(wpdb.create_mariadb_streamed(f"rows{size}",
                                                      mysql_sql(size, 1, now=NOW)))
            apps[size] = create_app({
                "TESTING": True, "DATABASE_URL": wpdb.mariadb_url(names[-1]),
                "TABLE_PREFIX": "wp_", "CONFIG": str(config), "ENTRIES_PER_PAGE": PER_PAGE,
                "NOW": "option:demo_generated_at"})
        yield apps
    finally:
        for name in names:
            wpdb.drop_mariadb(name)


def warm_reads(app: Flask, path: str) -> int:
    """Handler_read% total of one request of `path` after two warm-up requests."""
    client = app.test_client()
    for _ in range(2):
        assert client.get(path).status_code == 200, path
    reads = HandlerReads(service_of(app).engine)
    try:
        assert client.get(path).status_code == 200
    finally:
        reads.close()
    assert len(reads.deltas) == 1  # one connection per request
    return rows_read(reads.deltas[0])


def pages(app: Flask) -> int:
    """How many post sitemap pages the index lists."""
    return app.test_client().get("/sitemap_index.xml").get_data(as_text=True).count(
        "/post-sitemap")


def assert_flat(sites: dict[int, Flask], path_of: dict[int, str]) -> None:
    """The reads of path_of[size] agree within TOLERANCE across the sizes."""
    reads = {size: warm_reads(app, path_of[size]) for size, app in sites.items()}
    low, high = min(reads.values()), max(reads.values())
    assert low > 0 and high <= low * TOLERANCE, reads


def test_sizes_differ_tenfold_in_pages(sites: dict[int, Flask]) -> None:
    """The bigger site really lists about ten times the pages of the smaller one."""
    small, big = (pages(sites[size]) for size in SIZES)
    assert small >= 8 and big >= 9 * small


def test_middle_post_page_reads_the_same_rows_at_both_sizes(sites: dict[int, Flask]) -> None:
    """A warm middle post page examines as many rows on 20,000 posts as on 2,000."""
    assert_flat(sites, {size: f"/post-sitemap{pages(app) // 2}.xml"
                        for size, app in sites.items()})


def test_first_post_page_reads_the_same_rows_at_both_sizes(sites: dict[int, Flask]) -> None:
    """Page 1 (with the home URL and its site-wide lastmod) does not grow with the site."""
    assert_flat(sites, dict.fromkeys(SIZES, "/post-sitemap.xml"))


def test_last_post_page_reads_no_more_than_a_full_page(sites: dict[int, Flask]) -> None:
    """The last post page (partly full, with the events written after every post) examines
    no more rows than a full middle page at either size: it is read up to its last row when
    the bounds were taken, plus what is newer, not on through the other types' rows to the
    end of the table (111,085 rows at 1,000,000 posts before)."""
    for size, app in sites.items():
        last, middle = (warm_reads(app, f"/post-sitemap{n}.xml")
                        for n in (pages(app), pages(app) // 2))
        assert last <= middle * TOLERANCE, (size, last, middle)


def test_news_sitemap_reads_the_same_rows_at_both_sizes(sites: dict[int, Flask]) -> None:
    """The 48-hour news window is found through an index, not a scan of every post."""
    assert_flat(sites, dict.fromkeys(SIZES, "/news-sitemap.xml"))


def test_index_reads_the_same_rows_at_both_sizes(sites: dict[int, Flask]) -> None:
    """The sitemap index is served from the per-refresh bounds, not recounted per request:
    its live tail reads only the rows inserted since the bounds were read."""
    assert_flat(sites, dict.fromkeys(SIZES, "/sitemap_index.xml"))
