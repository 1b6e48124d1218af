"""The in-memory caches that outlive a run, in one registry with one ``clear()``.

A run (a ``calculate_many`` call, a meta partition, a plan) keeps what it shares in a
memo of its own, made by the run and dropped with it. What must live longer (an
answer that depends on a value alone, the same in every run: a die's distribution, a
weapon line's abilities sorted by kind) is cached by value, on hashable inputs
(``functools.lru_cache``), and registered here, so a test or a benchmark can start cold
with one call (issue 42: caches by value).

>>> @lasting_cache(maxsize=8)
... def square(x: int) -> int:
...     return x * x
>>> square(3), square.cache_info().currsize
(9, 1)
>>> clear(); square.cache_info().currsize
0
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

__all__ = ["clear", "lasting_cache", "register", "registered"]

F = TypeVar("F", bound=Callable[..., Any])


class Clearable(Protocol):
    """A cache with ``cache_clear`` (``functools.lru_cache``'s wrapper)."""

    def cache_clear(self) -> None: ...


_CACHES: list[Clearable] = []


def register(cache: Clearable) -> None:
    """Add ``cache`` to the caches ``clear()`` empties (once, however often registered)."""
    if not any(c is cache for c in _CACHES):
        _CACHES.append(cache)


def lasting_cache(maxsize: int | None = 4096) -> Callable[[F], F]:
    """``functools.lru_cache(maxsize)``, registered: for a pure function of hashable
    values whose answers are themselves immutable (shared by every caller)."""
    def wrap(fn: F) -> F:
        cached = functools.lru_cache(maxsize=maxsize)(fn)
        register(cached)
        return cached  # type: ignore[return-value]
    return wrap


def registered() -> tuple[Clearable, ...]:
    """Every registered cache, in the order registered."""
    return tuple(_CACHES)


def clear() -> None:
    """Empty every registered cache (a cold start: nothing computed before is reused)."""
    for cache in _CACHES:
        cache.cache_clear()
