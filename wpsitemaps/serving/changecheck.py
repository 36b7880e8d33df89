"""Has anything a stored document depends on changed? The cheapest answer available
(issue #26), read before anything else of the site:

1. an event source named in `change_source` is live: the digest of the heads of the
   document's buckets in the change ledger (changes.ledger); no database statement;
2. otherwise, unless `change_source` is 'none': the site-level check, shared by every
   worker through the ledger's counter set and run at most once per `store_window` per
   site: when the tables the sitemaps read last changed (wordpress.queries.sitecheck) plus
   the options the site reads, two cheap statements. A check that cannot tell (a table's
   time unknown, or a change less than SETTLE seconds before it, inside the database
   clock's granularity) says nothing;
3. nothing known (None): the page's fingerprint decides, as without this module.

A stored record carries the tag it was rendered or revalidated under; the tag is read
before the fingerprint and the render, so stored bytes are never older than their tag.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence

from wpsitemaps.changes.ledger import VALUES
from wpsitemaps.changes.ledger import Ledger
from wpsitemaps.serving.service import SiteSession
from wpsitemaps.wordpress.options import read_options
from wpsitemaps.wordpress.queries.sitecheck import table_stamps
from wpsitemaps.wordpress.queries.sitecheck import watched
from wpsitemaps.wordpress.schema import build_tables

log = logging.getLogger(__name__)
# Seconds a table must have been still before a check vouches for it: UPDATE_TIME has
# 1-second granularity, so a write later in the same second as the last one would not move it.
SETTLE = 2.0


def current_tag(session: SiteSession, deps: Sequence[str]) -> str | None:
    """The tag the site's documents depending on `deps` have now (None: unknown)."""
    service = session.service
    ledger = service.ledger
    if ledger is None:
        return None
    told = ledger.tag(session.resolved.key, deps)
    if told is not None:
        ledger.note_mode("events")
        return _salted(ledger, told)
    if service.settings.change_source == "none":
        return None
    ledger.note_mode("check")
    checked = site_check(session, ledger)
    return None if checked is None else _salted(ledger, checked)


def _salted(ledger: Ledger, tag: str) -> str:
    """The tag with the ledger's salt (this code's render version and the settings: a
    deploy or a new setting gives every stored document another tag, as it gives it
    another fingerprint)."""
    return tag[:3] + hashlib.sha256(f"{ledger.salt}|{tag}".encode()).hexdigest()[:32]


def site_check(session: SiteSession, ledger: Ledger) -> str | None:
    """The site-level check's tag: the shared result when it is less than `store_window`
    old, else checked now and shared."""
    pages = session.service.pages
    assert pages is not None  # a ledger lives in the page store
    key = ledger.key(session.resolved.key)
    now_ms = int(pages.clock() * 1000)
    got = ledger.counters.counters(key, ["check", "check_at", VALUES])
    if got is None:
        return None
    token = got["check"]
    if not 0 <= now_ms - got["check_at"] < pages.window * 1000:
        token = site_token(session)
        ledger.counters.bump(key, [], {"check": token, "check_at": now_ms})
    # The values' head too: a document rendered from a value recomputed since is checked.
    return f"ck:{token}.{got['gen']}.{got[VALUES]}" if token else None


def site_token(session: SiteSession) -> int:
    """A number naming the site's state now (0: the database cannot tell)."""
    settings = session.service.sites.settings_for(session.resolved)
    tables = build_tables(settings.table_prefix, settings.base_prefix)
    conn = session.conn
    stamps = table_stamps(conn, watched(tables, settings.table_prefix))
    if stamps is None or (stamps.unknown and stamps.loads is None):
        return 0
    if stamps.newest is not None and stamps.now - stamps.newest < SETTLE:
        return 0
    options = sorted(read_options(conn, tables, settings).items())
    raw = repr((stamps.stamps, stamps.loads, options)).encode("utf-8", "surrogatepass")
    return int.from_bytes(hashlib.sha256(raw).digest()[:6], "big") or 1
