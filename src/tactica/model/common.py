"""Shared pieces of every record: the rules version and where the record came from."""

from __future__ import annotations

from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

__all__ = ["Frozen", "RulesVersion", "Source", "constructed"]

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
    if cls.__pydantic_post_init__ or cls.__private_attributes__ or \
            cls.model_config.get("extra") == "allow":
        raise TypeError(f"{cls.__name__}: not constructed from its fields alone")
    if values.keys() != cls.__pydantic_fields__.keys():
        raise TypeError(f"{cls.__name__}: constructed from every field: "
                        f"{sorted(values.keys() ^ cls.__pydantic_fields__.keys())} missing or "
                        "unknown")
    m = cls.__new__(cls)
    setattr_ = object.__setattr__
    setattr_(m, "__dict__", values)
    setattr_(m, "__pydantic_fields_set__", set(values))
    setattr_(m, "__pydantic_extra__", None)
    setattr_(m, "__pydantic_private__", None)
    return m
