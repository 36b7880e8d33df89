"""The submitter: one process at a time (a lease) posts what is due in the outbox.

A group of URLs (one endpoint, one host) is due once no URL joined it for the batching
window (a burst of edits becomes one request), or once its oldest URL waited four windows
(a steady stream still goes out), or at once when it fills a request (10,000 URLs).
Answers: 200/202 remove the batch; 400/403/422 stop that endpoint for that host, with one
log line and a `check` finding, until the key or endpoints change; 429, 5xx and no answer
hold it back exponentially (with jitter, or for the answer's Retry-After when longer) up
to `indexnow_backoff_max`, then retry.

WebSub hubs (`Plan.hubs`) ride on the same outbox, lease and back-off: their fields are
feed URLs, each pinged alone (`websub.publish`); any 2xx is done, any other 4xx but 429 a
stop, 429 and 5xx a hold.
"""

from __future__ import annotations

import hashlib
import logging
import random
import threading
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass

from wpsitemaps.cache.leases import KEEPER
from wpsitemaps.indexnow.outbox import Batch
from wpsitemaps.indexnow.outbox import Group
from wpsitemaps.indexnow.outbox import Outbox
from wpsitemaps.indexnow.protocol import MAX_URLS
from wpsitemaps.indexnow.protocol import Answer
from wpsitemaps.indexnow.protocol import key_location
from wpsitemaps.indexnow.protocol import post
from wpsitemaps.indexnow.websub import publish
from wpsitemaps.metrics import OUTBOX
from wpsitemaps.metrics import SUBMISSIONS
from wpsitemaps.metrics import SUBMITTED_URLS
from wpsitemaps.store.base import Guard

log = logging.getLogger(__name__)
TICK = 1.0  # seconds between looks at the outbox
LONGEST_WAIT = 4  # batching windows the oldest queued URL waits at most
Post = Callable[[str, str, str, str, Sequence[str]], Answer]
Publish = Callable[[str, str], Answer]


@dataclass(frozen=True)
class Plan:
    """What the submitter is configured with."""

    endpoints: tuple[str, ...]
    key: str
    window: float
    backoff_min: float
    backoff_max: float
    hubs: tuple[str, ...] = ()  # WebSub hubs pinged when a feed changes

    @property
    def signature(self) -> str:
        """Names the configuration: a stop holds until it changes."""
        # Without hubs the signature is what it was before WebSub: stops recorded then hold.
        hubs = ("websub", *sorted(self.hubs)) if self.hubs else ()
        raw = "|".join((self.key, *sorted(self.endpoints), *hubs))
        return hashlib.sha256(raw.encode()).hexdigest()[:16]


class Submitter:
    """Posts due batches from the outbox, under the store's lease `{space}/indexnow/lease`."""

    def __init__(self, outbox: Outbox, guard: Guard, plan: Plan, send: Post = post,
                 ping: Publish = publish) -> None:
        self.outbox = outbox
        self.guard = guard
        self.plan = plan
        self.send = send
        self.ping = ping
        self.lease_key = outbox.queue.rsplit("/", 1)[0] + "/lease"
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def run_once(self) -> list[Answer]:
        """One pass: save what the store refused before, take the lease, post every due
        batch, give the lease back."""
        self.outbox.flush()
        lease = KEEPER.take(self.guard, self.lease_key)
        if lease is None or not lease.stored:
            if lease is not None:
                KEEPER.give_back(lease)
            return []
        try:
            answers = []
            for group in self.outbox.groups():
                known = group.endpoint in self.plan.endpoints or group.endpoint in self.plan.hubs
                if known and self._due(group):
                    answers.extend(self._submit(group))
            OUTBOX.set(self.outbox.length())
            return answers
        finally:
            KEEPER.give_back(lease)

    def _due(self, group: Group) -> bool:
        now = self.outbox.clock()
        stop = self.outbox.facts("stop").get((group.endpoint, group.host))
        if stop is not None and stop.get("signature") == self.plan.signature:
            return False
        hold = self.outbox.facts("hold").get((group.endpoint, group.host))
        if hold is not None and now < float(hold.get("until", 0)):
            return False
        window = self.plan.window
        return (len(group.fields) >= MAX_URLS or now - group.newest >= window
                or now - group.oldest >= window * LONGEST_WAIT)

    def _submit(self, group: Group) -> list[Answer]:
        answers = []
        hub = group.endpoint in self.plan.hubs
        for batch in group.batches(1 if hub else MAX_URLS):
            if hub:  # a WebSub publish ping names one topic
                answer = self.ping(batch.endpoint, batch.urls[0])
            else:
                answer = self.send(batch.endpoint, batch.host, self.plan.key,
                                   key_location(batch.scheme, batch.host, self.plan.key),
                                   batch.urls)
            answers.append(answer)
            self._record(batch, answer)
            if not answer.done:
                break
        return answers

    def _record(self, batch: Batch, answer: Answer) -> None:
        """Act on an answer and keep it for `indexnow status`."""
        now = self.outbox.clock()
        where = (batch.endpoint, batch.host)
        protocol = "websub" if batch.endpoint in self.plan.hubs else "indexnow"
        SUBMISSIONS.labels(protocol=protocol, status=str(answer.status)).inc()
        SUBMITTED_URLS.labels(protocol=protocol, status=str(answer.status)).inc(len(batch.urls))
        self.outbox.note("last", *where, {"when": now, "status": answer.status,
                                          "reason": answer.reason, "urls": len(batch.urls)})
        if answer.done:
            self.outbox.delivered(batch)
            self.outbox.note("hold", *where, None)
        elif answer.refused and batch.endpoint in self.plan.hubs:
            log.error("WebSub: hub %s refused the publish ping for %s with %d %s; not pinging "
                      "it for this host until websub_hubs change (see `wpsitemaps check`)",
                      batch.endpoint, batch.urls[0], answer.status, answer.reason)
            self.outbox.note("stop", *where, {"signature": self.plan.signature, "when": now,
                                              "status": answer.status,
                                              "reason": answer.reason})
        elif answer.refused:
            log.error("IndexNow: %s refused %d URL(s) of %s with %d %s; not sending to it for "
                      "this host until indexnow_key or indexnow_endpoints change (see "
                      "`wpsitemaps check`)", batch.endpoint, len(batch.urls), batch.host,
                      answer.status, answer.reason)
            self.outbox.note("stop", *where, {"signature": self.plan.signature, "when": now,
                                              "status": answer.status,
                                              "reason": answer.reason})
        else:
            self._hold(batch, answer, now)

    def _hold(self, batch: Batch, answer: Answer, now: float) -> None:
        """Back off exponentially with jitter after a 429, a 5xx or no answer."""
        where = (batch.endpoint, batch.host)
        tries = int(self.outbox.facts("hold").get(where, {}).get("tries", 0)) + 1
        delay = min(self.plan.backoff_max, self.plan.backoff_min * 2 ** (tries - 1))
        delay *= random.uniform(0.5, 1.0)  # noqa: S311 - jitter, not secrecy
        # An endpoint's own Retry-After is honoured, within the configured longest wait.
        delay = min(self.plan.backoff_max, max(delay, answer.retry_after or 0.0))
        label = "WebSub" if batch.endpoint in self.plan.hubs else "IndexNow"
        log.warning("%s: %s answered %s for %s; retrying in %.0f s", label, batch.endpoint,
                    answer.status or answer.reason, batch.host, delay)
        self.outbox.note("hold", *where, {"until": now + delay, "tries": tries,
                                          "status": answer.status})

    def start(self) -> None:
        """Look at the outbox every TICK seconds in a daemon thread."""
        if self._thread is None or not self._thread.is_alive():
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="wpsitemaps-indexnow",
                                            daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop the thread (after its current pass)."""
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(TICK):
            try:
                self.guard.attempt(self.run_once)
            except Exception:  # noqa: BLE001 - the next pass tries again
                log.exception("IndexNow submission failed")
