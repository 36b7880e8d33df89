"""The directory back end of the page store: bound, damage, keys, atomic replacement."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from wpsitemaps.config import ConfigError
from wpsitemaps.config import load_settings
from wpsitemaps.store import namespace
from wpsitemaps.store.base import MAX_BODY
from wpsitemaps.store.base import Record
from wpsitemaps.store.base import StoreError
from wpsitemaps.store.disk import DiskStore


def record(fp: str = "fp", when: float = 100.0) -> Record:
    """A record rendered at `when`."""
    return Record(fp, "tag", when, None)


def test_sweep_keeps_the_bound(tmp_path: Path) -> None:
    """Over max_bytes, the least recently revalidated documents are removed first."""
    store = DiskStore(str(tmp_path), max_bytes=10_000)
    for n in range(8):
        store.put(f"ns/blog1/p{n}.xml", record(when=1000.0 + n), b"x" * 2_000)
    store.sweep()
    left = sorted(p.name for p in tmp_path.rglob("*.xml"))
    assert sum(p.stat().st_size for p in tmp_path.rglob("*.xml")) <= 10_000
    assert "p7.xml" in left and "p0.xml" not in left


def test_damaged_file_is_a_miss(tmp_path: Path) -> None:
    """A file whose body does not match its header is never served."""
    store = DiskStore(str(tmp_path), max_bytes=10**6)
    store.put("ns/blog1/a.xml", record(), b"<urlset>complete</urlset>")
    path = tmp_path / "ns" / "blog1" / "a.xml"
    path.write_bytes(path.read_bytes()[:-5])
    assert store.get("ns/blog1/a.xml") is None
    assert not path.exists()


def test_head_reads_no_body(tmp_path: Path) -> None:
    """head() gives the fingerprint and tag without the body."""
    store = DiskStore(str(tmp_path), max_bytes=10**6)
    store.put("ns/blog1/a.xml", record("abc"), b"<urlset/>")
    head = store.head("ns/blog1/a.xml")
    assert head is not None and head.fingerprint == "abc" and head.body is None


def test_touch_records_revalidation(tmp_path: Path) -> None:
    """touch() moves the record's checked time (shared through the file's mtime)."""
    store = DiskStore(str(tmp_path), max_bytes=10**6)
    store.put("ns/blog1/a.xml", record(when=100.0), b"<urlset/>")
    store.touch("ns/blog1/a.xml", 250.0)
    head = store.head("ns/blog1/a.xml")
    assert head is not None and head.checked_at == 250.0 and head.rendered_at == 100.0


@pytest.mark.parametrize("key", ["ns/../x", "ns/blog1/.hidden", "/abs", "ns//x"])
def test_keys_cannot_leave_the_directory(tmp_path: Path, key: str) -> None:
    """Keys with empty, dot or climbing segments are refused."""
    with pytest.raises(ValueError):
        DiskStore(str(tmp_path), max_bytes=10**6).path(key)


def test_namespace_ignores_the_password() -> None:
    """The default namespace is the same whatever the database password is."""
    one = load_settings({"DATABASE_URL": "mysql+pymysql://u:one@h/wp"}, environ={})
    two = load_settings({"DATABASE_URL": "mysql+pymysql://u:two@h/wp"}, environ={})
    other = load_settings({"DATABASE_URL": "mysql+pymysql://u:one@h/wp2"}, environ={})
    assert namespace(one) == namespace(two) != namespace(other)


@pytest.mark.parametrize(("config", "message"), [
    ({"STORE": "memcached://x"}, "WPSITEMAPS_STORE: memcached:// is not supported"),
    ({"STORE_WINDOW": "soon"}, "WPSITEMAPS_STORE_WINDOW: 'soon' is not a number of seconds"),
    ({"STORE_MAX_MB": "0"}, "WPSITEMAPS_STORE_MAX_MB: 0 must be 1 or more"),
    ({"STORE_NAMESPACE": "../x"}, "WPSITEMAPS_STORE_NAMESPACE"),
])
def test_bad_store_settings(config: dict[str, str], message: str) -> None:
    """Bad store settings name the setting."""
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")):
        load_settings({"DATABASE_URL": "sqlite:///x", **config}, environ={})


def test_default_store_is_the_users_cache(tmp_path: Path) -> None:
    """Without a setting pages go to $XDG_CACHE_HOME/wpsitemaps/pages."""
    settings = load_settings({"DATABASE_URL": "sqlite:///x"},
                             environ={"XDG_CACHE_HOME": str(tmp_path)})
    assert settings.store == str(tmp_path / "wpsitemaps" / "pages")


def test_file_larger_than_any_record_is_not_read(tmp_path: Path) -> None:
    """A file longer than any record holds (MAX_BODY) is a miss: get() does not read it,
    however well formed it is."""
    store = DiskStore(str(tmp_path), max_bytes=10**9)
    body = bytes(MAX_BODY + 1)
    (tmp_path / "ns" / "blog1").mkdir(parents=True)
    (tmp_path / "ns" / "blog1" / "huge.xml").write_bytes(record().head_bytes(body) + body)
    assert store.get("ns/blog1/huge.xml") is None


def test_body_larger_than_any_record_is_not_stored(tmp_path: Path) -> None:
    """put() leaves out a body it could not read back."""
    store = DiskStore(str(tmp_path), max_bytes=10**9)
    store.put("ns/blog1/huge.xml", record(), bytes(MAX_BODY + 1))
    assert not (tmp_path / "ns" / "blog1" / "huge.xml").exists()


def test_linked_directory_fails_naming_the_link(tmp_path: Path) -> None:
    """A link where a directory of the store should be makes every call fail with a message
    naming it (never followed), and leaves no descriptor open."""
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "pages" / "ns").mkdir(parents=True)
    (tmp_path / "pages" / "ns" / "blog1").symlink_to(tmp_path / "elsewhere")
    store = DiskStore(str(tmp_path / "pages"), max_bytes=10**6)
    key = "ns/blog1/a.xml"
    calls: list[Callable[[], object]] = [
        lambda: store.head(key), lambda: store.get(key),
        lambda: store.put(key, record(), b"<urlset/>"), lambda: store.touch(key, 1.0)]
    open_before = len(os.listdir("/proc/self/fd"))
    for call in calls:
        with pytest.raises(StoreError, match=r"pages/ns/blog1 is a link or a file"):
            call()
    assert len(os.listdir("/proc/self/fd")) == open_before
    assert list((tmp_path / "elsewhere").iterdir()) == []
