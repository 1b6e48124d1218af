"""Shared pieces of every record: the rules version and where the record came from."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

__all__ = ["Frozen", "RulesVersion", "Source", "constructed", "inches_or_melee", "made",
           "updated"]

M = TypeVar("M", bound=BaseModel)
D = TypeVar("D")

#: The two rules versions in the seeds: numbered sections are 11th, unnumbered are 10th.
RulesVersion = Literal["10th", "11th"]


class Frozen(BaseModel):
    """Base of all data records: immutable, unknown fields rejected."""

    model_config = ConfigDict(frozen=True, extra="forbid")


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


def constructed(cls: type[M], values: dict[str, Any]) -> M:
    """``cls.model_construct(**values)`` for ``values`` that give every field, each valid
    already (parts of models validated before): the same instance, its ``__dict__`` the
    values, without pydantic's loop over each field's aliases and default (a table builds
    a scenario per matchup). For a model with no extra fields, private attributes or
    post-init hook; values that miss or add a field are refused.

    >>> class Point(Frozen):
    ...     x: int
    ...     y: int = 0
    >>> constructed(Point, {"x": 1, "y": 2}) == Point.model_construct(x=1, y=2)
    True
    >>> constructed(Point, {"x": 1})
    Traceback (most recent call last):
    ...
    TypeError: Point: constructed from every field: ['y'] missing or unknown
    """
    if values.keys() != _fields(cls):
        raise TypeError(f"{cls.__name__}: constructed from every field: "
                        f"{sorted(values.keys() ^ _fields(cls))} missing or unknown")
    m = cls.__new__(cls)
    setattr_ = object.__setattr__
    setattr_(m, "__dict__", values)
    setattr_(m, "__pydantic_fields_set__", set(values))
    setattr_(m, "__pydantic_extra__", None)
    setattr_(m, "__pydantic_private__", None)
    return m


@functools.cache
def _fields(cls: type[BaseModel]) -> frozenset[str]:
    """The fields ``constructed`` fills: every one of ``cls``'s, which must be all it
    holds (no extra fields, private attributes or post-init hook)."""
    if cls.__pydantic_post_init__ or cls.__private_attributes__ or \
            cls.model_config.get("extra") == "allow":
        raise TypeError(f"{cls.__name__}: not constructed from its fields alone")
    return frozenset(cls.__pydantic_fields__)


def updated(model: M, changes: dict[str, Any]) -> M:
    """``model.model_copy(update=changes)`` for a model ``constructed`` can make, the
    changes valid already: the same instance (its fields set: the model's and the
    changed), without pydantic's copy of each of its parts.

    >>> class Point(Frozen):
    ...     x: int
    ...     y: int = 0
    >>> p = Point(x=1)
    >>> q = updated(p, {"y": 2})
    >>> q == p.model_copy(update={"y": 2}), q.model_fields_set == {"x", "y"}, p.y
    (True, True, 0)
    """
    out = constructed(type(model), {**model.__dict__, **changes})
    object.__setattr__(out, "__pydantic_fields_set__",
                       model.__pydantic_fields_set__ | changes.keys())
    return out


def made(cls: type[D], values: dict[str, Any]) -> D:
    """An instance of the frozen dataclass ``cls`` with every field given: its
    ``__dict__`` set at once instead of the frozen ``__init__``'s ``object.__setattr__``
    per field (a table makes a row per matchup). Still frozen; for a class without
    ``__post_init__`` or slots; values that miss or add a field are refused.

    >>> @dataclasses.dataclass(frozen=True)
    ... class Point:
    ...     x: int
    ...     y: int = 0
    >>> made(Point, {"x": 1, "y": 2}) == Point(1, 2)
    True
    >>> made(Point, {"x": 1})
    Traceback (most recent call last):
    ...
    TypeError: Point: made from every field: ['y'] missing or unknown
    """
    names = _made_fields.get(cls) or _dataclass_fields(cls)
    if values.keys() != names:
        raise TypeError(f"{cls.__name__}: made from every field: "
                        f"{sorted(values.keys() ^ names)} missing or unknown")
    out: D = object.__new__(cls)
    out.__dict__.update(values)
    return out


#: ``_dataclass_fields``' answers per class.
_made_fields: dict[type[Any], frozenset[str]] = {}


def _dataclass_fields(cls: type[Any]) -> frozenset[str]:
    """The fields ``made`` fills: every one of the dataclass ``cls``'s, which must keep
    them in its ``__dict__`` and need no ``__post_init__`` (kept per class)."""
    if hasattr(cls, "__slots__") or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: not made from its fields alone")
    names = _made_fields[cls] = frozenset(f.name for f in dataclasses.fields(cls))
    return names
