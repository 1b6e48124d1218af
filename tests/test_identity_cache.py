"""``tactica.identity_cache``: answers kept under the identity of the objects they were made from.
An entry is found again only for the very objects it was made from (an equal copy is
another object), an identity is never taken for another object while the entry keeps
its own, ``enough`` makes a kept answer again when it does not do, and a bounded memo
is emptied before it grows past its limit. ``cache_for`` behaves as ``kept`` with one
object, and the two never answer for each other."""

from __future__ import annotations

from typing import Any

from tactica.identity_cache import cache_by_identity, cache_for


def test_kept_and_kept_one_answer_alike() -> None:
    made: list[str] = []

    def make(tag: str, value: Any) -> Any:
        made.append(tag)
        return value

    for name, keep in (("many", lambda m, k, o, f, **kw: cache_by_identity(m, k, (o,), f, **kw)),
                       ("one", cache_for)):
        made.clear()
        memo: dict[Any, Any] = {}
        a, copy = [1, 2], [1, 2]
        assert keep(memo, ("k",), a, lambda: make("a", 1)) == 1
        assert keep(memo, ("k",), a, lambda: make("again", 2)) == 1  # kept
        assert keep(memo, ("k",), copy, lambda: make("copy", 3)) == 3  # another object
        assert keep(memo, ("other",), a, lambda: make("other", 4)) == 4  # another key
        assert made == ["a", "copy", "other"], name
        # enough: a kept answer that does not do is made again and kept instead
        assert keep(memo, ("k",), a, lambda: make("more", 5), enough=lambda v: v > 1) == 5
        assert keep(memo, ("k",), a, lambda: make("no", 6)) == 5
        # a limit: the full memo is emptied before a new entry
        full = len(memo)
        assert keep(memo, ("new",), a, lambda: 7, limit=full) == 7
        assert len(memo) == 1, name


def test_a_dead_objects_identity_is_not_its_answer() -> None:
    """The entry keeps its objects alive, so their identities are not reused; an entry
    whose identities were somehow another object's (a stale key) is not answered."""
    memo: dict[Any, Any] = {}
    a = [1]
    cache_for(memo, ("k",), a, lambda: "a")
    ((key, (held, _)),) = memo.items()
    assert held is a and key == ("k", id(a))
    b = [2]
    memo[("k", id(b))] = (a, "stale")  # the identity of b, the object a
    assert cache_for(memo, ("k",), b, lambda: "b") == "b"
    memo2: dict[Any, Any] = {}
    memo2[("k", id(b))] = ((a,), "stale")
    assert cache_by_identity(memo2, ("k",), (b,), lambda: "b") == "b"
