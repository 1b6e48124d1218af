"""Answers cached under the identity of the objects they were made from.

Fielding (``tactica.units``) caches what a table of many matchups asks again and again
(a unit fielded, an attacker's notes, a target's aim). The engine no longer uses it: a
batch's memo holds each stage's answer under its input record, by value, and the caches
that outlive a run are in ``tactica.cache_registry`` (issue 42). Where the inputs are
objects made once and shared (a frozen datasheet, a fielded target), their identity is a
cheap key; the entry holds the objects, so an identity is not reused for another object
while the entry lives, and a lookup checks it is still theirs. A memo may be bounded:
full, it is emptied before a new entry.

>>> memo = {}
>>> a = [1, 2]
>>> cache_by_identity(memo, ("sum",), (a,), lambda: sum(a))
3
>>> cache_by_identity(memo, ("sum",), (a,), lambda: 0)  # cached: not made again
3
>>> cache_by_identity(memo, ("sum",), ([1, 2],), lambda: -1)  # an equal list, another object
-1
>>> cache_by_identity(memo, ("sum",), ([3],), lambda: 3, limit=2), len(memo)  # emptied first
(3, 1)

``cache_for`` is the same for one object, at half the cost of a call (most callers cache
an answer per one object, hundreds of thousands of times in a table):

>>> cache_for(memo, ("len",), a, lambda: len(a)), cache_for(memo, ("len",), a, lambda: 0)
(2, 2)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import is_
from typing import Any, TypeVar

__all__ = ["cache_by_identity", "cache_for"]

V = TypeVar("V")


def cache_by_identity(memo: dict[Any, Any], key: tuple[Any, ...], objects: Sequence[object],
                      make: Callable[[], V], enough: Callable[[V], bool] | None = None,
                      limit: int | None = None) -> V:
    """``make()``, cached in ``memo`` under ``key`` and the identities of ``objects`` (the
    entry holds them); made again when ``enough`` says the cached one does not do (a
    shorter array than now asked for). With ``limit``, a memo of that many entries is
    emptied before a new one is cached."""
    full = key + tuple(map(id, objects))
    got = memo.get(full)
    # the objects held are as many as the identities in the key: compared in C
    if got is not None and all(map(is_, got[0], objects)) and (
            enough is None or enough(got[1])):
        found: V = got[1]
        return found
    return _keep(memo, full, tuple(objects), make, limit)


def cache_for(memo: dict[Any, Any], key: tuple[Any, ...], obj: object, make: Callable[[], V],
              enough: Callable[[V], bool] | None = None, limit: int | None = None) -> V:
    """``cache_by_identity(memo, key, (obj,), make, enough, limit)`` for one object,
    without building the tuples of identities and comparing them one by one (its entries
    are its own: a memo takes either kind under distinct keys)."""
    full = (*key, id(obj))
    got = memo.get(full)
    if got is not None and got[0] is obj and (enough is None or enough(got[1])):
        found: V = got[1]
        return found
    return _keep(memo, full, obj, make, limit)


def _keep(memo: dict[Any, Any], full: tuple[Any, ...], held: object, make: Callable[[], V],
          limit: int | None) -> V:
    """A new entry ``(held, make())`` under ``full``, the memo emptied first when full."""
    if limit is not None and len(memo) >= limit:
        memo.clear()
    value = make()
    memo[full] = (held, value)
    return value
