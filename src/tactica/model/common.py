"""Shared pieces of every record: the rules version and where the record came from
(records made without validation: ``model.trusted``)."""

from __future__ import annotations

import operator
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

__all__ = ["Frozen", "RulesVersion", "Source", "hashed_once", "inches_or_melee"]

M = TypeVar("M", bound=BaseModel)

#: The two rules versions in the seeds: numbered sections are 11th, unnumbered are 10th.
RulesVersion = Literal["10th", "11th"]


class Frozen(BaseModel):
    """Base of all data records: immutable, unknown fields rejected; hashed by value, the
    hash worked out once per record (``hashed_once``: a cache keyed by a datasheet looks
    it up in a fraction of a microsecond, not the 30 it takes to hash its every weapon;
    issue 42)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    __slots__ = ("_value_hash",)


def hashed_once(cls: type[M]) -> type[M]:
    """Give the frozen pydantic model ``cls``, which declares the slot ``_value_hash``,
    pydantic's hash of a frozen model (its fields' values, in the order declared) worked
    out once per record and kept in the slot; its subclasses inherit it. The slot is not
    copied by ``model_copy``, ``copy`` or pickling (pydantic copies ``__dict__`` and its
    own slots), so a changed copy never carries the old record's hash."""
    get = cls.__dict__["_value_hash"].__get__  # not pydantic's slow ``__getattr__``

    def __hash__(self: BaseModel) -> int:
        try:
            found: int = get(self)
        except AttributeError:
            found = hash(_field_values(type(self))(self.__dict__))
            object.__setattr__(self, "_value_hash", found)
        return found

    def __eq__(self: BaseModel, other: object) -> bool:
        """pydantic's equality, answered early where it can be: the same record; two
        records of one class whose hashes, worked out already, differ (their fields
        differ); or whose ``__dict__`` are equal (their fields are). A cache's look-up
        compares a key with an equal one made afresh (a table's matchup) this way."""
        if self is other:
            return True
        if type(other) is type(self):
            assert isinstance(other, BaseModel)
            try:
                if get(self) != get(other):
                    return False
            except AttributeError:  # a hash not worked out yet: not worked out here
                pass
            if (self.__dict__ == other.__dict__
                    and self.__pydantic_extra__ == other.__pydantic_extra__
                    and self.__pydantic_private__ == other.__pydantic_private__):
                return True
        return base_eq(self, other)

    base_eq = BaseModel.__eq__
    setattr(cls, "__hash__", __hash__)  # noqa: B010 (a method, set after pydantic's)
    setattr(cls, "__eq__", __eq__)  # noqa: B010
    return cls


hashed_once(Frozen)


def _field_values(cls: type[BaseModel]) -> Any:
    """A getter of the fields' values of a ``cls`` record's ``__dict__``, in the order
    declared (as pydantic's own hash reads them: the order of ``__dict__`` may differ)."""
    got = _GETTERS.get(cls)
    if got is None:
        fields = tuple(cls.__pydantic_fields__)
        got = _GETTERS[cls] = operator.itemgetter(*fields) if len(fields) > 1 else \
            (lambda d, k=fields: tuple(d[f] for f in k))
    return got


#: ``_field_values``' getters per record class (the classes are few and live forever).
_GETTERS: dict[type[BaseModel], Any] = {}


def inches_or_melee(value: int | str) -> int | str:
    """A Range characteristic as read: inches, 1 or more, or ``"Melee"`` (a weapon of no
    reach would never be within range of a target, 04.02).

    >>> inches_or_melee(24), inches_or_melee("Melee")
    (24, 'Melee')
    """
    if isinstance(value, int) and value < 1:
        raise ValueError(f"range is inches (1 or more) or \"Melee\", not {value}")
    return value


class Source(Frozen):
    """Where a record was read: a file (seed page, data file) and a 1-based line."""

    file: str
    line: int | None = None
    note: str | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line is not None else self.file
