"""GET /robots.txt, the [robots] settings and `wpsitemaps robots-lines`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from protego import Protego

from tests.support.builder import Site
from tests.support.data import small_site
from wpsitemaps.config import ConfigError
from wpsitemaps.serving.robots_config import MAX_ROBOTS_BYTES
from wpsitemaps.serving.robots_config import expand_path
from wpsitemaps.serving.robots_config import parse_robots_config
from wpsitemaps.web.context import service_of

AI_GROUPS: dict[str, Any] = {
    "disallow": ["/admin"],
    "groups": [{"user_agents": ["*", "OAI-SearchBot"]},
               {"user_agents": ["GPTBot", "Google-Extended"], "block_all": True}],
}


def robots(app: Flask) -> str:
    """The robots.txt body the app serves."""
    resp = app.test_client().get("/robots.txt")
    assert resp.status_code == 200
    return resp.get_data(as_text=True)


def test_default_is_wordpress_do_robots_plus_sitemap(make_app: Callable[..., Flask]) -> None:
    """Without settings the file is do_robots()'s rules and one absolute Sitemap: line."""
    assert robots(make_app(small_site())) == (
        "User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n\n"
        "Sitemap: http://example.test/sitemap_index.xml\n")


def test_content_type_is_plain_utf8(make_app: Callable[..., Flask]) -> None:
    """robots.txt is served as text/plain; charset=utf-8."""
    resp = make_app(small_site()).test_client().get("/robots.txt")
    assert resp.headers["Content-Type"] == "text/plain; charset=utf-8"


def test_blog_public_zero_disallows_everything(make_app: Callable[..., Flask]) -> None:
    """blog_public = 0: `Disallow: /` for everyone and no Sitemap: line, as WordPress does."""
    site = small_site()
    site.option("blog_public", "0")
    assert robots(make_app(site, ROBOTS=AI_GROUPS)) == "User-agent: *\nDisallow: /\n"


def test_subdirectory_install_prefixes_paths(make_app: Callable[..., Flask]) -> None:
    """wp-admin rules follow site_url()'s path; configured paths follow home's path."""
    site = Site(home="http://example.test/blog", siteurl="http://example.test/blog/wp")
    site.post("Hello", name="hello")
    text = robots(make_app(site, ROBOTS={"disallow": ["/admin"]}))
    assert "Disallow: /blog/wp/wp-admin/\nAllow: /blog/wp/wp-admin/admin-ajax.php\n" in text
    assert "Disallow: /blog/admin$\n" in text
    assert "Sitemap: http://example.test/blog/sitemap_index.xml\n" in text


@pytest.mark.parametrize(("path", "allowed"), [
    ("/admin", False), ("/admin?x=1", False), ("/admin/y", False), ("/administrator", True),
    ("/wp-admin/options.php", False), ("/wp-admin/admin-ajax.php", True), ("/hello/", True),
])
def test_admin_family_under_googles_rules(make_app: Callable[..., Flask], path: str,
                                          allowed: bool) -> None:
    """Protego (Google's matching) blocks /admin, /admin?x, /admin/y but not /administrator."""
    parser = Protego.parse(robots(make_app(small_site(), ROBOTS=AI_GROUPS)))
    assert parser.can_fetch(f"http://example.test{path}", "Googlebot") is allowed


@pytest.mark.parametrize(("agent", "allowed"), [
    ("OAI-SearchBot", True), ("GPTBot", False), ("Google-Extended", False), ("bingbot", True),
])
def test_per_agent_groups(make_app: Callable[..., Flask], agent: str, allowed: bool) -> None:
    """Allowed agents may crawl posts, blocked agents may crawl nothing."""
    parser = Protego.parse(robots(make_app(small_site(), ROBOTS=AI_GROUPS)))
    assert parser.can_fetch("http://example.test/first-post/", agent) is allowed


def test_every_open_group_repeats_the_exclusions(make_app: Callable[..., Flask]) -> None:
    """OAI-SearchBot in its own group still may not crawl /admin or /wp-admin/."""
    config = {"disallow": ["/admin"], "groups": [{"user_agents": ["OAI-SearchBot"]}]}
    parser = Protego.parse(robots(make_app(small_site(), ROBOTS=config)))
    assert not parser.can_fetch("http://example.test/admin/x", "OAI-SearchBot")
    assert not parser.can_fetch("http://example.test/wp-admin/", "OAI-SearchBot")


def test_headless_sitemaps_are_listed(make_app: Callable[..., Flask]) -> None:
    """[headless] robots_sitemaps add Sitemap: lines, relative ones resolved against home."""
    text = robots(make_app(small_site(), HEADLESS={"robots_sitemaps": ["/api/sitemap/index"]}))
    assert text.endswith("Sitemap: http://example.test/sitemap_index.xml\n"
                         "Sitemap: http://example.test/api/sitemap/index\n")


def test_expand_path_keeps_patterns() -> None:
    """Directory paths and patterns are written as given; plain paths get the three forms."""
    assert expand_path("/admin") == ("/admin$", "/admin?", "/admin/")
    assert expand_path("/private/") == ("/private/",)
    assert expand_path("/*.pdf$") == ("/*.pdf$",)


@pytest.mark.parametrize(("raw", "named"), [
    ({"disallow": ["admin"]}, "robots.disallow"),
    ({"disallow": ["/a b"]}, "robots.disallow"),
    ({"groups": [{"user_agents": ["Bad Bot"]}]}, "robots.groups[0].user_agents"),
    ({"groups": [{"user_agents": []}]}, "robots.groups[0].user_agents"),
    ({"groups": [{"user_agents": ["*"]}, {"user_agents": ["*"]}]}, "robots.groups[1]"),
    ({"groups": [{"user_agents": ["*"], "block_all": "yes"}]}, "robots.groups[0].block_all"),
    ({"sitemaps": True}, "robots: unknown key"),
])
def test_bad_settings_name_the_setting(raw: dict[str, Any], named: str) -> None:
    """A bad [robots] table is a ConfigError whose message names the setting."""
    with pytest.raises(ConfigError, match=named.replace("[", r"\[").replace("]", r"\]")):
        parse_robots_config(raw)


def test_oversized_rules_refused_at_start(make_app: Callable[..., Flask]) -> None:
    """Rules that would pass 500 KiB stop start-up with a ConfigError naming robots."""
    paths = [f"/{'x' * 200}{n}" for n in range(MAX_ROBOTS_BYTES // 600)]
    with pytest.raises(ConfigError, match="robots: .*500 KiB"):
        make_app(small_site(), ROBOTS={"disallow": paths})


def test_rules_just_under_the_limit_are_accepted(make_app: Callable[..., Flask]) -> None:
    """A large but legal rule set is served in full, under 500 KiB."""
    paths = [f"/{'x' * 200}{n}/" for n in range(2000)]
    body = make_app(small_site(), ROBOTS={"disallow": paths}).test_client().get("/robots.txt")
    assert 400_000 < len(body.data) <= MAX_ROBOTS_BYTES


def test_robots_lines_command(make_app: Callable[..., Flask],
                              monkeypatch: pytest.MonkeyPatch) -> None:
    """`wpsitemaps robots-lines` prints the Sitemap: lines to paste."""
    from click.testing import CliRunner

    from wpsitemaps import cli

    app = make_app(small_site())
    monkeypatch.setattr(cli, "build_service", lambda overrides=None: service_of(app))
    result = CliRunner().invoke(cli.main, ["robots-lines"])
    assert result.exit_code == 0, result.output
    assert result.output == "Sitemap: http://example.test/sitemap_index.xml\n"
