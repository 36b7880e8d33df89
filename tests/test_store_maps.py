"""The store's small persistent maps (the IndexNow outbox and key live in them): on disk and
in the real Redis, both back ends behave alike; maps survive the disk store's sweep."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from itertools import count
from pathlib import Path

import pytest
import redis

from tests.conftest import IN_CI
from tests.test_store_redis import REDIS_PORT
from tests.test_store_redis import redis_reachable
from wpsitemaps.store.base import Record
from wpsitemaps.store.base import Store
from wpsitemaps.store.disk import DiskStore
from wpsitemaps.store.redis import RedisStore

_names = count()


@pytest.fixture(params=["disk", "redis"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Store, str]]:
    """A back end and a key prefix of this test (Redis keys are deleted afterwards)."""
    if request.param == "disk":
        yield DiskStore(str(tmp_path / "store"), max_bytes=1 << 20), "ns"
        return
    if not redis_reachable():
        if IN_CI:
            pytest.fail("Redis on 127.0.0.1:6379 is required in CI but unreachable")
        pytest.skip("Redis on 127.0.0.1:6379 is not reachable")
    space = f"wpsitemaps-test-maps-{os.getpid()}-{next(_names)}"
    yield RedisStore(f"redis://127.0.0.1:{REDIS_PORT}/0", ttl=60), space
    client = redis.Redis(port=REDIS_PORT)
    for key in client.scan_iter(match=f"{space}/*"):
        client.delete(key)


def test_a_missing_map_is_empty(store: tuple[Store, str]) -> None:
    """Reading a map nobody wrote gives no fields."""
    backend, space = store
    assert backend.fields(f"{space}/indexnow/outbox") == {}


def test_fields_round_trip(store: tuple[Store, str]) -> None:
    """Fields written are read back; writing again replaces their values."""
    backend, space = store
    key = f"{space}/indexnow/state"
    backend.set_fields(key, {"a": "1", "b": "2"})
    backend.set_fields(key, {"b": "3"})
    assert backend.fields(key) == {"a": "1", "b": "3"}


def test_only_new_keeps_fields_already_there(store: tuple[Store, str]) -> None:
    """With only_new a field already present keeps its value; new fields are added."""
    backend, space = store
    key = f"{space}/indexnow/outbox"
    backend.set_fields(key, {"u1": "10"}, only_new=True)
    backend.set_fields(key, {"u1": "20", "u2": "20"}, only_new=True)
    assert backend.fields(key) == {"u1": "10", "u2": "20"}


def test_drop_removes_only_unchanged_fields(store: tuple[Store, str]) -> None:
    """A field rewritten since it was read stays; the others go, and are counted."""
    backend, space = store
    key = f"{space}/indexnow/outbox"
    backend.set_fields(key, {"u1": "10", "u2": "10", "u3": "10"})
    backend.set_fields(key, {"u2": "11"})
    assert backend.drop_fields(key, {"u1": "10", "u2": "10", "u9": "10"}) == 1
    assert backend.fields(key) == {"u2": "11", "u3": "10"}


def test_concurrent_adds_all_land(store: tuple[Store, str]) -> None:
    """Eight threads adding 50 fields each at once lose none of them."""
    backend, space = store
    key = f"{space}/indexnow/outbox"

    def adder(n: int) -> None:
        for i in range(50):
            backend.set_fields(key, {f"t{n}-{i}": "1"}, only_new=True)

    threads = [threading.Thread(target=adder, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(backend.fields(key)) == 400


def test_the_sweep_never_removes_a_map(tmp_path: Path) -> None:
    """A disk store far over its bound sweeps documents but keeps its maps."""
    backend = DiskStore(str(tmp_path / "store"), max_bytes=1000)
    backend.set_fields("ns/indexnow/outbox", {"u": "1"})
    for n in range(5):
        backend.put(f"ns/blog1/doc{n}.xml", Record("fp", "tag", 1.0, None), b"x" * 900)
    backend.sweep()
    assert backend.fields("ns/indexnow/outbox") == {"u": "1"}
    assert sum(backend.head(f"ns/blog1/doc{n}.xml") is not None for n in range(5)) <= 1
