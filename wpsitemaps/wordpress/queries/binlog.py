"""SQL, and only SQL: what `check` asks the server the binary log is read from (issue #26):
whether the log is on and in row format, and where it is now."""

from __future__ import annotations

from sqlalchemy import Connection
from sqlalchemy import text

VARIABLES = ("log_bin", "binlog_format", "binlog_row_image", "binlog_row_metadata")


def log_settings(conn: Connection) -> dict[str, str]:
    """{variable: value} of the binary log's settings (missing ones are left out)."""
    rows = conn.execute(text("SHOW GLOBAL VARIABLES WHERE Variable_name IN "
                             "('log_bin', 'binlog_format', 'binlog_row_image', "
                             "'binlog_row_metadata')"))
    return {str(name).lower(): str(value) for name, value in rows}


def log_position(conn: Connection) -> str | None:
    """'file:position' the server writes at now (needs REPLICATION CLIENT); None when off."""
    row = conn.execute(text("SHOW MASTER STATUS")).first()
    return f"{row[0]}:{row[1]}" if row is not None else None
