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
import time
from collections.abc import Sequence

from sqlalchemy import Connection

from wpsitemaps.changes.ledger import BEAT_FOR
from wpsitemaps.changes.ledger import VALUES
from wpsitemaps.changes.ledger import Ledger
from wpsitemaps.changes.ledger import clock_part
from wpsitemaps.config import Settings
from wpsitemaps.config import event_sources
from wpsitemaps.serving.pagestore import GuardedCounters
from wpsitemaps.serving.pagestore import PageStore
from wpsitemaps.serving.service import SiteSession
from wpsitemaps.store import namespace
from wpsitemaps.store import open_store
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
    # A document dated by the clock (news) is current only within its clock bucket.
    clock = clock_part(deps, service.pages.clock()) if service.pages is not None else ""
    if told is not None:
        ledger.note_mode("events")
        return _salted(ledger, told + clock)
    if service.settings.change_source == "none":
        return None
    ledger.note_mode("check")
    checked = site_check(session, ledger)
    return None if checked is None else _salted(ledger, checked + clock)


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


def describe(settings: Settings, conn: Connection) -> list[str]:
    """What `wpsitemaps check` says of how stored pages learn of changes: the setting, each
    event source's last beat (read from the store), and what the site-level check can see."""
    mode = settings.change_source
    if settings.cache_ttl <= 0 or settings.store == "off":
        return ["changes       no page store: every document is rendered"]
    if mode == "none":
        return ["changes       none: a stored page's fingerprint is computed on every "
                "request past store_window"]
    lines = []
    names = event_sources(settings)
    if names:
        lines.append(f"changes       events from {', '.join(names)}; the site-level check "
                     "while none is live")
        lines += _beats(settings, names)
    tables = build_tables(settings.table_prefix, settings.base_prefix)
    stamps = table_stamps(conn, watched(tables, settings.table_prefix))
    if stamps is None:
        seen = "cannot tell on this database: every page's fingerprint is computed"
    elif stamps.unknown and stamps.loads is None:
        seen = ("a table's UPDATE_TIME is unknown (not written since the server loaded it) "
                "and Opened_table_definitions is not readable: fingerprints until it is "
                "written")
    else:
        what = ("the database file's times" if conn.dialect.name == "sqlite"
                else f"UPDATE_TIME of {len(stamps.stamps)} tables")
        seen = (f"{what} plus the options"
                + (", Opened_table_definitions" if stamps.unknown else ""))
    lines.append(f"site check    {seen}" if names else f"changes       check: {seen}")
    return lines


def _beats(settings: Settings, names: Sequence[str]) -> list[str]:
    backend = open_store(settings, check=False)
    if backend is None:
        return []
    ledger = Ledger(GuardedCounters(PageStore(backend, namespace(settings), settings.cache_ttl,
                                              settings.store_window)), namespace(settings),
                    names)
    beats = ledger.beats()
    now = time.time()
    if beats is None:
        return ["  the store cannot be read: sources unknown"]
    return [f"  {name}: " + (f"live, last heard {now - beats[name]:.0f} s ago"
                             if now - beats[name] < BEAT_FOR else
                             "not live (never heard)" if not beats[name] else
                             f"not live, last heard {now - beats[name]:.0f} s ago")
            for name in names]
