"""Date handling in one place: WordPress zero dates, driver types, W3C output."""

from __future__ import annotations

import logging
from datetime import UTC
from datetime import datetime
from datetime import timedelta
from datetime import timezone
from datetime import tzinfo
from zoneinfo import ZoneInfo
from zoneinfo import ZoneInfoNotFoundError

log = logging.getLogger(__name__)
ZERO_PREFIX = "0000-00-00"
# Slack of local_floor(): a second change of offset inside its range, or a post saved just
# before the site's zone setting changed.
ZONE_MARGIN = timedelta(hours=1)


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
    if isinstance(value, datetime):  # the driver's own (what parse_wp_date() keeps as is)
        return value.replace(tzinfo=UTC)
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


def wp_timezone(timezone_string: str, gmt_offset: float) -> tzinfo:
    """wp_timezone(): the timezone_string option, else the fixed gmt_offset."""
    if timezone_string:
        try:
            return ZoneInfo(timezone_string)
        except (ZoneInfoNotFoundError, ValueError):
            log.warning("unknown timezone_string %r, using gmt_offset", timezone_string)
    return timezone(timedelta(hours=gmt_offset))


def local_floor(zone: tzinfo, start: datetime, end: datetime) -> datetime:
    """A lower bound of the local `post_date` of posts whose `post_date_gmt` is from `start`
    up to `end` (aware), for the redundant bound that lets `type_status_date` serve a range
    filtered exactly on `post_date_gmt`: WordPress stores post_date = post_date_gmt + the
    zone's offset at that moment, so `start` plus the zone's smallest offset at either end,
    less ZONE_MARGIN. Returned as a UTC instant: sql_utc() formats it for the comparison."""
    low = min(offset_at(zone, start), offset_at(zone, end))
    return start + low - ZONE_MARGIN


def offset_at(zone: tzinfo, moment: datetime) -> timedelta:
    """The zone's UTC offset at an aware moment."""
    return moment.astimezone(zone).utcoffset() or timedelta(0)
