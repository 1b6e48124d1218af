"""Which units are fielded on a mend or a guess, with the evidence (``tactica data report
--units``, issue 23).

A unit's fielding relies on

* a **mend** when the loader read its records other than as written, on evidence in the
  records themselves: an option replaces a weapon no model of its type carries, so the
  default equipment is taken to carry it; a tier names a model row by another name; a
  row wears the stat line whose name ends with its own; an option's id is the unit's own
  copy; a provisional weapon record takes the unit's launch record's stat lines; an
  option names a model the composition does not have, and the model types of that name
  carrying what it replaces take it;
* a **guess** when the records do not say: the data lists no composition (the unit's size
  shared out between its stat lines), no equipment (the troops' gun and melee weapon
  guessed), a model type has no stat line (refused as a target), a Leader keyword set no
  unit has.

>>> from tactica.model import Datasheet, Source, ModelType
>>> s = Datasheet(name="Squad", rules="11th", source=Source(file="x"), model_types=(
...     ModelType(name="T", min=5, max=5, profile="T", equipment=("Rifle",),
...               mends=("T: the data's default equipment lacks Rifle",)),))
>>> [(a.unit, a.kind, a.evidence) for a in fielding_audit([s])]
[('Squad', 'mend', ("T: the data's default equipment lacks Rifle",))]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from ..model.datasheet import Datasheet
from .loadout import model_types

__all__ = ["UnitAudit", "fielding_audit"]

#: The loader's findings that change what a unit fields (composition, stat lines,
#: equipment, options, weapon records, Leader lists); points and keywords do not.
_FIELDING = ("composition", "wargear option", "weapon '", "leader")


@dataclass(frozen=True, slots=True)
class UnitAudit:
    """One unit fielded on a mend or a guess, and the evidence."""

    unit: str
    kind: Literal["mend", "guess"]
    evidence: tuple[str, ...]


def _findings(sheet: Datasheet) -> tuple[list[str], list[str]]:
    mends = [m for t in sheet.model_types for m in t.mends]
    guesses: list[str] = []
    for note in sheet.notes:
        kind, _, text = note.partition(": ")
        if not text.startswith(_FIELDING) or text.removeprefix("composition: ") in mends:
            continue
        if kind == "repaired":
            mends.append(text)
        elif kind == "suspect":
            guesses.append(text)
    if not sheet.model_types:
        _, notes = model_types(sheet)
        guesses += list(notes)
    return list(dict.fromkeys(mends)), list(dict.fromkeys(guesses))


def fielding_audit(sheets: Iterable[Datasheet]) -> list[UnitAudit]:
    """The units of ``sheets`` whose fielding relies on a mend or a guess (a guess wins
    when both), in the order given."""
    out = []
    for sheet in sheets:
        mends, guesses = _findings(sheet)
        if guesses:
            out.append(UnitAudit(sheet.name, "guess", tuple(guesses + mends)))
        elif mends:
            out.append(UnitAudit(sheet.name, "mend", tuple(mends)))
    return out
