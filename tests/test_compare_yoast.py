"""`wpsitemaps check --compare-yoast` on pll-small with a `wp_yoast_indexable` table shaped as
Yoast's migrations create it and filled as Yoast's indexable builders fill it (one row per
post, term, user and post type archive with its permalink; tests/support/yoast.py)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.conftest import require_mariadb
from tests.support import wpdb
from tests.support import yoast
from tests.test_pll_truth import PLL_CONFIG
from wpsitemaps.check import run_check
from wpsitemaps.cli import main
from wpsitemaps.config import load_settings

HOME = "http://127.0.0.1:8088"
STALE_ID = 8  # an English post whose indexable still has its pre-Polylang permalink


def _excluded(item: dict[str, Any], kind: str, sub: str | None) -> dict[str, Any]:
    reasons = set(item.get("reasons") or [item.get("reason")])
    flags: dict[str, Any] = {}
    if any("noindex" in r for r in reasons):
        flags["is_robots_noindex"] = 1
    if "password_protected" in reasons:
        flags["is_protected"] = 1
    if any("canonical" in r for r in reasons):
        flags["canonical"] = "https://elsewhere.example/"
    if kind in ("term", "user"):
        flags["has_public_posts"] = 0 if not flags else 1
    status = str(item.get("status") or "publish").removeprefix("status_")
    return yoast.row(kind, sub, item.get("id"), item.get("loc") or "", status, **flags)


def indexable_rows(truth: dict[str, Any], stale: bool = True) -> list[dict[str, Any]]:
    """What Yoast's builders store for pll-small: every object with its permalink."""
    rows: list[dict[str, Any]] = []
    for name, block in truth["post_types"].items():
        for link in block["first_links"]:
            if link["kind"] == "post_type_archive" and link["lang"] == "en":
                rows.append(yoast.row("post-type-archive", name, None, link["loc"], None))
            elif link["kind"] in ("front_page", "posts_page"):
                rows.append(yoast.row("post", "page", link["id"], link["loc"]))
        for e in block["entries"]:
            loc = e["loc"]
            if stale and e["id"] == STALE_ID:
                loc = loc.replace("/en/", "/", 1)
            rows.append(yoast.row("post", name, e["id"], loc))
    for item in truth["excluded"]:
        rows.append(_excluded(item, "post", item["post_type"]))
    for name, block in truth["taxonomies"].items():
        rows += [yoast.row("term", name, e["id"], e["loc"], has_public_posts=1)
                 for e in block["entries"]]
    rows += [_excluded(i, "term", i["taxonomy"]) for i in truth["excluded_terms"]]
    rows += [yoast.row("user", None, e["id"], e["loc"], has_public_posts=1)
             for e in truth["authors"]["entries"]]
    rows += [_excluded(i, "user", None) for i in truth["excluded_users"]]
    return rows


@pytest.fixture(scope="module")
def truth() -> dict[str, Any]:
    """pll-small's truth."""
    data: dict[str, Any] = json.loads(wpdb.PLL_TRUTH.read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def sqlite_url(tmp_path_factory: pytest.TempPathFactory, truth: dict[str, Any]) -> str:
    """pll-small in SQLite plus the indexables table."""
    base = tmp_path_factory.mktemp("yoast")
    plain = wpdb.load_peer_sqlite(base / "plain.sqlite", wpdb.PLL_SQL)
    path = Path(shutil.copy(plain, base / "yoast.sqlite"))
    con = sqlite3.connect(path)
    con.execute(yoast.SQLITE_DDL.format(prefix="wp_"))
    con.executemany(*yoast.insert_sql("wp_", indexable_rows(truth), "?"))
    con.commit()
    con.close()
    return f"sqlite:///{path}"


@pytest.fixture(scope="module")
def mariadb_url(truth: dict[str, Any]) -> Iterator[str]:
    """pll-small in MariaDB plus the indexables table."""
    require_mariadb()
    name = wpdb.create_mariadb("yoast", wpdb.PLL_SQL)
    with wpdb.root_conn(name) as con, con.cursor() as cur:
        cur.execute(yoast.MYSQL_DDL.format(prefix="wp_"))
        cur.executemany(*yoast.insert_sql("wp_", indexable_rows(truth), "%s"))
    yield wpdb.mariadb_url(name)
    wpdb.drop_mariadb(name)


def run(url: str) -> tuple[int, list[str]]:
    """run_check(..., compare_yoast=True): exit code and printed lines."""
    lines: list[str] = []
    settings = load_settings({"DATABASE_URL": url, **PLL_CONFIG})
    return run_check(settings, lines.append, compare_yoast=True), lines


EXPECTED = [
    f"  + post         {HOME}/en/2026/11/grosere-anderungen-fur-muller-sohne-1/",
    f"  + event        {HOME}/de/events/",
    f"  + event        {HOME}/es/events/",
    f"  - post/post/{STALE_ID}  {HOME}/2026/11/grosere-anderungen-fur-muller-sohne-1/",
]


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("mariadb",
                                                            marks=pytest.mark.mariadb)])
def test_prints_exactly_the_differences(request: pytest.FixtureRequest, backend: str) -> None:
    """A stale permalink shows on both sides, the archives Yoast keeps one of show as ours."""
    url: str = request.getfixturevalue(f"{backend}_url")
    code, lines = run(url)
    assert code == 1
    assert [line for line in lines if line.startswith(("  +", "  -"))] == EXPECTED
    assert "compare-yoast 134 URLs served, 126 Yoast indexables listable, 4 differences" in lines


def test_hidden_objects_are_not_differences(sqlite_url: str) -> None:
    """Drafts, noindexed, protected, canonicalised and empty objects in the table (every
    language) are not reported: Yoast would not list them either."""
    _, lines = run(sqlite_url)
    assert not [line for line in lines if line.startswith("  -") and "post/post/8 " not in line]


def test_cli_flag(sqlite_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """`wpsitemaps check --compare-yoast` prints the comparison and exits 1."""
    config = tmp_path / "wpsitemaps.toml"
    config.write_text('now = "option:peer_generated_at"\n'
                      '[post_types.event]\nrewrite_slug = "events"\nhas_archive = true\n'
                      '[taxonomies.genre]\nrewrite_slug = "genre"\n', encoding="utf-8")
    monkeypatch.setenv("WPSITEMAPS_DATABASE_URL", sqlite_url)
    monkeypatch.setenv("WPSITEMAPS_CONFIG", str(config))
    result = CliRunner().invoke(main, ["check", "--compare-yoast"])
    assert result.exit_code == 1, result.output
    assert "languages     en, de, es (polylang, default en, force_lang 1" in result.output
    assert "in Yoast's indexables, not served (1):" in result.output


def test_missing_table_is_an_error(tmp_path: Path) -> None:
    """Without Yoast's table the check says it cannot read it and exits 2."""
    url = f"sqlite:///{wpdb.load_peer_sqlite(tmp_path / 'p.sqlite', wpdb.PLL_SQL)}"
    code, lines = run(url)
    assert code == 2 and "yoast_indexable" in lines[-1]
