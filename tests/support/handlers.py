"""Rows examined by the app's queries: MariaDB's Handler_read% session counters.

`HandlerReads(engine)` reads `SHOW SESSION STATUS LIKE 'Handler_read%'` on each connection
when the pool hands it out and again when it comes back, so the difference is what one
request (one checkout) made the server read: index lookups and next-row steps included,
whatever plan the optimizer chose. Used by tests/test_rows_examined.py and bench/.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine
from sqlalchemy import event


def handler_reads(dbapi_conn: Any) -> dict[str, int]:
    """The session's Handler_read% counters."""
    with dbapi_conn.cursor() as cur:
        cur.execute("SHOW SESSION STATUS LIKE 'Handler_read%'")
        return {str(name): int(value) for name, value in cur.fetchall()}


class HandlerReads:
    """Handler_read% deltas of every checkout of `engine`, in order (see the module doc)."""

    def __init__(self, engine: Engine) -> None:
        self.deltas: list[dict[str, int]] = []
        self._before: dict[int, dict[str, int]] = {}
        event.listen(engine, "checkout", self._checkout)
        event.listen(engine, "checkin", self._checkin)
        self.engine = engine

    def _checkout(self, dbapi_conn: Any, _record: Any, _proxy: Any) -> None:
        self._before[id(dbapi_conn)] = handler_reads(dbapi_conn)

    def _checkin(self, dbapi_conn: Any, _record: Any) -> None:
        before = self._before.pop(id(dbapi_conn), None)
        if before is None or dbapi_conn is None:
            return
        after = handler_reads(dbapi_conn)
        self.deltas.append({k: after[k] - before.get(k, 0) for k in after})

    def close(self) -> None:
        """Stop listening."""
        event.remove(self.engine, "checkout", self._checkout)
        event.remove(self.engine, "checkin", self._checkin)


def rows_read(delta: dict[str, int]) -> int:
    """All Handler_read% counters of one delta added up (rows the server stepped over)."""
    return sum(delta.values())
