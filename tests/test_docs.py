"""docs/configuration.md names every setting the code accepts (Datasette's test_docs holds its
settings to its docs the same way): a setting nobody can find is a setting nobody can use."""

from __future__ import annotations

from pathlib import Path

import pytest

from wpsitemaps.config import ENV_PREFIX
from wpsitemaps.config import EXTRA_KEYS
from wpsitemaps.config import LIST_KEYS
from wpsitemaps.config import SCALAR_KEYS
from wpsitemaps.config import TABLE_KEYS
from wpsitemaps.headless.config import TOP_KEYS as HEADLESS_KEYS
from wpsitemaps.serving.robots_config import TOP_KEYS as ROBOTS_KEYS
from wpsitemaps.sitemaps.feeds import KEYS as FEED_KEYS

DOCS = Path(__file__).resolve().parent.parent / "docs"
CONFIGURATION = (DOCS / "configuration.md").read_text()
# Where each settings table is documented key by key.
TABLE_DOCS = {"robots": ("deployment.md", ROBOTS_KEYS), "headless": ("headless-api.md",
                                                                     HEADLESS_KEYS)}


@pytest.mark.parametrize("key", sorted(SCALAR_KEYS.keys() | LIST_KEYS))
def test_every_setting_is_documented_with_its_variable(key: str) -> None:
    """A scalar or list setting has a row naming it and its WPSITEMAPS_ variable."""
    assert f"`{key}`" in CONFIGURATION
    assert f"`{ENV_PREFIX}{key.upper()}`" in CONFIGURATION


@pytest.mark.parametrize("key", sorted(TABLE_KEYS | EXTRA_KEYS))
def test_every_table_is_documented(key: str) -> None:
    """A TOML table ([sites.N], [feeds], [robots]...) has a row in configuration.md."""
    assert f"`{key}." in CONFIGURATION or f"`[{key}]`" in CONFIGURATION


@pytest.mark.parametrize("key", sorted(FEED_KEYS))
def test_every_feeds_key_is_documented(key: str) -> None:
    """Each `[feeds]` key has its own row."""
    assert f"`feeds.{key}`" in CONFIGURATION


@pytest.mark.parametrize(("table", "key"), [(t, k) for t, (_, keys) in TABLE_DOCS.items()
                                            for k in sorted(keys)])
def test_every_key_of_a_table_is_documented(table: str, key: str) -> None:
    """Each key of `[robots]` and `[headless]` appears in the page that documents it."""
    page, _ = TABLE_DOCS[table]
    assert key in (DOCS / page).read_text()
