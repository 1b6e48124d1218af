"""List Forge's text export (List Forge's JSON has New Recruit's layout, see
``newrecruit_json``)::

    all gas no breaks - Chaos Daemons - Daemonic Incursion (1995 Points)

    Character:
    Great Unclean One (295 pts)
      • Putrid vomit
      • E: The Endless Gift
      • Warlord

    Battleline:
    Bloodletters (110 pts)
      • Bloodreaper
        • Hellblade
      • Instrument of Chaos
      • 9x Bloodletter
        • 9x Hellblade

The title's points are the points limit. A "•" line with deeper "•" lines under it is a
model entry; "E: NAME" is an enhancement; other lines are wargear. Any other line is an
error with its line number.
"""

from __future__ import annotations

import re
from typing import Any

from tactica.names import name_key

from ..roster import ModelEntry, Roster, RosterSource, RosterUnit, battle_size_for_points
from ._common import (
    RosterParseError,
    UnitDraft,
    at_line,
    build_roster,
    clean_faction,
    enhancement_text,
    parse_enhancement,
    parse_item,
    rules_from_text,
    tool_version,
    written_entries,
)

__all__ = ["FORMAT", "TITLE", "dump_listforge_text", "parse_listforge_text"]

FORMAT = "listforge-text"
TITLE = re.compile(r"^(?P<rest>.+) \((?P<pts>\d+) Points\)\s*$")
_UNIT = re.compile(r"^(?P<name>[^•].*?) \((?P<pts>\d+) pts\)\s*$")
_SECTION = re.compile(r"^(?P<name>[^•()]+):$")
#: tactica's last line: the rules version and the list's stated total, which List Forge's
#: own layout does not give.
_FOOTER = re.compile(r"^Exported with tactica\b.*?\(rules (?:10th|11th)"
                     r"(?:, (?P<pts>\d+) pts in total)?\)\s*$")


def _title(lines: list[str], file: str | None) -> tuple[int, dict[str, Any]]:
    """The first non-blank line, 'NAME - FACTION - DETACHMENT (N Points)': its index and
    the roster fields it gives."""
    start = next((i for i, line in enumerate(lines) if line.strip()), None)
    title = TITLE.match(lines[start].strip()) if start is not None else None
    if start is None or title is None:
        raise RosterParseError("expected 'NAME - FACTION - DETACHMENT (N Points)'",
                               (start or 0) + 1, file)
    parts = title.group("rest").rsplit(" - ", 2)
    if len(parts) != 3:
        raise RosterParseError("expected 'NAME - FACTION - DETACHMENT (N Points)'",
                               start + 1, file)
    limit = int(title.group("pts")) or None
    detachment = parts[2].strip()
    return start, {
        "name": parts[0].strip(), "faction": clean_faction(parts[1]),
        "detachments": () if detachment in ("", "-") else tuple(
            d.strip() for d in detachment.split(" + ") if d.strip()),
        "points_limit": limit, "battle_size": battle_size_for_points(limit) if limit else None}


#: One "•" line of a unit: (line number, indent, text after the bullet).
_Pending = list[tuple[int, int, str]]


def _flush(unit: UnitDraft | None, pending: _Pending, file: str | None) -> None:
    """The "•" lines of ``unit``: the least indented are its models (with the deeper
    lines under them as their wargear), the Warlord, enhancements or unit wargear."""
    if unit is None or not pending:
        return
    base = min(indent for _, indent, _ in pending)
    if pending[0][1] != base:
        raise RosterParseError("an indented item under no model (a model line "
                               "missing?)", pending[0][0], file)
    for k, (number, indent, _) in enumerate(pending):
        if indent == base:
            deeper = k + 1 < len(pending) and pending[k + 1][1] > indent
            with at_line(number, file):
                _item_line(unit, pending, k, deeper, file)
    pending.clear()


def _item_line(unit: UnitDraft, pending: _Pending, k: int, deeper: bool,
               file: str | None) -> None:
    _, indent, body = pending[k]
    named = name_key(parse_item(body).name).rstrip("s") == name_key(unit.name).rstrip("s")
    if deeper or named:
        model = parse_item(body)
        gear = []
        for number, ind, sub in pending[k + 1:]:
            if ind <= indent:
                break
            with at_line(number, file):
                gear.append(parse_item(sub))
        unit.entries.append(ModelEntry(name=model.name, count=model.count,
                                       wargear=tuple(gear)))
    elif body == "Warlord":
        unit.warlord = True
    elif body.startswith("E:"):
        unit.enhancements.append(parse_enhancement(body[2:]))
    else:
        unit.wargear.append(parse_item(body))


def parse_listforge_text(text: str, file: str | None = None) -> Roster:
    """Read a List Forge text export (module text)."""
    lines = text.splitlines()
    start, fields = _title(lines, file)
    drafts: list[UnitDraft] = []
    section: str | None = None
    unit: UnitDraft | None = None
    pending: _Pending = []  # the "•" lines of the current unit
    for index in range(start + 1, len(lines)):
        raw = lines[index]
        line = raw.strip()
        if not line:  # a blank line ends a unit: "•" lines after it belong to none
            _flush(unit, pending, file)
            unit = None
            continue
        row, sec, footer = _UNIT.match(line), _SECTION.match(line), _FOOTER.match(line)
        if footer:
            _flush(unit, pending, file)
            unit = None
            fields["rules"] = rules_from_text(footer.group(0)) or "11th"
            if footer.group("pts"):
                fields["declared_points"] = int(footer.group("pts"))
        elif line.startswith("•"):
            if unit is None:
                raise RosterParseError("a '•' line under no unit line (a unit line "
                                       "missing?)", index + 1, file)
            pending.append((index + 1, len(raw) - len(raw.lstrip()), line[1:].strip()))
        elif row:
            _flush(unit, pending, file)
            unit = UnitDraft(name=row.group("name").strip(), line=index + 1,
                             points=int(row.group("pts")), section=section)
            drafts.append(unit)
        elif sec:
            _flush(unit, pending, file)
            section, unit = sec.group("name").strip(), None
        else:
            raise RosterParseError(f"unrecognised line {line!r}", index + 1, file)
    _flush(unit, pending, file)
    units = []
    for i, d in enumerate(drafts, start=1):
        with at_line(d.line or 1, file):
            units.append(d.build(f"u{i}"))
    return build_roster({
        **fields, "units": tuple(units), "embarkation_recorded": False,
        "source": RosterSource(format=FORMAT, file=file)}, file, [d.line for d in drafts])


def _item(name: str, count: int) -> str:
    return name if count == 1 else f"{count}x {name}"


def dump_listforge_text(roster: Roster) -> str:
    """Write ``roster`` in List Forge's text layout."""
    detachment = " + ".join(roster.detachments) or "-"
    out = [f"{roster.name} - {roster.faction or 'Unknown'} - {detachment} "
           f"({roster.limit or 0} Points)"]
    section: str | None = None
    for unit in roster.units:
        if (unit.section or "Other") != section:  # units of no section: one header,
            section = unit.section or "Other"      # as the list reads back
            out += ["", "", f"{section}:"]
        out.append(f"{unit.name} ({unit.points or 0} pts)")
        out += _unit_items(unit)
        out.append("")
    total = "" if roster.declared_points is None else f", {roster.declared_points} pts in total"
    out += ["", f"Exported with tactica {tool_version()} (rules {roster.rules}{total})"]
    return "\n".join(out).rstrip() + "\n"


def _unit_items(unit: RosterUnit) -> list[str]:
    out = [f"  • {_item(w.name, w.count)}" for w in unit.wargear]
    for entry in written_entries(unit):  # a model without wargear is named as its unit
        name = entry.name if entry.name and entry.wargear else unit.name
        out.append(f"  • {_item(name, entry.count)}")
        out += [f"    • {_item(w.name, w.count)}" for w in entry.wargear]
    out += [f"  • E: {enhancement_text(e)}" for e in unit.enhancements]
    if unit.warlord:
        out.append("  • Warlord")
    return out
