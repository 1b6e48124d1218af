"""Shared pieces of every record: the rules version and where the record came from
(records made without validation: ``model.trusted``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

__all__ = ["Frozen", "RulesVersion", "Source", "inches_or_melee"]

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
