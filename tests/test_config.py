"""Configuration: sources, precedence and validation messages."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from wpsitemaps.config import ConfigError
from wpsitemaps.config import load_settings


def test_defaults() -> None:
    """Only the database URL is required; the rest has Yoast's defaults."""
    s = load_settings({"DATABASE_URL": "sqlite:///x.sqlite"}, environ={})
    assert (s.table_prefix, s.entries_per_page, s.home_url) == ("wp_", 1000, None)


def test_environment_variables() -> None:
    """WPSITEMAPS_* variables are read."""
    env = {"WPSITEMAPS_DATABASE_URL": "sqlite:///x.sqlite", "WPSITEMAPS_TABLE_PREFIX": "wpx_",
           "WPSITEMAPS_ENTRIES_PER_PAGE": "250", "WPSITEMAPS_HOME_URL": "https://ex.org/blog/"}
    s = load_settings(None, environ=env)
    assert (s.table_prefix, s.entries_per_page, s.home_url) == ("wpx_", 250, "https://ex.org/blog")


def test_toml_file_and_precedence(tmp_path: Path) -> None:
    """The TOML file is read, and environment variables override it."""
    cfg = tmp_path / "c.toml"
    cfg.write_text('database_url = "sqlite:///a.sqlite"\nentries_per_page = 10\n'
                   '[post_types.event]\nrewrite_slug = "events"\n', encoding="utf-8")
    env = {"WPSITEMAPS_CONFIG": str(cfg), "WPSITEMAPS_ENTRIES_PER_PAGE": "20"}
    s = load_settings(None, environ=env)
    assert s.entries_per_page == 20
    assert s.post_types["event"].rewrite_slug == "events"


@pytest.mark.parametrize(("overrides", "message"), [
    ({}, "WPSITEMAPS_DATABASE_URL: not set"),
    ({"DATABASE_URL": "postgresql://x/y"}, "WPSITEMAPS_DATABASE_URL: must start with"),
    ({"TABLE_PREFIX": "wp-; DROP"}, "WPSITEMAPS_TABLE_PREFIX: 'wp-; DROP' must match"),
    ({"ENTRIES_PER_PAGE": "0"}, "WPSITEMAPS_ENTRIES_PER_PAGE: 0 is outside 1..50000"),
    ({"ENTRIES_PER_PAGE": "50001"}, "WPSITEMAPS_ENTRIES_PER_PAGE: 50001 is outside"),
    ({"ENTRIES_PER_PAGE": "ten"}, "WPSITEMAPS_ENTRIES_PER_PAGE: 'ten' is not an integer"),
    ({"HOME_URL": "example.org"}, "WPSITEMAPS_HOME_URL: 'example.org' is not an absolute"),
    ({"HOME_URL": "https://e.org/?a=1"}, "must not have a query"),
    ({"VIDEO_DEFAULT_THUMBNAIL": "logo.png"}, "WPSITEMAPS_VIDEO_DEFAULT_THUMBNAIL: 'logo.png'"),
    ({"CACHE_TTL": "-1"}, "WPSITEMAPS_CACHE_TTL: -1 must be 0 or more"),
])
def test_invalid_settings_name_the_setting(overrides: dict[str, str], message: str) -> None:
    """Each invalid value raises a ConfigError whose message names the setting."""
    base = {"DATABASE_URL": "sqlite:///x.sqlite"} if "DATABASE_URL" not in overrides else {}
    if not overrides:
        base = {}
    with pytest.raises(ConfigError, match=message.replace("?", r"\?").replace(".", r"\.")):
        load_settings({**base, **overrides}, environ={})


def test_unknown_toml_key_is_an_error(tmp_path: Path) -> None:
    """A typo in the TOML file is reported, not ignored."""
    cfg = tmp_path / "c.toml"
    cfg.write_text('database_url = "sqlite:///a.sqlite"\nentries_per_pag = 10\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="unknown setting 'entries_per_pag'"):
        load_settings(None, environ={"WPSITEMAPS_CONFIG": str(cfg)})


def test_bad_setting_stops_serve_with_one_line_and_exit_2() -> None:
    """`wpsitemaps serve` with a bad setting prints one line naming it and exits 2."""
    env = {"WPSITEMAPS_DATABASE_URL": "sqlite:///x.sqlite", "WPSITEMAPS_TABLE_PREFIX": "bad-prefix",
           "PATH": "/usr/bin:/bin"}
    proc = subprocess.run([sys.executable, "-m", "wpsitemaps.cli", "serve"], env=env,
                          capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).resolve().parent.parent)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "wpsitemaps: WPSITEMAPS_TABLE_PREFIX: 'bad-prefix' must match ^[A-Za-z0-9_]+$"]


@pytest.mark.parametrize(("value", "expected"), [
    ("off", None), ("", None), ("127.0.0.1:9102", "127.0.0.1:9102"),
    ("[::1]:9102", "[::1]:9102"), ("0.0.0.0:1", "0.0.0.0:1")])
def test_metrics_bind_accepted(value: str, expected: str | None) -> None:
    """metrics_bind is off by default, or host:port (IPv6 in brackets)."""
    env = {"WPSITEMAPS_DATABASE_URL": "sqlite:///x.sqlite", "WPSITEMAPS_METRICS_BIND": value}
    assert load_settings(environ=env).metrics_bind == expected
    assert load_settings({"DATABASE_URL": "sqlite:///x"}, environ={}).metrics_bind is None


@pytest.mark.parametrize("value", ["9102", "127.0.0.1:0", "127.0.0.1:65536", ":9102",
                                   "::1:9102", "localhost:http"])
def test_metrics_bind_refused(value: str) -> None:
    """A metrics_bind without a host, with a port outside 1..65535 or a bare IPv6 address
    is a ConfigError naming the setting."""
    env = {"WPSITEMAPS_DATABASE_URL": "sqlite:///x.sqlite", "WPSITEMAPS_METRICS_BIND": value}
    with pytest.raises(ConfigError, match="WPSITEMAPS_METRICS_BIND"):
        load_settings(environ=env)
