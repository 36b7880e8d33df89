"""Square brackets: kept around an IPv6 host, escaped elsewhere (xs:anyURI rejects them)."""

from __future__ import annotations

import pytest

from wpsitemaps.content.urls import encode_url


@pytest.mark.parametrize(("raw", "expected"), [
    ("http://example.test/a[1]/?x[]=2#[f]", "http://example.test/a%5B1%5D/?x%5B%5D=2#%5Bf%5D"),
    ("http://[::1]:8080/]]>", "http://[::1]:8080/%5D%5D%3E"),
    ("/rel/[x]", "/rel/%5Bx%5D"),
])
def test_brackets(raw: str, expected: str) -> None:
    """Brackets outside the authority become %5B/%5D, and encoding twice changes nothing."""
    assert encode_url(raw) == expected
    assert encode_url(expected) == expected
