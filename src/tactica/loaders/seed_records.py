"""Rule records from the tooltip blocks of a seed page.

Decisions (each cites the inventory, ``/work/shared/spec/rules_inventory.md``):

* Rules version of a record: a numbered section is 11th; on a 10th-layout page everything
  else is 10th. On an 11th-layout page an unnumbered rule is read by its wording
  (``seed_text.wording_version``, default 11th): 000's Deep Strike is the old text (§C,
  H.2 #32) while its unnumbered Hit Roll / Save Rolls / Cult Ambush are new (§D.1, §C.1).
  A rule that an Errata on the same page restates word for word takes the errata's version
  (004's Synapse, §G.3).
* Stratagems: a section number or the bare tag "Core" is 11th; "Core – <Category>" and
  Boarding Actions are 10th; detachment stratagems are 10th unless written in 11th terms
  (§E.4 Ver column: Divine Imperative has "N-style wording").
* Detachment rules and enhancements: 10th unless their wording is 11th (Deeds That Speak to
  the Masses grants Resurgence points, which only 11th Cult Ambush has, §C.1).
* Stratagem bodies print TARGET/EFFECT/RESTRICTIONS twice (§0): a labelled line with an
  identical later copy is dropped (the later copy is kept, so a bullet list printed between
  the two copies stays under the label it follows: Command Re-roll's WHEN list, Heroic
  Intervention's modes). The same holds for the doubled labelled lines of 11th move rules.
  Copies that differ are an error.
* Enhancement descriptions omit their names (§F.2): the names list is cut into detachment
  blocks in the order §F.2 found (Host of Ascension, Xenocreed Congregation, Outlander Claw,
  Brood Brother Auxilia, Final Day, Cult Unveiled), each block as long as the detachment's
  descriptions (the last takes the rest), and names are matched to descriptions in order.
* Records printed twice with the same text on one page are kept once (LEADER in 000,
  HAZARDOUS and DISEMBARK MOVE in 004), with a note naming the other line.
* The 9th-edition "Characters" text (001, §0 "9E") is skipped with a page note.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..model.common import RulesVersion, Source
from ..model.rules import (
    CoreRule,
    DetachmentRule,
    Enhancement,
    Errata,
    FaqEntry,
    RuleRecord,
    Stratagem,
    StratagemCategory,
)
from .errors import LoadError
from .seed_datasheet import Line
from .seed_scan import Block, PageLists, parse_tag
from .seed_text import CP_LINE, FAQ_ROW, key, title_case, wording_version

__all__ = ["ENHANCEMENT_LIST_ORDER", "build_records"]

#: Detachment order of 000's ENHANCEMENTS list (inventory §F.2, step 2).
ENHANCEMENT_LIST_ORDER = (
    "Host of Ascension",
    "Xenocreed Congregation",
    "Outlander Claw",
    "Brood Brother Auxilia",
    "Final Day",
    "Cult Unveiled",
)
_LABEL = re.compile(
    r"^(?P<label>WHEN|TARGET|EFFECT|RESTRICTIONS|ELIGIBLE IF|WHILE SHOOTING|WHILE MOVING"
    r"|BEFORE MOVING|AFTER MOVING|SET-UP DISTANCE|MAXIMUM DISTANCE):(?P<rest>.*)$"
)
_STRATAGEM_FIELDS = ("WHEN", "TARGET", "EFFECT", "RESTRICTIONS")
_ELIGIBILITY = re.compile(r"^(?P<who>[^.]{1,80}? model only)\.\s*(?P<text>.*)$")
_NINTH_EDITION = ("Look out, Sir", "Warlord Trait")


def _undouble(lines: list[Line]) -> list[Line]:
    """Drop a labelled line that has an identical copy further down (keep the last)."""
    out: list[Line] = []
    for i, (no, text) in enumerate(lines):
        if _LABEL.match(text) and any(t == text for _, t in lines[i + 1:]):
            continue
        out.append((no, text))
    return out


def _join(lines: list[Line]) -> str:
    return "\n".join(t.strip() for _, t in lines if t.strip()).strip()


@dataclass
class _Description:
    detachment: str
    line: int
    flavour: str | None
    eligibility: str | None
    text: str | None


class _Builder:
    def __init__(self, file: str, page_rules: RulesVersion, lists: PageLists) -> None:
        self.file = file
        self.page_rules = page_rules
        self.lists = lists
        self.records: list[tuple[RuleRecord, str]] = []  # record, heading as printed
        self.notes: list[str] = []
        self.descriptions: list[_Description] = []
        self.multi_profile_done = False

    def source(self, line: int, notes: list[str]) -> Source:
        return Source(file=self.file, line=line, note="; ".join(notes) if notes else None)

    def error(self, line: Line, problem: str) -> LoadError:
        return LoadError(self.file, line[0], line[1], problem)

    def add(self, record: RuleRecord, heading: str = "") -> None:
        self.records.append((record, heading))

    # --- blocks ---------------------------------------------------------------------------
    def block(self, b: Block) -> None:
        if b.kind == "rule":
            self.rule(b)
        elif b.kind == "stratagem":
            self.stratagem(b)
        elif b.kind == "detachment_rule":
            self.detachment_rule(b)
        elif b.kind == "enhancement":
            self.description(b)
        elif b.kind == "errata":
            self.errata(b)
        elif b.kind == "faq":
            self.faq(b)
        elif not self.multi_profile_done:  # multi_profile: once per page
            self.multi_profile_done = True
            notes = ["a stray site tooltip: the rule for weapons with several profiles"]
            self.add(CoreRule(title=b.title, text=b.lines[0][1], rules=self.page_rules,
                              source=self.source(b.line, notes)))

    def rule(self, b: Block) -> None:
        text = _join(_undouble(b.lines))
        if not text:
            raise self.error((b.line, b.heading), "rule heading without text")
        if key(b.title) == "characters" and any(s in text for s in _NINTH_EDITION):
            self.notes.append(
                f"line {b.line}: the 9th-edition 'Characters' text (Look out, Sir; Warlord "
                "Traits) was skipped as obsolete (inventory §0 '9E')"
            )
            return
        rules: RulesVersion
        if b.section is not None:
            rules = "11th"
        elif self.page_rules == "10th":
            rules = "10th"
        else:
            rules = wording_version(text, "11th")
        self.add(CoreRule(section=b.section, title=b.title, text=text, rules=rules,
                          source=self.source(b.line, b.notes)), b.heading)

    def stratagem(self, b: Block) -> None:
        if len(b.lines) < 2 or not CP_LINE.match(b.lines[0][1]):
            raise self.error((b.line, b.heading), "stratagem without its CP line")
        cp = int(b.lines[0][1].removesuffix("CP"))
        tag = parse_tag(b.lines[1][1])
        if tag is None or not b.lines[1][1].endswith("Stratagem"):
            raise self.error(b.lines[1], "expected a stratagem tag such as 'Core Stratagem'")
        detachment, category = tag
        flavour: list[str] = []
        fields: dict[str, list[str]] = {}
        current: str | None = None
        for no, text in _undouble(b.lines[2:]):
            m = _LABEL.match(text)
            if m and m["label"] in _STRATAGEM_FIELDS:
                if m["label"] in fields:
                    raise self.error((no, text), f"stratagem gives {m['label']} twice, differently")
                current = m["label"]
                fields[current] = [m["rest"].strip()]
            elif current is None:
                flavour.append(text)
            else:
                fields[current].append(text)
        for required in ("WHEN", "TARGET", "EFFECT"):
            if required not in fields:
                raise self.error((b.line, b.heading), f"stratagem has no {required}")
        values = {k: "\n".join(p for p in v if p).strip() or None for k, v in fields.items()}
        body = "\n".join(v for v in values.values() if v)
        self.check_listed(b, cp, detachment, category)
        self.add(
            Stratagem(
                name=b.title, cp=cp, detachment=detachment, category=category,
                section=b.section, flavour="\n".join(flavour) or None,
                when=values.get("WHEN"), target=values.get("TARGET"),
                effect=values.get("EFFECT"), restrictions=values.get("RESTRICTIONS"),
                rules=_stratagem_version(b.section, detachment, category, body),
                source=self.source(b.line, b.notes),
            ),
            b.heading,
        )

    def check_listed(
        self, b: Block, cp: int, detachment: str, category: StratagemCategory | None
    ) -> None:
        for entry in self.lists.stratagems:
            same = key(entry.name) == key(b.title) and (entry.detachment, entry.category) == (
                detachment, category
            )
            if same and entry.cp != cp:
                problem = f"{cp}CP here but {entry.cp}CP in the list (line {entry.line})"
                raise self.error((b.line, b.heading), problem)

    def detachment_rule(self, b: Block) -> None:
        text = _join(b.lines)
        if not text:
            raise self.error((b.line, b.heading), "detachment rule without text")
        self.add(DetachmentRule(name=b.title, detachment=b.detachment, text=text,
                                rules=wording_version(text, "10th") if self.page_rules == "11th"
                                else "10th",
                                source=self.source(b.line, b.notes)), b.heading)

    def description(self, b: Block) -> None:
        assert b.detachment is not None
        lines = [t for _, t in b.lines]
        flavour: list[str] = []
        eligibility = text = None
        for i, line in enumerate(lines):
            m = _ELIGIBILITY.match(line)
            if m:
                eligibility = m["who"]
                text = "\n".join([m["text"], *lines[i + 1:]]).strip() or None
                break
            flavour.append(line)
        else:  # no eligibility (Cult Unveiled): the flavour line, then the rule
            flavour, rest = lines[:1], lines[1:]
            text = "\n".join(rest).strip() or None
        self.descriptions.append(
            _Description(b.detachment, b.line, "\n".join(flavour) or None, eligibility, text)
        )

    def errata(self, b: Block) -> None:
        """Pairs of lines: what is changed, then the change (continued by "- " lines or
        until a quotation ‘...’ closes)."""
        lines = b.lines
        i = 0
        while i < len(lines):
            target = lines[i]
            if i + 1 >= len(lines):
                raise self.error(target, "errata entry without its change")
            change = [lines[i + 1][1]]
            i += 2
            while i < len(lines) and (
                lines[i][1].startswith("- ") or change[0].count("‘") > "".join(change).count("’")
            ):
                change.append(lines[i][1])
                i += 1
            self.add(Errata(target=target[1], text="\n".join(change), rules=self.page_rules,
                            source=self.source(target[0], [])))

    def faq(self, b: Block) -> None:
        rows = b.lines
        if not rows or len(rows) % 2:
            raise self.error((b.line, b.heading), "FAQ box without question/answer pairs")
        for (qno, qtext), (_, atext) in zip(rows[::2], rows[1::2], strict=True):
            q, a = FAQ_ROW.match(qtext), FAQ_ROW.match(atext)
            if not (q and a and q["who"] == "Q" and a["who"] == "A"):
                raise self.error((qno, qtext), "FAQ rows must alternate Q and A")
            self.add(FaqEntry(topic=b.title or None, question=q["text"], answer=a["text"],
                              rules=self.page_rules, source=self.source(qno, [])), b.title)

    # --- page-level steps -----------------------------------------------------------------
    def listed_without_text(self) -> None:
        """Stratagems in the list whose tooltip is not on the page."""
        seen = {
            (key(r.name), r.detachment, r.category)
            for r, _ in self.records
            if isinstance(r, Stratagem)
        }
        for e in self.lists.stratagems:
            if (key(e.name), e.detachment, e.category) in seen:
                continue
            self.add(
                Stratagem(
                    name=title_case(e.name), cp=e.cp, detachment=e.detachment, category=e.category,
                    rules=_stratagem_version(None, e.detachment, e.category, ""),
                    source=self.source(e.line, ["listed on the page without its rule text"]),
                )
            )

    def enhancements(self) -> None:
        names = self.lists.enhancements
        if not names and not self.descriptions:
            return
        by_detachment: dict[str, list[_Description]] = {}
        for d in self.descriptions:
            by_detachment.setdefault(d.detachment, []).append(d)
        order = [d for d in ENHANCEMENT_LIST_ORDER if d in by_detachment]
        order += [d for d in by_detachment if d not in ENHANCEMENT_LIST_ORDER]
        if not order or len(names) < len(self.descriptions):
            where = names[0][0] if names else self.descriptions[0].line
            raise LoadError(self.file, where, "ENHANCEMENTS",
                            f"{len(names)} enhancement names for {len(self.descriptions)} "
                            "descriptions")
        i = 0
        for n, det in enumerate(order):
            descs = by_detachment[det]
            group = names[i:] if n == len(order) - 1 else names[i:i + len(descs)]
            i += len(group)
            if len({points is None for _, _, points in group}) > 1:
                raise LoadError(self.file, group[0][0], group[0][1],
                                f"the {det} block mixes names with and without points")
            for j, (no, name, points) in enumerate(group):
                desc = descs[j] if j < len(descs) else None
                note = (f"description at line {desc.line}, matched by the list order of "
                        "inventory §F.2" if desc else "no description on the page")
                text = desc.text if desc else None
                self.add(Enhancement(
                    name=name, points=points, detachment=det,
                    eligibility=desc.eligibility if desc else None,
                    flavour=desc.flavour if desc else None, text=text,
                    rules=wording_version(text or "", "10th"),
                    source=self.source(no, [note]),
                ))

    def errata_versions(self) -> None:
        """A rule restated by an Errata on the page takes the errata's rules version."""
        errata = [r for r, _ in self.records if isinstance(r, Errata)]
        for i, (r, heading) in enumerate(self.records):
            if not isinstance(r, CoreRule) or r.section is not None:
                continue
            body = r.text.split("\n", 1)[-1]
            for e in errata:
                if _squash(body) and _squash(body) in _squash(e.text) and r.rules != e.rules:
                    note = f"rules version from the errata at line {e.source.line}"
                    self.records[i] = (_with_note(r.model_copy(update={"rules": e.rules}), note),
                                       heading)

    def deduplicated(self) -> list[RuleRecord]:
        kept: list[tuple[RuleRecord, str]] = []
        index: dict[Any, int] = {}
        for r, heading in sorted(self.records, key=lambda p: p[0].source.line or 0):
            k = _dedupe_key(r)
            if k in index:
                first, first_heading = kept[index[k]]
                as_printed = f" as {heading!r}" if heading and heading != first_heading else ""
                note = f"printed again at line {r.source.line}{as_printed}"
                kept[index[k]] = (_with_note(first, note), first_heading)
                continue
            index[k] = len(kept)
            kept.append((r, heading))
        return [r for r, _ in kept]


def _stratagem_version(
    section: str | None, detachment: str, category: StratagemCategory | None, body: str
) -> RulesVersion:
    if section is not None:
        return "11th"
    if detachment == "Core":
        return "11th" if category is None else "10th"
    if detachment == "Boarding Actions":
        return "10th"
    return wording_version(body, "10th")


def _squash(text: str) -> str:
    return re.sub(r"[\s‘’']", "", text)


def _with_note(r: RuleRecord, note: str) -> RuleRecord:
    old = r.source.note
    source = r.source.model_copy(update={"note": f"{old}; {note}" if old else note})
    return r.model_copy(update={"source": source})


def _dedupe_key(r: RuleRecord) -> Any:
    if isinstance(r, CoreRule):
        return ("core", r.text, r.rules)
    if isinstance(r, FaqEntry):
        return ("faq", r.question, r.answer, r.rules)
    dump = r.model_dump(mode="json", exclude={"source"})
    return (r.record, tuple(sorted((k, str(v)) for k, v in dump.items())))


def build_records(
    file: str, page_rules: RulesVersion, blocks: list[Block], lists: PageLists
) -> tuple[list[RuleRecord], list[str]]:
    """Every rule record of a page in page order, and the page-level notes."""
    b = _Builder(file, page_rules, lists)
    for block in blocks:
        b.block(block)
    b.listed_without_text()
    b.enhancements()
    b.errata_versions()
    return b.deduplicated(), b.notes
