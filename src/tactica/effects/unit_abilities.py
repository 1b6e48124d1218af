"""A datasheet's own abilities through the effect compiler (issue 23).

The bundled dataset encodes most datasheet abilities in the same effect language as the
faction rules (``Ability.effect``, kept by the loader): Tactical Precision is "while
attached, the unit's weapons have [LETHAL HITS]", Wall of Muscle "-1 Damage",
Slabshield "the bearer has +1 W". ``unit_ability`` compiles one with ``compile_effect``
(the faction records' compiler) and sorts its parts:

* **automatic**: a part the calculation applies by itself whenever its conditions hold
  (the unit's own modifiers, a leader's to its bodyguard unit, the target's defences);
  the conditions are those the compiler checks on a scenario (phase, ranged or melee,
  keywords, the unit being led, a charge...);
* **listed**, with the reason: a part whose trigger a scenario cannot state (an
  objective, below half strength: the compiler's *assumptions*), mortal wounds outside
  the attack sequence, a change to an enemy unit, an ability the player chooses to use
  (``behavior`` activated) or that answers an event (reactive), and what the compiler
  does not model.

An aura (``behavior`` aura, or an ``aura`` node) reaches the bearer's own unit, which is
always within its range: that assumption is the only one taken as holding.

``evaluate`` applies one ability to one scenario for one side: the modifiers, target
changes and context of the parts whose conditions hold, and for every other part the
reason. Nothing is dropped silently: each ability's coverage (``coverage_class``) is
counted by ``tactica data report --coverage``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from tactica.cache_registry import lasting_cache

from ..combat.contract.scenario import Effect, Scenario
from ..model.datasheet import Ability, Datasheet
from .compiled import Compiled, Part
from .compiler import compile_effect
from .dsl_conditions import Owner
from .record_apply import _no_weapon, _scoped, note_gaps

__all__ = ["AURA", "Coverage", "UnitAbility", "Verdict", "coverage", "evaluate",
           "unapplied_reason", "unit_ability"]

Coverage = Literal["applied", "partly", "listed", "non-combat"]
#: The compiler's assumption for an aura node: the bearer's own unit is within range.
AURA = "within range of the aura"
_AUTOMATIC = (None, "passive", "aura")
#: Why a part on an enemy unit the ability picks is not applied by itself; naming the
#: ability in ``context.designated`` (the target is the one it picked) applies it.
PICKED = "the player picks the enemy unit it concerns (context.designated names it)"
_BEHAVIOR = {"activated": "the player chooses when to use it",
             "reactive": "it answers an event the calculation does not state"}


def _helps_attacker(e: Effect) -> bool:
    """A defensive part read from the dataset as a bonus to the enemy's attacks (never a
    defence: it is listed, not applied)."""
    return any(v is not None and v > 0 for v in (e.hit, e.wound, e.attacks, e.strength)) \
        or (e.damage is not None and e.damage > 0) or (e.ap is not None and e.ap < 0) \
        or (e.skill is not None and e.skill < 0) or e.grant is not None \
        or (e.reroll is not None and e.reroll != "save")


@dataclass(frozen=True)
class UnitAbility:
    """One datasheet ability with its compiled effect."""

    name: str
    compiled: Compiled
    behavior: str | None = None
    #: what the record's curation notes say is not encoded or approximated
    gaps: tuple[str, ...] = ()
    #: why its part is not the unit's own defence or bonus (a mark on an enemy, a bonus
    #: for other units: the loader's reading of the published rule,
    #: ``loaders.wh40kdc_readings``): its defence (with ``mark_all``, every part) is
    #: listed, never applied
    mark: str | None = None
    #: ``mark`` covers every part (a bonus not the unit's own), not only its defence
    mark_all: bool = False

    def why_not_automatic(self, part: Part) -> str | None:
        """Why ``part`` is not applied by itself, or ``None`` when it is (its conditions
        still have to hold)."""
        if self.behavior not in _AUTOMATIC:
            return _BEHAVIOR.get(str(self.behavior), f"a {self.behavior} ability")
        if part.mortal_before is not None or part.side is not None:
            return "mortal wounds outside the attack sequence"
        if part.owner == "attacker" and part.target_changes:
            return "it changes an enemy unit's characteristics"
        if self.mark and (self.mark_all or part.owner == "target"):
            return self.mark  # a defence that marks an enemy, a bonus not the unit's own
        if part.owner == "target" and any(_helps_attacker(m) for m in part.modifiers):
            return "the dataset gives it as a bonus to attacks on the unit"
        if any(c.designation for c in part.conditions):
            return PICKED
        assumed = [a for a in part.assumptions if a != AURA]
        if assumed:
            return "needs " + "; ".join(dict.fromkeys(assumed)) + \
                " (a calculation does not state it)"
        return None

    @property
    def missing(self) -> tuple[str, ...]:
        """What the compiler does not model, and what the notes say is not encoded."""
        c = self.compiled
        return tuple(dict.fromkeys(
            [*c.unmodelled, *(f"effect kind {k!r} unknown" for k in c.unknown),
             *(f"modifier key {k!r} not read" for k in c.unread), *self.gaps]))

    @property
    def coverage_class(self) -> Coverage:
        """applied (every part automatic, nothing missing), partly, listed (no part is
        applied by itself) or non-combat."""
        if self.compiled.status == "non-combat":
            return "non-combat"
        auto = [p for p in self.compiled.parts if self.why_not_automatic(p) is None]
        if not auto:
            return "listed"
        if len(auto) < len(self.compiled.parts) or self.missing:
            return "partly"
        return "applied"

    @property
    def reason(self) -> str:
        """Why no part is applied by itself (for a listed or non-combat ability)."""
        c = self.compiled
        if c.status == "non-combat":
            return f"not a combat rule ({c.reason})"
        if c.status == "not modelled":
            return f"not modelled ({c.reason})"
        why = [w for p in c.parts if (w := self.why_not_automatic(p)) is not None]
        return "; ".join(dict.fromkeys(why))


@lasting_cache(maxsize=4096)
def _compiled(name: str, text: str) -> UnitAbility | None:
    try:
        record = json.loads(text)
    except ValueError:
        return None
    granted = record.get("granted") or {}
    compiled = compile_effect(record.get("effect"), name, granted.get)
    mark = record.get("mark")
    return UnitAbility(name, compiled, record.get("behavior"), note_gaps(record.get("notes")),
                       str(mark) if mark else None, bool(record.get("mark_all")))


def unit_ability(ability: Ability) -> UnitAbility | None:
    """The compiled effect of a datasheet ability, or ``None`` when the dataset gives it
    none (a seed page's ability, a core ability)."""
    if not ability.effect:
        return None
    return _compiled(ability.name, ability.effect)


@dataclass
class Verdict:
    """What one ability does in one scenario for one side: the parts applied (their
    modifiers, Feel No Pain, damage reduction, characteristic changes and context) and,
    for every other part of that side, why not (``skipped``)."""

    terms: list[str] = field(default_factory=list)
    #: terms of the applied parts that change the models themselves (Feel No Pain,
    #: damage reduction, characteristics), not the enemy's rolls or the context
    static: list[str] = field(default_factory=list)
    effects: list[Effect] = field(default_factory=list)
    #: (stat, operation, value, bearer only)
    target_changes: list[tuple[str, str, int, bool]] = field(default_factory=list)
    fnp: list[tuple[int, bool]] = field(default_factory=list)
    damage_reduction: list[tuple[int, bool]] = field(default_factory=list)
    context: dict[str, object] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    #: the ability has no part of this side (a defence of the attacking unit)
    other_side: bool = False

    @property
    def applied(self) -> bool:
        return bool(self.terms)


def _why_not(part: Part, s: Scenario) -> str | None:
    if part.attack == "ranged" and s.phase != "shooting":
        return "only ranged attacks"
    if part.attack == "melee" and s.phase != "fight":
        return "only melee attacks"
    failed = [c.failure for c in part.conditions if not c.test(s)]
    return "; ".join(failed) or None


def _is_static(part: Part) -> bool:
    return not part.context and all(
        m.fnp is not None or (m.damage is not None and m.damage < 0) for m in part.modifiers)


def evaluate(ua: UnitAbility, whose: Owner, s: Scenario,
             bearer_lines: tuple[str, ...] | None = None,
             done: tuple[str, ...] = ()) -> Verdict:
    """What ``ua`` (an ability of the ``whose`` unit) does in ``s``: the parts it owns
    as that side (an attacker's bonuses, a target's defences) whose conditions hold;
    ``bearer_lines`` limits the attacker's bearer-only parts to the bearer's weapon
    lines; parts whose terms are in ``done`` (applied at fielding) are left out, as are
    parts of the other side (a defence of the attacking unit)."""
    out = Verdict()
    mine = [p for p in ua.compiled.parts if p.owner == whose]
    out.other_side = not mine
    for part in mine:
        if part.terms in done:
            continue
        why = ua.why_not_automatic(part)
        if why == PICKED and whose == "attacker" and s.context.designated is not None:
            why = None  # the target is named as the picked unit: its condition says
        why = why or _why_not(part, s)
        if why is None and whose == "attacker" and part.bearer and bearer_lines == ():
            why = "the bearer makes none of these attacks"
        scoped = _scoped(part, s) if why is None else None
        if why is None and scoped is None:
            why = _no_weapon(part)
        if why is not None or scoped is None:
            out.skipped.append(f"{part.terms}: {why}")
            continue
        mods = scoped.modifiers
        if whose == "attacker" and part.bearer and bearer_lines is not None:
            mods = tuple(m.model_copy(update={"weapons": tuple(
                w for w in (m.weapons or bearer_lines) if w in bearer_lines)})
                for m in mods)
        out.terms.append(part.terms)
        if whose == "target" and _is_static(part):
            out.static.append(part.terms)
        for m in mods:
            if whose == "target" and m.fnp is not None:
                out.fnp.append((m.fnp, part.bearer))
            elif whose == "target" and m.damage is not None and m.damage < 0:
                out.damage_reduction.append((-m.damage, part.bearer))
            else:
                out.effects.append(m)
        out.target_changes += [(st, op, v, part.bearer) for st, op, v in part.target_changes]
        out.context.update(dict(part.context))
    return out


def unapplied_reason(ua: UnitAbility, whose: Owner) -> str:
    """Why an ability with nothing for the ``whose`` side is not in the numbers."""
    if ua.compiled.status != "modelled":
        return ua.reason
    if whose == "target":
        return "it concerns the unit's own attacks"
    return "it protects the unit when it is attacked"


def _reason_head(reason: str) -> str:
    """A listed ability's reason, without its particulars ("needs ...", "not modelled")."""
    head = reason.split(" (")[0].split(";")[0]
    return "needs a circumstance a calculation does not state" if head.startswith("needs ") \
        else head


def coverage(sheets: Iterable[Datasheet]) -> dict[str, Any]:
    """How the datasheet abilities the dataset encodes are used (``tactica data report
    --coverage``): per faction and in total, each datasheet's encoded abilities counted
    as applied (every part whenever its conditions hold), partly (the part left out
    named), listed (with the reason) or non-combat; ``records`` counts each distinct
    record once; ``listed_reasons`` and ``partly`` say why."""
    per: dict[str, Counter[str]] = {}
    totals: Counter[str] = Counter()
    records: dict[tuple[str, str], Coverage] = {}
    reasons: Counter[str] = Counter()
    partly: dict[str, list[str]] = {}
    for sheet in sheets:
        faction = sheet.faction_keywords[-1] if sheet.faction_keywords else "(none)"
        for a in sheet.abilities:
            ua = unit_ability(a) if a.kind == "unit" else None
            if ua is None:
                continue
            cls = ua.coverage_class
            row = per.setdefault(" ".join(w.capitalize() for w in faction.split()), Counter())
            for c in (row, totals):
                c["abilities"] += 1
                c[cls] += 1
            key = (a.name, a.effect or "")
            if key in records:
                continue
            records[key] = cls
            if cls == "listed":
                reasons[_reason_head(ua.reason)] += 1
            if cls == "partly":
                left = [w for p in ua.compiled.parts if (w := ua.why_not_automatic(p))]
                partly[a.name] = list(dict.fromkeys([*left, *ua.missing]))
    distinct = Counter(records.values())
    return {"factions": {f: dict(per[f]) for f in sorted(per)}, "totals": dict(totals),
            "records": {"records": len(records), **distinct},
            "listed_reasons": dict(reasons.most_common()), "partly": partly}
