"""The rendered-page store (issue #13): bytes of rendered documents with the fingerprint of the
data they were built from, shared by every worker (a directory) or every host (Redis).

Rule: back ends only: no Flask and no SQL here; serving/ decides what to store and when it
is valid. Opening a store lives here, above the back ends, so that base.py (the contract)
imports neither of them.
"""

from __future__ import annotations

import hashlib

from sqlalchemy.engine import make_url

from wpsitemaps.config import ConfigError
from wpsitemaps.config import Settings
from wpsitemaps.store.base import Store
from wpsitemaps.store.base import StoreError


def namespace(settings: Settings) -> str:
    """The configured namespace, else a short hash of the database URL without its password
    plus the table base prefix: two apps reading the same tables share stored pages."""
    if settings.store_namespace:
        return settings.store_namespace
    url = make_url(settings.database_url)
    bare = url._replace(password=None) if url.password is not None else url
    base = settings.base_prefix or settings.table_prefix
    raw = f"{bare.render_as_string(hide_password=False)}|{base}"
    return "db" + hashlib.sha256(raw.encode()).hexdigest()[:12]


def open_store(settings: Settings, check: bool = True) -> Store | None:
    """The configured store (None when 'off'), checked at start-up: ConfigError when unusable."""
    where = settings.store
    if where == "off":
        return None
    store: Store
    if where.startswith(("redis://", "rediss://", "unix://")):
        from wpsitemaps.store.redis import RedisStore

        # Kept past cache_ttl for stale_if_error: served when the database fails.
        store = RedisStore(where, ttl=max(settings.cache_ttl, 1) * 2 + settings.stale_if_error)
    else:
        from wpsitemaps.store.disk import DiskStore

        store = DiskStore(where, max_bytes=settings.store_max_mb * 1024 * 1024)
    if check:
        try:
            store.check()
        except StoreError as exc:
            raise ConfigError(f"WPSITEMAPS_STORE: {exc} (set WPSITEMAPS_STORE=off to run "
                              "without the page store)") from None
    return store
