"""What each export format carries of a roster, and the warning an export gives for the
rest: export then import gives the same ``army_view`` for the fields a format carries,
and every field it cannot carry that the roster sets is named by ``export_warnings``.

The view is the army, not its layout: per unit its name, model count, wargear (totals by
name, whether a list writes them per model or per unit), enhancements (as labelled, with
their points), points, Warlord, markers, attachment, embarkation and force; per list the
rules version, faction, detachments, battle size and points limit (the one that applies),
the stated totals (a list that states no total adds up its units) and the Force
Disposition. Section headings, model-line names and the
order of units are layout (``Roster.canonical`` fixes the order).

>>> from tactica.army.roster import Roster, RosterUnit
>>> r = Roster(name="Demo", faction="Genestealer Cults", units=(
...     RosterUnit(id="u1", name="Primus", points=70, markers=("Some Keyword: Character",)),))
>>> print(*export_warnings(r, "wtc"))  # doctest: +NORMALIZE_WHITESPACE
wtc cannot carry unit keyword lines (Primus: Some Keyword: Character); the exported list
leaves them out
>>> print(*export_warnings(r, "gw-text"))
gw-text prints a list total and the list states none: its units' points added up (70) are written
>>> export_warnings(r.model_copy(update={"declared_points": 70}), "gw-text")
()
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..roster import Roster, RosterUnit
from .registry import FORMATS_BY_KEY, export_formats

__all__ = ["NOT_CARRIED", "army_view", "carried_view", "export_warnings", "first_difference",
           "lost_fields"]



class _NotCarried(Mapping[str, tuple[str, ...]]):
    """Each format written, by key: the fields of ``army_view`` it cannot carry (its
    registry entry's ``not_carried``)."""

    def __getitem__(self, key: str) -> tuple[str, ...]:
        fmt = FORMATS_BY_KEY.get(key)
        if fmt is None or fmt.write is None:
            raise KeyError(key)
        return fmt.not_carried

    def __iter__(self) -> Iterator[str]:
        return iter([f.key for f in export_formats()])

    def __len__(self) -> int:
        return len(export_formats())


#: The fields of ``army_view`` each export format cannot carry.
NOT_CARRIED: Mapping[str, tuple[str, ...]] = _NotCarried()

#: The formats that can say a unit's price is not stated (the others write 0 pts).
_STATES_NO_PRICE = ("tactica-json",)
#: The formats whose layout prints a list total (the app's title line "NAME (N points)").
_PRINTS_A_TOTAL = ("gw-text",)

_UNIT_FIELDS = ("models", "wargear", "enhancements", "points", "warlord", "markers",
                "attached_to", "embarked_in", "force")


def _unit_view(unit: RosterUnit) -> dict[str, Any]:
    return {
        "name": unit.name, "models": unit.models,
        "wargear": sorted((w.name, w.count) for w in unit.all_wargear()),
        "enhancements": [(e.label(), e.points) for e in unit.enhancements],
        "points": unit.points, "warlord": unit.warlord, "markers": list(unit.markers),
        "attached_to": (unit.attached_to, unit.attach_role) if unit.attached_to else None,
        "embarked_in": unit.embarked_in, "force": unit.force,
    }


def army_view(roster: Roster) -> dict[str, Any]:
    """The army ``roster`` describes, without its layout (module text)."""
    canon = roster.canonical()
    return {
        "rules": canon.rules, "faction": canon.faction,
        "detachments": list(canon.detachments),
        "detachment_points": canon.detachment_points,
        "force_disposition": canon.force_disposition,
        "size": canon.size, "limit": canon.limit,
        "declared_points": (canon.declared_points if canon.declared_points is not None
                            else sum(u.points or 0 for u in canon.units)),
        "units": [_unit_view(u) for u in canon.units],
    }


def carried_view(roster: Roster, fmt: str) -> dict[str, Any]:
    """``army_view`` without the fields ``fmt`` cannot carry."""
    view = army_view(roster)
    dropped = NOT_CARRIED[fmt]
    for key in dropped:
        view.pop(key, None)
    view["units"] = [{k: v for k, v in u.items() if k not in dropped} for u in view["units"]]
    if fmt not in _STATES_NO_PRICE:  # an unstated price is written as 0 (a warning says so)
        for unit in view["units"]:
            unit["points"] = unit["points"] or 0
    return view


#: The player's words for each field a format may not carry.
_WORDS = {
    "embarked_in": "which units start embarked",
    "attached_to": "attached leaders and support units",
    "markers": "unit keyword lines",
    "force_disposition": "the Force Disposition",
    "detachment_points": "the detachment points",
    "force": "which units are in an allied force",
}


def lost_fields(roster: Roster, fmt: str) -> tuple[str, ...]:
    """The fields of ``army_view`` that ``roster`` sets and ``fmt`` cannot carry."""
    view = army_view(roster)
    out = []
    for key in NOT_CARRIED[fmt]:
        values = [u[key] for u in view["units"]] if key in _UNIT_FIELDS else [view[key]]
        if any(v not in (None, [], False) for v in values):
            out.append(key)
    return tuple(out)


def export_warnings(roster: Roster, fmt: str) -> tuple[str, ...]:
    """One line per field ``roster`` sets that ``fmt`` cannot carry (the export loses
    it), in the player's words, naming the units concerned."""
    out: list[str] = []
    for key in lost_fields(roster, fmt):
        if key in _UNIT_FIELDS:
            said = [f"{u.name}: {_shown(roster, key, _unit_view(u)[key])}"
                    for u in roster.units if _unit_view(u)[key] not in (None, [], False)]
        else:
            said = [str(army_view(roster)[key])]
        them = "them" if key in _UNIT_FIELDS else "it"  # the army's one value: it
        out.append(f"{fmt} cannot carry {_WORDS[key]} ({'; '.join(said)}); the exported "
                   f"list leaves {them} out")
    if roster.declared_points is None and fmt in _PRINTS_A_TOTAL:
        lines = sum(u.points or 0 for u in roster.units)
        out.append(f"{fmt} prints a list total and the list states none: its units' points "
                   f"added up ({lines}) are written")
    unpriced = [u.name for u in roster.units if u.points is None]
    if unpriced and fmt not in _STATES_NO_PRICE:
        out.append(f"{fmt} gives every unit a price: units without one ({', '.join(unpriced)})"
                   " are written at 0 pts")
    return tuple(out)


def _shown(roster: Roster, key: str, value: Any) -> str:
    if key == "markers":
        return ", ".join(value)
    if key in ("attached_to", "embarked_in"):
        target = value[0] if key == "attached_to" else value
        return ("in " if key == "embarked_in" else "with ") + roster.unit(target).name
    return str(value)


def first_difference(before: dict[str, Any], after: dict[str, Any]) -> str | None:
    """The first field where two ``carried_view``s differ, in words ("the Bloodletters'
    models: 10, read back as 1"), or ``None`` when they are equal."""
    for key in before:
        if key != "units" and before[key] != after.get(key):
            return f"the list's {key}: {before[key]!r}, read back as {after.get(key)!r}"
    units, again = before["units"], after["units"]
    if len(units) != len(again):
        return f"the list's units: {len(units)}, read back as {len(again)}"
    for unit, back in zip(units, again, strict=True):
        for key in unit:
            if unit[key] != back[key]:
                return (f"the {unit['name']}'s {key}: {unit[key]!r}, read back as "
                        f"{back[key]!r}")
    return None
