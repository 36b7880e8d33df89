"""`wpsitemaps check` and the start-up log: every type with published content, served or not,
from which evidence, and the configuration that lists what is missing."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask

from tests.support.builder import Site
from wpsitemaps.check import run_check
from wpsitemaps.config import load_settings
from wpsitemaps.serving.refresh import log_types
from wpsitemaps.web.context import service_of


def plain_site_with_events() -> Site:
    """Plain permalinks, a published `event` and a `genre` term on it: no trace of either
    registration anywhere in the database."""
    site = Site(permalink_structure="")
    site.post("Hello")
    jazz = site.term("Jazz", "genre")
    site.post("Concert", post_type="event", name="concert", terms=(jazz,))
    return site


def check_output(url: str, config: Path | None = None) -> list[str]:
    """The lines `wpsitemaps check` prints for a database (and a configuration file)."""
    env = {"WPSITEMAPS_DATABASE_URL": url}
    if config is not None:
        env["WPSITEMAPS_CONFIG"] = str(config)
    lines: list[str] = []
    assert run_check(load_settings(environ=env), lines.append) == 0
    return lines


def test_unlisted_type_is_reported_with_its_configuration(tmp_path: Path) -> None:
    """An unlisted type with published rows is named, with why and the lines to add."""
    url = plain_site_with_events().write_sqlite(tmp_path / "plain.sqlite")
    text = "\n".join(check_output(url))
    assert "post types    post, page\n" in text
    assert ("  post type event                          1 published  NOT served: no trace "
            "in the database\n              to list it, add to the configuration file:\n"
            "                [post_types.event]\n"
            '                rewrite_slug = "event"\n'
            "                has_archive = true") in text
    assert "taxonomy  genre                          1 terms used  NOT served" in text


def test_printed_lines_list_the_type(tmp_path: Path) -> None:
    """Pasting the printed lines into the configuration file serves the type."""
    url = plain_site_with_events().write_sqlite(tmp_path / "plain.sqlite")
    lines = check_output(url)
    start = next(i for i, line in enumerate(lines) if line.strip() == "[post_types.event]")
    config = tmp_path / "wpsitemaps.toml"
    config.write_text("\n".join(line.strip() for line in lines[start:start + 3]) + "\n")
    text = "\n".join(check_output(url, config))
    assert "post types    post, page, event\n" in text
    assert "post type event                          1 published  served (configuration)" in text


def test_check_names_the_evidence_of_served_types(make_app: Callable[..., Flask],
                                                  tmp_path: Path) -> None:
    """A type listed from its archive rule says so."""
    site = Site()
    site.option("rewrite_rules", {"events/?$": "index.php?post_type=event",
                                  "events/([^/]+)(?:/([0-9]+))?/?$":
                                  "index.php?event=$matches[1]&page=$matches[2]"})
    site.post("Concert", post_type="event", name="concert")
    text = "\n".join(check_output(site.write_sqlite(tmp_path / "rules.sqlite")))
    assert "served (rewrite rules: archive (has_archive))" in text


def test_service_logs_the_report_at_start(make_app: Callable[..., Flask],
                                         caplog: pytest.LogCaptureFixture) -> None:
    """Start-up logs the report as a warning when something is not served."""
    app = make_app(plain_site_with_events())
    with caplog.at_level(logging.INFO, logger="wpsitemaps.serving.refresh"):
        log_types(service_of(app))
    reports = [r for r in caplog.records if "content with published objects" in r.getMessage()]
    assert len(reports) == 1 and reports[0].levelno == logging.WARNING
    assert "post type event" in reports[0].getMessage()
