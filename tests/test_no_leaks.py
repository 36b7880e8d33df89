"""No leaks and no writes: every non-public object carries a marker in its title, slug and
content, and no response of any route contains one; every statement the app runs is a read.

Routes come from the app's url_map, so a route added later is covered without editing this
file; parametrized routes are fed the sitemaps the index lists plus a guess per object type.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

import pytest
from flask import Flask
from sqlalchemy import event

from tests.conftest import require_mariadb
from tests.support import wpdb
from tests.support.builder import Site
from tests.support.sitemaps import parse_index
from tests.support.sitemaps import path_of
from wpsitemaps import create_app
from wpsitemaps.demo.wp import php_serialize
from wpsitemaps.web.context import service_of

BACKENDS = ["sqlite", pytest.param("mariadb", marks=pytest.mark.mariadb)]
GUESSES = ("post", "page", "attachment", "revision", "secret", "wp_block", "nav_menu_item",
           "category", "post_tag", "author", "user", "draft", "private")
PUBLIC_TEXT = "Nothing to see"


def marker(kind: str) -> str:
    """The unique marker of one non-public object (lower case: it is also a slug)."""
    return f"leakmark{kind.replace('-', '').replace('_', '')}"


def _secret_post(site: Site, kind: str, **kwargs: Any) -> int:
    """A post whose title, slug and content carry the marker of `kind`."""
    mark = marker(kind)
    return site.post(f"Title {mark}", name=mark, content=f"<p>{mark}</p><img src="
                     f'"/wp-content/uploads/{mark}.jpg">', **kwargs)


def leaky_site() -> tuple[Site, list[str]]:
    """A site with one public post per type and every kind of non-public object."""
    site = Site()
    news = site.term("News", "category", slug="news")
    public = site.post(PUBLIC_TEXT, name="public-post", terms=(news,))
    site.post("About", post_type="page", name="about")
    kinds: list[str] = []
    for status in ("draft", "pending", "private", "future", "trash", "auto-draft"):
        _secret_post(site, status, status=status, terms=(news,))
        _secret_post(site, f"page{status}", status=status, post_type="page")
        kinds += [status, f"page{status}"]
    specials: dict[str, dict[str, Any]] = {
        "password": {"password": "hunter2"},
        "secrettype": {"post_type": "secret"},
        "wpblock": {"post_type": "wp_block"},
        "navmenu": {"post_type": "nav_menu_item"},
        "revision": {"post_type": "revision", "status": "inherit", "parent": public},
        "attachmentpage": {"post_type": "attachment", "status": "inherit"},
        "yoastnoindex": {"meta": {"_yoast_wpseo_meta-robots-noindex": "1"}},
        "rankmathnoindex": {"meta": {"rank_math_robots": php_serialize(["noindex"])}},
        "canonical": {"meta": {"_yoast_wpseo_canonical": "http://elsewhere.example/x/"}},
        "pagenoindex": {"post_type": "page",
                        "meta": {"_yoast_wpseo_meta-robots-noindex": "1"}},
    }
    for kind, kwargs in specials.items():
        _secret_post(site, kind, terms=(news,) if kwargs.get("post_type") is None else (),
                     **kwargs)
        kinds.append(kind)
    _secret_terms_and_authors(site, public)
    return site, kinds + ["termnoindex", "termdraftonly", "authornoindex", "authordraftonly"]


def _secret_terms_and_authors(site: Site, public: int) -> None:
    """A noindexed term and author with public posts, and a term and author with drafts only."""
    noindexed = site.term(f"Term {marker('termnoindex')}", "category",
                          slug=marker("termnoindex"))
    site.relate(public, noindexed)
    site.option("wpseo_taxonomy_meta", {"category": {noindexed: {"wpseo_noindex": "noindex"}}})
    draft_term = site.term(f"Term {marker('termdraftonly')}", "post_tag",
                           slug=marker("termdraftonly"))
    hidden = site.user(marker("authornoindex"), f"Name {marker('authornoindex')}",
                       wpseo_noindex_author="on")
    site.post(PUBLIC_TEXT, name="by-hidden-author", author=hidden)
    drafter = site.user(marker("authordraftonly"), f"Name {marker('authordraftonly')}")
    _secret_post(site, "draftbydrafter", status="draft", author=drafter, terms=(draft_term,))


def every_route(app: Flask) -> dict[str, bytes]:
    """GET every route of the url_map (parametrized ones with listed and guessed names)."""
    client = app.test_client()
    index = client.get("/sitemap_index.xml")
    listed = [path_of(loc) for loc, _ in parse_index(index.data)] if index.status_code == 200 \
        else []
    bodies: dict[str, bytes] = {}
    for rule in app.url_map.iter_rules():
        if "GET" not in (rule.methods or ()):
            continue
        if not rule.arguments:
            targets = [rule.rule]
        else:
            targets = listed + [f"/{name}-sitemap.xml" for name in GUESSES]
        for target in targets:
            resp = client.get(target, follow_redirects=True)
            assert resp.status_code in (200, 404), (target, resp.status_code)
            bodies[target] = resp.data
    assert len(listed) >= 4 and bodies
    return bodies


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_marker_in_any_response(make_app: Callable[..., Flask], backend: str) -> None:
    """No non-public object's title, slug or content appears in any response of any route."""
    site, kinds = leaky_site()
    app = make_app(site, backend=backend)
    bodies = every_route(app)
    served = b"".join(bodies.values())
    assert b"public-post" in served and b"by-hidden-author" in served
    text = unquote(served.decode("utf-8")).lower()
    leaked = [kind for kind in kinds if marker(kind) in text]
    assert "leakmark" not in text, leaked


ONE_STATEMENT_SWITCH = re.compile(
    r"^SET STATEMENT (optimizer_switch='[a-z_=,]+', )?max_statement_time=[0-9.]+ FOR (?=SELECT )")


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_route_writes(make_app: Callable[..., Flask], backend: str) -> None:
    """Every statement the app runs while serving everything is a SELECT (or SHOW)."""
    site, _ = leaky_site()
    app = make_app(site, backend=backend)
    engine = service_of(app).engine
    statements: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    event.listen(engine, "before_cursor_execute", record)
    try:
        every_route(app)
    finally:
        event.remove(engine, "before_cursor_execute", record)
    assert len(statements) > 10
    # MariaDB statements carry their time limit, and page queries an optimizer switch, as
    # per-statement variables (wordpress.db.limited).
    reads = [ONE_STATEMENT_SWITCH.sub("", s.lstrip()) for s in statements]
    writes = [s for s in reads if not s.upper().startswith(("SELECT", "SHOW"))]
    assert not writes, writes[:5]


def test_nosniff_everywhere(client: Any) -> None:
    """200, 301, 404 and 405 answers all carry X-Content-Type-Options: nosniff."""
    answers = [client.get("/sitemap_index.xml"), client.get("/sitemap.xml"),
               client.get("/nope"), client.post("/sitemap_index.xml"),
               client.get("/post-sitemap9.xml")]
    assert [r.status_code for r in answers] == [200, 301, 404, 405, 404]
    assert all(r.headers["X-Content-Type-Options"] == "nosniff" for r in answers)


def test_a_public_marker_is_found(make_app: Callable[..., Flask]) -> None:
    """The leak check can fail: a published post's marker is found in the responses."""
    site, _ = leaky_site()
    site.post("Control", name=marker("control"))
    site.term("Control", "category", slug=marker("controlterm"))
    text = unquote(b"".join(every_route(make_app(site)).values()).decode("utf-8")).lower()
    assert marker("control") in text


def readme_grants() -> str:
    """The GRANT statements of docs/deployment.md, section "A read-only database user"."""
    text = (wpdb.REPO / "docs" / "deployment.md").read_text(encoding="utf-8")
    section = text.split("### A read-only database user", 1)[1]
    return section.split("```sql\n", 1)[1].split("```", 1)[0]


@pytest.mark.mariadb
def test_readme_grants_are_what_the_command_prints() -> None:
    """docs/deployment.md shows exactly what `wpsitemaps grants` prints for a plain site."""
    from click.testing import CliRunner

    from wpsitemaps import cli

    require_mariadb()
    site, _ = leaky_site()
    url = site.write_mariadb("grantsdoc")
    name = url.rsplit("/", 1)[1].split("?")[0]
    try:
        result = CliRunner().invoke(
            cli.main, ["grants", "--user", "wpsitemaps", "--host", "10.0.0.%"],
            env={"WPSITEMAPS_DATABASE_URL": wpdb.mariadb_url(name, read_only_user=False)})
    finally:
        wpdb.drop_mariadb(name)
    assert result.exit_code == 0, result.output
    assert result.stdout.replace(f"`{name}`", "`wordpress`") == readme_grants()


@pytest.mark.mariadb
def test_readme_grants_are_enough(make_app: Callable[..., Flask]) -> None:
    """The documented table- and column-level GRANTs let the app serve every route."""
    require_mariadb()
    site, _ = leaky_site()
    url = site.write_mariadb("grants")
    name = url.rsplit("/", 1)[1].split("?")[0]
    user = f"wpsm_g{os.getpid()}"
    sql = (readme_grants().replace("`wordpress`", f"`{name}`")
           .replace("'wpsitemaps'@'10.0.0.%'", f"'{user}'@'%'"))
    with wpdb.root_conn() as con, con.cursor() as cur:
        cur.execute(f"DROP USER IF EXISTS '{user}'@'%'")
        cur.execute(f"CREATE USER '{user}'@'%' IDENTIFIED BY 'secret'")
        for statement in filter(str.strip, sql.split(";")):
            cur.execute(statement)
    try:
        app = create_app({"TESTING": True, "NOW": "option:test_now", "DATABASE_URL":
                          url.replace(f"{wpdb.RO_USER}:{wpdb.RO_PASSWORD}", f"{user}:secret")})
        assert f"//{user}:secret@" in service_of(app).settings.database_url
        bodies = every_route(app)
        assert b"public-post" in b"".join(bodies.values())
    finally:
        with wpdb.root_conn() as con, con.cursor() as cur:
            cur.execute(f"DROP USER IF EXISTS '{user}'@'%'")
        wpdb.drop_mariadb(name)
