"""SQL, and only SQL: every function takes (conn, tables, ...) and returns plain rows."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Connection
from sqlalchemy import select

from wpsitemaps.wordpress.schema import WPTables


def options(conn: Connection, tables: WPTables, names: Iterable[str]) -> dict[str, str]:
    """Return {option_name: option_value} for the named options that exist."""
    o = tables.options
    rows = conn.execute(select(o.c.option_name, o.c.option_value)
                        .where(o.c.option_name.in_(list(names))))
    return {str(name): str(value) if value is not None else "" for name, value in rows}
