"""PHP serialize() values (wp_options, post meta, term meta), parsed defensively.

WordPress stores arrays with PHP's serialize(). The phpserialize library parses them; string
lengths there count UTF-8 bytes, so we hand it bytes. A corrupt value is logged and treated
as absent: a broken option must never take a sitemap down.
"""

from __future__ import annotations

import logging
from typing import Any

import phpserialize

log = logging.getLogger(__name__)


def is_serialized(value: str) -> bool:
    """Whether a stored value looks like PHP serialize() output (WordPress's is_serialized)."""
    text = value.strip()
    if len(text) < 4 or text[1] not in ":;":
        return False
    if text == "N;":
        return True
    return text[0] in "aOsbidC" and text[-1] in ";}"


def _plain(value: Any) -> Any:
    """Turn phpserialize output into plain Python (dicts stay dicts, bytes become str)."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, phpserialize.phpobject):
        return _plain(value._asdict())
    return value


def unserialize(value: str | bytes | None, what: str = "value") -> Any:
    """maybe_unserialize(): parse serialized data, return other text unchanged, None if corrupt."""
    if value is None:
        return None
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    if not is_serialized(text):
        return text
    try:
        parsed = phpserialize.loads(text.encode("utf-8"), decode_strings=False,
                                    object_hook=phpserialize.phpobject)
    except Exception as exc:  # noqa: BLE001 - the library raises ValueError, IndexError, ...
        log.warning("ignoring corrupt serialized %s: %s", what, exc)
        return None
    return _plain(parsed)


def as_dict(value: Any) -> dict[Any, Any]:
    """A parsed PHP array as a dict ({} for anything else)."""
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    """A parsed PHP list (array with keys 0..n-1, or a Python list) as a list."""
    if isinstance(value, list):
        return value
    if isinstance(value, dict):
        return [value[k] for k in sorted(value, key=lambda k: (not isinstance(k, int), str(k)))]
    return []
