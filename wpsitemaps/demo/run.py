"""What `wpsitemaps demo` needs around the generator: a cached SQLite file and the settings."""

from __future__ import annotations

import os
import sqlite3
import tempfile
import time
from pathlib import Path

from wpsitemaps.demo.model import FORMAT
from wpsitemaps.demo.wp import php_serialize
from wpsitemaps.demo.write import write_sqlite

# The demo serves a news sitemap relative to the wall clock, so a file older than this is
# made again (generation takes well under a second at the default size).
MAX_AGE_SECONDS = 6 * 3600
# What the demo site registers in PHP code, which a database reader cannot see.
DEMO_CONFIG = """\
# Written by `wpsitemaps demo`: the demo site's custom post type and taxonomy.
[post_types.event]
rewrite_slug = "events"
has_archive = true

[taxonomies.genre]
rewrite_slug = "genre"
"""


def cache_dir() -> Path:
    """The user's cache directory for wpsitemaps (XDG), or the temp dir when unwritable."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "wpsitemaps"
    try:
        base.mkdir(parents=True, exist_ok=True)
        if os.access(base, os.W_OK):
            return base
    except OSError:
        pass
    fallback = Path(tempfile.gettempdir()) / f"wpsitemaps-{os.getuid()}"
    fallback.mkdir(parents=True, exist_ok=True)
    return fallback


def default_db_path(size: int, seed: int, port: int) -> Path:
    """One cached file per size, seed and port."""
    return cache_dir() / f"demo-{size}-{seed}-{port}.sqlite"


def _stamp(path: Path) -> tuple[str, str, int] | None:
    """(home, demo_generator, demo_generated_at) of an existing demo file, None if unreadable."""
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = dict(con.execute(
                "SELECT option_name, option_value FROM wp_options WHERE option_name IN "
                "('home', 'demo_generator', 'demo_generated_at')").fetchall())
        finally:
            con.close()
        return rows["home"], rows["demo_generator"], int(rows["demo_generated_at"])
    except (sqlite3.Error, KeyError, ValueError):
        return None


def is_current(path: Path, size: int, seed: int, home: str, now: int) -> bool:
    """Whether `path` is a demo database of this size, seed and home, made recently."""
    if not path.is_file():
        return False
    stamp = _stamp(path)
    if stamp is None:
        return False
    old_home, generator, generated_at = stamp
    wanted = php_serialize({"size": size, "seed": seed, "now": generated_at, "format": FORMAT})
    return old_home == home and generator == wanted and now - generated_at < MAX_AGE_SECONDS


def ensure_db(path: Path, size: int, seed: int, home: str) -> bool:
    """Generate the demo database at `path` unless a current one is there; True if made."""
    now = int(time.time())
    if is_current(path, size, seed, home, now):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    write_sqlite(path, size, seed, now=now, home=home)
    return True


def environment(db: Path, home: str, base: dict[str, str]) -> dict[str, str]:
    """`base` plus the WPSITEMAPS_* settings that serve the demo database at `home`."""
    config = db.with_suffix(".toml")
    config.write_text(DEMO_CONFIG, encoding="utf-8")
    env = {k: v for k, v in base.items() if not k.startswith("WPSITEMAPS_")}
    env.update({"WPSITEMAPS_DATABASE_URL": f"sqlite:///{db.resolve()}",
                "WPSITEMAPS_TABLE_PREFIX": "wp_", "WPSITEMAPS_HOME_URL": home,
                "WPSITEMAPS_CONFIG": str(config.resolve())})
    return env
