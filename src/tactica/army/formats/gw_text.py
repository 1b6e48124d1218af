"""The official Warhammer 40,000 app's text export ("Exported with App Version ...").

Layout (both editions; the 11th-edition app adds detachment points, a Force Disposition,
several detachments and an "Attached Units" block)::

    LIST NAME (2000 points)

    Genestealer Cults
    Host of Ascension (3 Detachment Points)      <- 10th: "Xenocreed Congregation"
    Take and Hold                                 <- 11th: the Force Disposition
    Strike Force (2000 points)

    Attached Units                                <- 11th only
    Attached Unit 1

    Primus (70 points)
    • Attached as: Leader (Character)
    • Warlord
    • 1x Cult bonesword ...

    CHARACTERS

    Acolyte Iconward (75 points)
      • 1x Autopistol
        1x Cult claws
      • Enhancement: Deeds that Speak to the Masses

    Exported with App Version: v1.45.0 (105), Data Version: v720

Inside a unit, "• Nx Model" lines are followed by that model's "• Nx Item" lines. The
10th-edition app shows this by indentation; the 11th-edition export (as stored) has lost
the indentation, so a flat list of groups is read as model, wargear, model, wargear...
(where the groups do not fit that pattern, the library's model names decide, and without
them the groups are one model's wargear). A group that is alone is the wargear of a
one-model unit. An unknown "•" line is an error with its line number.

A WTC-style header ("+++ ... +++", 40kdc-data's ``gw.txt``) may stand in for the app's
header; its WARLORD and ENHANCEMENT lines are used when the body does not give them.

The export writes the 10th-edition style (indented, unambiguous), an "Attached Units"
block for attached units, and ``Exported with tactica VERSION (rules 11th)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tactica.library import Library
from tactica.model.common import RulesVersion
from tactica.names import name_key

from ..roster import Roster, RosterSource, RosterUnit, WargearItem, parse_battle_size
from ._common import (
    EDITIONS,
    FORCE_DISPOSITIONS,
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
    tool_version,
    written_entries,
)

__all__ = ["FORMAT", "dump_gw_text", "parse_gw_text"]

FORMAT = "gw-text"

_TITLE = re.compile(r"^(?P<name>.*?)\s*\((?P<pts>\d[\d,]*)\s*(?:points|pts)\)\s*$", re.I)
_UNIT = _TITLE
_DP = re.compile(r"^(?P<names>.+?)\s*\((?P<dp>\d+)\s*Detachment Points?\)\s*$", re.I)
_ITEM = re.compile(r"^\d+\s*x\s+\S")
_ATTACHED = re.compile(r"^Attached as:\s*(Leader|Support|Bodyguard)\b", re.I)
_ENH_PTS = re.compile(r"\(\s*\+\s*\d+\s*pts?\s*\)\s*$", re.I)
_FOOTER = re.compile(r"^Exported with\s+(.*)$", re.I)
_SECTION = re.compile(r"^[A-Z][A-Z0-9 '’&\-/]*[A-Z]$")
_SIZE_LINE = re.compile(r"^(?:Combat Patrol|Incursion|Strike Force|Onslaught|Points limit)\s*"
                        r"\(\s*\d[\d,]*\s*(?:points|pts)\s*\)$", re.I)


@dataclass
class _Line:
    number: int
    indent: int
    bullet: bool
    text: str


@dataclass
class _Group:
    line: int
    indent: int
    items: list[WargearItem] = field(default_factory=list)


def _lines(text: str) -> list[_Line]:
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped:
            out.append(_Line(number, 0, False, ""))
            continue
        indent = len(raw) - len(raw.lstrip())
        bullet = stripped.startswith("•")
        body = stripped[1:].strip() if bullet else stripped
        out.append(_Line(number, indent, bullet, body))
    return out


def _split_detachments(names: str, library: Library | None) -> list[str]:
    """"A, B and C" -> [A, B, C], unless the whole string is a known detachment."""
    if library is not None:
        known = {name_key(e.detachment) for e in library.enhancements()}
        if name_key(names) in known:
            return [names.strip()]
    parts = re.split(r",\s*|\s+and\s+", names)
    return [p.strip() for p in parts if p.strip()]


class _Parser:
    def __init__(self, text: str, file: str | None, library: Library | None) -> None:
        self.lines = _lines(text)
        self.file = file
        self.library = library
        self.pos = 0
        self.roster: dict[str, object] = {}
        self.detachments: list[str] = []
        self.notes: list[str] = []
        self.units: list[UnitDraft] = []
        self.header: dict[str, list[str]] = {}
        self.generator: str | None = None
        #: the 11th-edition app groups a model's items under one "•" line; 40kdc's gw.txt
        #: gives every item its own "•" line
        self.grouped = any(not ln.bullet and ln.text and _ITEM.match(ln.text)
                           for ln in self.lines)

    def error(self, message: str, line: int) -> RosterParseError:
        return RosterParseError(message, line, self.file)

    def skip_blank(self) -> None:
        while self.pos < len(self.lines) and not self.lines[self.pos].text:
            self.pos += 1

    # -- header -----------------------------------------------------------------------
    def wtc_header(self) -> None:
        first = self.lines[self.pos]
        self.pos += 1
        while self.pos < len(self.lines):
            line = self.lines[self.pos]
            self.pos += 1
            if line.text.startswith("+++"):
                return
            if line.text and not line.text.startswith("+"):
                raise self.error(f"line {line.text[:60]!r} inside the '+++' header (the "
                                 "closing '+++' line is missing)", line.number)
            body = line.text.lstrip("+").strip()
            if not body:
                continue
            key, sep, value = body.partition(":")
            if not sep:
                raise self.error("expected 'KEY: value' in the list header", line.number)
            self.header.setdefault(key.strip().upper(), []).append(value.strip())
        raise self.error("the '+++' header is not closed", first.number)

    def apply_wtc_header(self) -> None:
        for key, values in self.header.items():
            value = values[0]
            if key == "LIST NAME":
                self.roster["name"] = value
            elif key == "FACTION KEYWORD":
                self.roster["faction"] = clean_faction(value)
            elif key == "DETACHMENT" and value not in ("", "—", "-"):
                rule = re.search(r"\s*\(([^()]+)\)\s*$", value)
                if rule:
                    self.notes.append(f"detachment {value!r}: read as "
                                      f"{value[: rule.start()]!r} (choice: {rule.group(1)})")
                    value = value[: rule.start()]
                self.detachments.append(value.strip())
            elif key == "TOTAL ARMY POINTS":
                self.roster["declared_points"] = int(re.sub(r"\D", "", value) or 0)
            elif key == "POINTS LIMIT":
                self.roster["points_limit"] = int(re.sub(r"\D", "", value) or 0)
            elif key not in ("WARLORD", "ENHANCEMENT", "NUMBER OF UNITS"):
                self.notes.extend(f"{key}: {v}" for v in values)

    def app_header(self) -> None:
        line = self.lines[self.pos]
        match = _TITLE.match(line.text)
        if not match:
            raise self.error("expected the list title 'NAME (N points)'", line.number)
        self.roster["name"] = match.group("name").strip()
        self.roster["declared_points"] = int(match.group("pts").replace(",", ""))
        self.pos += 1
        plain: list[str] = []
        self.skip_blank()
        while self.pos < len(self.lines):  # the header is the block of lines after the title
            line = self.lines[self.pos]
            if not line.text or self.is_section(line) or line.text == "Attached Units":
                break
            self.pos += 1
            if line.bullet:
                raise self.error("a '•' line before the first unit", line.number)
            dp = _DP.match(line.text)
            if _SIZE_LINE.match(line.text):
                size, limit = parse_battle_size(line.text)
                self.roster["battle_size"] = size
                self.roster["points_limit"] = limit
            elif dp:
                self.detachments.extend(_split_detachments(dp.group("names"), self.library))
                self.roster["detachment_points"] = int(dp.group("dp"))
                self.roster["rules"] = "11th"
            elif line.text in FORCE_DISPOSITIONS:
                self.roster["force_disposition"] = line.text
            elif "faction" not in self.roster:
                self.roster["faction"] = clean_faction(line.text)
            else:
                plain.append(line.text)
        self.detachments.extend(plain)

    @staticmethod
    def is_section(line: _Line) -> bool:
        return not line.bullet and bool(_SECTION.match(line.text))

    # -- body -------------------------------------------------------------------------
    def body(self) -> None:
        section: str | None = None
        group: int | None = None
        while self.pos < len(self.lines):
            line = self.lines[self.pos]
            if not line.text:
                self.pos += 1
                continue
            footer = _FOOTER.match(line.text)
            if footer:
                self.generator = footer.group(1).strip()
                self.pos += 1
            elif line.text == "Attached Units":
                section, group = None, 0
                self.pos += 1
            elif re.match(r"^Attached Unit \d+$", line.text):
                group = int(line.text.split()[-1])
                self.pos += 1
            elif self.is_section(line):
                section, group = line.text, None
                self.pos += 1
            elif not line.bullet and _UNIT.match(line.text):
                self.unit(section, group)
            else:
                raise self.error(f"unrecognised line {line.text!r}", line.number)

    def unit(self, section: str | None, group: int | None) -> None:
        head = self.lines[self.pos]
        match = _UNIT.match(head.text)
        assert match is not None
        draft = UnitDraft(name=match.group("name").strip(), line=head.number,
                          points=int(match.group("pts").replace(",", "")), section=section,
                          group=group)
        self.pos += 1
        groups: list[_Group] = []
        while self.pos < len(self.lines):
            line = self.lines[self.pos]
            if not line.text or (not line.bullet and not _ITEM.match(line.text)):
                break
            self.pos += 1
            with at_line(line.number, self.file):
                if not line.bullet:
                    if not groups:
                        raise self.error(f"item {line.text!r} outside a '•' line",
                                         line.number)
                    groups[-1].items.append(parse_item(line.text))
                elif _ITEM.match(line.text):
                    groups.append(_Group(line.number, line.indent, [parse_item(line.text)]))
                else:
                    self.special(draft, line)
        with at_line(head.number, self.file):
            self.assign(draft, groups)
        self.units.append(draft)

    def special(self, draft: UnitDraft, line: _Line) -> None:
        text = line.text
        parts = [p.strip() for p in text.split(",")] if "," in text else [text]
        if len(parts) > 1 and not all(p == "Warlord" or p.endswith("Character") for p in parts):
            parts = [text]
        for part in parts:
            attached = _ATTACHED.match(part)
            if part == "Warlord":
                draft.warlord = True
            elif part.lower().startswith("enhancement:"):
                draft.enhancements.append(parse_enhancement(part.split(":", 1)[1]))
            elif _ENH_PTS.search(part):
                draft.enhancements.append(parse_enhancement(part))
            elif attached:
                draft.role = attached.group(1).lower()
            elif part.endswith("Character"):
                draft.markers.append(part)
            else:
                raise self.error(f"unrecognised unit line {part!r}", line.number)

    def model_names(self, name: str) -> set[str]:
        return model_names(self.library, name)

    def assign(self, draft: UnitDraft, groups: list[_Group]) -> None:
        """Split item groups into model entries and unit wargear (module text)."""
        from ..roster import ModelEntry

        if not groups:
            return
        base = min(g.indent for g in groups)
        own = {name_key(draft.name).rstrip("s")}
        if all(len(g.items) == 1 and name_key(g.items[0].name).rstrip("s") in own
               for g in groups):  # model lines named as the unit, without wargear
            draft.entries.extend(ModelEntry(name=g.items[0].name, count=g.items[0].count)
                                 for g in groups)
            return
        if any(g.indent > base for g in groups):  # indented (10th-edition app)
            current: ModelEntry | None = None
            for index, g in enumerate(groups):
                if g.indent == base:
                    if current is not None:
                        draft.entries.append(current)
                        current = None
                    nxt = index + 1
                    deeper = nxt < len(groups) and groups[nxt].indent > base
                    named = name_key(g.items[0].name).rstrip("s") in own
                    if len(g.items) == 1 and (deeper or named):
                        model = g.items[0]
                        current = ModelEntry(name=model.name, count=model.count)
                    else:
                        draft.wargear.extend(g.items)
                elif current is not None:
                    current = current.model_copy(
                        update={"wargear": (*current.wargear, *g.items)})
                else:
                    raise self.error("an indented item under no model", g.line)
            if current is not None:
                draft.entries.append(current)
            return
        if len(groups) == 1 or not self.grouped:
            draft.wargear.extend(item for g in groups for item in g.items)
            return
        flags = [i % 2 == 0 for i in range(len(groups))]
        if len(groups) % 2 or any(len(g.items) != 1 for g in groups[::2]):
            known = self.model_names(draft.name)  # not model, wargear, model, wargear...
            flags = [len(g.items) == 1 and name_key(g.items[0].name).rstrip("s") in known
                     for g in groups]
            if not any(flags):
                draft.wargear.extend(item for g in groups for item in g.items)
                return
        if not flags[0] or any(f and len(g.items) != 1 for f, g in zip(flags, groups, strict=True)):
            raise self.error(f"cannot tell models from wargear in {draft.name!r}", groups[0].line)
        for flag, g in zip(flags, groups, strict=True):
            if flag:
                draft.entries.append(ModelEntry(name=g.items[0].name, count=g.items[0].count))
            else:
                last = draft.entries[-1]
                draft.entries[-1] = last.model_copy(
                    update={"wargear": (*last.wargear, *g.items)})

    # -- result -----------------------------------------------------------------------
    def roster_of(self) -> Roster:
        by_name = {}
        for value in self.header.get("WARLORD", []):
            by_name["warlord"] = re.sub(r"^Char\d+:\s*", "", value).strip()
        if not any(u.warlord for u in self.units) and by_name.get("warlord") not in (None, "—"):
            unit = next((u for u in self.units if u.name == by_name["warlord"]), None)
            if unit is not None:
                unit.warlord = True
        for value in self.header.get("ENHANCEMENT", []):
            m = re.match(r"^(.*?)\s*\(on\s+(?:Char\d+:\s*)?(.*)\)\s*$", value)
            if not m:
                continue
            enh = parse_enhancement(m.group(1))
            if any(name_key(e.name) == name_key(enh.name) for u in self.units
                   for e in u.enhancements):
                continue
            unit = next((u for u in self.units if u.name == m.group(2).strip()), None)
            if unit is not None:
                unit.enhancements.append(enh)
        ids = {id(d): f"u{i}" for i, d in enumerate(self.units, start=1)}
        built = []
        for draft in self.units:
            attached_to = None
            if draft.group is not None and draft.role in ("leader", "support"):
                guard = next((u for u in self.units if u.group == draft.group
                              and u.role == "bodyguard"), None)
                if guard is None:
                    raise self.error(f"attached unit {draft.group} has no bodyguard",
                                     draft.line or 0)
                attached_to = ids[id(guard)]
            with at_line(draft.line or 1, self.file):
                built.append(draft.build(ids[id(draft)], attached_to))
        rules: RulesVersion = "11th"
        stated = self.roster.get("rules")
        if isinstance(stated, str) and stated in EDITIONS:
            rules = EDITIONS[stated]
        elif self.generator and "App Version: v1." in self.generator:
            rules = "10th"
        elif (named := rules_from_text(self.generator)) is not None:
            rules = named
        fields = {k: v for k, v in self.roster.items() if k != "rules"}
        return build_roster({
            **fields, "rules": rules, "detachments": tuple(self.detachments),
            "units": tuple(built), "embarkation_recorded": False, "notes": tuple(self.notes),
            "source": RosterSource(format=FORMAT, file=self.file, generated_by=self.generator),
        }, self.file, [d.line for d in self.units])


def parse_gw_text(text: str, file: str | None = None, library: Library | None = None) -> Roster:
    """Read an app text export (module text). ``library`` helps tell model lines from
    wargear lines in the 11th-edition layout; it is optional."""
    parser = _Parser(text, file, library)
    parser.skip_blank()
    if parser.pos >= len(parser.lines):
        raise RosterParseError("empty list", 1, file)
    if parser.lines[parser.pos].text.startswith("+++"):
        parser.wtc_header()
        with at_line(parser.lines[0].number, file):
            parser.apply_wtc_header()
    else:
        with at_line(parser.lines[parser.pos].number, file):
            parser.app_header()
    parser.body()
    return parser.roster_of()


def _unit_lines(unit: RosterUnit, role: str | None) -> list[str]:
    out = [f"{unit.name} ({unit.points if unit.points is not None else 0} points)"]
    if role is not None:
        out.append(f"• Attached as: {role}")
    out.extend(f"• {m}" for m in unit.markers)
    if unit.warlord:
        out.append("• Warlord")
    entries = written_entries(unit)
    if entries:  # the unit's own wargear goes with its first model
        first = entries[0]
        entries[0] = first.model_copy(update={"wargear": (*unit.wargear, *first.wargear)})
    elif unit.wargear:
        out.append("  • " + "\n    ".join(str(w) for w in unit.wargear))
    for entry in entries:  # a model without wargear is named as its unit
        name = entry.name if entry.name and entry.wargear else unit.name
        out.append(f"  • {entry.count}x {name}")
        if entry.wargear:
            out.append("    • " + "\n      ".join(str(w) for w in entry.wargear))
    out.extend(f"• Enhancement: {enhancement_text(e)}" for e in unit.enhancements)
    return out


def dump_gw_text(roster: Roster) -> str:
    """Write ``roster`` in the app's text layout (module text)."""
    total = roster.declared_points if roster.declared_points is not None else sum(
        u.points or 0 for u in roster.units)
    out = [f"{roster.name} ({total} points)", ""]
    if roster.faction:
        out.append(roster.faction)
    if roster.detachments:
        if roster.detachment_points is not None:
            names = roster.detachments
            joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
            out.append(f"{joined} ({roster.detachment_points} Detachment Points)")
        else:
            out.extend(roster.detachments)
    if roster.force_disposition:
        out.append(roster.force_disposition)
    if roster.battle_size:
        out.append(f"{roster.battle_size} ({roster.limit} points)")
    elif roster.points_limit is not None:
        out.append(f"Points limit ({roster.points_limit} points)")
    out.append("")
    groups: list[str] = []
    for unit in roster.units:
        if unit.attached_to is not None and unit.attached_to not in groups:
            groups.append(unit.attached_to)
    placed: set[str] = set()
    if groups:
        out += ["Attached Units"]
        for n, guard_id in enumerate(groups, start=1):
            out += [f"Attached Unit {n}", ""]
            for member in roster.attached(guard_id):
                role = member.attach_role.title() if member.attach_role else "Leader"
                out += [*_unit_lines(member, role), ""]
                placed.add(member.id)
            out += [*_unit_lines(roster.unit(guard_id), "Bodyguard"), ""]
            placed.add(guard_id)
    section: str | None = None
    for unit in roster.units:
        if unit.id in placed:
            continue
        heading = unit.section.upper() if unit.section else None
        if heading is None and section is not None:
            heading = "OTHER DATASHEETS"  # a unit without a heading after a headed one
        if heading is not None and heading != section:
            out += ["", heading, ""]
            section = heading
        out += [*_unit_lines(unit, None), ""]
    out.append(f"Exported with tactica {tool_version()} (rules {roster.rules})")
    return "\n".join(out) + "\n"
