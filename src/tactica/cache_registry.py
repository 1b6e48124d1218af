"""The in-memory caches that outlive a run, in one registry with one ``clear()``.

A run (a ``calculate_many`` call, a meta partition, a plan) keeps what it shares in a
memo of its own, made by the run and dropped with it. What must live longer (an
answer that depends on a value alone, the same in every run: a die's distribution, a
weapon line's abilities sorted by kind) is cached by value, on hashable inputs
(``functools.lru_cache``), and registered here, so a test or a benchmark can start cold
with one call (issue 42: caches by value).

Two kinds: ``"answers"``, numbers and texts computed from values (the engine's dice,
loss tables, packet matrices; a line's abilities by kind), and ``"data"``, what is
loaded (the library, the bundled dataset, the presets), which ``clear("answers")``
leaves alone (loading the library again takes seconds, and an answer never depends on
which load of the same data it was computed from).

>>> @lasting_cache(maxsize=8)
... def square(x: int) -> int:
...     return x * x
>>> square(3), square.cache_info().currsize
(9, 1)
>>> clear("answers"); square.cache_info().currsize
0
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Literal, Protocol, TypeVar

__all__ = ["Kind", "LastingMemo", "clear", "lasting_cache", "register", "registered"]

F = TypeVar("F", bound=Callable[..., Any])
K = TypeVar("K")
V = TypeVar("V")
#: What a cache holds: answers computed from values, or data loaded.
Kind = Literal["answers", "data"]


class Clearable(Protocol):
    """A cache with ``cache_clear`` (``functools.lru_cache``'s wrapper)."""

    def cache_clear(self) -> None: ...


_CACHES: list[tuple[Clearable, Kind]] = []


def register(cache: Clearable, kind: Kind = "answers") -> None:
    """Add ``cache`` to the caches ``clear()`` empties (once, however often registered)."""
    if not any(c is cache for c, _ in _CACHES):
        _CACHES.append((cache, kind))


def lasting_cache(maxsize: int | None = 4096, kind: Kind = "answers") -> Callable[[F], F]:
    """``functools.lru_cache(maxsize)``, registered: for a pure function of hashable
    values whose answers are themselves immutable (shared by every caller)."""
    def wrap(fn: F) -> F:
        cached = functools.lru_cache(maxsize=maxsize)(fn)
        register(cached, kind)
        return cached  # type: ignore[return-value]
    return wrap


_MISSING: Any = object()


class LastingMemo(dict[K, V]):
    """A dict of answers kept under hashable values (their inputs' records), registered,
    bounded: full, it is emptied before a new entry. For what ``lasting_cache`` cannot
    key: an answer made from the key's values by a function that also takes what the key
    stands for (the library a datasheet came from) or whose arguments include what is
    not its input (a callback).

    >>> memo: LastingMemo[tuple[int, int], int] = LastingMemo(2)
    >>> memo.cached((1, 2), lambda: 3), memo.cached((1, 2), lambda: 0)
    (3, 3)
    >>> memo.cached((2, 2), lambda: 4), memo.cached((3, 3), lambda: 6), len(memo)
    (4, 6, 1)
    >>> clear("answers"); len(memo)
    0
    """

    def __init__(self, limit: int, kind: Kind = "answers") -> None:
        super().__init__()
        self.limit = limit
        register(self, kind)

    def cached(self, key: K, make: Callable[[], V]) -> V:
        """The answer kept under ``key``, else ``make()``, kept (the memo emptied first
        when full)."""
        got = self.get(key, _MISSING)
        if got is not _MISSING:
            return got  # type: ignore[no-any-return]
        value = make()
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value

    def cache_clear(self) -> None:
        self.clear()


def registered(*kinds: Kind) -> tuple[Clearable, ...]:
    """The registered caches of ``kinds`` (all, when none is named), in the order
    registered."""
    return tuple(c for c, k in _CACHES if not kinds or k in kinds)


def clear(*kinds: Kind) -> None:
    """Empty the registered caches of ``kinds`` (every one, when none is named): a cold
    start, nothing computed before is reused."""
    for cache in registered(*kinds):
        cache.cache_clear()
