"""Work kept in a batch's memo under the identity of the objects it was made from.

A batch (``batch.figures_each``) keeps what recurs between its scenarios in one memo.
Where the inputs are arrays or records the memo itself holds once per content (a line's
totals, a packet's matrix, a die), their identity is a cheap key for their content; the
entry keeps the objects, so an identity is not reused for another object while the memo
lives, and a lookup checks it is still theirs.

>>> memo = {}
>>> a = [1, 2]
>>> kept(memo, ("sum",), (a,), lambda: sum(a))
3
>>> kept(memo, ("sum",), (a,), lambda: 0)  # kept: not made again
3
>>> kept(memo, ("sum",), ([1, 2],), lambda: -1)  # an equal list, another object
-1
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

__all__ = ["kept"]

V = TypeVar("V")


def kept(memo: dict[Any, Any], key: tuple[Any, ...], objects: Sequence[object],
         make: Callable[[], V], enough: Callable[[V], bool] | None = None) -> V:
    """``make()``, kept in ``memo`` under ``key`` and the identities of ``objects`` (the
    entry keeps them); made again when ``enough`` says the kept one does not do (a
    shorter array than now asked for)."""
    full = (*key, *map(id, objects))
    got = memo.get(full)
    if (got is None or any(a is not b for a, b in zip(got[0], objects, strict=True))
            or (enough is not None and not enough(got[1]))):
        got = memo[full] = (tuple(objects), make())
    value: V = got[1]
    return value
