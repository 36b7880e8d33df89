"""The `[headless]` configuration of the sitemap API (issue #7): schema and start-up validation.

```toml
[headless]
languages = ["de", "en"]            # optional subset of LANGUAGES (default: all of them)
[headless.data_types]               # added to Article = post, Page = page, custom types by name
Event = "tribe_events"
[headless.events]                   # optional: the events window (now .. now + 2 years)
post_type = "tribe_events"
start_meta_key = "_EventStartDate"
start_meta_timezone = "site"        # "site" (local time, as The Events Calendar) or "utc"
[[headless.experiences]]            # one table per configuration; equal names merge
name = "web"
noindex = [{ data_type = "Event" }, { data_type = "Article", category = "intern" }]
```

Every problem raises ConfigError naming the setting (`headless.experiences[0].name: ...`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from wpsitemaps.config import ConfigError
from wpsitemaps.config import Settings

LANGUAGES = ("cs", "da", "de", "en", "es", "fr", "it", "ja", "nl", "pl", "ru", "zh")
DEFAULT_DATA_TYPES = {"Article": "post", "Page": "page"}
MAX_EXPERIENCE_LENGTH = 200
DATA_TYPE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
# register_post_type() allows at most 20 characters: lower-case letters, digits, '_' and '-'.
POST_TYPE_RE = re.compile(r"^[a-z0-9_-]{1,20}$")
TOP_KEYS = {"languages", "data_types", "events", "experiences", "robots_sitemaps"}
EVENT_KEYS = {"post_type", "start_meta_key", "start_meta_timezone"}
RULE_KEYS = {"data_type", "category", "taxonomy"}


@dataclass(frozen=True)
class NoindexRule:
    """Leave out a data type, or only its entries in one category (slug or name)."""

    data_type: str
    category: str | None = None
    taxonomy: str = "category"


@dataclass(frozen=True)
class EventsConfig:
    """Which post type holds events and where their start date is."""

    post_type: str
    start_meta_key: str
    start_meta_timezone: str = "site"


@dataclass(frozen=True)
class HeadlessConfig:
    """The validated `[headless]` table."""

    languages: tuple[str, ...] = LANGUAGES
    data_types: Mapping[str, str] = field(default_factory=dict)
    events: EventsConfig | None = None
    experiences: Mapping[str, tuple[NoindexRule, ...]] = field(default_factory=dict)
    # Sitemap: lines for /robots.txt (web.robots.extra_sitemaps reads them): API calls whose
    # sitemaps this site's robots.txt should announce; absolute URLs or paths.
    robots_sitemaps: tuple[str, ...] = ()


def from_settings(settings: Settings) -> HeadlessConfig | None:
    """The API configuration, or None when `[headless]` is absent (the API is off)."""
    raw = settings.extra.get("headless")
    return None if raw is None else parse(raw)


def parse(raw: Any) -> HeadlessConfig:
    """Validate a `[headless]` table (TOML or the create_app mapping key HEADLESS)."""
    table = _table(raw, "headless")
    for key in table:
        if key not in TOP_KEYS:
            raise ConfigError(f"headless: unknown key {key!r}")
    events = table.get("events")
    return HeadlessConfig(
        languages=_languages(table.get("languages", list(LANGUAGES))),
        data_types=_data_types(table.get("data_types", {})),
        events=_events(events) if events is not None else None,
        experiences=_experiences(table.get("experiences", [])),
        robots_sitemaps=_robots_sitemaps(table.get("robots_sitemaps", [])),
    )


def _robots_sitemaps(value: Any) -> tuple[str, ...]:
    """A list of absolute http(s) URLs or root-relative paths."""
    if not isinstance(value, list | tuple):
        raise ConfigError(f"headless.robots_sitemaps: expected a list, got {value!r}")
    out = []
    for i, item in enumerate(value):
        text = _text(item, f"headless.robots_sitemaps[{i}]")
        if not (text.startswith(("http://", "https://", "/")) and "\n" not in text):
            raise ConfigError(f"headless.robots_sitemaps[{i}]: {text!r} is not an absolute "
                              "http(s) URL or a path")
        out.append(text)
    return tuple(out)


def _table(value: Any, name: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ConfigError(f"{name}: expected a table")
    return value


def _text(value: Any, name: str, pattern: re.Pattern[str] | None = None) -> str:
    """A non-empty string setting, optionally matching a pattern."""
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{name}: expected a non-empty string, got {value!r}")
    if pattern is not None and not pattern.match(value):
        raise ConfigError(f"{name}: {value!r} must match {pattern.pattern}")
    return value


def _languages(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not value:
        raise ConfigError("headless.languages: expected a non-empty list of language codes")
    for code in value:
        if code not in LANGUAGES:
            raise ConfigError(f"headless.languages: {code!r} is not one of "
                              + ", ".join(LANGUAGES))
    return tuple(dict.fromkeys(value))


def _data_types(value: Any) -> dict[str, str]:
    """Data type name -> post type; names are unique ignoring case (requests ignore it)."""
    out: dict[str, str] = {}
    seen: dict[str, str] = {}
    for name, post_type in _table(value, "headless.data_types").items():
        _text(name, "headless.data_types", DATA_TYPE_RE)
        out[name] = _text(post_type, f"headless.data_types.{name}", POST_TYPE_RE)
        if name.lower() in seen:
            raise ConfigError(f"headless.data_types.{name}: same name as {seen[name.lower()]!r}"
                              " ignoring case")
        seen[name.lower()] = name
    return out


def _events(value: Any) -> EventsConfig:
    table = _table(value, "headless.events")
    for key in table:
        if key not in EVENT_KEYS:
            raise ConfigError(f"headless.events: unknown key {key!r}")
    zone = table.get("start_meta_timezone", "site")
    if zone not in ("site", "utc"):
        raise ConfigError(f"headless.events.start_meta_timezone: {zone!r} is not 'site' or 'utc'")
    return EventsConfig(
        post_type=_text(table.get("post_type"), "headless.events.post_type", POST_TYPE_RE),
        start_meta_key=_text(table.get("start_meta_key"), "headless.events.start_meta_key"),
        start_meta_timezone=zone,
    )


def _experiences(value: Any) -> dict[str, tuple[NoindexRule, ...]]:
    """Experience name -> its noindex rules; configurations with one name are merged."""
    if isinstance(value, Mapping) or not isinstance(value, list | tuple):
        raise ConfigError("headless.experiences: expected an array of tables [[...]]")
    merged: dict[str, list[NoindexRule]] = {}
    for i, item in enumerate(value):
        where = f"headless.experiences[{i}]"
        table = _table(item, where)
        for key in table:
            if key not in ("name", "noindex"):
                raise ConfigError(f"{where}: unknown key {key!r}")
        name = _text(table.get("name"), f"{where}.name")
        if len(name) > MAX_EXPERIENCE_LENGTH:
            raise ConfigError(f"{where}.name: longer than {MAX_EXPERIENCE_LENGTH} characters")
        rules = merged.setdefault(name, [])
        noindex = table.get("noindex", [])
        if not isinstance(noindex, list | tuple):
            raise ConfigError(f"{where}.noindex: expected an array of tables")
        for j, rule in enumerate(noindex):
            rules.append(_rule(rule, f"{where}.noindex[{j}]"))
    return {name: tuple(dict.fromkeys(rules)) for name, rules in merged.items()}


def _rule(value: Any, where: str) -> NoindexRule:
    table = _table(value, where)
    for key in table:
        if key not in RULE_KEYS:
            raise ConfigError(f"{where}: unknown key {key!r}")
    category = table.get("category")
    return NoindexRule(
        data_type=_text(table.get("data_type"), f"{where}.data_type"),
        category=_text(category, f"{where}.category") if category is not None else None,
        taxonomy=_text(table.get("taxonomy", "category"), f"{where}.taxonomy"),
    )
