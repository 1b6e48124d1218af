"""Trusted constructors: the one place where records are made without pydantic's
validation (or a frozen dataclass's ``__init__``), for values valid already (parts of
records validated before), where a table of many matchups makes one per matchup.

Each copies the values it is given (the record never shares the caller's dict) and
refuses values that miss or add a field. With ``TACTICA_VALIDATE_ALL`` set (to anything
but ``0``; the test run sets it in ``tests/conftest.py``) every record made here is made
again the slow way (validated, or through ``__init__``) and compared: a difference
raises ``TrustedMismatchError``, a bug in the caller (never bad input).

>>> from tactica.model.common import Frozen
>>> class Point(Frozen):
...     x: int
...     y: int = 0
>>> values = {"x": 1, "y": 2}
>>> p = constructed(Point, values)
>>> p == Point(x=1, y=2), p.__dict__ is values
(True, False)
"""

from __future__ import annotations

import dataclasses
import functools
import os
from typing import Any, TypeVar

import numpy as np
from pydantic import BaseModel, ValidationError

__all__ = ["TrustedMismatchError", "constructed", "made", "updated", "validate_all",
           "validating_all"]

M = TypeVar("M", bound=BaseModel)
D = TypeVar("D")

#: The switch: every record made here is checked against the slow way.
_CHECK = os.environ.get("TACTICA_VALIDATE_ALL", "0").strip().lower() not in ("", "0", "false")


class TrustedMismatchError(AssertionError):
    """A trusted constructor made a record that validation makes differently (or
    refuses): the caller passed values that were not valid already."""


def validate_all(on: bool) -> None:
    """Turn the check of every trusted construction on or off (``TACTICA_VALIDATE_ALL``
    sets it at import)."""
    global _CHECK
    _CHECK = on


def validating_all() -> bool:
    """Whether every trusted construction is checked."""
    return _CHECK


def constructed(cls: type[M], values: dict[str, Any]) -> M:
    """``cls.model_construct(**values)`` for ``values`` that give every field, each valid
    already: the same instance, its ``__dict__`` a copy of the values, without pydantic's
    loop over each field's aliases and default. For a model with no extra fields,
    private attributes or post-init hook; values that miss or add a field are refused.

    >>> from tactica.model.common import Frozen
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
    m = _constructed(cls, dict(values))
    if _CHECK:
        _check_model(m, values)
    return m


def _constructed(cls: type[M], values: dict[str, Any]) -> M:
    """``constructed`` on ``values`` that the record may keep (a copy of the caller's)."""
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

    >>> from tactica.model.common import Frozen
    >>> class Point(Frozen):
    ...     x: int
    ...     y: int = 0
    >>> p = Point(x=1)
    >>> q = updated(p, {"y": 2})
    >>> q == p.model_copy(update={"y": 2}), q.model_fields_set == {"x", "y"}, p.y
    (True, True, 0)
    """
    values = {**model.__dict__, **changes}
    out = _constructed(type(model), values)
    object.__setattr__(out, "__pydantic_fields_set__",
                       model.__pydantic_fields_set__ | changes.keys())
    if _CHECK:
        _check_model(out, values)
    return out


def made(cls: type[D], values: dict[str, Any]) -> D:
    """An instance of the frozen dataclass ``cls`` with every field given: its
    ``__dict__`` filled from the values at once instead of the frozen ``__init__``'s
    ``object.__setattr__`` per field. Still frozen; for a class without
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
    out.__dict__.update(values)  # a copy: the record's own dict
    if _CHECK:
        want = cls(**values)
        if not _same(out, want):
            raise TrustedMismatchError(f"{cls.__name__}: made differs from its __init__")
    return out


#: ``_dataclass_fields``' answers per class.
_made_fields: dict[type[Any], frozenset[str]] = {}


def _dataclass_fields(cls: type[Any]) -> frozenset[str]:
    """The fields ``made`` fills: every one of the dataclass ``cls``'s, which must keep
    them in its ``__dict__`` and need no ``__post_init__`` (one answer per class)."""
    if hasattr(cls, "__slots__") or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: not made from its fields alone")
    names = _made_fields[cls] = frozenset(f.name for f in dataclasses.fields(cls))
    return names


# --- the check (``TACTICA_VALIDATE_ALL``) -------------------------------------------------
def _check_model(m: BaseModel, values: dict[str, Any]) -> None:
    """``m`` against ``type(m).model_validate(values)``: refused or different, loudly."""
    cls = type(m)
    try:
        want = cls.model_validate(values)
    except ValidationError as exc:
        raise TrustedMismatchError(f"{cls.__name__}: constructed from values that "
                                   f"validation refuses: {exc}") from None
    diff = [k for k in cls.__pydantic_fields__ if not _same(m.__dict__[k], want.__dict__[k])]
    if diff:
        raise TrustedMismatchError(f"{cls.__name__}: constructed differs from validated "
                                   f"in {diff}: {[m.__dict__[k] for k in diff]!r} vs "
                                   f"{[want.__dict__[k] for k in diff]!r}")


def _same(a: Any, b: Any) -> bool:
    """``a`` and ``b`` hold the same values of the same types (arrays compared whole,
    records field by field): a list where validation makes a tuple is a difference."""
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and bool(np.array_equal(a, b))
    if isinstance(a, tuple | list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, BaseModel):
        return all(_same(a.__dict__[k], b.__dict__[k]) for k in type(a).__pydantic_fields__)
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        return all(_same(getattr(a, f.name), getattr(b, f.name))
                   for f in dataclasses.fields(a))
    if isinstance(a, float) and a != a:  # exact: NaN is the same as NaN here
        return bool(b != b)
    return bool(a == b)
