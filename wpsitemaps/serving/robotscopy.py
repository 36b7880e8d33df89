"""The last good robots.txt of each site, for when the database fails (RFC 9309 2.3.1.4: a
robots.txt that fails with a server error may be read as "disallow everything").

Kept in this process's memory, and in the page store (beside the site's documents, under
`{namespace}/{site}/robots.txt`, written when it changes) for a process started while the
database fails.
"""

from __future__ import annotations

import hashlib
import threading
import time

from wpsitemaps.serving.pagestore import PageStore
from wpsitemaps.store.base import Record

STORED_NAME = "robots.txt"  # its key in the page store, beside the site's documents


class RobotsCopies:
    """The last good robots.txt of each site (by site key)."""

    def __init__(self, pages: PageStore | None) -> None:
        self.pages = pages
        self._lock = threading.Lock()
        self._last: dict[str, tuple[bytes, float]] = {}

    def keep(self, site_key: str, body: bytes) -> None:
        """Remember a site's robots.txt as just read from the database."""
        now = time.time()
        with self._lock:
            old = self._last.get(site_key)
            self._last[site_key] = (body, now)
        pages = self.pages
        if pages is not None and (old is None or old[0] != body):
            record = Record("robots", hashlib.sha256(body).hexdigest(), now, None)
            pages.attempt(pages.backend.put, pages.key(site_key, STORED_NAME), record, body)

    def last(self, site_key: str) -> tuple[bytes, float] | None:
        """A site's last good robots.txt and when it was last known current, or None."""
        with self._lock:
            mine = self._last.get(site_key)
        if mine is not None:
            return mine
        pages = self.pages
        stored = None if pages is None else pages.attempt(pages.backend.get,
                                                          pages.key(site_key, STORED_NAME))
        if stored is None or stored.body is None:
            return None
        return stored.body, max(stored.rendered_at, stored.checked_at)
