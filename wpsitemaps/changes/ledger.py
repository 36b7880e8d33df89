"""The change ledger (issue #26): per site, a counter ("head") per bucket of objects, kept
in the store so every worker and host shares it.

A source hands `Change`s to the service, which bumps the heads of the buckets each one
touches (`buckets_of`). A stored document records which buckets it depends on (`*_deps`)
and a digest of their heads when it was rendered or revalidated (`Ledger.tag`); while that
digest is unchanged, and some source is live, nothing it depends on changed, so its stored
bytes are served without asking the database. Buckets err on the side of too much: a
bucket bumped for nothing costs one revalidation (the page fingerprint), a bucket missed
would serve a stale page until `cache_ttl`.

Buckets of a site:

* `ids:{type}:{n}`: posts of a type with ID in [n*1024, (n+1)*1024) (a page of posts is an
  ID range: entries.PageBound); `type:{type}`: any post of the type (the last page, whose
  range has no end; pages spanning many ranges; types whose links read other rows);
* `posts`: a post of a type the source did not know; `media`: an attachment;
* `terms` (any post or term: term pages' lastmods), `termnames` (a term itself: %category%
  links); `authors` (any post or user), `users` (a user itself: %author% links);
* `site`: an option or the whole site (every document); `content`: any change at all (the
  index, news and video pages: small, or dated by every post);
* `clock:{seconds}`: not a counter: the clock, read as `now // seconds` (clock_dep; the
  news sitemap, whose 48 hours move with time, not with changes);
* `values`: a value documents are rendered from (page bounds, term and author lists, kept
  for `cache_ttl`) was recomputed and differs (every document: one rendered from the old
  value after a change must not stay tagged current).

Rule: no Flask, no SQL, no store (the counters come in as `Counters`, which the page
store's back ends implement).
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections import defaultdict
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Protocol

from wpsitemaps.changes.model import Change
from wpsitemaps.changes.model import SourceHealth
from wpsitemaps.metrics import CHANGES
from wpsitemaps.metrics import SOURCE_HEARD
from wpsitemaps.metrics import SOURCE_LAG
from wpsitemaps.metrics import SOURCE_LIVE

log = logging.getLogger(__name__)
SPAN_BITS = 10  # an ID bucket holds 1024 IDs
MAX_SPANS = 32  # a page over more ID buckets depends on its whole type instead
BEAT_FOR = 60.0  # seconds a source's last healthy report keeps it live
LEDGER = "changes.ledger"  # a site's counter set: {namespace}/{site key}/changes.ledger
SOURCES = "changes.sources"  # the sources' beats: {namespace}/changes.sources
EPOCH = "epoch"  # bumped when a source comes back: what it missed is checked again
VALUES = "values"  # bumped when a value documents are rendered from changed
EVENTS = "events"  # bumped with every delivery of changes, of any site (wakes the sweeper)
SOURCES_EVERY = 1.0  # seconds a worker keeps the sources' beats it read
CLOCK = "clock:"  # clock_dep(): a bucket the clock moves, not a source


class Counters(Protocol):
    """Atomic counter sets shared by every worker (store.base.Store's bump/counters)."""

    def bump(self, key: str, names: Sequence[str], marks: Mapping[str, int]) -> bool:
        """Add 1 to each of `names`, set `marks`; False when it could not be done now."""

    def counters(self, key: str, names: Sequence[str]) -> dict[str, int] | None:
        """The named counters and `gen` (None: unknown now, e.g. the store fails)."""


def site_key(blog_id: int) -> str:
    """The key of a site in stores (wordpress.site.site_key: 'blog1', 'blog2', ...)."""
    return f"blog{blog_id}"


def buckets_of(change: Change) -> set[str]:
    """The buckets a change touches (see the module doc)."""
    found = {"content"}
    if change.kind == "post":
        found |= {"terms", "authors"}
        kind = change.post_type
        if kind is None:
            found |= {"posts", "media"}
        else:
            found |= {f"ids:{kind}:{change.object_id >> SPAN_BITS}", f"type:{kind}"}
            if kind == "attachment":
                found.add("media")
    elif change.kind == "term":
        found |= {"terms", "termnames"}
    elif change.kind == "user":
        found |= {"authors", "users"}
    else:  # an option or the whole site: every document
        found.add("site")
    return found


def post_page_deps(post_type: str, first_key: int, end: int | None, page: int,
                   lookups: bool) -> list[str]:
    """A post type's page over IDs [first_key, end) (end None: the last page); `lookups`:
    its links read other rows (ancestors, terms, authors, languages)."""
    deps = ["site", "posts", "media"]
    lo, hi = first_key >> SPAN_BITS, None if end is None else (end - 1) >> SPAN_BITS
    if page == 1:
        # Page 1 also holds the IDs below its first one, and the first links (the home).
        deps.append("content")
    if hi is None or hi - lo >= MAX_SPANS or lookups:
        deps.append(f"type:{post_type}")
    else:
        deps += [f"ids:{post_type}:{n}" for n in range(lo, hi + 1)]
    if lookups:
        deps += ["termnames", "users"]
    return deps


def value_deps_of_type(post_type: str) -> tuple[str, ...]:
    """What a value computed over a post type's published posts (its page bounds, its
    newest lastmod) depends on: any post of the type, or of a type the source did not
    know."""
    return (f"type:{post_type}", "posts")


def clock_dep(seconds: int) -> str:
    """A bucket no source moves: the clock's, which moves every `seconds` (a document
    dated by the clock, such as the news sitemap's 48 hours, is checked that often)."""
    return f"{CLOCK}{seconds}"


def clock_part(deps: Iterable[str], now: float) -> str:
    """What the clock buckets among `deps` say at `now` (wall clock): '' without one."""
    periods = sorted(int(d[len(CLOCK):]) for d in deps if d.startswith(CLOCK))
    return "".join(f".t{int(now // period)}" for period in periods if period > 0)


def listed_deps(kind: str) -> list[str]:
    """A page of terms ('terms'), of authors ('authors'), or a document that moves with
    every change ('content': the index, news, video)."""
    return ["site", kind]


class Ledger:
    """The heads of every site's buckets and the sources' beats, in shared counters."""

    def __init__(self, counters: Counters, namespace: str, names: Sequence[str] = (),
                 clock: Callable[[], float] = time.time, salt: str = "") -> None:
        self.counters = counters
        self.salt = salt  # what else every tag depends on (serving: code and settings)
        self.namespace = namespace
        self.names = tuple(names)  # the event sources trusted (setting change_source)
        self.clock = clock
        self.sources: dict[str, SourceHealth] = {}
        self._beats: tuple[float, dict[str, int] | None] = (float("-inf"), None)
        self._mode: str | None = None

    def key(self, site: str) -> str:
        """The counter set of a site ('blog1'...)."""
        return f"{self.namespace}/{site}/{LEDGER}"

    def apply(self, changes: Sequence[Change], source: str) -> None:
        """Bump the heads of every bucket the changes touch, one atomic step per site,
        and count the delivery as a beat of `source`."""
        by_site: dict[int, set[str]] = defaultdict(set)
        for change in changes:
            by_site[change.blog_id] |= buckets_of(change)
            CHANGES.labels(source=source, kind=change.kind).inc()
        for blog_id, buckets in sorted(by_site.items()):
            self.counters.bump(self.key(site_key(blog_id)), sorted(buckets), {})
        if by_site:
            self.counters.bump(self._sources_key(), [EVENTS], {})
        lag = max((self.clock() - c.seen_at for c in changes), default=None)
        self.report(SourceHealth(source, True, lag, self.clock()))

    def report(self, health: SourceHealth) -> None:
        """Record a source's health: healthy, it is live for BEAT_FOR seconds; a source
        coming back bumps the epoch, so what it may have missed is checked again."""
        before = self.sources.get(health.name)
        SOURCE_LIVE.labels(source=health.name).set(1 if health.healthy else 0)
        if health.healthy:
            SOURCE_HEARD.labels(source=health.name).set(self.clock())
        if health.lag is not None:
            SOURCE_LAG.labels(source=health.name).set(health.lag)
        beats = self.counters.counters(self._sources_key(), [f"beat:{health.name}"])
        was_live = beats is not None and self.clock() - beats[f"beat:{health.name}"] < BEAT_FOR
        if health.healthy:
            bumped = [] if was_live else [EPOCH]
            self.counters.bump(self._sources_key(), bumped,
                               {f"beat:{health.name}": int(self.clock())})
            if not was_live:
                log.info("changes: source %s is live%s", health.name,
                         f" ({health.detail})" if health.detail else "")
        else:
            self.counters.bump(self._sources_key(), [], {f"beat:{health.name}": 0})
            if before is None or before.healthy:
                log.warning("changes: source %s is down (%s); stored pages are checked "
                            "against the database again", health.name, health.detail or "?")
        self.sources[health.name] = health
        self._beats = (float("-inf"), None)

    def live(self) -> str | None:
        """The epoch when one of the event sources named in `change_source` is live (None:
        none is, so heads say nothing about what changed). Read at most once a second per
        worker."""
        if not self.names:
            return None
        now = self.clock()
        read_at, beats = self._beats
        if now - read_at >= SOURCES_EVERY or now < read_at:
            beats = self.counters.counters(self._sources_key(),
                                           [EPOCH, *(f"beat:{n}" for n in self.names)])
            if beats is None:
                return None
            self._beats = (now, beats)
        if beats is None:
            return None
        if any(now - beats[f"beat:{n}"] < BEAT_FOR for n in self.names):
            return f"{beats['gen']}.{beats[EPOCH]}"
        return None

    def events(self) -> str | None:
        """How many deliveries of changes every source made so far (any site, any worker;
        None when the store cannot be read): what moved since a number read before is
        worth a look (indexnow.sweeper)."""
        got = self.counters.counters(self._sources_key(), [EVENTS])
        return None if got is None else f"{got['gen']}.{got[EVENTS]}"

    def beats(self) -> dict[str, int] | None:
        """When each source named in `change_source` last reported healthy (epoch seconds,
        0: never or down); None when the store cannot be read."""
        got = self.counters.counters(self._sources_key(), [f"beat:{n}" for n in self.names])
        return None if got is None else {n: got[f"beat:{n}"] for n in self.names}

    def values_changed(self, site: str) -> None:
        """A value documents are rendered from (page bounds, term and author lists) was
        recomputed and differs: every document of the site is checked again."""
        self.counters.bump(self.key(site), [VALUES], {})

    def generation(self, site: str, deps: Iterable[str]) -> str | None:
        """The heads of `deps` (and 'site') of a site now, as a name: a value computed from
        those objects (page bounds, term and author lists) is kept under it, so an event
        touching one of them has it computed again on its next read, in every worker. None
        without an event source configured (nothing moves the heads) or when the store
        cannot be read."""
        if not self.names:
            return None
        names = sorted({*deps, "site"})
        heads = self.counters.counters(self.key(site), names)
        if heads is None:
            return None
        return ".".join(str(heads[n]) for n in ("gen", *names))

    def tag(self, site: str, deps: Iterable[str]) -> str | None:
        """The digest of the heads of `deps` of a site now, None when no source is live."""
        epoch = self.live()
        if epoch is None:
            return None
        names = sorted({*(d for d in deps if not d.startswith(CLOCK)), "site", VALUES})
        heads = self.counters.counters(self.key(site), names)
        if heads is None:
            return None
        raw = repr((epoch, heads["gen"], [(n, heads[n]) for n in names]))
        return "ev:" + hashlib.sha256(raw.encode()).hexdigest()[:32]

    def note_mode(self, mode: str) -> None:
        """Log once per process when the way stored pages are checked changes ('events':
        a live source; 'check': the site-level check, e.g. when the sources fell silent)."""
        if mode != self._mode:
            if mode == "events":
                log.info("changes: stored pages are served as the events of %s say",
                         ", ".join(self.names))
            elif self.names:
                log.warning("changes: no event source of %s is live; stored pages are "
                            "checked by the site-level check", ", ".join(self.names))
            self._mode = mode

    def _sources_key(self) -> str:
        return f"{self.namespace}/{SOURCES}"
