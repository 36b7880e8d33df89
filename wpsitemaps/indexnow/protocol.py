"""The IndexNow protocol (indexnow.org/documentation): the key, the request, its answer."""

from __future__ import annotations

import json
import re
import secrets
import urllib.error
import urllib.request
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

KEY_RE = re.compile(r"[A-Za-z0-9-]{8,128}")
MAX_URLS = 10_000  # per request (the protocol's limit)
TIMEOUT = 10.0  # seconds an endpoint may take (the submitter runs in its own thread)
DONE = frozenset({200, 202})
# The endpoint refused the request as such (a bad key, a key file it cannot read, URLs of
# another host): sending it again changes nothing until the configuration does.
REFUSED = frozenset({400, 403, 422})


def valid_key(key: str) -> bool:
    """Whether `key` is one the protocol accepts: 8 to 128 of [A-Za-z0-9-]."""
    return KEY_RE.fullmatch(key) is not None


def new_key() -> str:
    """A fresh random key (32 hex digits)."""
    return secrets.token_hex(16)


def key_location(scheme: str, host: str, key: str) -> str:
    """Where the key file of `host` is served: at the host's root, so it covers every URL
    of the host."""
    return f"{scheme}://{host}/{key}.txt"


def chunks(urls: Sequence[str], size: int = MAX_URLS) -> Iterator[Sequence[str]]:
    """`urls` in requests of at most `size`."""
    for start in range(0, len(urls), size):
        yield urls[start:start + size]


@dataclass(frozen=True)
class Answer:
    """What an endpoint answered: its status (0: no answer) and a short reason."""

    status: int
    reason: str
    retry_after: float | None = None  # seconds a 429 or 503 asked us to wait (Retry-After)

    @property
    def done(self) -> bool:
        """Accepted (200, 202: the URLs are delivered)."""
        return self.status in DONE

    @property
    def refused(self) -> bool:
        """Refused for good until the configuration changes (400, 403, 422)."""
        return self.status in REFUSED


A = TypeVar("A", bound="Answer")


def post(endpoint: str, host: str, key: str, location: str, urls: Sequence[str],
         timeout: float = TIMEOUT) -> Answer:
    """POST {host, key, keyLocation, urlList} as JSON to `endpoint`."""
    body = json.dumps({"host": host, "key": key, "keyLocation": location,
                       "urlList": list(urls)}).encode()
    return send(endpoint, body, "application/json; charset=utf-8", Answer, timeout)


def send(url: str, body: bytes, content_type: str, answer: type[A],
         timeout: float = TIMEOUT) -> A:
    """POST `body` to `url`; its status (0 when nothing answered) as `answer` (IndexNow's and
    WebSub hubs' answers differ only in what they count as done or refused)."""
    request = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": content_type, "User-Agent": "wpsitemaps"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            return answer(response.status, response.reason or "")
    except urllib.error.HTTPError as exc:
        return answer(exc.code, str(exc.reason or ""), retry_after(exc.headers.get("Retry-After")))
    except (urllib.error.URLError, OSError, ValueError) as exc:
        return answer(0, f"{exc.__class__.__name__}: {getattr(exc, 'reason', exc)}")


def retry_after(value: str | None) -> float | None:
    """A Retry-After given in seconds (an HTTP date is ignored: the back-off applies)."""
    try:
        return max(0.0, float(value)) if value else None
    except ValueError:
        return None
