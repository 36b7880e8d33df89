"""Date handling in one place: WordPress zero dates, driver types, W3C output."""

from __future__ import annotations

from datetime import UTC
from datetime import datetime

ZERO_PREFIX = "0000-00-00"


def parse_wp_date(value: object) -> datetime | None:
    """Turn a WordPress DATETIME (datetime or 'YYYY-MM-DD HH:MM:SS' str) into a naive datetime.

    PyMySQL hands back the zero date (and other invalid dates) as a str, SQLite always gives
    a str; both become None when they are not a real date.
    """
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.replace(tzinfo=None)
    text = str(value).strip()
    if not text or text.startswith(ZERO_PREFIX):
        return None
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        return None
    if parsed.year < 1:
        return None
    return parsed.replace(tzinfo=None)


def utc(value: object) -> datetime | None:
    """Parse a *_gmt column as an aware UTC datetime (None for zero/invalid dates)."""
    parsed = parse_wp_date(value)
    return parsed.replace(tzinfo=UTC) if parsed is not None else None


def w3c(value: datetime | None) -> str | None:
    """Format an aware datetime as a W3C datetime with offset (2024-06-01T10:00:00+00:00)."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.isoformat(timespec="seconds")


def latest(*values: datetime | None) -> datetime | None:
    """The newest of several optional datetimes."""
    present = [v for v in values if v is not None]
    return max(present) if present else None


def sql_utc(value: datetime) -> str:
    """Format a datetime for comparison with *_gmt columns in SQL (string compare works on
    MySQL DATETIME and SQLite TEXT alike)."""
    if value.tzinfo is not None:
        value = value.astimezone(UTC).replace(tzinfo=None)
    return value.strftime("%Y-%m-%d %H:%M:%S")
