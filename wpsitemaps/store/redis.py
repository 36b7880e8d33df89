"""The shared back end: one Redis hash per document, so several app hosts share one store.

redis-py is the client (well kept, the reference client). cachelib's RedisCache was
evaluated for issue #13 and not used: it pickles values (a process that can write to the
shared Redis could then run code on every app host), and stores one opaque value per key,
so a conditional request would have to load the whole page to learn its ETag. Here a hash
holds `head` (the JSON header line: fingerprint, ETag, dates, length, SHA-256), `body` and
`checked` (time of the last revalidation); HMGET reads the head alone.

Writes are one MULTI/EXEC (HSET of every field plus EXPIRE), so readers see a whole record
or none. The size is bounded by the expiry (twice `cache_ttl` plus `stale_if_error`: a record
older than that is never served, not even while the database fails) and by the server's own
`maxmemory` policy. Timeouts are short: when Redis is slow or down, pages are rendered
without the store (serving.pagestore).
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

import redis
from redis.exceptions import RedisError

from wpsitemaps.store.base import HEAD_LIMIT
from wpsitemaps.store.base import MAX_BODY
from wpsitemaps.store.base import Record
from wpsitemaps.store.base import StoreError
from wpsitemaps.store.base import body_ok
from wpsitemaps.store.base import parse_head
from wpsitemaps.store.base import record_from
from wpsitemaps.store.base import stamp

log = logging.getLogger(__name__)
TIMEOUT = 0.5  # seconds: a page rendered without the store beats a page waiting for Redis
# HSET 'checked' only on an existing record (a touch must not create a record without body).
TOUCH = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  return redis.call('HSET', KEYS[1], 'checked', ARGV[1])
end
return 0
"""

# HMGET of a record's fields, nothing when its head or body is longer than any the store
# writes (ARGV[1], ARGV[2]; no body asked for when ARGV[2] is empty): every read is bounded,
# whatever the hash holds.
READ = """
if redis.call('HSTRLEN', KEYS[1], 'head') > tonumber(ARGV[1]) then
  return false
end
if ARGV[2] == '' then
  return redis.call('HMGET', KEYS[1], 'head', 'checked')
end
if redis.call('HSTRLEN', KEYS[1], 'body') > tonumber(ARGV[2]) then
  return false
end
return redis.call('HMGET', KEYS[1], 'head', 'checked', 'body')
"""

# DEL a lease only when it still holds the holder's token (it may have run out and been
# taken by another host meanwhile).
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""

# PEXPIRE a lease only while it holds this holder's token: a lease that ran out and was
# taken by another host is not extended by its former holder.
RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""

# A counter set (issue #26): HINCRBY each counter, HSET each mark, and `gen` (ARGV[3]) when
# the hash is new; its expiry renewed (ARGV[1] seconds). ARGV[2]: how many counters follow.
BUMP = """
redis.call('HSETNX', KEYS[1], 'gen', ARGV[3])
local n = tonumber(ARGV[2])
for i = 4, 3 + n do
  redis.call('HINCRBY', KEYS[1], ARGV[i], 1)
end
for i = 4 + n, #ARGV, 2 do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
end
redis.call('EXPIRE', KEYS[1], ARGV[1])
return 1
"""

# Read a counter set, made (with a new `gen`, ARGV[2]) when missing.
COUNTERS = """
if redis.call('HSETNX', KEYS[1], 'gen', ARGV[2]) == 1 then
  redis.call('EXPIRE', KEYS[1], ARGV[1])
end
return redis.call('HMGET', KEYS[1], 'gen', unpack(ARGV, 3))
"""

# HDEL the fields that still hold the given values (ARGV: field, value, field, value...).
DROP = """
local n = 0
for i = 1, #ARGV, 2 do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[i + 1] then
    n = n + redis.call('HDEL', KEYS[1], ARGV[i])
  end
end
return n
"""


class RedisStore:
    """Documents as Redis hashes under their key."""

    def __init__(self, url: str, ttl: int) -> None:
        self.url = url
        self.ttl = ttl
        self.client: Any = redis.Redis.from_url(url, socket_timeout=TIMEOUT,
                                                socket_connect_timeout=TIMEOUT)
        self._touch = self.client.register_script(TOUCH)
        self._read = self.client.register_script(READ)
        self._release = self.client.register_script(RELEASE)
        self._renew = self.client.register_script(RENEW)
        self._bump = self.client.register_script(BUMP)
        self._counters = self.client.register_script(COUNTERS)
        self._drop = self.client.register_script(DROP)

    def describe(self) -> str:
        """The server, without a password."""
        kwargs = self.client.connection_pool.connection_kwargs
        where = kwargs.get("path") or f"{kwargs.get('host')}:{kwargs.get('port')}"
        return f"redis {where} db {kwargs.get('db', 0)}"

    def head(self, key: str) -> Record | None:
        """The header and the revalidation time (HMGET, bounded)."""
        found = self._call(self._read, keys=[key], args=[HEAD_LIMIT, ""])
        head, checked = found or (None, None)
        meta = parse_head(head) if head else None
        return record_from(meta, None, stamp(checked)) if meta else None

    def get(self, key: str) -> Record | None:
        """The whole record, verified against its header."""
        found = self._call(self._read, keys=[key], args=[HEAD_LIMIT, MAX_BODY])
        head, checked, body = found or (None, None, None)
        meta = parse_head(head) if head else None
        if meta is None or body is None or not body_ok(meta, body):
            return None
        return record_from(meta, bytes(body), stamp(checked))

    def put(self, key: str, record: Record, body: bytes) -> None:
        """Replace the record in one transaction, with its expiry (a body larger than any
        record holds is not stored: it could not be read)."""
        if len(body) > MAX_BODY:
            log.info("store: %s is %d bytes, more than a record holds: not stored", key,
                     len(body))
            return
        def write() -> None:
            pipe = self.client.pipeline(transaction=True)
            pipe.delete(key)
            pipe.hset(key, mapping={"head": record.head_bytes(body), "body": body,
                                    "checked": repr(record.rendered_at)})
            pipe.expire(key, self.ttl)
            pipe.execute()

        self._call(write)

    def touch(self, key: str, when: float) -> None:
        """Set `checked` on an existing record."""
        self._call(self._touch, keys=[key], args=[repr(when)])

    def claim(self, key: str, token: str, seconds: float) -> bool:
        """SET NX with an expiry: one host wins; a holder that stops renewing runs out."""
        return bool(self._call(self.client.set, key, token, nx=True, px=_ms(seconds)))

    def renew(self, key: str, token: str, seconds: float) -> bool:
        """PEXPIRE the lease if `token` still holds it (one Lua call: compare and set)."""
        return bool(self._call(self._renew, keys=[key], args=[token, _ms(seconds)]))

    def release(self, key: str, token: str) -> None:
        """Delete the lease if `token` still holds it."""
        self._call(self._release, keys=[key], args=[token])

    def holder(self, key: str) -> str | None:
        """The token in the lease key (Redis drops it when it runs out)."""
        got = self._call(self.client.get, key)
        return bytes(got).decode(errors="replace") if got is not None else None

    def bump(self, key: str, names: Sequence[str], marks: Mapping[str, int]) -> None:
        """HINCRBY the counters and HSET the marks in one script (atomic)."""
        flat = [str(v) for item in marks.items() for v in item]
        self._call(self._bump, keys=[key],
                   args=[self.ttl, len(names), secrets.randbits(52), *names, *flat])

    def counters(self, key: str, names: Sequence[str]) -> dict[str, int]:
        """HMGET the counters and `gen` (the hash made when missing)."""
        got = self._call(self._counters, keys=[key],
                         args=[self.ttl, secrets.randbits(52), *names]) or []
        try:
            values = [int(v) if v is not None else 0 for v in got]
        except ValueError:
            raise StoreError(f"{key} holds a counter that is not a number") from None
        found = dict(zip(names, values[1:], strict=False))
        found["gen"] = values[0] if values else 0
        return found

    def fields(self, key: str) -> dict[str, str]:
        """HGETALL of a map (maps never expire: they hold state, not copies)."""
        found = self._call(self.client.hgetall, key) or {}
        return {bytes(k).decode(errors="replace"): bytes(v).decode(errors="replace")
                for k, v in found.items()}

    def set_fields(self, key: str, values: Mapping[str, str], only_new: bool = False) -> None:
        """HSET, or HSETNX per field when `only_new`, in one transaction."""
        if not values:
            return

        def write() -> None:
            pipe = self.client.pipeline(transaction=True)
            if only_new:
                for name, value in values.items():
                    pipe.hsetnx(key, name, value)
            else:
                pipe.hset(key, mapping=dict(values))
            pipe.execute()

        self._call(write)

    def drop_fields(self, key: str, values: Mapping[str, str]) -> int:
        """HDEL the fields still holding these values (one Lua call)."""
        if not values:
            return 0
        args = [part for pair in values.items() for part in pair]
        return int(self._call(self._drop, keys=[key], args=args))

    def check(self) -> None:
        """PING, then write, read and delete a probe record."""
        key = f"wpsitemaps-probe/{time.time_ns()}"
        try:
            self.put(key, Record("probe", "probe", time.time(), None), b"probe")
            ok = self.get(key)
            self._call(self.client.delete, key)
        except StoreError as exc:
            raise StoreError(f"{self.describe()} is not usable: {exc}") from None
        if ok is None or ok.body != b"probe":
            raise StoreError(f"{self.describe()} does not give back what was written")

    def _call(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """Run a Redis call; any Redis failure becomes StoreError."""
        try:
            return fn(*args, **kwargs)
        except RedisError as exc:
            raise StoreError(f"{exc.__class__.__name__}: {exc}") from exc


def _ms(seconds: float) -> int:
    """A lease term in milliseconds (at least 1)."""
    return max(int(seconds * 1000), 1)
