"""Enhancements a list writes as wargear: New Recruit's "simple" text gives an
enhancement without a price ("Great Unclean One [295 pts]: The Endless Gift, Warlord,
Putrid vomit, ...") exactly as it gives wargear, so the reader cannot tell them apart
(its JSON and WTC exports of the same army mark it as an enhancement).

Against a library the two can be told apart: an item listed as wargear whose name is an
enhancement of one of the army's detachments, and which the unit's datasheet does not
give as a weapon, ability or wargear option, is that enhancement. ``enhancements_listed_
as_wargear`` finds them; validation reads them as enhancements and says so
(``ENHANCEMENT_AS_WARGEAR``, a warning), never silently.
"""

from __future__ import annotations

from ..library import Library
from ..model.datasheet import Datasheet
from ..names import name_key
from .lookups import plain_enhancement_name
from .roster import EnhancementChoice, ModelEntry, Roster, RosterUnit, WargearItem

__all__ = ["ListedEnhancement", "enhancements_listed_as_wargear", "read_as_enhancements",
           "unknown_wargear"]

#: (unit id, item name, detachment of the enhancement record)
ListedEnhancement = tuple[str, str, str]


_plain = plain_enhancement_name


def _datasheet_gear(sheet: Datasheet) -> set[str]:
    names = [w.name for w in sheet.weapons] + [a.name for a in sheet.abilities]
    names += list(sheet.wargear_options)
    for option in sheet.wargear:
        names += list(option.replaces) + [n for choice in option.choices for n in choice]
    return {_plain(n) for n in names}


def enhancements_listed_as_wargear(roster: Roster,
                                   library: Library) -> tuple[ListedEnhancement, ...]:
    """The items listed as wargear that are enhancements of the army's detachments and no
    wargear of their unit's datasheet (module text)."""
    detachments = {name_key(d) for d in roster.detachments}
    records = {_plain(e.name): e.detachment for e in library.enhancements()
               if name_key(e.detachment) in detachments}
    if not records:
        return ()
    out: list[ListedEnhancement] = []
    for unit in roster.units:
        try:
            gear = _datasheet_gear(library.datasheet(unit.name))
        except LookupError:
            continue  # an unknown unit is reported as such; nothing to compare with
        for item in unit.all_wargear():
            key = _plain(item.name)
            if item.count == 1 and key in records and key not in gear:
                out.append((unit.id, item.name, records[key]))
    return tuple(out)


def _without(items: tuple[WargearItem, ...], name: str) -> tuple[WargearItem, ...]:
    return tuple(w for w in items if w.name != name)


def read_as_enhancements(roster: Roster, listed: tuple[ListedEnhancement, ...]) -> Roster:
    """``roster`` with each listed item moved from its unit's wargear to its
    enhancements (no stated price: the list states none)."""
    moved: dict[str, list[str]] = {}
    for unit_id, name, _ in listed:
        moved.setdefault(unit_id, []).append(name)

    def fix(unit: RosterUnit) -> RosterUnit:
        names = moved.get(unit.id)
        if not names:
            return unit
        wargear, entries = unit.wargear, unit.model_entries
        for name in names:
            wargear = _without(wargear, name)
            entries = tuple(ModelEntry(name=e.name, count=e.count,
                                       wargear=_without(e.wargear, name)) for e in entries)
        return unit.model_copy(update={
            "wargear": wargear, "model_entries": entries,
            "enhancements": (*unit.enhancements,
                             *(EnhancementChoice(name=n) for n in names))})

    return roster.model_copy(update={"units": tuple(fix(u) for u in roster.units)})


def unknown_wargear(roster: Roster, sheets: dict[str, Datasheet | None]
                    ) -> tuple[tuple[RosterUnit, str, str], ...]:
    """(unit, item, datasheet name) for each item listed that the unit's datasheet has
    neither as a weapon, an ability nor a wargear option (a final "s" ignored). Units
    whose datasheet is another edition's or records no wargear options are not read (the
    item cannot be told from a gap in the data)."""
    out: list[tuple[RosterUnit, str, str]] = []
    for unit in roster.units:
        sheet = sheets.get(unit.id)
        if sheet is None or sheet.rules != roster.rules or not sheet.wargear:
            continue
        gear = _datasheet_gear(sheet)
        gear |= {g.rstrip("s") for g in gear}
        for item in unit.all_wargear():
            key = _plain(item.name)
            if key not in gear and key.rstrip("s") not in gear:
                out.append((unit, item.name, sheet.name))
    return tuple(out)
