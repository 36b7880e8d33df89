"""The shortcuts of content/urls.py give what the long way gives (issue #13's cold render).

encode_url() returns a URL with nothing to encode at once, and absolute() an absolute
http(s) URL that urljoin() would give back unchanged; both are held here to the long way on
generated URLs, the characters that matter weighted in.
"""

from __future__ import annotations

from urllib.parse import quote
from urllib.parse import urljoin

from hypothesis import example
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from wpsitemaps.content import urls

PIECES = st.sampled_from(["http://", "https://", "HTTP://", "ftp://", "//", "/", "?", "#",
                          "%", "%2F", "%zz", "[", "]", "::1", "\t", "\n", " ", ".", "..",
                          "a", "é", "中", "\uff0f", "\u2100", "example.test", ":8080", "@",
                          "&", "=", ";", "'"])
SCHEMES = st.sampled_from(["http://", "https://", "HTTP://", "ftp://", "//", ""])
HOSTS = st.sampled_from(["example.test", "a", "", "[::1]", "[::1", "é.test", "x:80"])
# Free sequences of pieces, and ones shaped scheme + host + the rest, so that endings such
# as an empty query or fragment after a real host come up often.
URLISH = st.one_of(st.lists(PIECES, max_size=12).map("".join),
                   st.tuples(SCHEMES, HOSTS, st.lists(PIECES, max_size=6).map("".join))
                   .map("".join))


def encode_long_way(url: str) -> str:
    """encode_url() without its shortcut."""
    url = urls._BAD_ESCAPE.sub("%25", url.strip())
    url = quote(url, safe=urls._SAFE, encoding="utf-8", errors="replace")
    authority = urls._AUTHORITY.match(url)
    head = authority.group(0) if authority else ""
    return head + url[len(head):].replace("[", "%5B").replace("]", "%5D")


@settings(max_examples=3000)
@given(URLISH)
def test_encode_url_shortcut_is_the_long_way(url: str) -> None:
    """Whatever the URL, encode_url() equals the full encoding."""
    assert urls.encode_url(url) == encode_long_way(url)


@settings(max_examples=3000)
@given(URLISH, st.sampled_from(["http://example.test", "https://example.test/blog"]))
@example("https://example.testhttp://;", "https://example.test/blog")  # empty ;params
@example("http://example.test/a;?q", "http://example.test")
@example("http://example.test#", "http://example.test")
@example("http://ex\uff0fample.test/a.jpg", "http://example.test")  # invalid under NFKC
def test_absolute_shortcut_is_urljoin(src: str, home: str) -> None:
    """absolute() equals urljoin() against the home URL, errors included."""
    base = home if home.endswith("/") else home + "/"
    try:
        expected: str | type[ValueError] = urljoin(base, src.strip())
    except ValueError:
        expected = ValueError
    try:
        got: str | type[ValueError] = urls.absolute(src, home)
    except ValueError:
        got = ValueError
    assert got == expected


def test_shortcuts_are_taken() -> None:
    """The common URLs take the shortcut (the point of it), the others do not."""
    assert urls._NOTHING_TO_ENCODE.fullmatch("http://example.test/2026/11/a-post/")
    assert not urls._NOTHING_TO_ENCODE.fullmatch("http://example.test/caf%C3%A9/")
    assert urls._JOINS_TO_ITSELF.match("https://cdn.example/u/a.jpg?w=300")
    assert urls._JOIN_CHANGES.search("https://cdn.example/u/a.jpg?")
