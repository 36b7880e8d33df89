"""The `[headless]` configuration: schema, merging, and start-up errors naming the setting."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from wpsitemaps import create_app
from wpsitemaps.config import ConfigError
from wpsitemaps.config import load_settings
from wpsitemaps.headless.config import LANGUAGES
from wpsitemaps.headless.config import EventsConfig
from wpsitemaps.headless.config import NoindexRule
from wpsitemaps.headless.config import from_settings
from wpsitemaps.headless.config import parse

HEADLESS_DOC = Path(__file__).resolve().parent.parent / "docs" / "headless-api.md"


def test_defaults() -> None:
    """An empty table serves every language, no extra data types, no events, no experiences."""
    cfg = parse({})
    assert (cfg.languages, dict(cfg.data_types), cfg.events, dict(cfg.experiences)) == (
        LANGUAGES, {}, None, {})


def test_configurations_of_one_experience_merge() -> None:
    """Rules of several [[headless.experiences]] with one name are merged, duplicates once."""
    cfg = parse({"experiences": [
        {"name": "web", "noindex": [{"data_type": "Page"}]},
        {"name": "app"},
        {"name": "web", "noindex": [{"data_type": "Event", "category": "intern"},
                                    {"data_type": "Page"}]},
    ]})
    assert cfg.experiences == {"web": (NoindexRule("Page"), NoindexRule("Event", "intern")),
                               "app": ()}


def test_readme_example_is_valid(tmp_path: Path) -> None:
    """The TOML example of docs/headless-api.md loads through WPSITEMAPS_CONFIG."""
    section = HEADLESS_DOC.read_text(encoding="utf-8")
    match = re.search(r"```toml\n(.*?)```", section, re.S)
    assert match is not None
    path = tmp_path / "c.toml"
    path.write_text('database_url = "sqlite:///x.sqlite"\n' + match[1], encoding="utf-8")
    cfg = from_settings(load_settings(None, environ={"WPSITEMAPS_CONFIG": str(path)}))
    assert cfg is not None and cfg.events == EventsConfig("tribe_events", "_EventStartDate")
    assert tomllib.loads(match[1])["headless"]["data_types"]["Event"] == "tribe_events"


def test_absent_table_turns_the_api_off() -> None:
    """Without [headless] there is no API configuration."""
    assert from_settings(load_settings({"DATABASE_URL": "sqlite:///x"}, environ={})) is None


BAD: list[tuple[Any, str]] = [
    ([], "headless: expected a table"),
    ({"langs": ["de"]}, "headless: unknown key 'langs'"),
    ({"languages": ["de", "pt"]}, "headless.languages: 'pt' is not one of cs, da"),
    ({"languages": []}, "headless.languages: expected a non-empty list"),
    ({"data_types": {"Event": "Tribe Events"}}, "headless.data_types.Event: 'Tribe Events'"),
    ({"data_types": {"Event": "e", "EVENT": "f"}}, "headless.data_types.EVENT: same name as"),
    ({"data_types": {"Ev/ent": "e"}}, "headless.data_types: 'Ev/ent' must match"),
    ({"events": {"post_type": "e"}}, "headless.events.start_meta_key: expected a non-empty"),
    ({"events": {"start_meta_key": "k"}}, "headless.events.post_type: expected a non-empty"),
    ({"events": {"post_type": "e", "start_meta_key": "k", "start_meta_timezone": "cet"}},
     "headless.events.start_meta_timezone: 'cet' is not"),
    ({"experiences": {"web": {}}}, "headless.experiences: expected an array of tables"),
    ({"experiences": [{"noindex": []}]}, r"headless.experiences\[0\].name: expected"),
    ({"experiences": [{"name": "x" * 201}]}, r"headless.experiences\[0\].name: longer than 200"),
    ({"experiences": [{"name": "w", "noindex": [{"category": "c"}]}]},
     r"headless.experiences\[0\].noindex\[0\].data_type: expected"),
    ({"experiences": [{"name": "w", "noindex": [{"data_type": "P", "cat": "c"}]}]},
     r"headless.experiences\[0\].noindex\[0\]: unknown key 'cat'"),
]


@pytest.mark.parametrize(("raw", "message"), BAD)
def test_invalid_headless_names_the_setting(raw: Any, message: str) -> None:
    """Each invalid [headless] value raises a ConfigError naming the setting."""
    with pytest.raises(ConfigError, match=message):
        parse(raw)


def test_create_app_validates_at_start_up() -> None:
    """create_app() raises the ConfigError, before any request."""
    with pytest.raises(ConfigError, match="headless.languages"):
        create_app({"DATABASE_URL": "sqlite:///x", "HEADLESS": {"languages": ["xx"]}})
