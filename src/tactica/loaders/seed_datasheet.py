"""The datasheet part of a seed page: title, weapon tables, abilities, composition, points,
leader list, damaged profile, transport, wargear options and keywords.

Traps handled (rules_inventory.md §0 and §A):

* 003 has no title line and no section headings (rows without a leading ``|``);
* 000 runs two unit abilities together on one line ("...to the Hit roll.Decoys and
  Misdirection: If your army...");
* core abilities carry parameters ("CORE: Deadly Demise D6+2, Firing Deck 12");
* points rows ``| 5 models | 70 |`` (003: ``10 models | 90 |``) and the escalating form
  (``| YOUR 1ST TO 3RD UNITS COST | |`` then its rows, ``| YOUR 4TH + UNIT COSTS | |``...);
* the Primus's LEADER section lists no units;
* ``DAMAGED: 1-8 WOUNDS REMAINING``: the modifiers are read from the text;
* ``KEYWORDS:`` separated by ``;`` (new layout) or ``,`` (old); the ``FACTION KEYWORDS:``
  value is printed twice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..dice import DiceError, DiceExpr
from ..model.common import Source
from ..model.datasheet import (
    Ability,
    CompositionLine,
    DamagedProfile,
    EscalatingPoints,
    PointsBracket,
    PointsTier,
    TransportCapacity,
    Weapon,
)
from .errors import LoadError
from .seed_text import CP_LINE, KNOWN_TITLES, key, parse_numbered
from .seed_weapons import TABLE_HEADER, group_weapons, parse_weapon_rows, uses_brackets

__all__ = ["LIST_HEADINGS", "Head", "Line", "parse_head"]

Line = tuple[int, str]

#: The page's lists between the datasheet and the tooltips.
LIST_HEADINGS = ("STRATAGEMS", "DETACHMENT ABILITY", "ENHANCEMENTS")
_SECTIONS = ("ABILITIES", "WARGEAR OPTIONS", "UNIT COMPOSITION", "LEADER", "TRANSPORT",
             "FACTION KEYWORDS:")
_TITLE = re.compile(r"^(?P<faction>[^|–]+?) – (?P<name>[^|]+)$")
_POINTS = re.compile(r"^\|?\s*(?P<models>\d+) models?\s*\|\s*(?P<points>\d+)\s*\|$")
_TIER = re.compile(r"^\|\s*(?P<label>YOUR [^|]+?)\s*\|\s*\|$")
_TIER_RANGE = re.compile(
    r"^YOUR (?P<first>\d+)(?:ST|ND|RD|TH)(?: TO (?P<last>\d+)(?:ST|ND|RD|TH)| ?(?P<plus>\+))?"
    r" UNITS? COSTS?$"
)
_COMPOSITION = re.compile(r"^- (?P<min>\d+)(?:\s*[-–]\s*(?P<max>\d+))? (?P<model>\S.*)$")
_ABILITY = re.compile(r"^(?P<name>[A-Z][\w’'()\- ]{1,60}?): (?P<text>\S.*)$")
_GLUED_ABILITY = re.compile(r"(?<=[.!?])(?=[A-Z][\w’'()\- ]{1,60}: )")
_NOT_ABILITY_NAMES = frozenset({"Example", "Designer’s Note", "Designer's Note"})
# a trailing value that looks like a number or dice ("D6+2", "12", "5+"; "2D" is then an error)
_PARAM = re.compile(r"^(?P<name>.+?) (?P<value>\d*D\d*(?:\+\d+)?|\d+)(?P<plus>\+)?\"?$")
_DAMAGED = re.compile(r"^DAMAGED: (?P<min>\d+)\s*[-–]\s*(?P<max>\d+) WOUNDS? REMAINING$")
_CAPACITY = re.compile(r"transport capacity of (?P<n>\d+) (?P<kw>[A-Z][A-Z \-]*[A-Z]) models?")
_MULTIWORD = ("ASTRA MILITARUM", "GENESTEALER CULTS", "GREAT DEVOURER", "VANGUARD INVADER",
              "DEDICATED TRANSPORT", "HEAVY WEAPONS TEAM")
_SIGNED = {"add": 1, "subtract": -1}
_OC_MOD = re.compile(r"(?P<op>add|subtract) (?P<n>\d+) (?:to|from) (?:its|the|this model’s) "
                     r"Objective Control characteristic")
_HIT_MOD = re.compile(r"(?P<op>add|subtract) (?P<n>\d+) (?:to|from) the Hit roll")


@dataclass
class Head:
    """What the datasheet part of a page holds, before it becomes a ``Datasheet``."""

    name: str | None = None
    title_line: int | None = None
    weapons: tuple[Weapon, ...] = ()
    abilities: list[Ability] = field(default_factory=list)
    composition: list[tuple[int, CompositionLine]] = field(default_factory=list)
    points: tuple[PointsBracket, ...] | EscalatingPoints = ()
    leader_of: tuple[str, ...] | None = None  # None: no LEADER section
    leader_line: int | None = None
    transport: TransportCapacity | None = None
    damaged: DamagedProfile | None = None
    wargear_options: tuple[str, ...] = ()
    keywords: tuple[str, ...] | None = None  # None: no KEYWORDS line
    keyword_separator: str | None = None
    faction_keywords: tuple[str, ...] = ()
    end: int = 0  # index of the first line after the datasheet


def _is_section(text: str) -> bool:
    return (
        text in _SECTIONS
        or text in LIST_HEADINGS
        or text.startswith(("KEYWORDS:", "DAMAGED:"))
        or bool(TABLE_HEADER.match(text))
    )


def _body(lines: list[Line], i: int) -> tuple[list[Line], int]:
    """The lines from ``i`` up to the next section heading."""
    j = i
    while j < len(lines) and not _is_section(lines[j][1]):
        j += 1
    return lines[i:j], j


def _split_keywords(text: str, extra: tuple[str, ...]) -> tuple[str, ...]:
    """"ASTRA MILITARUM INFANTRY" -> ("ASTRA MILITARUM", "INFANTRY")."""
    out: list[str] = []
    rest = text.split()
    multi = sorted({*_MULTIWORD, *extra}, key=lambda k: -len(k.split()))
    while rest:
        for kw in multi:
            n = len(kw.split())
            if rest[:n] == kw.split():
                out.append(kw)
                rest = rest[n:]
                break
        else:
            out.append(rest.pop(0))
    return tuple(out)


class _HeadReader:
    def __init__(self, file: str, lines: list[Line]) -> None:
        self.file = file
        self.lines = lines
        self.head = Head()
        self.table_rows: list[tuple[str, list[Line]]] = []

    def error(self, line: Line, problem: str) -> LoadError:
        return LoadError(self.file, line[0], line[1], problem)

    def src(self, line: int) -> Source:
        return Source(file=self.file, line=line)

    def read(self) -> Head:
        lines, i = self.lines, 0
        if lines and not TABLE_HEADER.match(lines[0][1]):
            m = _TITLE.match(lines[0][1])
            if m:
                self.head.name = m["name"].strip()
                self.head.title_line = lines[0][0]
                i = 1
        while i < len(lines):
            no, text = lines[i]
            if m := TABLE_HEADER.match(text):
                rows, i = self._rows(i + 1)
                self.table_rows.append((m["kind"], rows))
            elif text == "WARGEAR OPTIONS":
                body, i = _body(lines, i + 1)
                self.head.wargear_options = self._wargear(body)
            elif text == "ABILITIES":
                body, i = _body(lines, i + 1)
                self._abilities(body)
            elif text == "UNIT COMPOSITION":
                body, i = _body(lines, i + 1)
                self._composition(body)
            elif _POINTS.match(text) or _TIER.match(text):  # 003: points without a section
                body, i = self._points_rows(i)
                self._points(body)
            elif text == "LEADER":
                body, i = _body(lines, i + 1)
                self._leader(no, body)
            elif m := _DAMAGED.match(text):
                body, i = _body(lines, i + 1)
                self._damaged((no, text), m, body)
            elif text == "TRANSPORT":
                body, i = _body(lines, i + 1)
                self._transport((no, text), body)
            elif text.startswith("KEYWORDS:"):
                value = text.removeprefix("KEYWORDS:").strip()
                sep = ";" if ";" in value else ","
                self.head.keyword_separator = sep
                self.head.keywords = tuple(k.strip() for k in value.split(sep) if k.strip())
                i += 1
            elif text == "FACTION KEYWORDS:":
                i = self._faction_keywords(i + 1)
            else:
                break
        self.head.end = i
        self._weapons()
        if self.head.transport is not None and self.head.transport.keywords:
            # split the capacity keywords once the faction keywords (printed later) are known
            m = _CAPACITY.search(self.head.transport.text)
            assert m is not None
            self.head.transport = self.head.transport.model_copy(
                update={"keywords": _split_keywords(m["kw"], self.head.faction_keywords)}
            )
        return self.head

    # --- weapons --------------------------------------------------------------------------
    def _rows(self, i: int) -> tuple[list[Line], int]:
        j = i
        while j < len(self.lines) and "|" in self.lines[j][1] and not (
            _is_section(self.lines[j][1])
            or _POINTS.match(self.lines[j][1])
            or _TIER.match(self.lines[j][1])
        ):
            j += 1
        return self.lines[i:j], j

    def _weapons(self) -> None:
        every_row = [row for _, rows in self.table_rows for row in rows]
        bare = not uses_brackets(every_row)
        rows = []
        for kind, table in self.table_rows:
            melee = kind == "MELEE"
            rows.extend(parse_weapon_rows(self.file, table, "MELEE" if melee else "RANGED", bare))
        self.head.weapons = group_weapons(rows)

    # --- sections -------------------------------------------------------------------------
    def _wargear(self, body: list[Line]) -> tuple[str, ...]:
        """Options are sentences; a sentence ending in ":" takes the phrases after it (the
        capture flattened the nested list: "- This model can be equipped with one of the
        following:" / "- 2 lascannons and 2 twin heavy bolters" / ...)."""
        options: list[str] = []
        for line in body:
            text = line[1]
            if not text.startswith("- "):
                raise self.error(line, "wargear option lines start with '- '")
            item = text[2:].strip()
            nested = options and options[-1].split("\n")[0].endswith(":")
            if nested and not item.endswith((".", ":")):
                options[-1] += f"\n- {item}"
            else:
                options.append(item)
        return tuple(options)

    def _abilities(self, body: list[Line]) -> None:
        for no, text in body:
            if text.startswith(("CORE:", "FACTION:")):
                kind = "core" if text.startswith("CORE:") else "faction"
                for part in text.split(":", 1)[1].split(","):
                    self.head.abilities.append(self._parameterised(no, text, kind, part.strip()))
                continue
            for piece in _GLUED_ABILITY.split(text):
                m = _ABILITY.match(piece)
                if m is None:
                    raise self.error((no, text), "ability line is not 'Name: text'")
                if self.head.abilities and m["name"] in _NOT_ABILITY_NAMES:
                    prev = self.head.abilities[-1]
                    self.head.abilities[-1] = prev.model_copy(
                        update={"text": f"{prev.text}{piece}"}
                    )
                    continue
                self.head.abilities.append(
                    Ability(name=m["name"].strip(), kind="unit", text=m["text"].strip(),
                            source=self.src(no))
                )

    def _parameterised(self, no: int, text: str, kind: str, part: str) -> Ability:
        """"Deadly Demise D6+2" -> Deadly Demise with parameter D6+2; "Leader" -> Leader."""
        if not part:
            raise self.error((no, text), f"empty {kind} ability in the list")
        m = _PARAM.match(part)
        parameter = None
        name = part
        if m:
            name = m["name"]
            try:
                parameter = DiceExpr.parse(m["value"])
            except DiceError as exc:
                raise self.error((no, text), str(exc)) from None
        return Ability.model_validate(
            {"name": name, "kind": kind, "parameter": parameter, "source": self.src(no)}
        )

    def _composition(self, body: list[Line]) -> None:
        rest: list[Line] = []
        for line in body:
            m = _COMPOSITION.match(line[1])
            if m and not rest:
                low = int(m["min"])
                high = int(m["max"]) if m["max"] else low
                if high < low:
                    raise self.error(line, f"composition range {low}-{high} is reversed")
                self.head.composition.append(
                    (line[0], CompositionLine(model=m["model"].strip(), min=low, max=high))
                )
            else:
                rest.append(line)
        self._points(rest)

    def _points_rows(self, i: int) -> tuple[list[Line], int]:
        j = i
        while j < len(self.lines) and (
            _POINTS.match(self.lines[j][1]) or _TIER.match(self.lines[j][1])
        ):
            j += 1
        return self.lines[i:j], j

    def _points(self, body: list[Line]) -> None:
        """Plain rows, or tiers: a "YOUR 1ST TO 3RD UNITS COST" row then its brackets."""
        if not body:
            return
        if self.head.points:
            raise self.error(body[0], "points given twice")
        tiers: list[tuple[Line, int, int | None, list[PointsBracket]]] = []
        plain: list[PointsBracket] = []
        for line in body:
            if m := _TIER.match(line[1]):
                r = _TIER_RANGE.match(m["label"])
                if r is None:
                    raise self.error(line, "unreadable escalating-cost row")
                first = int(r["first"])
                last = int(r["last"]) if r["last"] else (None if r["plus"] else first)
                tiers.append((line, first, last, []))
            elif m := _POINTS.match(line[1]):
                bracket = PointsBracket(models=int(m["models"]), points=int(m["points"]))
                (tiers[-1][3] if tiers else plain).append(bracket)
            else:
                raise self.error(line, "expected a points row '| N models | points |'")
        if tiers and plain:
            raise self.error(body[0], "points rows before the first escalating-cost row")
        if not tiers:
            self.head.points = tuple(plain)
            return
        for line, _, _, brackets in tiers:
            if not brackets:
                raise self.error(line, "escalating-cost row without points rows")
        self.head.points = EscalatingPoints(
            tiers=tuple(PointsTier(first=f, last=la, brackets=tuple(b)) for _, f, la, b in tiers)
        )

    def _leader(self, no: int, body: list[Line]) -> None:
        units: list[str] = []
        for line in body:
            if line[1].startswith("- "):
                units.append(line[1][2:].strip())
            elif not line[1].startswith("This model can be attached to"):
                raise self.error(line, "unexpected line in the LEADER section")
        self.head.leader_of = tuple(units)
        self.head.leader_line = no

    def _damaged(self, header: Line, m: re.Match[str], body: list[Line]) -> None:
        if not body:
            raise self.error(header, "DAMAGED section without text")
        text = "\n".join(t for _, t in body)
        oc = sum(_SIGNED[x["op"]] * int(x["n"]) for x in _OC_MOD.finditer(text))
        hit = sum(_SIGNED[x["op"]] * int(x["n"]) for x in _HIT_MOD.finditer(text))
        self.head.damaged = DamagedProfile(
            min_wounds=int(m["min"]), max_wounds=int(m["max"]), hit_modifier=hit,
            oc_modifier=oc, text=text, source=self.src(header[0]),
        )

    def _transport(self, header: Line, body: list[Line]) -> None:
        if not body:
            raise self.error(header, "TRANSPORT section without text")
        text = "\n".join(t for _, t in body)
        m = _CAPACITY.search(text)
        self.head.transport = TransportCapacity(
            capacity=int(m["n"]) if m else None,
            keywords=_split_keywords(m["kw"], self.head.faction_keywords) if m else (),
            text=text,
            source=self.src(header[0]),
        )

    def _faction_keywords(self, i: int) -> int:
        """The value lines (printed twice) up to the next section or rule heading."""
        values: list[str] = []
        j = i
        while j < len(self.lines):
            text = self.lines[j][1]
            nxt = self.lines[j + 1][1] if j + 1 < len(self.lines) else ""
            if (
                _is_section(text)
                or not re.fullmatch(r"[A-Z][A-Z0-9 ’'\-]*", text)
                or key(text) in KNOWN_TITLES
                or parse_numbered(text)
                or CP_LINE.match(nxt)
            ):
                break
            for kw in re.split(r"[;,]", text):
                if kw.strip() and kw.strip() not in values:
                    values.append(kw.strip())
            j += 1
        self.head.faction_keywords = tuple(values)
        return j


def parse_head(file: str, lines: list[Line]) -> Head:
    """Read the datasheet part of a page (``lines`` are the page's non-blank lines with
    their 1-based numbers); ``Head.end`` is the index of the first line after it."""
    return _HeadReader(file, lines).read()
