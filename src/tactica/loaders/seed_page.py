"""Seed-page loader: text captured from a datasheet web page -> datasheet + rule records.

A seed page (``tactica/data/seeds/*.txt``) is a Genestealer Cults datasheet page with the
rule tooltips it links to. ``load_seed_page`` returns the datasheet and every rule on the
page (stratagems, detachment rules, enhancements, core rules, FAQ entries, errata), each
with its rules version and the 1-based line it starts on.

Traps handled (``/work/shared/spec/rules_inventory.md`` §0, A, C-G):

1. Two page layouts: the new one (000, 004: ``KEYWORDS`` split by ``;``, abilities as bare
   words after the weapon name, numbered tooltips) is 11th; the old ones (001-003) are 10th.
2. Doubled weapon rows (name-only row, then the stat row); 003's rows lack the leading
   ``|``; ``N/A`` skill (Torrent); ``Melee`` range; dice A and D; multi-profile weapons
   ("Grenade launcher – frag/krak" -> one weapon, two profiles) — see ``seed_weapons``.
3. Weapon abilities in ``[brackets]`` or as bare lower-case words (000); an ability outside
   ``RECOGNISED_WEAPON_ABILITIES`` is an error.
4. 003 has no title (named "Neophyte Hybrids" from its weapons, reference_facts.md §1, with
   a note), no sections, no keywords, and tooltip bodies without titles (recognised by
   their opening words, ``seed_text.fingerprint``) run together on one line.
5. Two unit abilities on one line (000: "...Hit roll.Decoys and Misdirection: ...").
6. Escalating points (004), the empty LEADER list (000), the twice-printed faction keyword.
7. Headings glued to the end of a paragraph ("...(13.08).[IGNORES COVER]24.18",
   "...Wound roll.Ignores Cover", "...Hit roll.SMOKESCREEN") and site captions glued the
   same way ("...step.The GENESTEALER CULTS keyword is used in the following ...").
8. Doubled TARGET/EFFECT/RESTRICTIONS blocks in stratagems (kept once, bullet lists kept).
9. Lost tables (rows of bare pipes): skipped and noted on the enclosing rule.
10. Site junk skipped: keyword lists and their category lines, "Army List", "Datasheets
    collated...", SEE ALSO lists; the stray multi-profile tooltip is kept once as the core
    rule "Multi-profile weapons"; the 9th-edition "Characters" text (001) is skipped.
11. Enhancement descriptions without names (000), matched to the names list (inventory §F.2).
12. The same record printed twice on a page (LEADER, HAZARDOUS, DISEMBARK MOVE) kept once.

Stat lines (M, T, Sv, W, Ld, OC) are not on the pages: ``Datasheet.models`` holds one
``ModelProfile`` per composition line with only its name (singular: "Death Riders" ->
"Death Rider"), for the library to complete from reference_facts.md §1.

A malformed page raises ``LoadError`` naming the file, the line and the offending text.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..model.common import RulesVersion, Source
from ..model.datasheet import Datasheet, ModelProfile
from ..model.rules import DetachmentRule, RuleRecord
from .errors import LoadError
from .seed_datasheet import Head, Line, parse_head
from .seed_records import build_records
from .seed_scan import ScanContext, parse_lists, scan_tooltips
from .seed_text import KNOWN_TITLES, key
from .wargear_text import parse_wargear_options

__all__ = ["UNTITLED_DATASHEETS", "SeedPage", "load_seed_page"]

#: Pages without a title line are named by the weapons they list (reference_facts.md §1:
#: "its weapons, points ... and the Cult Ambush text identify it as Neophyte Hybrids").
UNTITLED_DATASHEETS: tuple[tuple[str, frozenset[str]], ...] = (
    ("Neophyte Hybrids", frozenset({
        "Autopistol", "Hybrid firearm", "Leader pistol", "Mining laser", "Seismic cannon",
        "Webber",
    })),
)


@dataclass(frozen=True, slots=True)
class SeedPage:
    """Everything read from one page: its datasheet (if the page has one) and every rule
    record on it, each carrying its own rules version and source line."""

    file: str
    rules: RulesVersion
    datasheet: Datasheet | None
    records: tuple[RuleRecord, ...]


def _singular(model: str, most: int) -> str:
    """A model name for one model: "Death Riders" (up to 9) -> "Death Rider"."""
    if most > 1 and model.endswith("s") and not model.endswith("ss"):
        return model[:-1]
    return model


def _datasheet(
    file: str, lines: list[Line], head: Head, rules: RulesVersion, page_notes: list[str]
) -> Datasheet | None:
    if head.name is None and not head.weapons and not head.abilities and not head.points:
        return None
    notes: list[str] = []
    name = head.name
    if name is None:
        names = {w.name for w in head.weapons}
        name = next((n for n, needed in UNTITLED_DATASHEETS if needed <= names), None)
        if name is None:
            raise LoadError(file, lines[0][0], lines[0][1],
                            "page has no title line and its unit could not be identified")
        notes.append(f"name inferred: the page has no title line; its weapons match {name} "
                     "(reference_facts.md §1)")
    if head.composition:
        notes.append("no stat lines on the page: models carry their names only")
    else:
        notes.append("no unit composition on the page")
    if head.leader_of == ():
        notes.append("LEADER: the page lists no units this model can be attached to")
    if head.keywords is None:
        notes.append("no keywords on the page")
    notes.extend(page_notes)
    wargear, unread = parse_wargear_options(head.wargear_options, [w.name for w in head.weapons])
    notes.extend(unread)
    return Datasheet(
        name=name,
        rules=rules,
        faction_keywords=head.faction_keywords,
        keywords=head.keywords or (),
        models=tuple(
            ModelProfile(name=_singular(c.model, c.max), source=Source(file=file, line=no))
            for no, c in head.composition
        ),
        weapons=head.weapons,
        abilities=tuple(head.abilities),
        composition=tuple(c for _, c in head.composition),
        points=head.points,
        leader_of=head.leader_of or (),
        transport=head.transport,
        damaged=head.damaged,
        wargear_options=head.wargear_options,
        wargear=tuple(wargear),
        source=Source(file=file, line=head.title_line or (lines[0][0] if lines else None)),
        notes=tuple(notes),
    )


def load_seed_page(path: str | Path, text: str | None = None) -> SeedPage:
    """Read a seed page (``text`` if given, else the file at ``path``; the file name is
    used in sources and errors either way)."""
    file = Path(path).name
    if text is None:
        text = Path(path).read_text(encoding="utf-8")
    lines: list[Line] = [
        (no, raw.rstrip()) for no, raw in enumerate(text.lstrip("\ufeff").splitlines(), 1)
        if raw.strip()
    ]
    head = parse_head(file, lines)
    titles = KNOWN_TITLES | {
        key(a.name) for a in head.abilities if a.kind in ("core", "faction")
    }
    lists = parse_lists(file, lines, head.end, titles)
    ctx = ScanContext(
        file=file,
        titles=titles,
        stratagem_names=frozenset(key(s.name) for s in lists.stratagems),
        detachment_rule_names=frozenset(key(t) for _, t in lists.detachment_rules),
    )
    blocks = scan_tooltips(ctx, lines[lists.end:])
    rules: RulesVersion
    if head.keyword_separator is not None:
        rules = "11th" if head.keyword_separator == ";" else "10th"
    else:
        rules = "11th" if any(b.section for b in blocks) else "10th"
    records, notes = build_records(file, rules, blocks, lists)
    described = {key(r.name) for r in records if isinstance(r, DetachmentRule)}
    for no, name in lists.detachment_rules:
        if key(name) not in described:
            notes.append(f"line {no}: detachment rule {name!r} is listed without its text")
    datasheet = _datasheet(file, lines, head, rules, [*ctx.notes, *notes])
    return SeedPage(file=file, rules=rules, datasheet=datasheet, records=tuple(records))
