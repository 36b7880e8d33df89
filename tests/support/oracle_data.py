"""The oracle fixtures: databases and URL truths written by real WordPress (tests/oracle/).

Each variant has tests/fixtures/oracle/<v>.sql (mysqldump) and <v>.truth.json (inputs of our
URL functions and the URL WordPress returned for every published object). This module turns
them into what our code consumes; no PHP is needed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine

from tests.support import wpdb
from wpsitemaps.config import Settings
from wpsitemaps.config import load_settings
from wpsitemaps.wordpress.contenttypes import ContentType
from wpsitemaps.wordpress.contenttypes import SiteTypes
from wpsitemaps.wordpress.contenttypes import builtin_types
from wpsitemaps.wordpress.discovery import discover
from wpsitemaps.wordpress.options import OPTION_NAMES
from wpsitemaps.wordpress.options import SiteOptions
from wpsitemaps.wordpress.options import parse_options
from wpsitemaps.wordpress.permalinks import LinkSite
from wpsitemaps.wordpress.permalinks import PostLink
from wpsitemaps.wordpress.queries import options as queries
from wpsitemaps.wordpress.schema import build_tables

FIXTURES = wpdb.REPO / "tests" / "fixtures" / "oracle"
VARIANTS = ("a", "b", "c", "d", "e")

# What the site owner configures: registration facts the database cannot show. With pretty
# permalinks, types with an archive rule need nothing; the others only need to be named
# (their rewrite base is read from the rules). Plain permalinks leave no rules at all, so
# hierarchy and archives must be stated.
PRETTY_CONFIG: dict[str, Any] = {
    "POST_TYPES": {"recipe": {}},
    "TAXONOMIES": {"genre": {}, "region": {}, "shelf": {}},
}
PLAIN_CONFIG: dict[str, Any] = {
    "POST_TYPES": {"book": {"hierarchical": True, "has_archive": True},
                   "event": {"has_archive": "happenings-archive"}, "recipe": {}},
    "TAXONOMIES": {"genre": {}, "region": {"hierarchical": True}, "shelf": {}},
}


@cache
def truth(variant: str) -> dict[str, Any]:
    """The truth JSON of one variant."""
    data: dict[str, Any] = json.loads(
        (FIXTURES / f"{variant}.truth.json").read_text(encoding="utf-8"))
    return data


def dump(variant: str) -> Path:
    """The mysqldump of one variant."""
    return FIXTURES / f"{variant}.sql"


def prefix(variant: str) -> str:
    """The variant's table prefix."""
    return str(truth(variant)["table_prefix"])


def to_sqlite(variant: str, path: Path) -> Path:
    """Convert the variant's dump into SQLite with the shared loader."""
    subprocess.run([sys.executable, str(wpdb.LOAD_SQLITE), str(dump(variant)), str(path)],
                   check=True, capture_output=True)
    return path


def site_config(variant: str) -> dict[str, Any]:
    """create_app() settings for a variant minus the database URL."""
    plain = not truth(variant)["options"]["permalink_structure"]
    return {"TABLE_PREFIX": prefix(variant), **(PLAIN_CONFIG if plain else PRETTY_CONFIG)}


def settings(variant: str, url: str) -> Settings:
    """Validated settings as the app would build them (environment ignored)."""
    return load_settings({"DATABASE_URL": url, **site_config(variant)}, environ={})


def read_options(url: str, settings: Settings) -> SiteOptions:
    """The variant's options as the app reads them."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            raw = queries.options(conn, build_tables(settings.table_prefix), OPTION_NAMES)
    finally:
        engine.dispose()
    return parse_options(raw, settings)


def link_site(opts: SiteOptions) -> LinkSite:
    """LinkSite as site.load_site() builds it."""
    return LinkSite(opts.home, opts.permalink_structure, opts.show_on_front, opts.page_on_front)


def site_types(opts: SiteOptions, settings: Settings) -> tuple[SiteTypes, ContentType]:
    """Discovered types plus the author pseudo-type, as site.load_site() builds them."""
    return discover(opts, settings), builtin_types(opts, settings.author_base)[-1]


def post_link(obj: dict[str, Any]) -> PostLink:
    """PostLink from a truth post: the recorded inputs only."""
    return PostLink(id=obj["id"], post_type=obj["post_type"], name=obj["post_name"],
                    date=obj["post_date"], uri=obj["page_uri"], category=obj["category_path"],
                    author=obj["author_nicename"])


@dataclass(frozen=True)
class OracleCase:
    """One variant as our code sees it, next to WordPress's truth."""

    variant: str
    url: str
    links: LinkSite
    types: SiteTypes
    author: ContentType
    truth: dict[str, Any]

    def post_type(self, name: str) -> ContentType:
        """A listed post type (fails the test when discovery lost it)."""
        found = self.types.post_type(name)
        assert found is not None, f"{self.variant}: post type {name} not discovered"
        return found

    def taxonomy(self, name: str) -> ContentType:
        """A listed taxonomy (fails the test when discovery lost it)."""
        found = self.types.taxonomy(name)
        assert found is not None, f"{self.variant}: taxonomy {name} not discovered"
        return found


def load_case(variant: str, workdir: Path) -> OracleCase:
    """Convert the variant's dump to SQLite and read it the way the app does."""
    url = f"sqlite:///{to_sqlite(variant, workdir / f'{variant}.sqlite')}"
    conf = settings(variant, url)
    opts = read_options(url, conf)
    types, author = site_types(opts, conf)
    return OracleCase(variant, url, link_site(opts), types, author, truth(variant))
