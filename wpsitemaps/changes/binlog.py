"""The database's own change log (issue #26): MariaDB/MySQL's row-based binary log, read in a
background thread through `mysql-replication` (module `pymysqlreplication`), the maintained
implementation of the replication protocol; nothing here parses the log itself.

The reader connects as a replica would (grants REPLICATION SLAVE, REPLICATION CLIENT),
follows the row events of the site's tables (posts, postmeta, terms, term_taxonomy,
term_relationships, users, usermeta, options, for every site of a network), hands the
changes they mean to the sink, and remembers the last position it handled (`PositionMemory`:
the page store, so a restart resumes where the last run stopped). When the connection drops
it says so once, reports itself unhealthy (the service falls back on its own checks) and
reconnects with back-off; the first event after that says it recovered.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import Protocol

from wpsitemaps.changes.model import Change
from wpsitemaps.changes.model import ChangeSink
from wpsitemaps.changes.model import SourceHealth
from wpsitemaps.changes.tables import TableName
from wpsitemaps.changes.tables import parse_table
from wpsitemaps.changes.tables import row_changes
from wpsitemaps.changes.tables import unique

log = logging.getLogger(__name__)

NAME = "binlog"
# A quiet database still sends a heartbeat this often, so a dead link is noticed (no event
# within READ_TIMEOUT) and the health says "alive" while nothing changes.
HEARTBEAT = 2.0
READ_TIMEOUT = 10.0
BACKOFF_FIRST = 1.0
BACKOFF_MAX = 60.0
# The position is written to the store at most this often (and when the reader stops): on a
# restart at most this much is read twice, which only repeats changes.
SAVE_EVERY = 1.0


@dataclass(frozen=True)
class Position:
    """Where in the binary log: a file name and an offset in it."""

    file: str
    pos: int


class PositionMemory(Protocol):
    """Keeps the last position handled across restarts (the store, or this process)."""

    def load(self) -> Position | None:
        """The position saved last, or None."""

    def save(self, position: Position) -> None:
        """Remember `position`."""


class LocalPosition:
    """A position kept in this process only (no store configured)."""

    def __init__(self) -> None:
        self.position: Position | None = None

    def load(self) -> Position | None:
        """The position saved last in this process."""
        return self.position

    def save(self, position: Position) -> None:
        """Remember `position` until the process ends."""
        self.position = position


@dataclass(frozen=True)
class BinlogConfig:
    """How to reach the log: a replica's connection, the schema and the tables' prefix."""

    host: str
    port: int
    user: str
    password: str
    schema: str
    base_prefix: str
    server_id: int = 4217


@dataclass
class _State:
    """What the reader thread knows, read by health() from other threads."""

    connected: bool = False
    failing: bool = False
    detail: str = "not started"
    lag: float | None = None
    last_event_at: float | None = None
    position: Position | None = None
    changes: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


class BinlogSource:
    """A background reader of the binary log handing Changes to a sink."""

    def __init__(self, config: BinlogConfig, sink: ChangeSink, positions: PositionMemory,
                 clock: Callable[[], float] = time.time) -> None:
        self.config = config
        self.sink = sink
        self.positions = positions
        self.clock = clock
        self._state = _State()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._stream: Any = None
        # The saved position is gone from the server (its logs were purged): start at the end.
        self._from_end = False

    def start(self) -> None:
        """Start the reader thread (a daemon: it never holds the process open)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="wpsitemaps-binlog",
                                            daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop reading, save the position, close the connection."""
        self._stop.set()
        stream = self._stream
        if stream is not None:
            _close(stream)
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def health(self) -> SourceHealth:
        """Connected or not, the newest event's lag, where it reads."""
        s = self._state
        with s.lock:
            return SourceHealth(NAME, s.connected and not s.failing, s.lag, s.last_event_at,
                                s.detail)

    def settled(self) -> bool:
        """Whether the first connection succeeded or failed (before that, health says
        nothing: "not started" is not "down")."""
        with self._state.lock:
            return self._state.connected or self._state.failing

    def _run(self) -> None:
        """Read until stopped; on any failure: say so once, wait, reconnect."""
        delay = BACKOFF_FIRST
        while not self._stop.is_set():
            try:
                self._read()
                delay = BACKOFF_FIRST
            except Exception as exc:  # the link, the server, a decode error: all fall back
                if self._stop.is_set():
                    break
                if _purged(exc) and not self._from_end:
                    log.warning("change source binlog: its saved position is no longer on "
                                "the server (%s); reading from the log's end, what changed in "
                                "between is caught by cache_ttl", exc)
                    self._from_end = True
                self._failed(exc)
                self._stop.wait(delay)
                delay = min(delay * 2, BACKOFF_MAX)
        with self._state.lock:
            self._state.connected = False
            self._state.detail = "stopped"

    def _read(self) -> None:
        """One connection: follow the log from the saved position (or its end) until the
        stream ends or fails."""
        from pymysqlreplication import BinLogStreamReader
        from pymysqlreplication.event import HeartbeatLogEvent
        from pymysqlreplication.row_event import DeleteRowsEvent
        from pymysqlreplication.row_event import UpdateRowsEvent
        from pymysqlreplication.row_event import WriteRowsEvent

        c = self.config
        start = None if self._from_end else self.positions.load()
        stream = BinLogStreamReader(
            connection_settings={"host": c.host, "port": c.port, "user": c.user,
                                 "password": c.password, "read_timeout": READ_TIMEOUT,
                                 "connect_timeout": READ_TIMEOUT},
            server_id=c.server_id, blocking=True, resume_stream=True,
            log_file=start.file if start else None, log_pos=start.pos if start else None,
            only_events=[WriteRowsEvent, UpdateRowsEvent, DeleteRowsEvent, HeartbeatLogEvent],
            only_schemas=[c.schema], slave_heartbeat=HEARTBEAT, freeze_schema=True,
            use_column_name_cache=True, pymysql_wrapper=_connect)
        self._stream = stream
        saved_at = 0.0
        try:
            for event in _events(stream, self._stop):
                self._connected(stream)
                if not isinstance(event, HeartbeatLogEvent):
                    self._handle(event)
                if self.clock() - saved_at >= SAVE_EVERY:
                    self._save(stream)
                    saved_at = self.clock()
        finally:
            self._save(stream)
            self._stream = None
            _close(stream)

    def _save(self, stream: Any) -> None:
        """Remember where the stream is (nothing before it has a position)."""
        if stream.log_file and stream.log_pos:
            self._from_end = False
            position = Position(str(stream.log_file), int(stream.log_pos))
            try:
                self.positions.save(position)
            except Exception as exc:  # a store failure must not stop the reader
                log.warning("change source binlog: cannot save its position: %s", exc)

    def _handle(self, event: Any) -> None:
        """A rows event: its rows' changes to the sink, stamped with the commit time."""
        table = parse_table(str(event.table), self.config.base_prefix)
        if table is None:
            return
        committed = float(event.timestamp)
        changes = unique(c for row in event.rows for c in _row_changes(table, row, committed))
        if changes:
            self.sink.apply_changes(changes, NAME)
        now = self.clock()
        with self._state.lock:
            self._state.lag = max(0.0, now - committed)
            self._state.last_event_at = now
            self._state.changes += len(changes)

    def _connected(self, stream: Any) -> None:
        """The stream delivered: healthy again (one line if it had failed)."""
        s = self._state
        with s.lock:
            recovered = s.failing
            s.connected, s.failing = True, False
            s.position = Position(str(stream.log_file), int(stream.log_pos))
            s.detail = f"reading {s.position.file}:{s.position.pos}"
        if recovered:
            log.info("change source binlog recovered: %s", s.detail)

    def _failed(self, exc: Exception) -> None:
        """The connection failed: one line when it starts failing, not per retry (INFO: the
        service's ledger logs the warning operators see, once, when the health reaches it)."""
        s = self._state
        with s.lock:
            first = not s.failing
            s.connected, s.failing = False, True
            s.detail = f"disconnected: {type(exc).__name__}: {exc}"
        if first:
            log.info("change source binlog fell back (changes are caught by the site "
                        "check and cache_ttl until it reconnects): %s", s.detail)


def _events(stream: Any, stop: threading.Event) -> Iterator[Any]:
    """The stream's events until it ends or `stop` is set (checked at every heartbeat)."""
    while not stop.is_set():
        event = stream.fetchone()
        if event is None:
            raise ConnectionError("the server ended the binary log stream")
        yield event


def _row_changes(table: TableName, row: dict[str, Any], committed: float) -> list[Change]:
    """An UPDATE row has values before and after (a post changing type, a meta key renamed:
    both sides count); WRITE and DELETE rows have one set of values."""
    if "after_values" in row:
        before = row_changes(table, row["before_values"], committed)
        return before + row_changes(table, row["after_values"], committed)
    return row_changes(table, row["values"], committed)


def _connect(**settings: Any) -> Any:
    """pymysql.connect for the library, which still names the schema `db` (a keyword pymysql
    deprecated in favour of `database`)."""
    import pymysql

    if "db" in settings:
        settings["database"] = settings.pop("db")
    return pymysql.connect(**settings)


def _purged(exc: Exception) -> bool:
    """The server's "could not find first log file" (ER_MASTER_FATAL_ERROR_READING_BINLOG)."""
    return bool(exc.args) and exc.args[0] == 1236


def _close(stream: Any) -> None:
    """Close a stream from any thread; a half-closed socket may complain, which is fine."""
    try:
        stream.close()
    except Exception:  # noqa: BLE001 - closing is best effort
        pass
