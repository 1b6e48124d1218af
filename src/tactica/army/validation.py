"""Army-list legality: every violation at once, each with a stable code, the unit it
concerns and a sentence.

``validate(roster, library)`` prices the roster (``tactica.army.pricing``) and runs every
check below; ``ValidationReport.legal`` is true when no violation has severity "error".
``CODES`` maps each stable code to the rule it implements. Where the seed pages are silent
the published 11th-edition rules are used, read from the BSData ``wh40k-11e`` data
(``shared/data/bsdata-11e``: the game system's "Army Roster" constraints and the
Genestealer Cults / Tyranids catalogues), and cited as "BSData wh40k-11e". The 10th-edition
limits are those of the published 10th-edition Core Rules, "Muster Armies".

Decisions where the rules leave a choice (documented in ``CODES`` too):

* A unit the library does not know is an error (``UNKNOWN_DATASHEET``): nothing about it
  can be checked, so the list cannot be declared legal.
* Formats that cannot say which units start embarked (app and New Recruit exports) make an
  empty DEDICATED TRANSPORT a warning, not an error (``Roster.embarkation_recorded``).
* "Upgrade" enhancements (11th edition) are given to units, not CHARACTERs, and have
  their own limits the data does not hold: only their keyword eligibility is checked.
* Armies other than Genestealer Cults: units without the army's faction keyword are a
  warning (``ALLY_UNCHECKED``), since their allied-unit rules are not in the data.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from ..library import Library
from ..model.common import Frozen
from ..model.datasheet import Datasheet
from ..model.rules import Enhancement
from ..names import UnknownNameError, article, name_key, suggest
from ..rules import RuleSet, get_ruleset
from ..units.leaders import attachment_refusals
from .detachments import (
    detachment_records,
    granted_keywords,
    restriction_problems,
    unknown_keywords,
)
from .limits import (
    ALLY_POINTS,
    BROOD_BROTHERS_EXCLUDED,
    CODES,
    DETACHMENT_POINTS_11TH,
    RESURGENCE,
    STAR_CHILDREN_EXCLUDED,
)
from .listed_wargear import (
    enhancements_listed_as_wargear,
    read_as_enhancements,
    unknown_wargear,
)
from .lookups import known_detachments
from .pricing import PriceBreakdown, Resolved, find_enhancement, price_roster, resolve
from .roster import Roster, RosterUnit
from .transport import covers, model_wounds, parse_transport

__all__ = [
    "CODES",
    "DETACHMENT_POINTS_11TH",
    "Severity",
    "ValidationReport",
    "Violation",
    "eligibility_alternatives",
    "resurgence_points",
    "validate",
]

Severity = Literal["error", "warning"]

GSC, TYRANIDS, ASTRA = "GENESTEALER CULTS", "TYRANIDS", "ASTRA MILITARUM"
_BBA = {name_key("Brood Brother Auxilia"), name_key("Brood Brothers Auxilia")}
_FINAL_DAY = name_key("Final Day")


class Violation(Frozen):
    """One broken rule: the stable ``code``, its severity, the unit (id and name) it
    concerns (``None`` for the army as a whole), a sentence and the rule cited."""

    code: str
    severity: Severity = "error"
    unit_id: str | None = None
    unit: str | None = None
    message: str
    rule: str


class ValidationReport(Frozen):
    """Every violation of a roster, its priced breakdown and its Cult Ambush pool."""

    violations: tuple[Violation, ...] = ()
    prices: PriceBreakdown
    detachment_points: int | None = None
    detachment_budget: int | None = None
    resurgence_points: int | None = None

    @property
    def legal(self) -> bool:
        return not any(v.severity == "error" for v in self.violations)

    def codes(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(v.code for v in self.violations))


def eligibility_alternatives(text: str | None) -> tuple[str, ...] | None:
    """The keyword phrases of a bearer restriction, any one of which qualifies; ``None``
    when the text is not of the "X, Y or Z model only" form.

    >>> eligibility_alternatives("MAGUS, PRIMUS or ACOLYTE ICONWARD model only")
    ('MAGUS', 'PRIMUS', 'ACOLYTE ICONWARD')
    >>> eligibility_alternatives("GENESTEALER CULTS INFANTRY model only.")
    ('GENESTEALER CULTS INFANTRY',)
    """
    if not text:
        return None
    match = re.match(r"^\s*(.+?)\s+(?:model|unit)s?\s+only\b", text.replace("*", "").replace(
        "^", ""), re.IGNORECASE)
    if not match:
        return None
    parts = [" ".join(p.split()) for p in re.split(r",|\bor\b", match.group(1))]
    return tuple(p.upper() for p in parts if p)


def resurgence_points(roster: Roster) -> int | None:
    """Cult Ambush (seed 000): Resurgence points at the start of the battle, Incursion 6 /
    Strike Force 10 / Onslaught 14, +2 for each *Deeds That Speak to the Masses*; ``None``
    unless the Army Faction is GENESTEALER CULTS and the battle size is known."""
    if name_key(roster.faction or "") != name_key(GSC) or roster.size is None:
        return None
    deeds = sum(1 for u in roster.units for e in u.enhancements
                if name_key(e.name) == name_key("Deeds That Speak to the Masses"))
    return RESURGENCE[roster.size] + 2 * deeds


@dataclass
class _Check:
    roster: Roster
    library: Library
    resolved: dict[str, Resolved]
    prices: PriceBreakdown
    out: list[Violation] = field(default_factory=list)
    dp: int | None = None
    budget: int | None = None
    granted: dict[str, set[str]] = field(default_factory=dict)

    def add(self, code: str, message: str, unit: RosterUnit | None = None,
            severity: Severity = "error") -> None:
        self.out.append(Violation(code=code, severity=severity,
                                  unit_id=unit.id if unit else None,
                                  unit=unit.name if unit else None,
                                  message=message, rule=CODES[code]))

    def sheet(self, unit: RosterUnit) -> Datasheet | None:
        return self.resolved[unit.id].sheet

    @property
    def rules(self) -> RuleSet:
        """The rule set of the list's edition: its Muster Armies knobs."""
        return get_ruleset(self.roster.rules)

    def known(self) -> list[tuple[RosterUnit, Datasheet]]:
        return [(u, s) for u in self.roster.units if (s := self.sheet(u)) is not None]


def _keywords(sheet: Datasheet, unit: RosterUnit,
              granted: dict[str, set[str]] | None = None) -> set[str]:
    """The unit's keywords, with those its detachments grant (``army.detachments``)."""
    kws = {*sheet.keywords, *sheet.faction_keywords, sheet.name.upper()}
    if unit.character:
        kws.add("CHARACTER")
    return kws | (granted or {}).get(unit.id, set())


def _faction_of(sheet: Datasheet, keyword: str) -> bool:
    return any(name_key(k) == name_key(keyword) for k in sheet.faction_keywords)


def _datasheets_and_sizes(c: _Check) -> None:
    for unit in c.roster.units:
        r = c.resolved[unit.id]
        if r.sheet is None:
            hint = f"; did you mean: {', '.join(r.suggestions)}?" if r.suggestions else ""
            c.add("UNKNOWN_DATASHEET", f"no datasheet named {unit.name!r} in the library{hint}",
                  unit)
            continue
        lines = r.sheet.composition
        low, high = sum(x.min for x in lines), sum(x.max for x in lines)
        price = c.prices.line(unit.id)
        if lines and not low <= unit.models <= high:
            c.add("MODEL_COUNT", f"{unit.models} models; the datasheet allows {low}-{high}", unit)
        elif not price.size_ok:
            c.add("MODEL_COUNT", f"{unit.models} models; the largest priced size is smaller",
                  unit)


def _points(c: _Check) -> None:
    roster, prices = c.roster, c.prices
    if roster.size is None:
        c.add("BATTLE_SIZE_UNKNOWN", "the list names no battle size or points limit; the "
              "points limit and size-dependent limits are not checked", severity="warning")
    if roster.limit is not None and prices.total > roster.limit:
        c.add("POINTS_LIMIT", f"{prices.total} pts, over the {roster.limit} pts limit")
    for line in prices.units:
        # a stated 0 is how a format that must print a price writes an unknown one
        # (``formats.export_warnings`` says so on export): not the list's price
        if line.stated and line.source == "datasheet" and line.stated != line.total:
            unpriced = [e.name for e in line.enhancements if e.source == "unknown"]
            why = f" (no points known for {', '.join(unpriced)})" if unpriced else ""
            c.add("POINTS_MISMATCH", f"the list says {line.stated} pts, the datasheet "
                  f"{line.total} pts{why}", c.roster.unit(line.unit_id), "warning")
    lines = sum(u.points or 0 for u in roster.units)
    # a total that is the list's own lines added up says nothing the lines do not: each
    # line that differs is warned above (the app's text prints a total where the list
    # stated none: ``formats.gw_text``)
    if roster.declared_points not in (None, prices.total, lines):
        c.add("POINTS_MISMATCH", f"the list's total is {roster.declared_points} pts, the "
              f"priced total {prices.total} pts", severity="warning")


def _detachments(c: _Check) -> None:
    roster = c.roster
    count = len(roster.detachments)
    least, most = c.rules.detachments_allowed
    if count < least:
        c.add("DETACHMENT_COUNT", "no detachment chosen" if not count else
              f"{count} detachments; a {roster.rules}-edition army has at least {least}")
    elif most is not None and count > most:
        c.add("DETACHMENT_COUNT", f"{count} detachments; a {roster.rules}-edition army "
              f"has {'one' if most == 1 else f'at most {most}'}")
    known = known_detachments(c.library)
    for name in roster.detachments:
        if name_key(name) not in known:
            hint = suggest(name, list(known.values()))
            c.add("DETACHMENT_UNKNOWN", f"detachment {name!r} is not in the data"
                  + (f"; did you mean: {', '.join(hint)}?" if hint else ""), severity="warning")
    budgets = c.rules.detachment_budget
    if budgets is None:  # detachments cost no detachment points
        return
    table = {name_key(k): v for k, v in DETACHMENT_POINTS_11TH.items()}
    records = detachment_records(c.library, roster.detachments)
    costs = [table.get(name_key(d), getattr(records.get(name_key(d)), "points", None))
             for d in roster.detachments]
    c.dp = sum(x for x in costs if x is not None) if all(x is not None for x in costs) \
        else roster.detachment_points
    c.budget = budgets[roster.size] if roster.size else None
    if c.dp is not None and c.budget is not None and c.dp > c.budget:
        c.add("DETACHMENT_POINTS", f"detachments cost {c.dp} detachment points; the "
              f"{roster.size} budget is {c.budget}")


def _faction_members(library: Library, faction: str) -> set[str]:
    """Units a multi-source library files under ``faction`` (its own faction keywords can
    be narrower: ASURYANI units in an Aeldari army)."""
    names = getattr(library, "faction_names", None)
    if not callable(names):
        return set()
    try:
        return {name_key(n) for n in names(faction)}
    except UnknownNameError:
        return set()


def _factions(c: _Check) -> None:
    roster = c.roster
    if not roster.faction:
        c.add("FACTION_UNKNOWN", "the list names no Army Faction", severity="warning")
        return
    army = roster.faction
    gsc = name_key(army) == name_key(GSC)
    # a GSC army's allies are checked by keyword (Brood Brothers, Star Children's Blessings)
    members = set() if gsc else _faction_members(c.library, army)
    detachments = {name_key(d) for d in roster.detachments}
    tyranids, astra = [], []
    for unit, sheet in c.known():
        if _faction_of(sheet, army) or name_key(sheet.name) in members:
            continue
        if not gsc:
            c.add("ALLY_UNCHECKED", f"{sheet.name} lacks the {army.upper()} faction keyword; "
                  "allied-unit rules for this army are not in the data", unit, "warning")
        elif _faction_of(sheet, TYRANIDS) and _FINAL_DAY in detachments:
            tyranids.append((unit, sheet))
        elif _faction_of(sheet, ASTRA) and detachments & _BBA:
            astra.append((unit, sheet))
        else:
            how = {TYRANIDS: " (The Star Children's Blessings: Final Day detachment)",
                   ASTRA: " (Brood Brothers: Brood Brother Auxilia detachment)"}
            extra = next((v for k, v in how.items() if _faction_of(sheet, k)), "")
            c.add("FACTION_NOT_ALLOWED", f"{sheet.name} ({', '.join(sheet.faction_keywords)}) "
                  f"is not {article(army)} {army.upper()} unit and no allied rule admits "
                  f"it{extra}", unit)
    for unit, sheet in tyranids:
        kws = _keywords(sheet, unit, c.granted)
        bad = [k for k in STAR_CHILDREN_EXCLUDED if k in kws]
        if "VANGUARD INVADER" not in kws or bad:
            why = f"it is {', '.join(bad)}" if bad else "it is not VANGUARD INVADER"
            c.add("STAR_CHILDREN_EXCLUDED", f"The Star Children's Blessings cannot include "
                  f"{sheet.name}: {why}", unit)
    for unit, sheet in astra:
        bad = [k for k in BROOD_BROTHERS_EXCLUDED if k in _keywords(sheet, unit, c.granted)]
        if bad:
            c.add("BROOD_BROTHERS_EXCLUDED", f"Brood Brothers cannot include {sheet.name}: it "
                  f"is {', '.join(bad)}", unit)
    size = roster.size
    for group, code, rule in ((tyranids, "STAR_CHILDREN_POINTS", "TYRANIDS"),
                              (astra, "BROOD_BROTHERS_POINTS", "ASTRA MILITARUM")):
        total = sum(c.prices.line(u.id).total for u, _ in group)
        if size is not None and group and total > ALLY_POINTS[size]:
            c.add(code, f"{rule} units cost {total} pts; up to {ALLY_POINTS[size]} pts in "
                  f"{size}")
    if gsc and detachments & _BBA:
        for unit in roster.warlords():
            boss = c.sheet(unit)
            if boss is not None and not _faction_of(boss, GSC):
                c.add("BROOD_BROTHERS_WARLORD", f"the Warlord {boss.name} is not a "
                      "GENESTEALER CULTS model (Brood Brothers)", unit)


def _warlord(c: _Check) -> None:
    warlords = c.roster.warlords()
    if not warlords:
        c.add("NO_WARLORD", "no Warlord chosen")
    elif len(warlords) > 1:
        for unit in warlords[1:]:
            c.add("WARLORD_MULTIPLE", f"{len(warlords)} Warlords; the army has one", unit)
    gsc = name_key(c.roster.faction or "") == name_key(GSC)
    for unit in warlords:
        sheet = c.sheet(unit)
        if sheet is None:
            continue
        if "CHARACTER" not in _keywords(sheet, unit, c.granted):
            c.add("WARLORD_NOT_CHARACTER", f"the Warlord {sheet.name} is not a CHARACTER", unit)
        if gsc and _faction_of(sheet, TYRANIDS):
            c.add("TYRANIDS_WARLORD", f"the Warlord {sheet.name} is a TYRANIDS model (The Star "
                  "Children's Blessings)", unit)


def _eligible(record: Enhancement, kws: set[str]) -> bool | None:
    if record.keyword_groups:  # the dataset's restrictions: all of one group, none excluded
        ok = any(set(g) <= kws for g in record.keyword_groups) and not (
            set(record.excluded_keywords) & kws)
        if not ok and all(unknown_keywords(g) for g in record.keyword_groups):
            return None  # a keyword no datasheet has: the restriction cannot be checked
        return ok
    options = eligibility_alternatives(record.eligibility)
    if options is None:
        return None
    return any(covers(option, kws) for option in options)


def _enhancements(c: _Check) -> None:
    roster = c.roster
    detachments = {name_key(d) for d in roster.detachments}
    seen: dict[str, RosterUnit] = {}
    counted = 0
    for unit in roster.units:
        sheet = c.sheet(unit)
        regular = [e for e in unit.enhancements if not e.upgrade]
        counted += len(regular)
        if len(regular) > 1:
            c.add("ENHANCEMENT_MULTIPLE", f"{len(regular)} enhancements on one unit: "
                  f"{', '.join(e.name for e in regular)}", unit)
        for choice in unit.enhancements:
            record, hints = find_enhancement(c.library, choice.name, roster.rules)
            if not choice.upgrade:
                key = name_key(choice.name)
                if key in seen:
                    c.add("ENHANCEMENT_DUPLICATE", f"{choice.name} is also on "
                          f"{seen[key].name} ({seen[key].id})", unit)
                seen.setdefault(key, unit)
            if sheet is not None and not choice.upgrade:
                kws = _keywords(sheet, unit, c.granted)
                if "CHARACTER" not in kws:
                    c.add("ENHANCEMENT_NOT_CHARACTER", f"{choice.name} on {sheet.name}, which "
                          "is not a CHARACTER", unit)
                if "EPIC HERO" in kws:
                    c.add("ENHANCEMENT_EPIC_HERO", f"{choice.name} on {sheet.name}, an EPIC "
                          "HERO", unit)
            if record is None:
                c.add("ENHANCEMENT_UNKNOWN", f"enhancement {choice.name!r} is not in the data"
                      + (f"; did you mean: {', '.join(hints)}?" if hints else ""), unit,
                      "warning")
                continue
            if name_key(record.detachment) not in detachments:
                c.add("ENHANCEMENT_WRONG_DETACHMENT",
                      f"{record.name} is {article(record.detachment)} {record.detachment} "
                      "enhancement, not of this army's detachment", unit)
            if sheet is None:
                continue
            eligible = _eligible(record, _keywords(sheet, unit, c.granted))
            if eligible is None and record.eligibility:
                c.add("ENHANCEMENT_UNCHECKED", f"{record.name}: bearer restriction "
                      f"{record.eligibility!r} not understood", unit, "warning")
            elif eligible is False:
                # decision (issue 16): an Upgrade checked only against the dataset's keyword
                # lists is a warning: those lists are incomplete (its Battlewagon lacks the
                # WAGON keyword its Gunwagon has, and the app sells the upgrade for it)
                weak = choice.upgrade and bool(record.keyword_groups)
                c.add("ENHANCEMENT_INELIGIBLE", f"{record.name} is for a "
                      f"{record.eligibility}; {sheet.name} does not qualify", unit,
                      "warning" if weak else "error")
    size = roster.size
    if size is not None and counted > c.rules.enhancement_limit[size]:
        c.add("ENHANCEMENT_TOO_MANY", f"{counted} enhancements; up to "
              f"{c.rules.enhancement_limit[size]} in {size} ({roster.rules})")


def _leaders(c: _Check) -> None:
    """24.22: the units attached to each bodyguard, by the units core's one check
    (``attachment_refusals``, the one ``calc`` and the list's attacker use)."""
    roster = c.roster
    for unit in roster.units:
        body = roster.unit(unit.attached_to) if unit.attached_to else None
        if body is not None and body.attached_to is not None:
            c.add("LEADER_NOT_ALLOWED", f"{unit.name} is attached to {body.name}, which is "
                  f"itself attached to another unit", unit)
    for body in roster.units:
        guard = c.sheet(body)
        known = [(u, s) for u in roster.attached(body.id) if (s := c.sheet(u)) is not None]
        if guard is None or not known or body.attached_to is not None:
            continue
        # the keywords its detachments grant it (not its name, which ``_keywords`` adds)
        extra = c.granted.get(body.id, set()) | ({"CHARACTER"} if body.character else set())
        for refusal in attachment_refusals(guard, [s for _, s in known], extra,
                                           [u.attach_role for u, _ in known], roster.rules):
            if refusal.which is None:
                c.add("LEADER_TOO_MANY", refusal.message, body)
            else:
                c.add("LEADER_NOT_ALLOWED", refusal.message, known[refusal.which][0])


#: List headings that name a keyword: the app files units under them by that keyword.
_HEADING_KEYWORDS = {name_key("BATTLELINE"): "BATTLELINE",
                     name_key("DEDICATED TRANSPORTS"): "DEDICATED TRANSPORT"}


def _repeats(c: _Check) -> None:
    groups: dict[str, list[tuple[RosterUnit, Datasheet]]] = {}
    for unit, sheet in c.known():
        groups.setdefault(name_key(sheet.name), []).append((unit, sheet))
    for members in groups.values():
        unit, sheet = members[0]
        kws = _keywords(sheet, unit, c.granted)
        kws |= {kw for u, _ in members
                if (kw := _HEADING_KEYWORDS.get(name_key(u.section or ""))) is not None}
        limit = c.rules.unit_repeat_limit(c.roster.size, kws)
        for extra, _ in members[limit:]:
            c.add("UNIT_REPEAT_LIMIT", f"{len(members)} {sheet.name} units; up to {limit}",
                  extra)


def _transports(c: _Check) -> None:
    roster = c.roster
    riders: dict[str, list[RosterUnit]] = {}
    for unit in roster.units:
        bodyguard = roster.unit(unit.attached_to) if unit.attached_to else None
        where = bodyguard.embarked_in if bodyguard else unit.embarked_in
        if bodyguard and unit.embarked_in is not None and unit.embarked_in != where:
            c.add("TRANSPORT_INELIGIBLE", f"{unit.name} is attached to {bodyguard.name}; "
                  "attached units embark together", unit)
        if where is not None:
            riders.setdefault(where, []).append(unit)
    for unit, sheet in c.known():
        if "DEDICATED TRANSPORT" in _keywords(sheet, unit, c.granted) and unit.id not in riders:
            recorded = roster.embarkation_recorded
            c.add("DEDICATED_TRANSPORT_EMPTY", f"{sheet.name} starts the battle with no unit "
                  "embarked" + ("" if recorded else " (this list format does not record "
                                "embarked units)"), unit, "error" if recorded else "warning")
    for transport_id, units in riders.items():
        transport = roster.unit(transport_id)
        carrier = c.sheet(transport)
        if carrier is None:
            continue
        if "TRANSPORT" not in _keywords(carrier, transport, c.granted) or carrier.transport is None:
            for u in units:
                c.add("TRANSPORT_INELIGIBLE", f"{u.name} is embarked in {carrier.name}, "
                      "which is not a TRANSPORT", u)
            continue
        _load(c, transport, carrier, units)


def _load(c: _Check, transport: RosterUnit, sheet: Datasheet, units: list[RosterUnit]) -> None:
    assert sheet.transport is not None
    rules = parse_transport(sheet.transport.text)
    if rules.capacity is None and sheet.transport.capacity is not None:
        rules = parse_transport(f"transport capacity of {sheet.transport.capacity} models")
    loads = [(u, s) for u in units if (s := c.sheet(u)) is not None]
    alt = rules.alternative
    if alt is not None and len(loads) == 1 and loads[0][0].models <= alt[0]:
        u, s = loads[0]
        alt_wounds = [w for w, _ in model_wounds(s, u.models)]
        if covers(alt[1], _keywords(s, u, c.granted)) and all(w is not None and w <= alt[2]
                                                   for w in alt_wounds):
            return
    spaces = 0
    for u, s in loads:
        kws = _keywords(s, u, c.granted)
        excluded = [k for k in rules.excluded if covers(k, kws)]
        if excluded or (rules.keywords and not covers(rules.keywords, kws)):
            why = (f"it cannot transport {', '.join(excluded)} models" if excluded else
                   f"it carries only {rules.keywords} models")
            c.add("TRANSPORT_INELIGIBLE", f"{s.name} cannot embark in {sheet.name}: {why}", u)
            continue
        each = max([1, *(n for k, n in rules.spaces if covers(k, kws))])
        entries = [(e.name, e.count) for e in u.model_entries]
        for wounds, count in model_wounds(s, u.models, entries):
            space = each
            ws = rules.wound_spaces
            if ws and covers(ws[0], kws) and wounds is not None and wounds > ws[1]:
                space = max(space, ws[2])
            spaces += space * count
    if rules.capacity is not None and spaces > rules.capacity:
        c.add("TRANSPORT_CAPACITY", f"{sheet.name} carries {spaces} models' worth of "
              f"space; its capacity is {rules.capacity}", transport)


def _sheets(c: _Check) -> dict[str, Datasheet | None]:
    return {u.id: c.sheet(u) for u in c.roster.units}


def _detachment_rules(c: _Check) -> None:
    """Every faction's detachments (issue 16): keyword restrictions, unit minimums and
    granted-keyword caps (``army.detachments``)."""
    needing = [u for u in c.roster.units if u.warlord
               or any(not e.upgrade for e in u.enhancements)]
    for code, message, unit in restriction_problems(c.roster, c.library, _sheets(c), needing):
        c.add(code, message, unit)


CHECKS: tuple[Callable[[_Check], None], ...] = (
    _datasheets_and_sizes, _points, _detachments, _detachment_rules, _factions, _warlord,
    _enhancements, _leaders, _repeats, _transports)


def validate(roster: Roster, library: Library) -> ValidationReport:
    """Run every check on ``roster`` against ``library``; every violation is returned."""
    listed = enhancements_listed_as_wargear(roster, library)
    roster = read_as_enhancements(roster, listed)
    resolved = resolve(roster, library)
    check = _Check(roster, library, resolved, price_roster(roster, library, resolved))
    for unit_id, name, detachment in listed:
        check.add("ENHANCEMENT_AS_WARGEAR", f"{name} is listed as wargear; it is a "
                  f"{detachment} enhancement and is checked as one", roster.unit(unit_id),
                  "warning")
    for unit, item, sheet in unknown_wargear(roster, _sheets(check)):
        check.add("WARGEAR_UNKNOWN", f"{item} is not a weapon, ability or wargear option of "
                  f"the {sheet} datasheet: not checked, and left out of the calculations",
                  unit, "warning")
    check.granted = granted_keywords(roster, library, _sheets(check))
    for run in CHECKS:
        run(check)
    return ValidationReport(violations=tuple(check.out), prices=check.prices,
                            detachment_points=check.dp, detachment_budget=check.budget,
                            resurgence_points=resurgence_points(roster))
