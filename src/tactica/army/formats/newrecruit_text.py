"""New Recruit's text exports: "simple" and the WTC layouts ("compact" and "full").

Simple::

    Genestealer Cults - My list - [2000 pts]

    # ++ Army Roster ++ [1990 pts]
    ## Configuration
    Battle Size: Strike Force (2000 Point limit)
    Detachment: Host of Ascension

    ## Battleline [180 pts]
    Neophyte Hybrids [180 pts]:
    • 1x Neophyte Leader: Autopistol, Hybrid firearm
    • 19x Neophyte Hybrid: 19x Autopistol, ...
    Primus [70 pts]: Warlord, Cult bonesword, ...

An item with a price ("Name [15 pts]") or written "Enhancement: Name" is an enhancement;
"Warlord" marks the Warlord; other items are wargear.

WTC (compact: items after the unit line; full: "N with items" lines)::

    +++++++++++++++++++++++++++++++++++++++++++++++
    + FACTION KEYWORD: Genestealer Cults
    + DETACHMENT: Host of Ascension
    + TOTAL ARMY POINTS: 1990pts
    + POINTS LIMIT: 2000pts
    + WARLORD: Char1: Primus
    + ENHANCEMENT: Assassination Edict (on Char1: Primus)
    +++++++++++++++++++++++++++++++++++++++++++++++

    Char1: 1x Primus (85 pts): Cult bonesword, Warlord
    Enhancement: Assassination Edict (+15 pts)
    20x Neophyte Hybrids (180 pts): 19x Autopistol, ...

Header keys other than those read are kept as roster notes; any other line is an error
with its line number.
"""

from __future__ import annotations

import re
from typing import Any

from tactica.library import Library
from tactica.names import name_key

from ..roster import ModelEntry, Roster, RosterSource, RosterUnit, WargearItem, parse_battle_size
from ._common import (
    RosterParseError,
    UnitDraft,
    at_line,
    build_roster,
    clean_faction,
    enhancement_text,
    model_names,
    parse_enhancement,
    parse_item,
    rules_from_text,
    split_items,
    tool_version,
    written_entries,
)

__all__ = ["SIMPLE", "WTC", "dump_newrecruit_text", "dump_wtc", "parse_newrecruit_text",
           "parse_wtc"]

SIMPLE = "newrecruit-text"
WTC = "wtc"

_TITLE = re.compile(r"^(?P<faction>.+?) - (?P<name>.*) - \[(?P<pts>\d+) pts\]\s*$")
_FORCE = re.compile(r"^# \+\+ (?P<name>.+?) \+\+(?: \[(?P<pts>\d+) pts\])?\s*$")
_SECTION = re.compile(r"^## (?P<name>.+?)(?: \[(?P<pts>\d+) pts\])?\s*$")
_UNIT = re.compile(r"^(?P<name>[^•].*?) \[(?P<pts>\d+) pts\]:\s*(?P<items>.*)$")
_MODEL = re.compile(r"^•\s*(?P<count>\d+)x (?P<name>.+?):\s*(?P<items>.*)$")
_PRICED = re.compile(r"\[\s*\d+\s*pts?\s*\]\s*$", re.I)
_WTC_UNIT = re.compile(r"^(?:(?P<label>Char\d+):\s*)?(?P<count>\d+)x (?P<name>.+?) "
                       r"\((?P<pts>\d+) pts\)(?::\s*(?P<items>.*))?$")
_WITH = re.compile(r"^(?P<count>\d+) with\b\s*(?P<items>.*)$")
_HEADING = re.compile(r"^[A-Z][A-Z0-9 '’&\-/]*[A-Z]$")
_EXPORTED = "EXPORTED WITH"  # tactica's header line naming the rules version
_VERSION = re.compile(r"^Exported with\s+(.*)$", re.I)


def _items(text: str, draft: UnitDraft, sink: list[WargearItem]) -> None:
    for item in split_items(text):
        if item == "Warlord":
            draft.warlord = True
        elif item.lower().startswith("enhancement:"):
            draft.enhancements.append(parse_enhancement(item.split(":", 1)[1]))
        elif _PRICED.search(item):
            draft.enhancements.append(parse_enhancement(item))
        else:
            sink.append(parse_item(item))


def _finish(fields: dict[str, Any], drafts: list[UnitDraft], fmt: str, file: str | None,
            generator: str | None, notes: list[str]) -> Roster:
    units = []
    for i, d in enumerate(drafts, start=1):
        with at_line(d.line or 1, file):
            units.append(d.build(f"u{i}"))
    return build_roster({
        **fields, "rules": rules_from_text(generator) or "11th", "units": tuple(units),
        "embarkation_recorded": False, "notes": tuple(notes),
        "source": RosterSource(format=fmt, file=file, generated_by=generator)},
        file, [d.line for d in drafts])


def parse_newrecruit_text(text: str, file: str | None = None,
                          library: Library | None = None) -> Roster:
    """Read New Recruit's "simple" text export (module text). With ``library``, a model
    line must name a model of its unit's datasheet (when the library knows the unit), so
    that the model lines of a unit whose unit line is lost are not read as the previous
    unit's."""
    lines = text.splitlines()
    fields: dict[str, Any] = {"detachments": []}
    drafts: list[UnitDraft] = []
    notes: list[str] = []
    state = _Simple(fields, drafts, notes, file, library)
    for number, raw in enumerate(lines, start=1):
        with at_line(number, file):
            state.line(number, raw.strip())
    state.close_section()
    fields["detachments"] = tuple(fields["detachments"])
    return _finish(fields, drafts, SIMPLE, file, state.generator, notes)


class _Simple:
    """The state of a New Recruit "simple" list while its lines are read. A "•" model
    line belongs to the unit line just above it (or to that unit's other model lines)
    when that unit line lists no items: after a unit line that lists its own items, a
    "•" line means a unit line is missing, which is an error, not a merge."""

    def __init__(self, fields: dict[str, Any], drafts: list[UnitDraft], notes: list[str],
                 file: str | None, library: Library | None) -> None:
        self.fields, self.drafts, self.notes, self.file = fields, drafts, notes, file
        self.library = library
        self.generator: str | None = None
        self.section: str | None = None
        self.force: str | None = None
        self.forces = 0
        self.unit: UnitDraft | None = None  # the unit "•" model lines may belong to
        self.stated: tuple[int, int, int] | None = None  # section line, its points, units

    def close_section(self) -> None:
        """A section's stated points ("## Battleline [795 pts]") are its units' sum: a
        unit line lost would otherwise merge its model lines into the unit above."""
        if self.stated is None:
            return
        line, points, first = self.stated
        total = sum(d.points or 0 for d in self.drafts[first:])
        self.stated = None
        if total != points:
            raise RosterParseError(f"the section states {points} pts, its units add up to "
                                   f"{total} (a unit line missing?)", line, self.file)

    def line(self, number: int, line: str) -> None:
        fields, drafts, notes, file = self.fields, self.drafts, self.notes, self.file
        if not line:
            return
        title, head = _TITLE.match(line), _FORCE.match(line)
        sec, row, model = _SECTION.match(line), _UNIT.match(line), _MODEL.match(line)
        version = _VERSION.match(line)
        if number == 1 or (not drafts and title and "name" not in fields):
            if not title:
                raise RosterParseError("expected 'FACTION - NAME - [N pts]'", number, file)
            fields.update(faction=clean_faction(title.group("faction")),
                          name=title.group("name").strip() or "Army",
                          points_limit=int(title.group("pts")) or None)
        elif head:
            self.close_section()
            self.forces += 1
            self.force = None if self.forces == 1 else head.group("name")
            if self.forces == 1 and head.group("pts"):
                fields["declared_points"] = int(head.group("pts"))
            self.unit = None
        elif sec:
            self.close_section()
            self.section, self.unit = sec.group("name"), None
            if sec.group("pts") and self.section != "Configuration":
                self.stated = (number, int(sec.group("pts")), len(drafts))
        elif self.section == "Configuration" and ":" in line and not row:
            key, _, value = line.partition(":")
            if key.strip() == "Battle Size":
                size, limit = parse_battle_size(value)
                fields.update(battle_size=size, points_limit=limit or fields.get("points_limit"))
            elif key.strip().startswith("Detachment"):
                fields["detachments"].append(value.strip())
            else:
                notes.append(line)
        elif row:
            unit = UnitDraft(name=row.group("name").strip(), line=number,
                             points=int(row.group("pts")), section=self.section,
                             force=self.force)
            _items(row.group("items"), unit, unit.wargear)
            drafts.append(unit)
            self.unit = None if row.group("items").strip() else unit
        elif model:
            if self.unit is None:
                raise RosterParseError(
                    "a '•' model line under no unit line (a unit line missing?)", number, file)
            known = model_names(self.library, self.unit.name)
            said = name_key(model.group("name")).rstrip("s")
            # a model may be named by the end of its datasheet name ("Nob": "Boss Nob"),
            # as the official app writes it
            if known and not any(k.endswith(said) for k in known) \
                    and said != name_key(self.unit.name).rstrip("s"):
                raise RosterParseError(
                    f"{model.group('name').strip()!r} is not a model of "
                    f"{self.unit.name!r} (a unit line missing?)", number, file)
            gear: list[WargearItem] = []
            _items(model.group("items"), self.unit, gear)
            self.unit.entries.append(ModelEntry(name=model.group("name").strip(),
                                                count=int(model.group("count")),
                                                wargear=tuple(gear)))
        elif version:
            self.generator = version.group(1)
        else:
            raise RosterParseError(f"unrecognised line {line!r}", number, file)


def _wtc_header(lines: list[str], file: str | None) -> tuple[list[tuple[str, str, int]], int]:
    """The "+++" block: its (key as written, value, line) entries and the index of the
    first body line. Every line of the block starts with "+"; any other line means the
    closing "+++" line is missing (it would otherwise swallow the units)."""
    number = 0
    while number < len(lines) and not lines[number].strip():
        number += 1
    if number >= len(lines) or not lines[number].startswith("+++"):
        raise RosterParseError("expected the '+++' header", number + 1, file)
    first = number
    number += 1
    header: list[tuple[str, str, int]] = []
    while number < len(lines) and not lines[number].startswith("+++"):
        raw = lines[number]
        if raw.strip() and not raw.lstrip().startswith("+"):
            raise RosterParseError(f"line {raw.strip()[:60]!r} inside the '+++' header "
                                   "(the closing '+++' line is missing)", number + 1, file)
        body = raw.lstrip().lstrip("+").strip()
        if body:
            key, sep, value = body.partition(":")
            if not sep:
                raise RosterParseError("expected 'KEY: value'", number + 1, file)
            header.append((key.strip(), value.strip(), number + 1))  # as written
        number += 1
    if number >= len(lines):
        raise RosterParseError("the '+++' header is not closed", first + 1, file)
    return header, number + 1


def _wtc_fields(header: list[tuple[str, str, int]], fields: dict[str, Any],
                notes: list[str]) -> None:
    for written, value, _line in header:
        key, empty = written.upper(), value in ("", "—", "-")
        if key == "LIST NAME":
            fields["name"] = value or "Army"
        elif key == "FACTION KEYWORD":
            fields["faction"] = clean_faction(value)
        elif key == "DETACHMENT":
            fields["detachments"] = () if empty else tuple(
                d.strip() for d in re.split(r",| \+ ", value) if d.strip())
        elif key == "TOTAL ARMY POINTS":
            fields["declared_points"] = int(re.sub(r"\D", "", value) or 0)
        elif key == "POINTS LIMIT":
            limit = int(re.sub(r"\D", "", value) or 0)
            fields.update(points_limit=limit, battle_size=parse_battle_size(value)[0])
        elif key not in ("WARLORD", "ENHANCEMENT", "NUMBER OF UNITS", _EXPORTED):
            notes.append(f"{written}: {value}")  # as written: it reads back the same
    if fields.get("points_limit") and fields.get("battle_size") is None:
        from ..roster import battle_size_for_points

        fields["battle_size"] = battle_size_for_points(fields["points_limit"])


def _wtc_body(lines: list[str], start: int, file: str | None) -> list[UnitDraft]:
    """The unit lines. "N with ..." and "Enhancement:" lines belong to the unit line just
    above them (no blank line between); the "with" lines may not count more models than
    the unit line states (else a unit line is missing)."""
    drafts: list[UnitDraft] = []
    unit: UnitDraft | None = None
    section = None
    for index in range(start, len(lines)):
        line = lines[index].strip()
        if not line:
            unit = None
            continue
        with at_line(index + 1, file):
            row, with_ = _WTC_UNIT.match(line), _WITH.match(line)
            if row:
                unit = UnitDraft(name=row.group("name").strip(), line=index + 1,
                                 points=int(row.group("pts")), models=int(row.group("count")),
                                 section=section, label=row.group("label"))
                if row.group("items"):
                    _items(row.group("items"), unit, unit.wargear)
                drafts.append(unit)
            elif with_ or line.lower().startswith("enhancement:"):
                if unit is None:
                    raise RosterParseError(
                        f"{line[:40]!r} belongs to no unit line (a unit line missing?)",
                        index + 1, file)
                if with_:
                    gear: list[WargearItem] = []
                    _items(with_.group("items"), unit, gear)
                    unit.entries.append(ModelEntry(count=int(with_.group("count")),
                                                   wargear=tuple(gear)))
                    if sum(e.count for e in unit.entries) > (unit.models or 0):
                        raise RosterParseError(
                            f"more models than {unit.name!r} has ({unit.models}): a unit "
                            "line missing?", index + 1, file)
                else:
                    unit.enhancements.append(parse_enhancement(line.split(":", 1)[1]))
            elif _HEADING.match(line):
                section, unit = line, None
            else:
                raise RosterParseError(f"unrecognised line {line!r}", index + 1, file)
    return drafts


def _wtc_check(header: list[tuple[str, str, int]], drafts: list[UnitDraft],
               file: str | None) -> None:
    """The header's WARLORD, ENHANCEMENT and NUMBER OF UNITS agree with the units read:
    the header is the file's own account of its units, so a unit line lost or an
    enhancement that moved to another unit is reported, not merged."""
    labelled = {d.label: d for d in drafts if d.label}
    for written, value, line in header:
        key, empty = written.upper(), value in ("", "—", "-")
        if key == "NUMBER OF UNITS" and value.isdecimal() and int(value) != len(drafts):
            raise RosterParseError(f"the header counts {int(value)} units, the list has "
                                   f"{len(drafts)}", line, file)
        if key == "WARLORD" and not empty:
            label = value.partition(": ")[0]
            target = labelled.get(label) or next((d for d in drafts if d.name == value), None)
            marked = [d for d in drafts if d.warlord]
            if marked and target is not None and target not in marked:
                raise RosterParseError(f"the header's Warlord is {value!r}, line "
                                       f"{marked[0].line} marks {marked[0].name!r}", line, file)
            if target is not None:
                target.warlord = True
        if key == "ENHANCEMENT" and not empty:
            m = re.match(r"^(.*?)\s*\(on\s+(.*)\)\s*$", value)
            if not m:
                continue
            choice = parse_enhancement(m.group(1))
            where = m.group(2)
            label, _, _name = where.partition(":")
            target = labelled.get(label)
            holders = [d for d in drafts if any(e.name == choice.name for e in d.enhancements)]
            if holders and target is not None and target not in holders:
                holder = holders[0]
                raise RosterParseError(f"the header puts {choice.name!r} on {where!r}, line "
                                       f"{holder.line} on {holder.name!r}", line, file)
            if target is not None and not holders:
                target.enhancements.append(choice)


def parse_wtc(text: str, file: str | None = None) -> Roster:
    """Read a WTC text export, compact or full (module text)."""
    lines = text.splitlines()
    fields: dict[str, Any] = {"detachments": ()}
    notes: list[str] = []
    header, start = _wtc_header(lines, file)
    with at_line(1, file):
        _wtc_fields(header, fields, notes)
    drafts = _wtc_body(lines, start, file)
    _wtc_check(header, drafts, file)
    generator = next((value for key, value, _ in header if key.upper() == _EXPORTED),
                     None)
    return _finish(fields, drafts, WTC, file, generator, notes)


def _items_text(unit_items: tuple[WargearItem, ...], unit: RosterUnit | None,
                wtc: bool = False) -> str:
    parts: list[str] = []
    if unit is not None:
        if unit.warlord:
            parts.append("Warlord")
        if not wtc:
            parts += [enhancement_text(e, brackets=True) if e.points is not None
                      else f"Enhancement: {e.label()}" for e in unit.enhancements]
    parts += [w.name if w.count == 1 else str(w) for w in unit_items]
    return ", ".join(parts)


def dump_newrecruit_text(roster: Roster) -> str:
    """Write ``roster`` in New Recruit's "simple" layout."""
    limit = roster.limit if roster.limit is not None else 0
    out = [f"{roster.faction or 'Unknown'} - {roster.name} - [{limit} pts]", ""]
    total = roster.declared_points
    out.append("# ++ Army Roster ++" + (f" [{total} pts]" if total is not None else ""))
    out.append("## Configuration")
    if roster.battle_size:
        out.append(f"Battle Size: {roster.battle_size} ({roster.limit} Point limit)")
    out += [f"Detachment: {d}" for d in roster.detachments]
    section: str | None = None
    force: str | None = None
    for unit in roster.units:
        if unit.force != force:
            out += ["", f"# ++ {unit.force} ++"]
            force, section = unit.force, None
        if (unit.section or "Other Datasheets") != section:  # units of no section: one
            section = unit.section or "Other Datasheets"      # header, as read back
            out += ["", f"## {section}"]
        out += _simple_unit(unit)
    out.append("")
    out.append(f"Exported with tactica (rules {roster.rules})")
    return "\n".join(out) + "\n"


def _simple_unit(unit: RosterUnit) -> list[str]:
    """A unit's lines in the "simple" layout. A unit line that lists items takes no "•"
    model lines under it, so a unit with model lines, or of more than one model, writes
    its own items (Warlord, enhancements, unit wargear) on its first model line."""
    head = f"{unit.name} [{unit.points or 0} pts]:"
    entries = written_entries(unit)
    if not entries:
        return [f"{head} {_items_text(unit.wargear, unit)}".rstrip()]
    out = [head]
    for k, e in enumerate(entries):
        own = _items_text(unit.wargear, unit) if k == 0 else ""
        gear = _items_text(e.wargear, None)
        items = ", ".join(p for p in (own, gear) if p)
        out.append(f"• {e.count}x {e.name or unit.name}: {items}".rstrip())
    return out


def dump_wtc(roster: Roster, full: bool = False) -> str:
    """Write ``roster`` in the WTC layout (compact, or ``full`` with "N with" lines)."""
    labels: dict[str, str] = {}
    for unit in roster.units:
        if unit.warlord or unit.enhancements:
            labels[unit.id] = f"Char{len(labels) + 1}"
    bar = "+" * 47
    out = [bar, f"+ LIST NAME: {roster.name}", f"+ FACTION KEYWORD: {roster.faction or '—'}",
           f"+ DETACHMENT: {', '.join(roster.detachments) or '—'}"]
    if roster.declared_points is not None:
        out.append(f"+ TOTAL ARMY POINTS: {roster.declared_points}pts")
    if roster.limit is not None:
        out.append(f"+ POINTS LIMIT: {roster.limit}pts")
    out.append("+")
    warlords = [u for u in roster.units if u.warlord]
    out.append("+ WARLORD: " + (f"{labels[warlords[0].id]}: {warlords[0].name}"
                                if warlords else "—"))
    enhanced = [(u, e) for u in roster.units for e in u.enhancements]
    out += [f"+ ENHANCEMENT: {e.label()} (on {labels[u.id]}: {u.name})" for u, e in enhanced]
    if not enhanced:
        out.append("+ ENHANCEMENT: —")
    out += [f"+ NUMBER OF UNITS: {len(roster.units)}",
            *(f"+ {n}" for n in roster.notes
              if ": " in n and not n.upper().startswith(_EXPORTED)),
            f"+ {_EXPORTED}: tactica {tool_version()} (rules {roster.rules})", bar, ""]
    section: str | None = None
    for unit in roster.units:
        if full and unit.section and unit.section != section:
            out += [unit.section.upper(), ""]
            section = unit.section
        label = f"{labels[unit.id]}: " if unit.id in labels else ""
        head = f"{label}{unit.models}x {unit.name} ({unit.points or 0} pts)"
        if full:
            out.append(head)
            entries = list(unit.model_entries)  # the head line states the model count
            if entries:  # the unit's own wargear goes with its first model
                entries[0] = entries[0].model_copy(
                    update={"wargear": (*unit.wargear, *entries[0].wargear)})
            if not entries and (unit.wargear or unit.warlord):
                out.append(f"{unit.models} with {_items_text(unit.wargear, unit, wtc=True)}")
            elif unit.warlord:
                first = entries.pop(0)
                out.append(f"{first.count} with Warlord"
                           + "".join(f", {w.name if w.count == 1 else w}" for w in first.wargear))
            out += [f"{e.count} with {_items_text(e.wargear, None)}" for e in entries]
        else:
            items = _items_text(unit.wargear, unit, wtc=True)
            out.append(f"{head}: {items}" if items else head)
            out += [f"{e.count} with {_items_text(e.wargear, None)}" for e in unit.model_entries]
        out += [f"Enhancement: {enhancement_text(e)}" for e in unit.enhancements]
        if full:
            out.append("")
    return "\n".join(out) + "\n"
