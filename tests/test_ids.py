"""Object IDs read from text or block JSON: ASCII digits in 1..2**63-1, or nothing."""

from __future__ import annotations

import pytest

from wpsitemaps.wordpress.ids import MAX_ID
from wpsitemaps.wordpress.ids import json_id
from wpsitemaps.wordpress.ids import parse_id


@pytest.mark.parametrize(("raw", "expected"), [
    ("5", 5), (" 42 ", 42), (str(MAX_ID), MAX_ID), ("0", None), ("-5", None), ("+5", None),
    (str(MAX_ID + 1), None), ("9" * 25, None), ("²", None), ("١٢", None), ("", None),
    (None, None), ("5x", None), ("0x10", None),
])
def test_parse_id(raw: str | None, expected: int | None) -> None:
    """Only ASCII digits naming a possible row give an ID (absint() within PHP's range)."""
    assert parse_id(raw) == expected


@pytest.mark.parametrize(("raw", "expected"), [
    (7, 7), (True, None), (0, None), (-1, None), (MAX_ID + 1, None), ("7", None), (7.0, None),
])
def test_json_id(raw: object, expected: int | None) -> None:
    """Block attributes give an ID only as an in-range integer (JSON true is not 1)."""
    assert json_id(raw) == expected
