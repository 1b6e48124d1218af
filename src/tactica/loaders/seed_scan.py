"""The rules part of a seed page: the lists under the datasheet and the tooltip blocks.

``parse_lists`` reads STRATAGEMS (name / ``1CP`` / ``Detachment – Category`` / ``C`` or
``BA``), DETACHMENT ABILITY (names) and ENHANCEMENTS (names and points). ``scan_tooltips``
cuts the rest of the page into blocks, one per rule heading:

* numbered (11th) headings ``13.08 Benefit of Cover``, ``LEADER24.22``, ``[ANTI]24.03``;
* a stratagem: a name line followed by ``1CP`` (a numbered name is an 11th core stratagem);
* a detachment rule: a name from DETACHMENT ABILITY followed by ``<Detachment> Detachment``;
* an enhancement description: a bare ``<Detachment> Detachment`` line (names omitted);
* ``Errata`` and ``FAQ`` boxes; unnumbered rule titles (``seed_text.KNOWN_TITLES`` and the
  datasheet's own core/faction abilities);
* site junk is skipped: keyword lists and the categories under them, "Army List",
  "Datasheets collated...", SEE ALSO lists, lost tables (noted on the enclosing rule);
* untitled bodies (003) are recognised by their opening words (``seed_text.fingerprint``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from ..model.rules import StratagemCategory
from .errors import LoadError
from .seed_datasheet import LIST_HEADINGS, Line
from .seed_text import (
    CP_LINE,
    DETACHMENT_LINE,
    FAQ_ROW,
    LOST_TABLE,
    MULTI_PROFILE,
    SUBHEADINGS,
    fingerprint,
    is_category,
    is_junk_header,
    key,
    parse_numbered,
    split_glued,
    split_sentences,
    title_case,
)

__all__ = [
    "Block",
    "BlockKind",
    "ListedStratagem",
    "PageLists",
    "ScanContext",
    "parse_lists",
    "parse_tag",
    "scan_tooltips",
]

BlockKind = Literal[
    "rule", "stratagem", "detachment_rule", "enhancement", "errata", "faq", "multi_profile"
]
_CATEGORIES: dict[str, StratagemCategory] = {
    "Battle Tactic": "Battle Tactic",
    "Strategic Ploy": "Strategic Ploy",
    "Epic Deed": "Epic Deed",
    "Wargear": "Wargear",
}
_TAG = re.compile(rf"^(?P<detachment>.+?)(?: [–-] (?P<category>{'|'.join(_CATEGORIES)}))?$")


def parse_tag(text: str) -> tuple[str, StratagemCategory | None] | None:
    """"Host of Ascension – Battle Tactic" -> ("Host of Ascension", "Battle Tactic");
    "Core" -> ("Core", None). A trailing " Stratagem" (the tooltip form) is dropped."""
    m = _TAG.match(text.removesuffix(" Stratagem"))
    if m is None or (m["category"] is None and " – " in m["detachment"]):
        return None  # "Core – Battle Tactics": a category that does not exist
    category = m["category"]
    return m["detachment"], _CATEGORIES[category] if category else None


@dataclass(frozen=True, slots=True)
class ListedStratagem:
    """One entry of the STRATAGEMS list."""

    name: str
    cp: int
    detachment: str
    category: StratagemCategory | None
    line: int


@dataclass
class PageLists:
    stratagems: list[ListedStratagem] = field(default_factory=list)
    detachment_rules: list[Line] = field(default_factory=list)
    enhancements: list[tuple[int, str, int | None]] = field(default_factory=list)
    end: int = 0


def _is_list_stop(text: str, nxt: str, titles: frozenset[str]) -> bool:
    """Where a list of names ends: a list heading or the first tooltip heading."""
    return (
        text in LIST_HEADINGS
        or key(text) in titles
        or parse_numbered(text) is not None
        or bool(CP_LINE.match(nxt))
        or is_junk_header(text)
        or text in ("Errata", "FAQ", MULTI_PROFILE)
        or bool(DETACHMENT_LINE.match(text))
        or (text.upper() == text and any(c.isalpha() for c in text))
    )


def parse_lists(file: str, lines: list[Line], i: int, titles: frozenset[str]) -> PageLists:
    """Read the STRATAGEMS / DETACHMENT ABILITY / ENHANCEMENTS lists starting at ``i``."""
    out = PageLists()

    def at(j: int) -> str:
        return lines[j][1] if j < len(lines) else ""

    while i < len(lines) and at(i) in LIST_HEADINGS:
        heading = at(i)
        i += 1
        if heading == "STRATAGEMS":
            while i < len(lines) and CP_LINE.match(at(i + 1)):
                no, name = lines[i]
                cp = int(at(i + 1).removesuffix("CP"))
                tag = parse_tag(at(i + 2))
                if tag is None:
                    where = lines[i + 2][0] if i + 2 < len(lines) else lines[i + 1][0]
                    raise LoadError(file, where, at(i + 2), "stratagem list entry without a tag")
                out.stratagems.append(ListedStratagem(name, cp, tag[0], tag[1], no))
                i += 3
                if at(i) in ("C", "BA"):  # the site's Core / Boarding Actions badge
                    i += 1
        elif heading == "DETACHMENT ABILITY":
            while i < len(lines) and not _is_list_stop(at(i), at(i + 1), titles):
                out.detachment_rules.append(lines[i])
                i += 1
        else:  # ENHANCEMENTS: a name, then its points (Boarding Actions ones have none)
            while i < len(lines) and not _is_list_stop(at(i), at(i + 1), titles):
                no, name = lines[i]
                points = int(at(i + 1)) if at(i + 1).isdigit() else None
                out.enhancements.append((no, name, points))
                i += 2 if points is not None else 1
    out.end = i
    return out


@dataclass
class ScanContext:
    """What the scanner knows about the page before reading the tooltips."""

    file: str
    titles: frozenset[str]  # known unnumbered rule titles (keys)
    stratagem_names: frozenset[str]  # keys of the listed stratagems
    detachment_rule_names: frozenset[str]  # keys of the DETACHMENT ABILITY list
    notes: list[str] = field(default_factory=list)  # page-level notes


@dataclass
class Block:
    """A tooltip: its heading and the lines under it."""

    kind: BlockKind
    line: int
    title: str
    section: str | None = None
    detachment: str | None = None
    lines: list[Line] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    inferred: bool = False  # title recognised from the body (003)
    heading: str = ""


class _Scanner:
    def __init__(self, ctx: ScanContext) -> None:
        self.ctx = ctx
        self.blocks: list[Block] = []
        self.cur: Block | None = None
        self.junk = False
        self.see_also = False
        self.skip: int | None = None  # a line already read as part of a heading

    # --- gluing ---------------------------------------------------------------------------
    def unglue(self, lines: list[Line]) -> list[Line]:
        out: list[Line] = []
        for j, (no, text) in enumerate(lines):
            nxt = lines[j + 1][1] if j + 1 < len(lines) else ""

            def is_heading(tail: str, nxt: str = nxt) -> bool:
                k = key(tail)
                shouting = tail.upper() == tail and any(c.isalpha() for c in tail)
                return (
                    k in self.ctx.titles
                    or k in self.ctx.stratagem_names
                    or k in self.ctx.detachment_rule_names
                    or (shouting and bool(CP_LINE.match(nxt)))
                )

            out.extend((no, piece) for piece in split_glued(text, is_heading))
        return out

    # --- headings -------------------------------------------------------------------------
    def heading(self, text: str, nxt: str) -> Block | None:
        cur = self.cur
        if cur is not None and cur.kind == "rule" and key(text) in SUBHEADINGS.get(
            key(cur.title), frozenset()
        ):
            return None
        num = parse_numbered(text)
        if CP_LINE.match(nxt) and len(text) <= 60 and not text.endswith("."):
            if num is not None:
                return Block("stratagem", 0, num.title, num.section, heading=text)
            return Block("stratagem", 0, title_case(text), heading=text)
        if num is not None:
            return Block("rule", 0, num.title, num.section, heading=text)
        if text == "Errata":
            return Block("errata", 0, "Errata", heading=text)
        m = DETACHMENT_LINE.match(nxt)
        if m and self.is_rule_name(text):
            return Block("detachment_rule", 0, text.strip(), detachment=m["detachment"],
                         heading=text)
        m = DETACHMENT_LINE.match(text)
        if m:
            return Block("enhancement", 0, text, detachment=m["detachment"], heading=text)
        if key(text) in self.ctx.titles:
            return Block("rule", 0, title_case(text), heading=text)
        return None

    def is_rule_name(self, text: str) -> bool:
        if self.ctx.detachment_rule_names:
            return key(text) in self.ctx.detachment_rule_names
        return len(text.split()) <= 6 and text[:1].isupper() and text[-1:] not in ".:!?"

    def open(self, block: Block, no: int) -> None:
        block.line = no
        self.blocks.append(block)
        self.cur = block

    # --- lines ----------------------------------------------------------------------------
    def line(self, j: int, no: int, text: str, nxt: str) -> None:
        if self.skip == j:
            return
        if LOST_TABLE.match(text):
            note = f"a table lost in the capture (line {no}: bare pipes) was skipped"
            (self.cur.notes if self.cur is not None else self.ctx.notes).append(note)
            return
        if is_junk_header(text):
            self.cur, self.junk, self.see_also = None, True, False
            return
        if self.junk:
            if is_category(text):
                return
            self.junk = False
        if text == "SEE ALSO":
            self.see_also = True
            return
        if self.see_also:
            if text.startswith("- "):
                return
            self.see_also = False
        if text == MULTI_PROFILE:
            self.open(Block("multi_profile", 0, "Multi-profile weapons", lines=[(no, text)]), no)
            self.cur = None
            return
        if text == "FAQ":
            topic = self.cur.title if self.cur is not None else None
            self.open(Block("faq", 0, topic or "", heading=text), no)
            return
        if self.cur is not None and self.cur.kind == "faq":
            if FAQ_ROW.match(text):
                self.cur.lines.append((no, text))
                return
            self.cur = None
        block = self.heading(text, nxt)
        if block is not None:
            self.open(block, no)
            if block.kind == "detachment_rule":
                self.skip = j + 1  # the "<Detachment> Detachment" line
            return
        if self.cur is None or self.cur.inferred:
            self.untitled(no, text)
            return
        self.cur.lines.append((no, text))

    def untitled(self, no: int, text: str) -> None:
        """003: bodies without titles, run together; a new rule starts where a known
        opening begins (even in the middle of a line)."""
        pending = ""
        for piece in split_sentences(text):
            fp = fingerprint(piece)
            cur = self.cur
            if fp is not None and not (cur is not None and cur.inferred and cur.title == fp.title):
                if pending and cur is not None:
                    cur.lines.append((no, pending))
                kind: BlockKind = "detachment_rule" if fp.kind == "detachment_rule" else "rule"
                block = Block(kind, 0, fp.title, inferred=True, heading=piece)
                block.notes.append(
                    "title inferred from the text: the page prints this tooltip without one"
                )
                self.open(block, no)
                pending = piece
            elif cur is None:
                raise LoadError(
                    self.ctx.file, no, text,
                    "text outside any rule: no heading above it and no known opening",
                )
            else:
                pending += piece
        if pending and self.cur is not None:
            self.cur.lines.append((no, pending))


def scan_tooltips(ctx: ScanContext, lines: list[Line]) -> list[Block]:
    """Cut the tooltip part of a page into blocks (see the module docstring)."""
    scanner = _Scanner(ctx)
    logical = scanner.unglue(lines)
    for j, (no, text) in enumerate(logical):
        nxt = logical[j + 1][1] if j + 1 < len(logical) else ""
        scanner.line(j, no, text, nxt)
    return scanner.blocks
