"""Shared pieces of every record: the rules version and where the record came from."""

from __future__ import annotations

import functools
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

__all__ = ["Frozen", "RulesVersion", "Source", "constructed", "updated"]

M = TypeVar("M", bound=BaseModel)

#: The two rules versions in the seeds: numbered sections are 11th, unnumbered are 10th.
RulesVersion = Literal["10th", "11th"]


class Frozen(BaseModel):
    """Base of all data records: immutable, unknown fields rejected."""

    model_config = ConfigDict(frozen=True, extra="forbid")


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
