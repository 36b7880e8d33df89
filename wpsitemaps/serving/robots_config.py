"""The `[robots]` settings table: schema, validation at start-up, path rule expansion, and
the text those rules make (robots.py adds a site's Sitemap: lines).

Schema (TOML; the same mapping under the create_app() key ROBOTS)::

    [robots]
    sitemap = true                  # add the Sitemap: line(s)
    wordpress_rules = true          # do_robots()'s Disallow /wp-admin/ + Allow admin-ajax.php
    disallow = ["/admin"]           # repeated in every group that is not block_all
    allow = []

    [[robots.groups]]
    user_agents = ["*", "OAI-SearchBot"]
    disallow = ["/search"]          # added to the top-level lists for this group only

    [[robots.groups]]
    user_agents = ["GPTBot", "Google-Extended"]
    block_all = true                # Disallow: /

A crawler obeys only the most specific group naming it (RFC 9309 section 2.2.1), so a
group for OAI-SearchBot does not inherit the `*` group's rules: every open group repeats
the exclusions. Without a group naming `*`, one is added first.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from wpsitemaps.config import ConfigError
from wpsitemaps.config import Settings
from wpsitemaps.content.urls import absolute

# RFC 9309 section 2.2.1: product tokens are letters, "_" and "-"; "*" matches everyone.
AGENT_RE = re.compile(r"^(\*|[A-Za-z_-]+)$")
# A path rule: starts with "/", no whitespace, no comment sign, no control characters.
PATH_RE = re.compile(r"^/[^\s#\x00-\x1f\x7f]*$")
TOP_KEYS = {"sitemap", "wordpress_rules", "disallow", "allow", "groups"}
GROUP_KEYS = {"user_agents", "block_all", "disallow", "allow"}
# Google: "a maximum file size of 500 kibibytes (KiB); content after it is ignored".
MAX_ROBOTS_BYTES = 500 * 1024
INDEX_PATH = "/sitemap_index.xml"


@dataclass(frozen=True)
class RobotsGroup:
    """One group: its user agents and, unless block_all, the rules it lists."""

    user_agents: tuple[str, ...]
    block_all: bool = False
    disallow: tuple[str, ...] = ()
    allow: tuple[str, ...] = ()


@dataclass(frozen=True)
class RobotsConfig:
    """Validated `[robots]` table."""

    groups: tuple[RobotsGroup, ...] = (RobotsGroup(("*",)),)
    sitemap: bool = True
    wordpress_rules: bool = True


def expand_path(path: str) -> tuple[str, ...]:
    """Rule patterns covering `path`, `path?…` and `path/…` but not `path` + more letters.

    `/admin` -> `/admin$`, `/admin?`, `/admin/`: a plain prefix `/admin` would also block
    `/administrator`. Paths ending in "/" or already holding `*` or `$` are kept as written.
    """
    if path.endswith("/") or "*" in path or path.endswith("$"):
        return (path,)
    return (f"{path}$", f"{path}?", f"{path}/")


def _paths(value: Any, name: str) -> tuple[str, ...]:
    """A list of path rules, each checked against PATH_RE."""
    if not isinstance(value, list | tuple):
        raise ConfigError(f"{name}: expected a list of paths, got {value!r}")
    out = []
    for item in value:
        if not isinstance(item, str) or not PATH_RE.match(item):
            raise ConfigError(f"{name}: {item!r} must start with '/' and hold no spaces or '#'")
        out.append(item)
    return tuple(out)


def _flag(value: Any, name: str) -> bool:
    """A TOML boolean (strings are refused: `"false"` must not read as true)."""
    if not isinstance(value, bool):
        raise ConfigError(f"{name}: expected true or false, got {value!r}")
    return value


def _group(spec: Any, n: int, seen: set[str]) -> RobotsGroup:
    """Validate one [[robots.groups]] entry; a user agent may appear in one group only."""
    name = f"robots.groups[{n}]"
    if not isinstance(spec, Mapping):
        raise ConfigError(f"{name}: expected a table")
    unknown = set(spec) - GROUP_KEYS
    if unknown:
        raise ConfigError(f"{name}: unknown key {sorted(unknown)[0]!r}")
    agents = spec.get("user_agents")
    if not isinstance(agents, list | tuple) or not agents:
        raise ConfigError(f"{name}.user_agents: expected a non-empty list of user agents")
    for agent in agents:
        if not isinstance(agent, str) or not AGENT_RE.match(agent):
            raise ConfigError(f"{name}.user_agents: {agent!r} is not a product token or '*'")
        if agent.lower() in seen:
            raise ConfigError(f"{name}.user_agents: {agent!r} is already in another group")
        seen.add(agent.lower())
    return RobotsGroup(tuple(agents), _flag(spec.get("block_all", False), f"{name}.block_all"),
                       _paths(spec.get("disallow", []), f"{name}.disallow"),
                       _paths(spec.get("allow", []), f"{name}.allow"))


def parse_robots_config(raw: Any) -> RobotsConfig:
    """Validate the `[robots]` table; every problem is a ConfigError naming the setting."""
    if raw is None:
        return RobotsConfig()
    if not isinstance(raw, Mapping):
        raise ConfigError("robots: expected a table")
    unknown = set(raw) - TOP_KEYS
    if unknown:
        raise ConfigError(f"robots: unknown key {sorted(unknown)[0]!r}")
    disallow = _paths(raw.get("disallow", []), "robots.disallow")
    allow = _paths(raw.get("allow", []), "robots.allow")
    specs = raw.get("groups", [])
    if not isinstance(specs, list | tuple):
        raise ConfigError("robots.groups: expected an array of tables ([[robots.groups]])")
    seen: set[str] = set()
    groups = [_group(spec, n, seen) for n, spec in enumerate(specs)]
    if "*" not in seen:
        groups.insert(0, RobotsGroup(("*",)))
    merged = tuple(RobotsGroup(g.user_agents, g.block_all, disallow + g.disallow,
                               allow + g.allow) for g in groups)
    return RobotsConfig(merged, _flag(raw.get("sitemap", True), "robots.sitemap"),
                        _flag(raw.get("wordpress_rules", True), "robots.wordpress_rules"))


def url_path(url: str) -> str:
    """The path of a home/siteurl without its trailing slash ('' at the root)."""
    return urlsplit(url).path.rstrip("/")


def extra_sitemaps(extras: Sequence[str], home: str) -> list[str]:
    """Sitemap URLs beside the index (the headless API's validated `[headless]
    robots_sitemaps`, the feeds when `[feeds] robots`); relative entries are resolved
    against the home URL."""
    return [absolute(v, home) for v in extras if v.strip()]


def group_lines(group: RobotsGroup, wp_path: str, home_path: str,
                wordpress_rules: bool) -> list[str]:
    """One group: its User-agent lines then its rules (every open group repeats them)."""
    lines = [f"User-agent: {agent}" for agent in group.user_agents]
    if group.block_all:
        return [*lines, "Disallow: /"]
    rules: list[str] = []
    if wordpress_rules:
        # do_robots(): the admin is under site_url()'s path, admin-ajax.php stays open.
        rules += [f"Disallow: {wp_path}/wp-admin/", f"Allow: {wp_path}/wp-admin/admin-ajax.php"]
    rules += [f"Disallow: {home_path}{p}" for path in group.disallow for p in expand_path(path)]
    rules += [f"Allow: {home_path}{p}" for path in group.allow for p in expand_path(path)]
    # An empty Disallow allows everything; a group must hold at least one rule.
    return lines + (rules or ["Disallow:"])


def render_robots(config: RobotsConfig, wp_path: str, home_path: str, public: bool,
                  sitemaps: Sequence[str]) -> str:
    """The robots.txt text; blog_public = 0 gives do_robots()'s `Disallow: /` only."""
    if not public:
        return "User-agent: *\nDisallow: /\n"
    blocks = ["\n".join(group_lines(g, wp_path, home_path, config.wordpress_rules))
              for g in config.groups]
    if sitemaps:
        blocks.append("\n".join(sitemaps))
    return "\n\n".join(blocks) + "\n"


def check_size(config: RobotsConfig, settings: Settings, extras: Sequence[str]) -> None:
    """Refuse, at start-up, rules that would make robots.txt larger than 500 KiB."""
    home = settings.home_url or "http://localhost"
    urls = [home + INDEX_PATH, *extra_sitemaps(extras, home)]
    lines = [f"Sitemap: {u}" for u in urls]
    size = len(render_robots(config, url_path(home), url_path(home), True, lines).encode())
    if size > MAX_ROBOTS_BYTES:
        raise ConfigError(f"robots: the rules make robots.txt {size} bytes, over the "
                          f"{MAX_ROBOTS_BYTES}-byte (500 KiB) limit crawlers read")
