"""A worker killed while it writes a page never leaves a torn page behind (issue #13).

A real process (the app in a subprocess) is killed with SIGKILL halfway through writing a
stored page; the next request, from another process, gets a complete, valid page.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import PEER_CONFIG
from tests.support.sitemaps import assert_valid
from wpsitemaps import create_app
from wpsitemaps.store.disk import ORPHAN_AGE
from wpsitemaps.store.disk import DiskStore

# Runs the app and SIGKILLs itself after writing half of the page's stored file.
KILLED_WRITER = """
import os, signal, sys
from wpsitemaps import create_app
from wpsitemaps.store import files

real_open = open

class HalfThenDie:
    def __init__(self, fh):
        self.fh = fh
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        self.fh.close()
    def write(self, data):
        self.fh.write(data[: len(data) // 2])
        self.fh.flush()
        os.kill(os.getpid(), signal.SIGKILL)

def dying_open(path, mode="r", *args, **kwargs):
    fh = real_open(path, mode, *args, **kwargs)
    if "w" in mode and "sitemap" in str(path):
        return HalfThenDie(fh)
    return fh

files.open = dying_open
config = {"TESTING": True, "DATABASE_URL": sys.argv[1], "STORE": sys.argv[2], **CONFIG}
create_app(config).test_client().get("/post-sitemap.xml")
print("not killed")
"""


def run_killed_writer(url: str, store: Path) -> subprocess.CompletedProcess[str]:
    """Start the writer and wait for it to die."""
    code = f"CONFIG = {PEER_CONFIG!r}\n" + KILLED_WRITER
    env = {**os.environ, "WPSITEMAPS_STORE_WINDOW": "0"}
    return subprocess.run([sys.executable, "-c", code, url, str(store)], env=env,
                          capture_output=True, text=True, timeout=120, check=False)


def test_killed_writer_leaves_no_torn_page(peer_sqlite_url: str, tmp_path: Path) -> None:
    """After a writer is killed mid-write the next request gets a complete, valid page."""
    store = tmp_path / "pages"
    done = run_killed_writer(peer_sqlite_url, store)
    assert done.returncode == -9, done.stderr
    # What the dead worker left of the page: only its temporary file (its shared values,
    # "v-…", its site's resolution, "_sites/…", and its site's change ledger,
    # "changes.ledger", were complete before the page was rendered).
    leftovers = [p for p in store.rglob("*") if p.is_file() and not p.name.startswith("v-")
                 and p.parent.name != "_sites" and p.name != "changes.ledger"]
    assert leftovers and all(p.name.endswith(".tmp") for p in leftovers)
    app = create_app({"TESTING": True, "DATABASE_URL": peer_sqlite_url, "STORE": str(store),
                      **PEER_CONFIG})
    resp = app.test_client().get("/post-sitemap.xml")
    fresh = create_app({"TESTING": True, "DATABASE_URL": peer_sqlite_url, "STORE": "off",
                        **PEER_CONFIG}).test_client().get("/post-sitemap.xml")
    assert resp.status_code == 200
    assert_valid(resp.data)
    assert resp.data == fresh.data


def test_killed_writer_keeps_the_previous_page(peer_sqlite_url: str, tmp_path: Path) -> None:
    """A page already stored survives a writer killed while replacing it."""
    store = tmp_path / "pages"
    app = create_app({"TESTING": True, "DATABASE_URL": peer_sqlite_url, "STORE": str(store),
                      **PEER_CONFIG})
    before = app.test_client().get("/post-sitemap.xml").data
    stored = next(p for p in store.rglob("post-sitemap.xml"))
    os.utime(stored, (0, 0))  # rendered long ago: the writer renders and replaces it
    _age_record(stored)
    assert run_killed_writer(peer_sqlite_url, store).returncode == -9
    resp = app.test_client().get("/post-sitemap.xml")
    assert resp.status_code == 200
    assert_valid(resp.data)
    assert resp.data == before


def test_sweep_removes_a_killed_writers_file(peer_sqlite_url: str, tmp_path: Path) -> None:
    """Temporary files older than ORPHAN_AGE are removed by the next sweep."""
    store = tmp_path / "pages"
    run_killed_writer(peer_sqlite_url, store)
    orphan = next(p for p in store.rglob("*.tmp"))
    old = time.time() - ORPHAN_AGE - 1
    os.utime(orphan, (old, old))
    DiskStore(str(store), max_bytes=10**9).sweep()
    assert not orphan.exists()


def _age_record(path: Path) -> None:
    """Rewrite a stored file's render time to the epoch (so cache_ttl has passed)."""
    data = path.read_bytes()
    head, _, body = data.partition(b"\n")
    import json

    meta = json.loads(head[len(b"WPSM1 "):])
    meta["rendered"] = 0.0
    path.write_bytes(b"WPSM1 " + json.dumps(meta).encode() + b"\n" + body)
    os.utime(path, (0, 0))
