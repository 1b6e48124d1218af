"""Prices: each unit from its datasheet's points, plus enhancements, and the army total.

Rules applied (each cited where it is implemented):

* **Model-count brackets.** A datasheet prices whole unit sizes ("| 10 models | 90 |").
  A unit whose size lies between two listed sizes pays for the next size up: published
  10th-edition Core Rules, Muster Armies ("your units can contain a number of models in
  between these limits, but you must still pay the maximum points cost for a unit that
  starts the game with more than its minimum number of models"); the 11th-edition data
  lists every size. A size above the largest bracket is priced at the largest and flagged
  (``UnitPrice.size_ok``; validation reports ``MODEL_COUNT``).
* **Escalating costs.** "YOUR 1ST TO 3RD UNITS COST" / "YOUR 4TH + UNIT COSTS" (seed 004,
  Tyrannocyte; rules_inventory.md §G.1): the n-th unit of a datasheet, counted in list
  order, is priced from ``EscalatingPoints.brackets_for_unit(n)``.
* **Enhancements** cost the points of their library record (seed 000, rules_inventory.md
  §F.2); an enhancement the library does not know costs what the list states, or, when
  the list states only the unit's points (the app does), the difference between those and
  the unit's price.
* **Editions.** A unit whose only datasheet is of the other rules version (a 10th-edition
  list against 11th-edition data) is priced at the points the list states, when it states
  them (decision: another edition's points say nothing about this list).

Unit look-up goes through the ``Library`` (``resolve``), so the priced roster uses every
source the library has; a unit the library lacks is priced at the points the list states
and marked, never dropped.

>>> from tactica.library import load_seed_library
>>> from tactica.army.roster import Roster, RosterUnit
>>> roster = Roster(units=tuple(RosterUnit(id=f"u{i}", name="Tyrannocyte")
...                             for i in range(1, 5)))
>>> [line.base for line in price_roster(roster, load_seed_library()).units]
[80, 80, 80, 90]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import Field

from ..library import Library
from ..model.common import Frozen
from ..model.datasheet import Datasheet, EscalatingPoints, PointsBracket
from ..model.rules import Enhancement
from ..names import UnknownNameError, name_key, suggest
from .listed_wargear import enhancements_listed_as_wargear, read_as_enhancements
from .lookups import enhancements_by_name
from .roster import Roster, RosterUnit

__all__ = [
    "EnhancementPrice",
    "PriceBreakdown",
    "Resolved",
    "UnitPrice",
    "bracket_price",
    "find_enhancement",
    "price_roster",
    "resolve",
]


@dataclass(frozen=True)
class Resolved:
    """A roster unit and its datasheet (``None`` when the library has no unit of that
    name; ``suggestions`` then holds the close names)."""

    unit: RosterUnit
    sheet: Datasheet | None
    suggestions: tuple[str, ...] = ()


def resolve(roster: Roster, library: Library) -> dict[str, Resolved]:
    """Every unit's datasheet, by unit id, in the roster's rules version (the library
    returns the other version, with a note, when it has only that one)."""
    out: dict[str, Resolved] = {}
    for unit in roster.units:
        try:
            sheet = library.datasheet(unit.name, roster.rules)
        except UnknownNameError as exc:
            out[unit.id] = Resolved(unit, None, exc.suggestions)
            continue
        out[unit.id] = Resolved(unit, sheet)
    return out


def find_enhancement(
    library: Library, name: str, rules: str | None = None
) -> tuple[Enhancement | None, tuple[str, ...]]:
    """The library's enhancement of that name (the ``rules`` version first), or ``None``
    and close names."""
    key = name_key(name)
    exact, plain = enhancements_by_name(library)
    # the dataset names some "Final Howl (Aura)", "Snarling Rivalry (Upgrade)"
    found = list(exact.get(key) or plain.get(key, ()))
    if found:
        found.sort(key=lambda e: e.rules != rules)
        return found[0], ()
    return None, suggest(name, [e.name for e in library.enhancements()])


def bracket_price(
    brackets: Sequence[PointsBracket], models: int
) -> tuple[PointsBracket | None, bool]:
    """The bracket a unit of ``models`` models pays: the exact size, else the next size up
    (10th-edition Muster Armies, module text). Returns the bracket and whether the size is
    within the brackets (above the largest: the largest bracket and ``False``).

    >>> b = (PointsBracket(models=5, points=70), PointsBracket(models=10, points=140))
    >>> bracket_price(b, 7), bracket_price(b, 12)[1]
    ((PointsBracket(models=10, points=140), True), False)
    """
    if not brackets:
        return None, True
    ordered = sorted(brackets, key=lambda b: b.models)
    for bracket in ordered:
        if bracket.models >= models:
            return bracket, True
    return ordered[-1], False


class EnhancementPrice(Frozen):
    """One enhancement's cost and where it came from: "library", "list" (the points the
    list states), "list (unit points)" (inferred, see ``_infer_unknown``) or "unknown"
    (priced 0)."""

    name: str
    points: int
    source: str
    known: bool


class UnitPrice(Frozen):
    """One line of the breakdown. ``base`` is the unit's own cost (``None`` when neither
    the datasheet nor the list gives one), ``ordinal`` its number among the units of its
    datasheet, ``source`` "datasheet" or "list"."""

    unit_id: str
    name: str
    datasheet: str | None
    models: int
    ordinal: int
    base: int | None
    source: str
    enhancements: tuple[EnhancementPrice, ...] = ()
    stated: int | None = None
    size_ok: bool = True
    notes: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        return (self.base or 0) + sum(e.points for e in self.enhancements)


class PriceBreakdown(Frozen):
    """The priced roster: a line per unit and the total."""

    units: tuple[UnitPrice, ...] = ()
    total: int = Field(default=0, ge=0)
    limit: int | None = None
    declared: int | None = None

    def line(self, unit_id: str) -> UnitPrice:
        return next(p for p in self.units if p.unit_id == unit_id)


def _unit_brackets(sheet: Datasheet, ordinal: int) -> tuple[PointsBracket, ...]:
    points = sheet.points
    if isinstance(points, EscalatingPoints):
        return points.brackets_for_unit(ordinal)
    return points


def _enhancement_prices(
    unit: RosterUnit, library: Library, rules: str
) -> tuple[EnhancementPrice, ...]:
    out = []
    for choice in unit.enhancements:
        record, _ = find_enhancement(library, choice.name, rules)
        if record is not None and record.points is not None:
            out.append(EnhancementPrice(name=record.name, points=record.points,
                                        source="library", known=True))
        elif choice.points is not None:
            out.append(EnhancementPrice(name=choice.name, points=choice.points,
                                        source="list", known=record is not None))
        else:
            out.append(EnhancementPrice(name=choice.name, points=0, source="unknown",
                                        known=record is not None))
    return tuple(out)


def _infer_unknown(enhancements: tuple[EnhancementPrice, ...], stated: int | None,
                   base: int | None) -> tuple[tuple[EnhancementPrice, ...], list[str]]:
    """An enhancement whose points neither the library nor the list gives costs what the
    unit's stated points exceed its price by (the app includes enhancements in a unit's
    points and does not print them)."""
    unknown = [i for i, e in enumerate(enhancements) if e.source == "unknown"]
    if not unknown or stated is None or base is None:
        return enhancements, []
    gap = stated - base - sum(e.points for e in enhancements)
    if gap <= 0:
        return enhancements, []
    first = enhancements[unknown[0]]
    fixed = first.model_copy(update={"points": gap, "source": "list (unit points)"})
    out = (*enhancements[: unknown[0]], fixed, *enhancements[unknown[0] + 1:])
    return out, [f"{first.name}: {gap} pts, the unit's stated points less its datasheet price"]


def price_unit(
    resolved: Resolved, ordinal: int, library: Library, rules: str
) -> UnitPrice:
    """The price of one unit, the ``ordinal``-th of its datasheet in the list."""
    unit, sheet = resolved.unit, resolved.sheet
    enhancements = _enhancement_prices(unit, library, rules)
    enh_total = sum(e.points for e in enhancements)
    notes: list[str] = []
    base: int | None = None
    source = "list"
    size_ok = True
    other_edition = sheet is not None and sheet.rules != rules and unit.points is not None
    if other_edition:
        assert sheet is not None
        notes.append(f"the library has only the {sheet.rules}-edition {sheet.name} datasheet "
                     f"and this is a {rules}-edition list: priced as the list states")
    elif sheet is not None and sheet.points:
        bracket, size_ok = bracket_price(_unit_brackets(sheet, ordinal), unit.models)
        if bracket is not None:
            base, source = bracket.points, "datasheet"
            if bracket.models != unit.models:
                notes.append(f"{unit.models} models priced as {bracket.models} "
                             f"({'next size up' if size_ok else 'largest size listed'})")
            if isinstance(sheet.points, EscalatingPoints):
                notes.append(f"unit {ordinal} of its datasheet: {bracket.points} pts")
    if base is None:
        if unit.points is not None:
            base = max(unit.points - enh_total, 0)
            if not other_edition:
                notes.append("unknown datasheet: priced as the list states" if sheet is None
                             else "no points on the datasheet: priced as the list states")
        else:
            notes.append("no points known for this unit")
    if source == "datasheet":
        enhancements, inferred = _infer_unknown(enhancements, unit.points, base)
        notes += inferred
    return UnitPrice(unit_id=unit.id, name=unit.name, datasheet=sheet.name if sheet else None,
                     models=unit.models, ordinal=ordinal, base=base, source=source,
                     enhancements=enhancements, stated=unit.points, size_ok=size_ok,
                     notes=tuple(notes))


def price_roster(
    roster: Roster, library: Library, resolved: dict[str, Resolved] | None = None
) -> PriceBreakdown:
    """The priced breakdown of ``roster`` (see the module text for the rules). An
    enhancement the list writes as wargear is priced as that enhancement, as validation
    reads it (``listed_wargear``), with a note."""
    listed = enhancements_listed_as_wargear(roster, library)
    roster = read_as_enhancements(roster, listed)
    found = resolve(roster, library) if resolved is None or listed else resolved
    said: dict[str, list[str]] = {}
    for uid, name, det in listed:
        said.setdefault(uid, []).append(f"{name}: listed as wargear, priced as the {det} "
                                        "enhancement")
    ordinals: dict[str, int] = {}
    lines = []
    for unit in roster.units:
        r = found[unit.id]
        key = name_key(r.sheet.name if r.sheet else unit.name)
        ordinals[key] = ordinals.get(key, 0) + 1
        line = price_unit(r, ordinals[key], library, roster.rules)
        if unit.id in said:
            line = line.model_copy(update={"notes": (*said[unit.id], *line.notes)})
        lines.append(line)
    return PriceBreakdown(units=tuple(lines), total=sum(p.total for p in lines),
                          limit=roster.limit, declared=roster.declared_points)
