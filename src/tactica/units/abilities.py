"""The fielded units' own abilities applied to one attack (issue 23).

Once both units and the circumstances are known (``resolve``), every ability the dataset
encodes (``effects.unit_abilities``) is applied where its conditions hold:

* the **attacking unit's** own abilities and those of its attached leaders (a Leader
  ability such as Tactical Precision, "while this model is leading a unit, weapons
  equipped by models in that unit have [LETHAL HITS]", holds when the unit is led:
  ``context.led_by``; 24.22 attaches the leader) become plain modifiers of the attack,
  a bearer's own ability ("this model") on the bearer's weapon lines only;
* the **target's** defensive parts that wait for the attack (``units.defences``: a
  modifier to the enemy's rolls, Stealth, a condition on the attacker) are applied to
  the attack in the same way.

Every ability, applied or not, is written on its unit: ``rules_applied`` (the result's
notes) and ``rules_not_applied`` with the reason (the result's ``not_calculated``). The
ability names leave the unit's ``abilities`` list, so no rule is listed twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..cache_registry import LastingMemo, lasting_cache
from ..combat.contract.scenario import (
    Attacker,
    Context,
    Effect,
    ModelGroup,
    Phase,
    Scenario,
    Target,
)
from ..effects.unit_abilities import Verdict, evaluate
from ..model.common import RulesVersion
from ..model.datasheet import Datasheet
from ..model.trusted import updated
from ..names import name_key
from .defences import Held, describe, held_abilities

__all__ = ["HeldAbilities", "apply_attacker_abilities", "apply_held",
           "apply_pending_defences", "armed_with_abilities", "held_by", "judgement"]

_LIMITS = {"T": (1, 20), "Sv": (2, 7), "W": (1, 60), "invuln": (2, 6)}


def _without(names: Iterable[str], handled: set[str]) -> tuple[str, ...]:
    return tuple(n for n in names if name_key(n) not in handled)


def _lines_of(sheet: Datasheet, s: Scenario) -> tuple[str, ...]:
    """The attacker's weapon lines that are ``sheet``'s weapons ("Bolt Rifle – Focused
    Fire" is the Bolt Rifle's), for a door that does not say which are whose."""
    names = {name_key(w.name) for w in sheet.weapons}
    return tuple(line.name for line in s.attacker.weapons
                 if name_key(line.name.split(" – ")[0].split(" (")[0]) in names)


def apply_attacker_abilities(s: Scenario, sheets: list[Datasheet],
                             lines_of: dict[str, tuple[str, ...]] | None = None) -> Scenario:
    """``s`` with the attacking unit's own abilities and its leaders' (``sheets``: the
    unit's datasheet first) applied where their conditions hold; ``lines_of`` gives each
    datasheet's weapon lines (a bearer's ability reaches only those; by default the
    lines named for the datasheet's weapons).

    What they come to (the attacker with them noted, the effects they add) is kept per
    what the abilities read of the scenario: its phase, the attacker, the context and,
    where a condition or a part reads it (``Condition.reads``, a part on attacks with S
    greater than T), the target. A table's attacker meets every target it reads nothing
    of with one judgement."""
    return apply_held(s, held_by(sheets), lines_of)


def apply_held(s: Scenario, held: HeldAbilities,
               lines_of: dict[str, tuple[str, ...]] | None = None) -> Scenario:
    """``apply_attacker_abilities`` with the abilities of the attacking unit's
    datasheets found already (``held_by``: a fielded side keeps them)."""
    if not held.names:
        return s
    attacker, effects = judgement(held, s.phase, s.attacker, s.context, s.target,
                                  lines_of, lambda: s)
    return updated(s, {"attacker": attacker, "effects": (*s.effects, *effects)})


def judgement(held: HeldAbilities, phase: Phase, attacker: Attacker, context: Context,
              target: Target, lines_of: dict[str, tuple[str, ...]] | None,
              scenario: Callable[[], Scenario]) -> tuple[Attacker, tuple[Effect, ...]]:
    """What the abilities ``held`` come to in a scenario of these parts (``scenario``
    makes it, only when they are judged afresh): the attacker with them noted, and the
    effects they add. Cached per what they read of it (``apply_attacker_abilities``),
    by value: the datasheets (``held``), the phase, the lines, the attacker, the context
    and, when a part reads it, the target."""
    key = (held, phase, tuple(lines_of.items()) if lines_of else (), attacker, context,
           target if held.reads_target else None)
    return _judged.cached(key, lambda: _judge(scenario(), held, lines_of or {}))


#: ``_judge``'s answers, per what the abilities read (``judgement``'s key: the records
#: themselves; ``scenario`` makes the one made of them, so it is no part of the key).
_judged: LastingMemo[tuple[object, ...], tuple[Attacker, tuple[Effect, ...]]] = \
    LastingMemo(8192)


def _judge(s: Scenario, held: HeldAbilities, lines_of: dict[str, tuple[str, ...]]
           ) -> tuple[Attacker, tuple[Effect, ...]]:
    """The attacker of ``s`` with the abilities ``held`` noted as applied or not, and the
    effects of those applied."""
    applied: list[str] = []
    not_applied: list[str] = []
    effects: list[Effect] = []
    for sheet, h, _, fixed in held.lines:
        if fixed is not None:  # nothing of the attacker's side: the same every time
            not_applied += fixed
            continue
        v = evaluate(h.compiled, "attacker", s, lines_of.get(sheet.name) or _lines_of(sheet, s))
        a, n = describe(h, v, "attacker")
        applied += a
        not_applied += n
        effects += v.effects
    return _noted(s.attacker, held.names, tuple(applied), tuple(not_applied)), tuple(effects)


#: One ability ``held_by`` gives: its datasheet, the ability, its label, and for an
#: ability with no part of the attacker's side (a defence) the lines it always writes
#: (``describe`` of ``evaluate``'s verdict, which reads nothing of the scenario then),
#: else ``None``.
_HeldLine = tuple[Datasheet, Held, str, tuple[str, ...] | None]


@dataclass(frozen=True, slots=True, eq=False)
class HeldAbilities:
    """The abilities of an attacking unit's datasheets (``held_by``): a value of the
    datasheets alone, compared and hashed as them (the rest is worked out from them)."""

    sheets: tuple[Datasheet, ...]
    lines: tuple[_HeldLine, ...] = field(default=())
    #: their names as keys (they leave the unit's list)
    names: frozenset[str] = frozenset()
    #: whether a part of the attacker's side reads the target: a condition on it
    #: (``Condition.reads``) or attacks with S greater than its T
    reads_target: bool = False

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HeldAbilities) and self.sheets == other.sheets

    def __hash__(self) -> int:
        return hash(self.sheets)


def held_by(sheets: list[Datasheet]) -> HeldAbilities:
    """The abilities the dataset encodes of ``sheets`` (``held_abilities``), each with its
    datasheet and label (``_HeldLine``): the same for every target an attacker meets
    (cached by the datasheets' values)."""
    return _held_by(tuple(sheets))


@lasting_cache(maxsize=8192)
def _held_by(sheets: tuple[Datasheet, ...]) -> HeldAbilities:
    def fixed(h: Held) -> tuple[str, ...] | None:
        if any(p.owner == "attacker" for p in h.compiled.compiled.parts):
            return None
        applied, skipped = describe(h, Verdict(other_side=True), "attacker")
        assert not applied
        return tuple(skipped)

    lines = tuple((sheet, h, h.label, fixed(h)) for sheet in sheets
                  for h in held_abilities(sheet))
    return HeldAbilities(sheets, lines,
                         frozenset(name_key(h.ability.name) for _, h, _, _ in lines),
                         any(_reads_target(h) for _, h, _, f in lines if f is None))


def _reads_target(h: Held) -> bool:
    """Whether a part of ``h``'s attacker side reads the target (``evaluate``: its
    conditions, and its scope when it is on attacks with S greater than T)."""
    return any(p.strength_over_toughness or any("target" in c.reads for c in p.conditions)
               for p in h.compiled.compiled.parts if p.owner == "attacker")


@lasting_cache(maxsize=8192)
def _noted(a: Attacker, handled: frozenset[str], applied: tuple[str, ...],
           not_applied: tuple[str, ...]) -> Attacker:
    """``a`` with the abilities ``handled`` left out of its list and written as applied
    and not applied (cached by value: an attacker fielded once meets many targets
    alike). A sentence two parts of one ability both write is written once."""
    return a.model_copy(update={
        "abilities": _without(a.abilities, set(handled)),
        "rules_applied": tuple(dict.fromkeys((*a.rules_applied, *applied))),
        "rules_not_applied": tuple(dict.fromkeys((*a.rules_not_applied, *not_applied)))})


def _changed(g: ModelGroup, v: Verdict) -> ModelGroup:
    values: dict[str, int | None] = {"T": g.T, "Sv": g.Sv, "W": g.W, "invuln": g.invuln}
    for stat, op, value, _ in v.target_changes:
        current = values[stat]
        if op == "best":
            values[stat] = value if current is None else min(current, value)
        elif op == "set":
            values[stat] = value
        elif current is not None:
            low, high = _LIMITS[stat]
            values[stat] = max(low, min(high, current + value))
    fnp = min([t for t, _ in v.fnp] + ([g.fnp] if g.fnp is not None else []), default=None)
    update: dict[str, object] = {**values, "fnp": fnp}
    w = values["W"]
    if w is not None and g.wounds_lost >= w:
        update["wounds_lost"] = w - 1
    return g.model_copy(update=update)


def _late(h: Held, v: Verdict) -> tuple[Verdict, list[str]]:
    """The characteristic parts of ``v`` that hold only once the attack is known: on the
    whole unit they are applied; on the bearer's models alone they are listed."""
    parts = [*v.fnp, *v.damage_reduction, *((0, b) for *_, b in v.target_changes)]
    if not parts:
        return v, []
    if h.items or any(bearer for _, bearer in parts):
        v.terms = [t for t in v.terms if t not in v.static]
        return Verdict(), [f"{h.label}: not applied: {t}: only the bearer's models, once "
                           "the attacker is known (not calculated)" for t in v.static]
    return v, []


def apply_pending_defences(s: Scenario, pending: list[tuple[Held, tuple[str, ...]]]
                           ) -> Scenario:
    """``s`` with the parts of the target's abilities that waited for the attack applied
    where their conditions hold (``pending``: each ability with the parts already
    applied when the target was fielded)."""
    if not pending:
        return s
    target = s.target
    applied = list(target.rules_applied)
    labels = tuple(f"{h.label}:" for h, _ in pending)
    not_applied = [r for r in target.rules_not_applied if not r.startswith(labels)]
    effects: list[Effect] = []
    context: dict[str, object] = {}
    groups = target.models
    reduction = target.damage_reduction
    for h, done in pending:
        v = evaluate(h.compiled, "target", s, done=done)
        late, problems = _late(h, v)
        groups = tuple(_changed(g, late) for g in groups)
        reduction += sum(r for r, _ in late.damage_reduction)
        effects += v.effects
        context.update(v.context)
        a, n = describe(h, v, "target")
        applied += a
        not_applied += n + problems
    target = target.model_copy(update={
        "models": groups, "damage_reduction": min(6, reduction),
        "rules_applied": tuple(applied), "rules_not_applied": tuple(not_applied)})
    ctx = s.context.model_copy(update=context) if context else s.context
    return s.model_copy(update={"target": target, "context": ctx,
                                "effects": (*s.effects, *effects)})


def armed_with_abilities(attacker: Attacker, sheets: list[Datasheet],
                         lines_of: dict[str, tuple[str, ...]], target: Target, phase: Phase,
                         context: Context, rules: RulesVersion = "11th"
                         ) -> tuple[Attacker, tuple[Effect, ...]]:
    """A fielded attacker with its own and its leaders' abilities (``sheets``) judged
    against ``target`` in ``phase`` and ``context`` (its leaders in ``context.led_by``),
    for a door that builds its own documents (a turn's steps): the attacker (with what
    was applied and not) and the plain effects to add to its step."""
    s = Scenario(rules=rules, phase=phase, attacker=attacker, target=target, context=context)
    done = apply_attacker_abilities(s, sheets, lines_of)
    return done.attacker, tuple(e for e in done.effects if isinstance(e, Effect))
