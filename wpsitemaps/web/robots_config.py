"""The `[robots]` settings table: schema, validation at start-up, and path rule expansion.

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
from dataclasses import dataclass
from typing import Any

from wpsitemaps.config import ConfigError

# RFC 9309 section 2.2.1: product tokens are letters, "_" and "-"; "*" matches everyone.
AGENT_RE = re.compile(r"^(\*|[A-Za-z_-]+)$")
# A path rule: starts with "/", no whitespace, no comment sign, no control characters.
PATH_RE = re.compile(r"^/[^\s#\x00-\x1f\x7f]*$")
TOP_KEYS = {"sitemap", "wordpress_rules", "disallow", "allow", "groups"}
GROUP_KEYS = {"user_agents", "block_all", "disallow", "allow"}
# Google: "a maximum file size of 500 kibibytes (KiB); content after it is ignored".
MAX_ROBOTS_BYTES = 500 * 1024


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
