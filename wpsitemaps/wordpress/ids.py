"""Object IDs read from text (options, post meta, CSS classes): ASCII digits, in range.

WordPress casts such values with absint(); PHP's integers stop at 2**63 - 1, and so do
SQLite's, whose driver raises OverflowError (not a database error) for larger numbers. So an
ID outside 1..2**63-1, or one written with non-ASCII digits ('²'.isdigit() is True, but
int('²') raises), names no object and is treated as absent.
"""

from __future__ import annotations

import re

MAX_ID = 2**63 - 1
_ID = re.compile(r"[0-9]+")


def parse_id(value: object) -> int | None:
    """A positive object ID from a stored value, or None when it cannot name a row."""
    text = str(value if value is not None else "").strip()
    if not _ID.fullmatch(text):
        return None
    number = int(text)
    return number if 0 < number <= MAX_ID else None


def json_id(value: object) -> int | None:
    """A positive object ID from a decoded block attribute: an int in range, not a bool."""
    return value if type(value) is int and 0 < value <= MAX_ID else None
