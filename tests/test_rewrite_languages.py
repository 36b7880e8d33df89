"""Rewrite rules read back through Polylang's rewriting, so translated custom types are found
(PLL_Links_Directory::rewrite_rules(), polylang/polylang `include/links-directory.php`)."""

from __future__ import annotations

from pathlib import Path

from tests.support import wpdb
from wpsitemaps.config import load_settings
from wpsitemaps.wordpress.db import make_engine
from wpsitemaps.wordpress.rewrite import read_rules
from wpsitemaps.wordpress.rewrite import unlanguage
from wpsitemaps.wordpress.site import build_site

PLL_SQL = wpdb.SHARED / "wordpress" / "pll-small.sql"


def test_hidden_default_language_rules_are_read_back() -> None:
    """hide_default: `events/?$ => ?lang=en&post_type=event` and `(de|fr)/events/?$` are the
    archive of `event`; its single rule keeps its base."""
    rules = {
        "(de|fr)/events/?$": "index.php?lang=$matches[1]&post_type=event",
        "events/?$": "index.php?lang=en&post_type=event",
        "(de|fr)/events/([^/]+)(?:/([0-9]+))?/?$":
            "index.php?lang=$matches[1]&event=$matches[2]&page=$matches[3]",
        "events/([^/]+)(?:/([0-9]+))?/?$": "index.php?event=$matches[1]&page=$matches[2]",
    }
    found = read_rules(rules)
    assert found.archives == {"event": "events"}
    assert found.singles == {"event": ("events", False)}
    assert found.language_prefixed


def test_language_base_without_rewrite_option() -> None:
    """Without Polylang's `rewrite` option the prefix is `language/(de|fr)/`."""
    assert unlanguage("language/(de|fr)/genre/([^/]+)/?$",
                      "index.php?lang=$matches[1]&genre=$matches[2]") == (
        "genre/([^/]+)/?$", "index.php?genre=$matches[1]", True)


def test_unrelated_groups_are_left_alone() -> None:
    """A rule with an alternation but no lang query var is not Polylang's."""
    rule = ("(feed|rdf)/?$", "index.php?feed=$matches[1]")
    assert unlanguage(*rule) == (*rule, False)


def test_pll_small_event_and_genre_found_without_configuration(tmp_path: Path) -> None:
    """On pll-small (every language in a directory) the translated `event` type is listed
    from its archive rule and `genre` from its rule and terms, with their bases."""
    path = wpdb.load_dump_sqlite(PLL_SQL, tmp_path / "pll.sqlite")
    settings = load_settings({"DATABASE_URL": f"sqlite:///{path}"}, environ={})
    engine = make_engine(settings)
    with engine.connect() as conn:
        types = build_site(conn, settings).types
    engine.dispose()
    event, genre = types.post_type("event"), types.taxonomy("genre")
    assert event is not None and (event.base, event.archive) == ("events", "events")
    assert genre is not None and genre.base == "genre"
    assert types.post_type("peer_internal") is None
