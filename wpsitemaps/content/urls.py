"""URL hygiene for output: percent-encoding, absolute resolution, host checks.

WordPress hands us URLs that are already percent-encoded (permalinks) or raw UTF-8 (upload
file names, URLs typed into content). Sitemaps need RFC 3986 URLs, so characters outside
the allowed set are percent-encoded as UTF-8 while existing %XX escapes are kept; encoding
twice never changes a URL.
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import quote
from urllib.parse import urljoin
from urllib.parse import urlsplit

# RFC 3986 unreserved + reserved + '%' (existing escapes are kept as they are).
_SAFE = "-._~:/?#[]@!$&'()*+,;=%"
_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")
_AUTHORITY = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*")
MAX_URL_LENGTH = 2048


# A URL with nothing to encode: ASCII letters, digits and the RFC 3986 characters that stay
# as they are (no '%', no brackets, no space). Most URLs of a page are like this, and
# returning them at once saves the regex, quote() and the authority match (issue #13).
_NOTHING_TO_ENCODE = re.compile(r"[A-Za-z0-9\-._~:/?#@!$&'()*+,;=]*")


def encode_url(url: str) -> str:
    """Percent-encode what RFC 3986 does not allow in a URL, keeping existing escapes."""
    if _NOTHING_TO_ENCODE.fullmatch(url):
        return url
    url = _BAD_ESCAPE.sub("%25", url.strip())
    # errors="replace": a lone surrogate (broken UTF-8 from a lax database) becomes '?'.
    url = quote(url, safe=_SAFE, encoding="utf-8", errors="replace")
    # '[' and ']' belong only around an IPv6 host (RFC 3986 3.2.2); in a path, query or
    # fragment they make the URL an invalid xs:anyURI, so they are escaped there.
    authority = _AUTHORITY.match(url)
    head = authority.group(0) if authority else ""
    return head + url[len(head):].replace("[", "%5B").replace("]", "%5D")


def absolute(src: str, home: str) -> str:
    """Resolve a src/href against the home URL (RFC 3986: '/x' against the origin).

    Raises ValueError for malformed URLs (e.g. 'http://[::1'), as urljoin does.
    """
    src = src.strip()
    host = _JOINS_TO_ITSELF.match(src)
    if host is not None and host[1].isascii() and not _JOIN_CHANGES.search(src):
        return src  # what urljoin() gives for it, without parsing it twice (issue #13)
    base = home if home.endswith("/") else home + "/"
    return urljoin(base, src)


# An absolute http(s) URL comes back from urljoin() as urlunparse(urlparse(url)): the same
# string unless the scheme is not lower case (matched here only in lower case), it holds
# a tab or line break (removed), an empty query, fragment or ;params (dropped), a bracket
# (an IPv6 host, checked, or an error) or a non-ASCII host (one invalid under NFKC is an
# error; non-ASCII in the path, query or fragment is left as it is). tests/test_urls.py
# holds the shortcut to urljoin().
_JOINS_TO_ITSELF = re.compile(r"https?://([^/?#]+)")
_JOIN_CHANGES = re.compile(r"[\t\r\n\[\];]|\?(?:#|$)|#$")


@lru_cache(maxsize=1024)
def host_key(url: str) -> str:
    """Host for same-site checks: lower case, without a leading 'www.'."""
    return netloc_host_key(urlsplit(url).netloc)


@lru_cache(maxsize=1024)
def netloc_host_key(netloc: str) -> str:
    """host_key() of a URL with this authority (cached per host: a page's images share a
    few hosts, not URLs)."""
    host = (urlsplit("//" + netloc).hostname or "").lower()
    return host[4:] if host.startswith("www.") else host


def same_host(url: str, home: str) -> bool:
    """Whether url is on the site's host (ignoring www. and scheme)."""
    key = host_key(url)
    return bool(key) and key == host_key(home)


_ABSOLUTE_HTTP = re.compile(r"https?://[^/?#]", re.I)


def is_listable(url: str) -> bool:
    """An absolute http(s) URL that fits a sitemap <loc> (at most 2,048 characters).

    A prefix check rather than urlsplit(): it runs for every URL and image of a page, and
    urlsplit()'s scheme and netloc rules come down to the same thing here.
    """
    return len(url) <= MAX_URL_LENGTH and _ABSOLUTE_HTTP.match(url) is not None
