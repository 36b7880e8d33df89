"""Signed notifications from the companion plugin (issue #26): parse and verify, nothing else.

The plugin (wordpress/wpsitemaps-notify.php) posts, at the end of a request that changed
something, one small JSON body with two headers:

    X-WPSitemaps-Timestamp: 1764655200            (Unix seconds when it was sent)
    X-WPSitemaps-Signature: sha256=<hex>          (HMAC-SHA256 of "<timestamp>.<body>")

    {"v": 1, "nonce": "9f3c...", "blog_id": 1,
     "changes": [{"kind": "post", "id": 12, "type": "post"},
                 {"kind": "term", "id": 5, "taxonomy": "category"},
                 {"kind": "user", "id": 3}, {"kind": "option", "name": "home"},
                 {"kind": "site"}]}

The signature binds the timestamp to the body (as Stripe's and Slack's webhooks do), so a
captured notification cannot be re-dated; a timestamp further than `max_skew` from now is
refused, and a nonce seen within that window is refused, so it cannot be replayed either.
The nonce is remembered only after the signature verified: nobody without the secret can
fill the memory. Where nonces are remembered (the page store, shared by every worker and
host, or this process) is the caller's `NonceMemory`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from typing import Protocol

from wpsitemaps.changes.model import Change

TIMESTAMP_HEADER = "X-WPSitemaps-Timestamp"
SIGNATURE_HEADER = "X-WPSitemaps-Signature"
# Clocks of two hosts a few seconds apart, plus a slow queue: 5 minutes, as Slack allows.
MAX_SKEW = 300.0
# A request that changed thousands of objects sends {"kind": "site"} instead (the plugin's
# own cap is lower); anything larger is not from the plugin.
MAX_BODY = 256 * 1024
MAX_CHANGES = 5000
_NONCE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
_NAME = re.compile(r"^[\x21-\x7e]{1,191}$")  # option names, post types, taxonomies: no spaces


class NotifyError(Exception):
    """A notification refused; `status` is the HTTP answer the route gives."""

    status = 400


class Unsigned(NotifyError):
    """No signature, a wrong one, or a timestamp that is not a number."""

    status = 401


class Refused(NotifyError):
    """Correctly signed, but stale or already seen (a replay)."""

    status = 403


class Malformed(NotifyError):
    """Correctly signed, but not a notification this version understands."""

    status = 400


class NonceMemory(Protocol):
    """Remembers nonces for a while; shared by every worker when it lives in the store."""

    def first_time(self, nonce: str, seconds: float) -> bool:
        """True the first time `nonce` is offered within `seconds`, False afterwards."""


class LocalNonces:
    """Nonces remembered in this process: enough for one worker, not for several."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._seen: dict[str, float] = {}
        self._lock = threading.Lock()

    def first_time(self, nonce: str, seconds: float) -> bool:
        """Remember `nonce` until `seconds` from now; forget the ones that ran out."""
        now = self._clock()
        with self._lock:
            if len(self._seen) > 1000:
                self._seen = {n: t for n, t in self._seen.items() if t > now}
            if self._seen.get(nonce, 0.0) > now:
                return False
            self._seen[nonce] = now + seconds
            return True


@dataclass(frozen=True)
class Verifier:
    """Checks notifications against the shared secret."""

    secret: bytes
    nonces: NonceMemory
    max_skew: float = MAX_SKEW
    clock: Callable[[], float] = time.time

    def verify(self, timestamp: str | None, signature: str | None, body: bytes) -> list[Change]:
        """The changes of a correctly signed, fresh, first-seen notification; NotifyError
        (with its HTTP status) otherwise."""
        if not timestamp or not signature:
            raise Unsigned("missing signature headers")
        if not timestamp.isascii() or not timestamp.isdigit() or len(timestamp) > 12:
            raise Unsigned("the timestamp is not Unix seconds")
        if not hmac.compare_digest(signature.strip().encode(), sign(self.secret, timestamp,
                                                                     body).encode()):
            raise Unsigned("the signature does not match")
        sent = int(timestamp)
        if abs(self.clock() - sent) > self.max_skew:
            raise Refused(f"stale: sent {sent}, more than {self.max_skew:.0f}s from now")
        data = _json(body)
        nonce = data.get("nonce")
        if not isinstance(nonce, str) or not _NONCE.match(nonce):
            raise Malformed("nonce: 16 to 64 letters, digits, '-' or '_'")
        changes = parse_changes(data, float(sent))
        # Twice the skew: a timestamp accepted up to max_skew in the future stays fresh for
        # 2 x max_skew, and its nonce must outlive that.
        if not self.nonces.first_time(nonce, 2 * self.max_skew):
            raise Refused("replayed: this nonce was already seen")
        return changes


def sign(secret: bytes, timestamp: str, body: bytes) -> str:
    """The signature header's value for `body` sent at `timestamp`."""
    mac = hmac.new(secret, timestamp.encode("ascii") + b"." + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def _json(body: bytes) -> dict[str, Any]:
    """The body as a JSON object of version 1."""
    if len(body) > MAX_BODY:
        raise Malformed(f"body over {MAX_BODY} bytes")
    try:
        data = json.loads(body)
    except (UnicodeDecodeError, ValueError):
        raise Malformed("the body is not JSON") from None
    if not isinstance(data, dict) or data.get("v") != 1:
        raise Malformed('expected a JSON object with "v": 1')
    return data


def parse_changes(data: dict[str, Any], sent: float) -> list[Change]:
    """The notification's changes, each stamped with the time it was sent."""
    blog_id = _int(data.get("blog_id", 1), "blog_id")
    if blog_id < 1:
        raise Malformed("blog_id: 1 or more")
    items = data.get("changes")
    if not isinstance(items, list) or len(items) > MAX_CHANGES:
        raise Malformed(f"changes: a list of at most {MAX_CHANGES}")
    out: list[Change] = []
    for item in items:
        if not isinstance(item, dict):
            raise Malformed("changes: each change is an object")
        out.append(_change(item, blog_id, sent))
    return out


def _change(item: dict[str, Any], blog_id: int, sent: float) -> Change:
    """One change of the wire format."""
    kind = item.get("kind")
    try:
        if kind == "post":
            return Change("post", _int(item.get("id"), "id"), post_type=_name(item, "type"),
                          blog_id=blog_id, seen_at=sent)
        if kind == "term":
            return Change("term", _int(item.get("id"), "id"),
                          taxonomy=_name(item, "taxonomy"), blog_id=blog_id, seen_at=sent)
        if kind == "user":
            return Change("user", _int(item.get("id"), "id"), blog_id=blog_id, seen_at=sent)
        if kind == "option":
            name = _name(item, "name")
            if name is None:
                raise Malformed("an option change names its option")
            return Change("option", option=name, blog_id=blog_id, seen_at=sent)
        if kind == "site":
            return Change("site", blog_id=blog_id, seen_at=sent)
    except ValueError as exc:  # Change's own checks (ids >= 0, blog_id >= 1)
        raise Malformed(str(exc)) from None
    raise Malformed(f"unknown change kind {kind!r}")


def _int(value: Any, what: str) -> int:
    """A JSON integer (not a bool, not a string)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise Malformed(f"{what}: expected an integer")
    return value


def _name(item: dict[str, Any], key: str) -> str | None:
    """An optional printable ASCII name (post type, taxonomy, option)."""
    value = item.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not _NAME.match(value):
        raise Malformed(f"{key}: expected a name of printable ASCII")
    return value
