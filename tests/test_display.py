"""web/display.py: URLs shown as an address bar shows them, and the view's parameters."""

from __future__ import annotations

from datetime import UTC
from datetime import datetime

import pytest

from wpsitemaps.web.display import display_url
from wpsitemaps.web.display import view_params

BEIJING = "https://ex.test/2026/10/%e5%8c%97%e4%ba%ac/"


def test_escaped_utf8_is_decoded() -> None:
    """Lower-case escapes of Chinese UTF-8 are shown as the characters."""
    assert display_url(BEIJING) == "https://ex.test/2026/10/北京/"


def test_upper_case_escapes_and_four_byte_characters() -> None:
    """Upper-case hex and four-byte sequences (emoji) are decoded too."""
    assert display_url("/%D0%BC%D0%B8%D1%80-%F0%9F%98%80/") == "/мир-😀/"


@pytest.mark.parametrize("escaped", ["%20", "%2F", "%3F", "%23", "%25", "%26", "%41"])
def test_ascii_escapes_stay(escaped: str) -> None:
    """An escaped ASCII character stays escaped: decoding it would change the URL."""
    assert display_url(f"/a{escaped}b/") == f"/a{escaped}b/"


@pytest.mark.parametrize("escaped", [
    "%e5%8c",            # truncated three-byte sequence
    "%c0%af",            # overlong '/'
    "%ed%a0%80",         # a UTF-16 surrogate
    "%ff",               # never valid in UTF-8
    "%80%80",            # stray continuation bytes
])
def test_invalid_utf8_stays_escaped(escaped: str) -> None:
    """Bytes that are not valid UTF-8 are shown escaped, as they are."""
    assert display_url(f"/x{escaped}y/") == f"/x{escaped}y/"


@pytest.mark.parametrize("escaped", [
    "%e2%80%ae",         # RIGHT-TO-LEFT OVERRIDE (Cf): would reorder what is shown
    "%e2%80%8b",         # ZERO WIDTH SPACE (Cf)
    "%c2%a0",            # NO-BREAK SPACE (Zs)
    "%e2%80%a8",         # LINE SEPARATOR (Zl)
    "%c2%85",            # NEXT LINE (Cc)
    "%ee%80%80",         # private use (Co)
])
def test_hidden_characters_stay_escaped(escaped: str) -> None:
    """Characters that hide or fake what a URL is stay escaped, as browsers keep them."""
    assert display_url(f"/x{escaped}y/") == f"/x{escaped}y/"


def test_valid_neighbours_of_an_invalid_byte_are_decoded() -> None:
    """A bad byte in a run does not stop the valid characters around it from showing."""
    assert display_url("/%e5%8c%97%ff%e4%ba%ac/") == "/北%ff京/"


def test_decoding_is_idempotent() -> None:
    """Decoding a shown URL again changes nothing (the script may run on server HTML)."""
    url = "/%e5%8c%97%2520%e2%80%ae%c3%a9/"
    assert display_url(display_url(url)) == display_url(url) == "/北%2520%e2%80%aeé/"


def test_view_params_of_a_middle_page() -> None:
    """Page 2 of 3 gets relative links to pages 1 and 3."""
    assert view_params("post", 2, 3) == {"page": "2", "pages": "3",
                                         "prev-url": "post-sitemap.xml",
                                         "next-url": "post-sitemap3.xml"}


def test_view_params_of_first_and_last_pages() -> None:
    """The first page has no previous link, the last no next link."""
    assert view_params("post", 1, 2)["prev-url"] == ""
    assert view_params("post", 2, 2)["next-url"] == ""


def test_view_params_single_page_and_clock() -> None:
    """One page gets no pager parameters; a clock is passed as Unix seconds."""
    now = datetime(2026, 11, 29, 16, 24, 3, tzinfo=UTC)
    assert view_params("news", 1, 1, now) == {"now": "1795969443"}
