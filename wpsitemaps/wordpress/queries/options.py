"""SQL, and only SQL: every function takes (conn, tables, ...) and returns plain rows."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Connection
from sqlalchemy import select
from sqlalchemy import text

from wpsitemaps.wordpress.schema import WPTables


def options(conn: Connection, tables: WPTables, names: Iterable[str]) -> dict[str, str]:
    """Return {option_name: option_value} for the named options that exist."""
    o = tables.options
    rows = conn.execute(select(o.c.option_name, o.c.option_value)
                        .where(o.c.option_name.in_(list(names))))
    return {str(name): str(value) if value is not None else "" for name, value in rows}


def options_tables(conn: Connection) -> list[str]:
    """The `{prefix}options` tables the user can see that have a `{prefix}posts` beside them
    (a wrong table prefix: which prefixes this database has; a plugin's own `…_options`
    table has no posts table). Asked of the catalog with a SELECT."""
    if conn.dialect.name == "sqlite":
        stmt = text("SELECT name FROM sqlite_master WHERE type = 'table' "
                    "AND (name LIKE '%options' OR name LIKE '%posts')")
    else:
        stmt = text("SELECT table_name FROM information_schema.tables WHERE "
                    "table_schema = DATABASE() AND (table_name LIKE '%options' "
                    "OR table_name LIKE '%posts')")
    names = {str(row[0]) for row in conn.execute(stmt)}
    return sorted(name for name in names
                  if name.endswith("options") and name[: -len("options")] + "posts" in names)
