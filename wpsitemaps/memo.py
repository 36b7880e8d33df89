"""`memoized`: functools.cached_property without its lock (Python 3.12's behaviour).

On Python 3.11 cached_property takes one lock per decorated attribute, shared by every
instance: while one thread computes `Provider.bounds` (a background refresh waiting on a
locked table, or on another worker's lease), every other thread reading the `bounds` of any
provider of any site waits with it (issue #22: every document down until gunicorn killed the
worker). The objects memoizing here are built per request, used by one thread, and the few
shared ones (wp_options values) compute pure functions: two threads computing the same value
at once cost less than a lock every request queues on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from typing import Generic
from typing import TypeVar
from typing import overload

T = TypeVar("T")


class memoized(Generic[T]):
    """A property computed on first read and kept in the instance's __dict__."""

    def __init__(self, func: Callable[[Any], T]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> memoized[T]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> T: ...

    def __get__(self, instance: object | None, owner: type | None = None) -> T | memoized[T]:
        if instance is None:
            return self
        value = self.func(instance)
        instance.__dict__[self.name] = value  # later reads find it there: no descriptor call
        return value
