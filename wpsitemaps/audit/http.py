"""HTTP for `wpsitemaps audit`: one host only, no redirects followed, timeouts, size caps.

urllib from the standard library is enough: one GET at a time per thread, no sessions.
Proxies from the environment are ignored (a proxy would be another host), and a redirect
is reported, never followed.
"""

from __future__ import annotations

import urllib.error
import urllib.request
import zlib
from dataclasses import dataclass
from dataclasses import field
from email.message import Message
from typing import Any
from typing import NoReturn
from urllib.parse import urlsplit

USER_AGENT = "wpsitemaps-audit/1 (+https://github.com/)"
DEFAULT_PORTS = {"http": 80, "https": 443}


class OffHost(ValueError):
    """A URL on another scheme or host than the audited site: never fetched."""


@dataclass
class Fetched:
    """The outcome of one GET: a status and headers, or an error text."""

    url: str
    status: int = 0
    headers: Message = field(default_factory=Message)
    body: bytes = b""
    error: str | None = None
    truncated: bool = False


def origin(url: str) -> tuple[str, str, int]:
    """(scheme, host, port) with the default port filled in, for same-origin checks."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port or DEFAULT_PORTS.get(scheme, 0)
    except ValueError:
        port = -1
    return scheme, (parts.hostname or "").lower(), port


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Make every 3xx an HTTPError, so the caller sees it and nothing is followed."""

    def redirect_request(self, req: Any, fp: Any, code: int, msg: str, headers: Any,
                         newurl: str) -> NoReturn:
        """Refuse to build the follow-up request."""
        raise urllib.error.HTTPError(req.full_url, code, msg, headers, fp)


class HostFetcher:
    """GETs limited to the origin of `base`, with a timeout and a body size cap."""

    def __init__(self, base: str, timeout: float) -> None:
        self.origin = origin(base)
        self.timeout = timeout
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}),
                                                   _NoRedirect())

    def allowed(self, url: str) -> bool:
        """Whether `url` is on the audited scheme, host and port."""
        return origin(url) == self.origin

    def get(self, url: str, limit: int) -> Fetched:
        """GET `url` (gzip accepted, decoded here); at most `limit` decoded bytes are kept."""
        if not self.allowed(url):
            raise OffHost(url)
        req = urllib.request.Request(url, headers={"User-Agent": USER_AGENT,
                                                   "Accept-Encoding": "gzip"})
        try:
            with self._opener.open(req, timeout=self.timeout) as resp:
                return self._read(url, resp.status, resp.headers, resp, limit)
        except urllib.error.HTTPError as exc:
            with exc:
                return self._read(url, exc.code, exc.headers, exc, limit)
        except (urllib.error.URLError, OSError, ValueError) as exc:
            reason = getattr(exc, "reason", exc)
            return Fetched(url, error=f"{exc.__class__.__name__}: {reason}")

    def _read(self, url: str, status: int, headers: Message, stream: Any,
              limit: int) -> Fetched:
        """Read and gzip-decode a body, stopping one byte past `limit`."""
        try:
            raw = stream.read(limit + 1) if stream is not None else b""
            if (headers.get("Content-Encoding") or "").strip().lower() in ("gzip", "x-gzip"):
                raw = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(raw, limit + 1)
        except (OSError, zlib.error) as exc:
            return Fetched(url, status, headers, error=f"cannot read body: {exc}")
        return Fetched(url, status, headers, raw[:limit], truncated=len(raw) > limit)
