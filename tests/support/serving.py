"""A real `wpsitemaps serve` (gunicorn, sync workers) for tests: start it, find its workers,
find which of them waits on MariaDB, and time every document under concurrent clients."""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

from tests.support import wpdb

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A port nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def get(port: int, path: str, timeout: float = 10) -> tuple[int, bytes]:
    """One GET on a fresh connection: (status, body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


@dataclass
class Server:
    """A running `wpsitemaps serve` and its log."""

    proc: subprocess.Popen[bytes]
    port: int
    log: Path

    def workers(self) -> set[int]:
        """The pids of the gunicorn workers (the master's children)."""
        return children(self.proc.pid)

    def stop(self) -> None:
        """Stop gunicorn (SIGTERM; after 10 s SIGKILL to the master and its workers, which
        would otherwise outlive it holding their database connections)."""
        if self.proc.poll() is not None:
            return
        workers = self.workers()
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            for pid in workers | self.workers():
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            self.proc.kill()
            self.proc.wait()


def start(env: dict[str, str], log: Path, workers: int = 3) -> Server:
    """Start `wpsitemaps serve` with `env` added to this environment; wait until
    robots.txt answers (the caller waits for whatever else it needs)."""
    port = free_port()
    cmd = [sys.executable, "-m", "wpsitemaps.cli", "serve", "--host", "127.0.0.1",
           "--port", str(port), "--workers", str(workers)]
    with log.open("wb") as err:
        proc = subprocess.Popen(cmd, env={**os.environ, **env}, cwd=REPO,
                                stdout=subprocess.DEVNULL, stderr=err)
    server = Server(proc, port, log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}: {log.read_text()[-2000:]}")
        try:
            if get(port, "/robots.txt", timeout=2)[0] == 200 and len(server.workers()) == workers:
                return server
        except OSError:
            pass
        time.sleep(0.2)
    server.stop()
    raise RuntimeError(f"server did not answer within 60 s: {log.read_text()[-2000:]}")


def children(pid: int) -> set[int]:
    """The child processes of `pid` (from /proc)."""
    out = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(stat[1]) == pid:
            out.add(int(entry.name))
    return out


def documents(port: int) -> list[str]:
    """robots.txt, the index and every sitemap page the index lists (paths)."""
    status, body = get(port, "/sitemap_index.xml")
    assert status == 200, status
    locs = re.findall(rb"<loc>([^<]+)</loc>", body)
    return ["/robots.txt", "/sitemap_index.xml"] + [
        "/" + loc.decode().split("/", 3)[3] for loc in locs]


def all_answer(port: int, paths: list[str], within: float = 60) -> None:
    """Wait until every path answers 200 (AssertionError naming the last failures)."""
    deadline = time.monotonic() + within
    failing = list(paths)
    while failing and time.monotonic() < deadline:
        failing = [p for p in failing if _status(port, p) != 200]
        if failing:
            time.sleep(0.2)
    assert not failing, f"not answering 200 within {within} s: {failing}"


def _status(port: int, path: str) -> int:
    try:
        return get(port, path, timeout=5)[0]
    except OSError:
        return 0


# -- who waits on MariaDB ---------------------------------------------------------------

def waiting_on_locks(database: str) -> set[int]:
    """Client ports of the connections to `database` waiting for a table lock."""
    with wpdb.root_conn() as con, con.cursor() as cur:
        cur.execute("SELECT HOST, STATE FROM information_schema.PROCESSLIST WHERE DB = %s",
                    (database,))
        rows = cur.fetchall()
    return {int(host.rsplit(":", 1)[1]) for host, state in rows
            if state and "lock" in state.lower() and ":" in (host or "")}


def owners_of_ports(ports: set[int], pids: set[int]) -> set[int]:
    """Which of `pids` own a local TCP socket on one of `ports` (/proc/net/tcp + fds)."""
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) in ports:
                inodes.add(f"socket:[{fields[9]}]")
    owners = set()
    for pid in pids:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") in inodes:
                    owners.add(pid)
                    break
            except OSError:
                continue
    return owners


def wait_for_blocked_workers(server: Server, database: str, within: float = 20) -> set[int]:
    """The workers with a query waiting on a table lock (waits until there is one)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        ports = waiting_on_locks(database)
        if ports:
            owners = owners_of_ports(ports, server.workers())
            if owners:
                return owners
        time.sleep(0.1)
    raise AssertionError(f"no worker waited on a table lock within {within} s")


# -- timing every document under load -----------------------------------------------------

@dataclass
class Tally:
    """What the clients saw: (path, status, seconds) per request (status 0: no answer)."""

    seen: list[tuple[str, int, float]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def p99(self) -> float:
        """The 99th percentile latency in seconds (nearest rank)."""
        ordered = sorted(s for _, _, s in self.seen)
        return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]

    def failures(self) -> list[tuple[str, int, float]]:
        """The requests that did not answer 200."""
        return [r for r in self.seen if r[1] != 200]

    def slowest(self, n: int = 5) -> list[tuple[str, int, float]]:
        """The n slowest requests."""
        return sorted(self.seen, key=lambda r: -r[2])[:n]


def hammer(ports: list[int], paths: list[str], seconds: float, clients: int = 8,
           timeout: float = 10) -> Tally:
    """`clients` threads request every path round-robin (each request on a fresh
    connection, as sync workers close them) on the ports in turn for `seconds`."""
    tally = Tally()
    deadline = time.monotonic() + seconds

    def client(offset: int) -> None:
        n = offset
        seen = []
        while time.monotonic() < deadline:
            path = paths[n % len(paths)]
            port = ports[(n // len(paths)) % len(ports)]
            n += 1
            started = time.monotonic()
            try:
                status = get(port, path, timeout)[0]
            except OSError:
                status = 0
            seen.append((path, status, time.monotonic() - started))
        with tally.lock:
            tally.seen += seen

    threads = [threading.Thread(target=client, args=(i * 7,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return tally
