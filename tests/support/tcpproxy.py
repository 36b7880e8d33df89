"""A loopback TCP forwarder that tests can switch off and on to simulate a database outage.

The shared MariaDB server must never be stopped (other test runs use it), so outages are
made here instead: `down()` cuts every open connection and refuses new ones (accepted and
closed at once, which pymysql reports as a lost connection), `silence()` makes a black hole
(connections stay open and new ones are accepted, but nothing is forwarded either way: a
server that hangs, or a network that drops packets), `slow(seconds)` delays every chunk
forwarded either way (a server or network that is slow), `up()` forwards again.
"""

from __future__ import annotations

import socket
import threading
import time
from types import TracebackType


class TcpProxy:
    """Forward 127.0.0.1:<port> to a target; `down()` and `up()` simulate an outage."""

    def __init__(self, target_host: str = "127.0.0.1", target_port: int = 3306) -> None:
        self.target = (target_host, target_port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._available = True
        self._silent = False
        self._delay = 0.0
        self._held: set[socket.socket] = set()
        self._closed = False
        self.accepted = 0
        threading.Thread(target=self._accept_loop, daemon=True).start()

    def __enter__(self) -> TcpProxy:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def down(self) -> None:
        """Cut every open connection and refuse new ones until up()."""
        with self._lock:
            self._available = False
            sockets = list(self._open)
            self._open.clear()
        for sock in sockets:
            _shut(sock)

    def cut(self) -> None:
        """Cut the open connections but keep accepting new ones (a server restart)."""
        self.down()
        self.up()

    def silence(self) -> None:
        """Stop forwarding anything, without closing: every read on either side waits."""
        with self._lock:
            self._silent = True

    def slow(self, seconds: float) -> None:
        """Delay every chunk forwarded, either way, by `seconds` (0: no delay)."""
        self._delay = seconds

    def up(self) -> None:
        """Forward new connections again (connections accepted while silent are closed)."""
        self._delay = 0.0
        with self._lock:
            self._available, self._silent = True, False
            held = list(self._held)
            self._held.clear()
        for sock in held:
            _shut(sock)

    def close(self) -> None:
        """Stop listening and cut everything."""
        self._closed = True
        self.down()
        self.up()
        _shut(self._listener)

    def _accept_loop(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                available, silent = self._available, self._silent
                if silent:
                    self._held.add(client)
            if silent:
                threading.Thread(target=self._swallow, args=(client,), daemon=True).start()
                continue
            if not available:
                _shut(client)
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                _shut(client)
                continue
            upstream.settimeout(None)
            with self._lock:
                self.accepted += 1
                self._open.update((client, upstream))
            for src, dst in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(src, dst), daemon=True).start()

    def _swallow(self, sock: socket.socket) -> None:
        """Read and drop whatever a held connection sends, until it closes."""
        try:
            while sock.recv(65536):
                pass
        except OSError:
            pass

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                if self._delay:
                    time.sleep(self._delay)
                if not self._silent:  # silenced: the bytes are lost, nothing answers
                    dst.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (src, dst):
                with self._lock:
                    self._open.discard(sock)
                _shut(sock)


def _shut(sock: socket.socket) -> None:
    """Close a socket now, both directions, ignoring errors from already-dead sockets."""
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()
