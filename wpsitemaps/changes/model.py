"""The vocabulary every change source speaks (issue #26).

A `Change` names one WordPress object that changed, by the identity WordPress gives it:
a post by its ID (and type, when the source knows it), a term by its term_taxonomy_id and
taxonomy, a user by ID, an option by name, or the whole site. Sources report what they
see; they do not decide which sitemap documents depend on it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from typing import Literal
from typing import Protocol

Kind = Literal["post", "term", "user", "option", "site"]
KINDS: tuple[Kind, ...] = ("post", "term", "user", "option", "site")


@dataclass(frozen=True)
class Change:
    """One changed object of one site of the database (blog_id 1 outside a network)."""

    kind: Kind
    object_id: int = 0
    # What the source knows besides the identity; None when it does not know.
    post_type: str | None = None
    taxonomy: str | None = None
    option: str | None = None
    blog_id: int = 1
    # When the source saw it (wall clock, seconds): the lag the stream reports.
    seen_at: float = field(default_factory=time.time, compare=False)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown change kind {self.kind!r}")
        if self.object_id < 0 or self.blog_id < 1:
            raise ValueError("object_id must be >= 0 and blog_id >= 1")


class ChangeSink(Protocol):
    """Where a source hands what it saw: the service, or a test's recorder."""

    def apply_changes(self, changes: Sequence[Change], source: str) -> None: ...


@dataclass(frozen=True)
class SourceHealth:
    """What `check`, the logs and the metrics say of one source."""

    name: str
    healthy: bool
    # Seconds between the newest change's commit (or send) and its arrival; None before one.
    lag: float | None = None
    last_event_at: float | None = None
    detail: str = ""
