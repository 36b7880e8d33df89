"""The event sources, wired to the service (issue #26): the companion plugin's notifications
(verified with nonces in the page store, so every worker and host refuses a replay) and the
binary log reader (one per deployment: the worker holding a lease in the store reads the
log and keeps its position there; the others learn of changes through the ledger).
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable

from sqlalchemy.engine import make_url

from wpsitemaps.changes.binlog import NAME as BINLOG
from wpsitemaps.changes.binlog import BinlogConfig
from wpsitemaps.changes.binlog import BinlogSource
from wpsitemaps.changes.binlog import LocalPosition
from wpsitemaps.changes.binlog import Position
from wpsitemaps.changes.model import SourceHealth
from wpsitemaps.changes.notify import LocalNonces
from wpsitemaps.changes.notify import NonceMemory
from wpsitemaps.changes.notify import Verifier
from wpsitemaps.config import Settings
from wpsitemaps.serving.pagestore import PageStore
from wpsitemaps.serving.service import Service
from wpsitemaps.store.base import Record

log = logging.getLogger(__name__)
PLUGIN = "plugin"  # the source name the ledger and `change_source` know the plugin by
LEASE_TERM = 30.0  # seconds the binlog reader's lease lasts unless renewed
LEASE_EVERY = 10.0  # seconds between renewals (and between tries of a worker without it)
REPORT_EVERY = 15.0  # seconds between health reports while nothing changes
RUNNERS: list[BinlogRunner] = []  # the readers this process started (stop_sources)


class StoreNonces:
    """Nonces as leases in the page store (SET NX / an exclusive file): the first worker on
    any host to see a nonce takes it, every later one is refused. While the store fails,
    this process remembers them itself."""

    def __init__(self, pages: PageStore, clock: Callable[[], float] = time.monotonic) -> None:
        self.pages = pages
        self.clock = clock
        self.local = LocalNonces(clock)
        # Nonces this process stored, with when they run out: a directory store keeps a
        # lease file until it is released, so each is released once its window is over.
        self._expiring: deque[tuple[float, str]] = deque()
        self._lock = threading.Lock()

    def first_time(self, nonce: str, seconds: float) -> bool:
        """Whether no worker saw `nonce` in the last `seconds`."""
        self._forget_old()
        key = f"{self.pages.namespace}/changes.nonce/{nonce}"
        took = self.pages.attempt(self.pages.backend.claim, key, "seen", seconds)
        if took is None:
            return self.local.first_time(nonce, seconds)
        if took:
            with self._lock:
                self._expiring.append((self.clock() + seconds, key))
        return bool(took) and self.local.first_time(nonce, seconds)

    def _forget_old(self) -> None:
        """Release the nonces whose window is over (a few per call)."""
        now = self.clock()
        for _ in range(20):
            with self._lock:
                if not self._expiring or self._expiring[0][0] > now:
                    return
                _, key = self._expiring.popleft()
            self.pages.attempt(self.pages.backend.release, key, "seen")


class StorePosition:
    """The binlog reader's position in the page store (JSON), so a restart resumes."""

    def __init__(self, pages: PageStore, settings: Settings) -> None:
        self.pages = pages
        # Per log server: a position means nothing on another one.
        server = hashlib.sha256(_server(settings).encode()).hexdigest()[:16]
        self.key = f"{pages.namespace}/changes.binlog.{server}"
        self.local = LocalPosition()

    def load(self) -> Position | None:
        """The position saved last (in this process, else in the store)."""
        if self.local.position is not None:
            return self.local.position
        rec = self.pages.attempt(self.pages.backend.get, self.key)
        if rec is None or rec.body is None:
            return None
        try:
            data = json.loads(rec.body)
            return Position(str(data["file"]), int(data["pos"]))
        except (ValueError, KeyError, TypeError):
            return None

    def save(self, position: Position) -> None:
        """Keep `position` here and in the store."""
        self.local.save(position)
        body = json.dumps({"file": position.file, "pos": position.pos}).encode()
        rec = Record("binlog", hashlib.sha256(body).hexdigest(), time.time(), None)
        self.pages.attempt(self.pages.backend.put, self.key, rec, body)


def verifier(service: Service) -> Verifier | None:
    """The plugin's notifications' verifier, None when no `notify_secret` is set."""
    secret = service.settings.notify_secret
    if not secret:
        return None
    nonces: NonceMemory = StoreNonces(service.pages) if service.pages else LocalNonces()
    return Verifier(secret.encode(), nonces)


def binlog_config(settings: Settings) -> BinlogConfig | None:
    """Where the binary log is read from (`binlog_url`), None when it is not."""
    if not settings.binlog_url:
        return None
    url = make_url(settings.binlog_url)
    return BinlogConfig(url.host or "127.0.0.1", url.port or 3306, url.username or "",
                        url.password or "", url.database or "",
                        settings.base_prefix or settings.table_prefix,
                        settings.binlog_server_id)


def _server(settings: Settings) -> str:
    """The log server, without credentials."""
    url = make_url(settings.binlog_url or "")
    return f"{url.host}:{url.port or 3306}"


class BinlogRunner:
    """Runs the binlog reader in the one worker that holds the store lease (two readers with
    one server_id would push each other off the server), and reports its health to the
    service, whose ledger every worker reads."""

    def __init__(self, service: Service, pages: PageStore, config: BinlogConfig,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.service = service
        self.pages = pages
        self.config = config
        self.clock = clock
        self.positions = StorePosition(pages, service.settings)
        self.source = BinlogSource(config, service, self.positions)
        self.key = f"{pages.namespace}/changes.binlog.reader"
        self.token = secrets.token_hex(8)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._reading = False
        self._renewed = float("-inf")

    def start(self) -> None:
        """Start trying for the lease (a daemon thread)."""
        self._thread = threading.Thread(target=self._run, name="wpsitemaps-binlog-lease",
                                        daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop reading and give the lease back."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)
        self._halt()

    def health(self) -> SourceHealth:
        """The reader's health here, or that another worker reads the log."""
        if self._reading:
            return self.source.health()
        return SourceHealth(BINLOG, True, detail="read by another worker (store lease)")

    def _run(self) -> None:
        last: SourceHealth | None = None
        reported = float("-inf")
        while not self._stop.is_set():
            if self._hold():
                if not self._reading:
                    self._reading = True
                    self.source.start()
                health = self.source.health()
                now = self.clock()
                # Reported once connected or failed ("not started" is not "down"), then at
                # every change of health and every REPORT_EVERY seconds (the ledger's beat).
                if self.source.settled() and (last is None or health.healthy != last.healthy
                                              or now - reported >= REPORT_EVERY):
                    self.service.report_health(health)
                    last, reported = health, now
            elif self._reading:
                log.warning("change source binlog: lost the reader lease; another worker "
                            "reads the log now")
                self._halt()
                last = None
            self._stop.wait(1.0 if self._reading else LEASE_EVERY)

    def _hold(self) -> bool:
        """Take the lease, or renew it every LEASE_EVERY seconds while reading."""
        now = self.clock()
        if self._reading and now - self._renewed < LEASE_EVERY:
            return True
        backend = self.pages.backend
        held = bool(self.pages.attempt(backend.renew, self.key, self.token, LEASE_TERM)
                    if self._reading else
                    self.pages.attempt(backend.claim, self.key, self.token, LEASE_TERM))
        if held:
            self._renewed = now
        return held

    def _halt(self) -> None:
        if self._reading:
            self.source.stop()
            self._reading = False
            # A fresh reader for the next time this worker takes the lease.
            self.source = BinlogSource(self.config, self.service, self.positions)
            self.pages.attempt(self.pages.backend.release, self.key, self.token)


def start_sources(service: Service) -> BinlogRunner | None:
    """Start the binary log reader when `binlog_url` is set (servers only). It needs the
    page store: that is where the ledger it feeds, its lease and its position live."""
    config = binlog_config(service.settings)
    if config is None:
        return None
    if service.pages is None:
        log.warning("change source binlog: binlog_url is set but the page store is off "
                    "(store = off or cache_ttl = 0); the binary log is not read")
        return None
    if not library_installed():
        log.error("change source binlog: binlog_url is set but mysql-replication is not "
                  "installed (pip install 'wpsitemaps[binlog]'); the binary log is not read")
        return None
    runner = BinlogRunner(service, service.pages, config)
    runner.start()
    RUNNERS.append(runner)
    return runner


def library_installed() -> bool:
    """Whether the optional `binlog` extra (mysql-replication) is installed."""
    import importlib.util

    return importlib.util.find_spec("pymysqlreplication") is not None


def stop_sources() -> None:
    """Stop every binlog reader this process started (gunicorn's worker_exit, tests): the
    position is saved and the lease given back, so another worker takes over at once."""
    while RUNNERS:
        RUNNERS.pop().stop()


def describe(settings: Settings) -> list[str]:
    """`check`'s lines about how the event sources are reached: the plugin's endpoint, and
    whether the log server has the binary log on in row format (serving.changecheck says
    whether each is live)."""
    if settings.notify_secret:
        lines = [f"plugin        POST {settings.notify_path} (notify_secret set)"]
    else:
        lines = ["plugin        off (no notify_secret)"]
    config = binlog_config(settings)
    if config is None:
        lines.append("binlog        off (no binlog_url)")
    else:
        missing = "" if library_installed() else (
            "; NOT read: mysql-replication is not installed (pip install 'wpsitemaps[binlog]')")
        lines.append(f"binlog        {config.host}:{config.port} as {config.user}: "
                     f"{_probe(settings)}{missing}")
    return lines


def _probe(settings: Settings) -> str:
    """Whether the log server answers with the log on in row format, and where it is."""
    from sqlalchemy import create_engine
    from sqlalchemy.exc import SQLAlchemyError

    from wpsitemaps.wordpress.queries.binlog import log_position
    from wpsitemaps.wordpress.queries.binlog import log_settings

    url = make_url(settings.binlog_url or "").set(drivername="mysql+pymysql")
    engine = create_engine(url, connect_args={"connect_timeout": 5})
    try:
        with engine.connect() as conn:
            found = log_settings(conn)
            where = log_position(conn)
    except SQLAlchemyError as exc:
        cause = getattr(exc, "orig", None) or exc
        return f"NOT reachable ({type(cause).__name__}: {cause})"
    finally:
        engine.dispose()
    problems = []
    if found.get("log_bin", "").upper() != "ON":
        problems.append("log_bin is OFF")
    if found.get("binlog_format", "").upper() != "ROW":
        problems.append(f"binlog_format is {found.get('binlog_format')}, needs ROW")
    facts = ", ".join(f"{k} {v}" for k, v in sorted(found.items()))
    state = "NOT usable: " + "; ".join(problems) if problems else "ok"
    return f"{state} ({facts}; at {where or '?'})"
