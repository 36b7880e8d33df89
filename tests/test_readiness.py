"""Start-up readiness and `wpsitemaps grants` on a WooCommerce shop in MariaDB (shop-small),
read through users granted table by table as an operator would: the tables a site reads are
probed at start, a missing optional GRANT is named and skipped (never a 503 per request), a
missing required one stops `serve` with one line, and a user made from `grants` serves every
URL WordPress computed."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask

from tests.conftest import require_mariadb
from tests.support import served
from tests.support import wpdb
from tests.support.sitemaps import assert_valid
from tests.support.sitemaps import fetch_all
from tests.support.sitemaps import parse_index
from tests.support.sitemaps import parse_urlset
from tests.support.sitemaps import path_of
from tests.test_shop_truth import expected
from wpsitemaps import cli
from wpsitemaps import create_app

pytestmark = pytest.mark.mariadb
USER = f"wpsm_rd{os.getpid()}"
ATTRIBUTES = "wp_woocommerce_attribute_taxonomies"


@pytest.fixture(scope="module")
def shop_db() -> Iterator[str]:
    """shop-small in a fresh MariaDB database."""
    require_mariadb()
    name = wpdb.create_mariadb("ready", wpdb.SHOP_SQL)
    yield name
    wpdb.drop_mariadb(name)


@pytest.fixture
def user_with(shop_db: str) -> Iterator[Callable[..., str]]:
    """Make a user from GRANT statements (their grantee replaced); its URL to the shop (or
    to `database`)."""
    def make(statements: list[str], database: str = shop_db) -> str:
        with wpdb.root_conn() as con, con.cursor() as cur:
            cur.execute(f"DROP USER IF EXISTS '{USER}'@'%'")
            cur.execute(f"CREATE USER '{USER}'@'%' IDENTIFIED BY 'pw'")
            for statement in statements:
                cur.execute(statement.replace("'ro'@'%'", f"'{USER}'@'%'"))
        return (f"mysql+pymysql://{USER}:pw@{wpdb.MARIADB_HOST}:{wpdb.MARIADB_PORT}/"
                f"{database}?charset=utf8mb4")

    yield make
    with wpdb.root_conn() as con, con.cursor() as cur:
        cur.execute(f"DROP USER IF EXISTS '{USER}'@'%'")


def grants(shop_db: str) -> list[str]:
    """`wpsitemaps grants --user ro --host %` run as root on the shop database."""
    result = CliRunner().invoke(cli.main, ["grants", "--user", "ro", "--host", "%"], env={
        "WPSITEMAPS_DATABASE_URL": wpdb.mariadb_url(shop_db, read_only_user=False)})
    assert result.exit_code == 0, result.output
    return result.stdout.strip().splitlines()


def served_locs(url: str) -> dict[str, list[str]]:
    """{sitemap name: locs} as served through HTTP by an app reading through `url`."""
    app: Flask = create_app({"TESTING": True, "DATABASE_URL": url, "TABLE_PREFIX": "wp_",
                             "NOW": "option:peer_generated_at"})
    docs = fetch_all(app.test_client())
    return {path[1:-len("-sitemap.xml")]: [u.loc for u in parse_urlset(body)]
            for path, body in docs.items() if path.endswith("-sitemap.xml")}


@pytest.fixture(scope="module")
def shop_truth() -> dict[str, Any]:
    """shop-small.truth.json."""
    data: dict[str, Any] = json.loads(wpdb.SHOP_TRUTH.read_text(encoding="utf-8"))
    return data


def test_grants_lists_the_shop_tables(shop_db: str) -> None:
    """The statements name the core tables, users by column, and WooCommerce's attributes."""
    lines = grants(shop_db)
    assert len(lines) == 10 and all(line.startswith("GRANT SELECT ") for line in lines)
    assert f"GRANT SELECT ON `{shop_db}`.`{ATTRIBUTES}` TO 'ro'@'%';" in lines
    assert (f"GRANT SELECT (`ID`, `user_login`, `user_nicename`, `display_name`) ON "
            f"`{shop_db}`.`wp_users` TO 'ro'@'%';") in lines


def test_a_user_made_from_grants_serves_the_truth(
        shop_db: str, user_with: Callable[..., str], shop_truth: dict[str, Any]) -> None:
    """A user created from the `grants` output serves every URL equal to WordPress's own."""
    locs = served_locs(user_with(grants(shop_db)))
    want = expected(shop_truth)
    assert {name: locs[name] for name in want} == want
    assert sum(map(len, want.values())) == 107


def test_without_the_attribute_grant_the_shop_is_served(
        shop_db: str, user_with: Callable[..., str], shop_truth: dict[str, Any]) -> None:
    """Without WooCommerce's attribute table every sitemap answers 200 (from WooCommerce's
    cached copy of the attributes), not 503."""
    url = user_with([g for g in grants(shop_db) if ATTRIBUTES not in g])
    locs = served_locs(url)
    want = expected(shop_truth)
    assert {name: locs[name] for name in want} == want


def test_check_names_the_skipped_table(shop_db: str,
                                       user_with: Callable[..., str]) -> None:
    """`check` exits 0 and has one finding naming the table, the GRANT fix and the loss."""
    url = user_with([g for g in grants(shop_db) if ATTRIBUTES not in g])
    result = CliRunner().invoke(cli.main, ["check"], env={"WPSITEMAPS_DATABASE_URL": url})
    assert result.exit_code == 0, result.output
    findings = [line for line in result.output.splitlines()
                if line.startswith("finding") and "WooCommerce" in line]
    assert len(findings) == 1
    assert ATTRIBUTES in findings[0] and "wpsitemaps grants" in findings[0]
    assert "_transient_wc_attribute_taxonomies" in findings[0]
    assert "Traceback" not in result.output


def test_serve_warns_once_and_starts(shop_db: str, user_with: Callable[..., str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """`serve` prints one warning line for the optional table, then starts gunicorn."""
    url = user_with([g for g in grants(shop_db) if ATTRIBUTES not in g])
    started: list[int] = []
    monkeypatch.setattr(cli, "run_gunicorn", lambda *a: started.append(1))
    result = CliRunner().invoke(cli.main, ["serve"], env={"WPSITEMAPS_DATABASE_URL": url,
                                                          "WPSITEMAPS_STORE": "off"})
    assert result.exit_code == 0 and started == [1]
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("wpsitemaps: warning: WooCommerce product")
    assert ATTRIBUTES in lines[0]


def test_serve_stops_without_a_required_table(shop_db: str,
                                              user_with: Callable[..., str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Without wp_postmeta, `serve` exits 2 with one line naming it and the fix."""
    url = user_with([g for g in grants(shop_db) if "`wp_postmeta`" not in g])
    monkeypatch.setattr(cli, "run_gunicorn", lambda *a: pytest.fail("gunicorn started"))
    result = CliRunner().invoke(cli.main, ["serve"], env={"WPSITEMAPS_DATABASE_URL": url,
                                                          "WPSITEMAPS_STORE": "off"})
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"wpsitemaps: user '{USER}' may not read table wp_postmeta")
    assert "wpsitemaps grants" in lines[0]


def test_grants_cover_a_network(user_with: Callable[..., str]) -> None:
    """On ms-small, a user made from `grants` (network tables, every live site's tables)
    sees every site as root does in `check`."""
    name = wpdb.create_mariadb("readyms", wpdb.SHARED / "wordpress" / "ms-small.sql")
    try:
        root = wpdb.mariadb_url(name, read_only_user=False)
        lines = grants(name)
        assert f"GRANT SELECT ON `{name}`.`wp_blogs` TO 'ro'@'%';" in lines
        assert f"GRANT SELECT ON `{name}`.`wp_3_posts` TO 'ro'@'%';" in lines
        checks = [CliRunner().invoke(cli.main, ["check"], env={
            "WPSITEMAPS_DATABASE_URL": url, "WPSITEMAPS_STORE": "off"})
            for url in (root, user_with(lines, name))]
    finally:
        wpdb.drop_mariadb(name)
    assert [c.exit_code for c in checks] == [0, 0]
    assert checks[0].output == checks[1].output
    assert checks[1].output.count("  sitemaps post, page") == 3


def test_headless_api_with_a_granted_user(shop_db: str,
                                          user_with: Callable[..., str]) -> None:
    """The headless API answers through a user made from `grants` (no WPML table to ask
    about: denied means absent, not a 503)."""
    app: Flask = create_app({"TESTING": True, "DATABASE_URL": user_with(grants(shop_db)),
                             "NOW": "option:peer_generated_at",
                             "HEADLESS": {"data_types": {"Product": "product"},
                                          "experiences": [{"name": "web"}]}})
    resp = app.test_client().get("/api/sitemap?baseUrl=https://front.example&dataType="
                                 "Product&experience=web&language=en")
    assert resp.status_code == 200, resp.data[:300]
    assert resp.data.count(b"<loc>https://front.example/") > 0


def test_served_by_gunicorn_with_a_granted_user(
        shop_db: str, user_with: Callable[..., str], shop_truth: dict[str, Any],
        tmp_path: Path) -> None:
    """`wpsitemaps serve` (gunicorn, two workers) reading through a user made from `grants`:
    over real HTTP every URL equals WordPress's own, and the log holds no error."""
    env = {"WPSITEMAPS_DATABASE_URL": user_with(grants(shop_db)),
           "WPSITEMAPS_NOW": "option:peer_generated_at", "WPSITEMAPS_STORE": "off"}
    with served.serve(env, tmp_path / "serve.log") as server:
        index = server.get("/sitemap_index.xml")
        assert index.status == 200
        locs: dict[str, list[str]] = {}
        for loc, _ in parse_index(index.body):
            page = server.get(path_of(loc))
            assert page.status == 200, loc
            assert_valid(page.body, loc)
            name = path_of(loc)[1:].split("-sitemap")[0]
            locs[name] = [u.loc for u in parse_urlset(page.body)]
        errors = server.errors_logged()
    want = expected(shop_truth)
    assert {name: locs[name] for name in want} == want
    assert errors == []


def test_grants_cover_aioseo_when_it_is_active(user_with: Callable[..., str]) -> None:
    """On a site where All in One SEO 4 is active, `grants` names its own table, and a user
    made from it serves no post that AIOSEO marks noindex (the table is read, not skipped)."""
    fixtures = wpdb.REPO / "tests" / "fixtures" / "seoplugins"
    name = wpdb.create_mariadb("rdaio", fixtures / "aioseo4.sql")
    try:
        result = CliRunner().invoke(cli.main, ["grants", "--user", "ro", "--host", "%"], env={
            "WPSITEMAPS_DATABASE_URL": wpdb.mariadb_url(name, read_only_user=False)})
        assert result.exit_code == 0, result.output
        lines = result.stdout.strip().splitlines()
        assert f"GRANT SELECT ON `{name}`.`wp_aioseo_posts` TO 'ro'@'%';" in lines
        truth = json.loads((fixtures / "aioseo4.truth.json").read_text("utf-8"))
        # What the real plugin's own pages say of themselves (robots meta in their HTML).
        noindexed = {p["loc"] for p in truth["posts"]
                     if "noindex" in p.get("page", {}).get("robots", "")}
        assert noindexed
        listed = {loc for locs in served_locs(user_with(lines, name)).values() for loc in locs}
        aioseo = {u["loc"] for s in truth["sitemaps"].values() for u in s["urls"]}
        # Every URL AIOSEO lists but the two it canonicalises elsewhere (p05, p09) is listed.
        assert len(aioseo - listed) <= 2, sorted(aioseo - listed)
        assert not (noindexed & listed)
    finally:
        wpdb.drop_mariadb(name)
