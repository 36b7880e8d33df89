"""WebSub across real processes (issue #27): a service killed (SIGKILL) with a publish ping
queued pings after a restart, once per feed; two service processes sharing one store (a
directory, or the real Redis) ping once per feed. Real clocks and threads (the service as
wpsitemaps.wsgi starts it), sweep and batching window of one second, IndexNow off."""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable
from collections.abc import Iterator

import pytest

from tests.support.builder import Site
from tests.support.data import small_site
from tests.support.websub import Hub
from tests.support.websub import running_hub
from tests.test_indexnow_processes import Worker
from tests.test_indexnow_processes import publish
from tests.test_indexnow_processes import store  # noqa: F401 - the fixture, disk and Redis
from tests.test_indexnow_processes import wait_for
from tests.test_indexnow_processes import workers  # noqa: F401 - the fixture
from wpsitemaps.config import load_settings
from wpsitemaps.indexnow.outbox import Outbox
from wpsitemaps.store import open_store

TOPICS = ["http://example.test/atom.xml", "http://example.test/rss.xml"]


@pytest.fixture
def hub() -> Iterator[Hub]:
    """A local WebSub hub."""
    with running_hub() as found:
        yield found


def environment(database: str, where: tuple[str, str], hub: Hub) -> dict[str, str]:
    """A worker's environment: WebSub on (IndexNow off), sweeping and batching every second."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("WPSITEMAPS_")}
    return {**env, "WPSITEMAPS_DATABASE_URL": database, "WPSITEMAPS_NOW": "option:test_now",
            "WPSITEMAPS_STORE": where[0], "WPSITEMAPS_STORE_NAMESPACE": where[1],
            "WPSITEMAPS_WEBSUB_HUBS": hub.url, "WPSITEMAPS_INDEXNOW_SWEEP": "1",
            "WPSITEMAPS_INDEXNOW_BATCH_WINDOW": "1", "WPSITEMAPS_INDEXNOW_BACKOFF_MIN": "0.5",
            "WPSITEMAPS_INDEXNOW_BACKOFF_MAX": "1"}


def fingerprinted(database: str, where: tuple[str, str]) -> Callable[[], bool]:
    """Whether a sweep kept the feeds' fingerprint in the shared store (read as the service
    reads it), so that a change published after it is one the next sweep sees."""
    settings = load_settings({"DATABASE_URL": database, "STORE": where[0]}, environ={})
    backend = open_store(settings)
    assert backend is not None
    outbox = Outbox(backend, where[1])
    return lambda: any(name.startswith("feed ")
                       for name in backend.fields(outbox.state))


def test_killed_with_a_queued_ping_pings_after_restart_once(
        write_site: Callable[[Site, str], str], store: tuple[str, str],  # noqa: F811
        hub: Hub, workers: list[Worker]) -> None:  # noqa: F811
    """The hub fails (500) while a ping is queued; the service is SIGKILLed; a new one pings
    once the hub is back, once per feed."""
    database = write_site(small_site(), "sqlite")
    env = environment(database, store, hub)
    hub.answers.extend([500] * 1000)
    first = Worker(env)
    workers.append(first)
    hub.service = first.base
    wait_for(fingerprinted(database, store))
    publish(database, 70, "survives-a-kill")
    wait_for(lambda: len(hub.requests) >= 1)
    first.kill()
    assert hub.topics == []
    hub.answers.clear()
    second = Worker(env)
    workers.append(second)
    hub.service = second.base
    wait_for(lambda: len(hub.topics) >= 2)
    time.sleep(4)  # later passes and sweeps must not ping again
    assert sorted(hub.topics) == TOPICS


def test_two_processes_sharing_a_store_ping_once_per_feed(
        write_site: Callable[[Site, str], str], store: tuple[str, str],  # noqa: F811
        hub: Hub, workers: list[Worker]) -> None:  # noqa: F811
    """Two service processes on one store, a post published: each feed is pinged once."""
    database = write_site(small_site(), "sqlite")
    env = environment(database, store, hub)
    workers.extend([Worker(env), Worker(env)])
    hub.service = workers[0].base
    wait_for(fingerprinted(database, store))
    publish(database, 80, "shared")
    wait_for(lambda: len(hub.topics) >= 2)
    time.sleep(4)
    counts = Counter(hub.topics)
    assert sorted(counts) == TOPICS and set(counts.values()) == {1}
