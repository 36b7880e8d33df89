"""A real production server for tests that can hang or exhaust a worker: `wpsitemaps serve`
(gunicorn) in its own process group, asked over HTTP with a timeout per request.

Used where the failure on the old code is a worker blocked for ever or eating memory: in a
subprocess such a failure is a timeout or a 500 that the test reports, not a hung test run.
"""

from __future__ import annotations

import http.client
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


@dataclass
class Answer:
    """What the server answered (status -1: no answer within the timeout)."""

    status: int
    body: bytes
    headers: dict[str, str]


@dataclass
class Served:
    """A running server: its master process, port and log."""

    proc: subprocess.Popen[bytes]
    port: int
    log: Path

    def get(self, path: str, headers: dict[str, str] | None = None,
            timeout: float = 10.0) -> Answer:
        """One GET on a fresh connection; status -1 when nothing came within `timeout`."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request("GET", path, headers=headers or {})
            resp = conn.getresponse()
            return Answer(resp.status, resp.read(), {k.lower(): v for k, v in resp.getheaders()})
        except (OSError, http.client.HTTPException):  # timed out, reset, refused
            return Answer(-1, b"", {})
        finally:
            conn.close()

    def workers(self) -> dict[int, float]:
        """The workers (the master's children): pid -> resident memory in MB."""
        found = {}
        for proc in Path("/proc").iterdir():
            try:
                stat = (proc / "stat").read_text().rsplit(")", 1)[1].split()
                if not proc.name.isdigit() or int(stat[1]) != self.proc.pid:
                    continue
                rss = re.search(r"VmRSS:\s+(\d+) kB", (proc / "status").read_text())
            except (OSError, IndexError):
                continue
            if rss:
                found[int(proc.name)] = int(rss[1]) / 1024
        return found

    def worker_rss_mb(self) -> list[float]:
        """Resident memory of each worker, in MB."""
        return sorted(self.workers().values())

    def reload(self, timeout: float = 60.0) -> bool:
        """Send SIGHUP (a graceful reload, as logrotate does) and wait until every old worker
        has exited and a new one answers; False when none does within `timeout`."""
        old = set(self.workers())
        os.kill(self.proc.pid, signal.SIGHUP)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not old & set(self.workers()) and self.get("/robots.txt", timeout=5).status == 200:
                return True
            time.sleep(0.2)
        return False

    def errors_logged(self) -> list[str]:
        """Tracebacks and errors the server wrote to its log."""
        text = self.log.read_text(errors="replace")
        return [line for line in text.splitlines() if "Traceback" in line or "[ERROR]" in line]


def _limit_memory(limit: int | None) -> None:
    if limit is not None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


@contextmanager
def serve(env: dict[str, str], log: Path, workers: int = 2, wrap: Sequence[str] = (),
          memory_limit: int | None = None) -> Iterator[Served]:
    """Start `wpsitemaps serve` with these settings (WPSITEMAPS_* variables), wait until the
    index answers, and kill the whole process group at the end. `wrap` goes before the
    command (e.g. unshare); `memory_limit` caps every process's address space (RLIMIT_AS)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    cmd = [*wrap, sys.executable, "-m", "wpsitemaps.cli", "serve", "--host", "127.0.0.1",
           "--port", str(port), "--workers", str(workers)]
    with log.open("wb") as err:
        proc = subprocess.Popen(cmd, env={**os.environ, **env}, cwd=REPO, stdout=err,
                                stderr=err, start_new_session=True,
                                preexec_fn=lambda: _limit_memory(memory_limit))
    served = Served(proc, port, log)
    try:
        _wait_for(served)
        yield served
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the group this test started, hung workers too
        proc.wait(timeout=30)


def _wait_for(served: Served) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if served.proc.poll() is not None:
            raise RuntimeError(f"server exited: {served.log.read_text()[-2000:]}")
        if served.get("/robots.txt", timeout=2).status == 200:
            return
        time.sleep(0.2)
    raise RuntimeError("server did not answer within 60 s")
