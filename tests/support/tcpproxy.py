"""A loopback TCP forwarder that tests can switch off and on to simulate a database outage.

The shared MariaDB server must never be stopped (other test runs use it), so outages are
made here instead: `down()` cuts every open connection and refuses new ones (accepted and
closed at once, which pymysql reports as a lost connection), `up()` forwards again.
"""

from __future__ import annotations

import socket
import threading
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

    def up(self) -> None:
        """Forward new connections again."""
        with self._lock:
            self._available = True

    def close(self) -> None:
        """Stop listening and cut everything."""
        self._closed = True
        self.down()
        _shut(self._listener)

    def _accept_loop(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                available = self._available
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

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
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
