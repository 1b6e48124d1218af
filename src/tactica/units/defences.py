"""A fielded target's model groups with its own defensive abilities applied (issue 23).

A unit's datasheet abilities that the dataset encodes (``effects.unit_abilities``) and
that protect it are applied when it is fielded as a target, whenever their conditions
hold: Feel No Pain (Lifewards, Ogryn Bodyguard: FNP 4+), a Wounds bonus (Slabshield,
Praesidium Shield: +1 W), damage reduction (Wall of Muscle, Inner Circle, Duty Eternal:
-1 Damage; 11th 05.05 and reference facts §4.7: reductions after halving, minimum 1), an
invulnerable save (Brute Shield 4+; the better one is kept, 05.04) or a characteristic
change (T, Sv). Feel No Pain X+ (11th core, the BSData 11e game system's text): "each
time a model with this ability would lose a wound, roll one D6: on an X+, that wound is
not lost"; the best of the model's is used (reference facts §5.10). A leader's ability
for the unit it leads holds only while it is attached; an attached unit "is treated as a
single unit for all rules purposes" (the Leader rule, same file), so a unit-wide ability
of either datasheet reaches every model, a bearer's ("this model") only its own.

An ability on a piece of wargear (its name is an item of the datasheet: Slabshield,
Praesidium Shield) is the bearer's: only the models carrying that item get it, so they
form model groups of their own. A part that is not a characteristic of the models (-1 to
the enemy's hit rolls, Stealth) or whose conditions need the attacker is left
``pending``: ``units.abilities`` applies it once the attack is known, and a target
fielded on its own (``Library.target``) lists it as not applied, with the reason.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from ..cache_registry import lasting_cache
from ..combat.contract.scenario import Attacker, ModelGroup, Phase, Scenario, Target, WeaponLine
from ..effects import unit_ability_effect
from ..effects.dsl_conditions import Owner
from ..effects.unit_abilities import (
    UnitAbility,
    Verdict,
    evaluate,
    unapplied_reason,
    unit_ability,
)
from ..model.datasheet import Ability, Datasheet, ModelProfile
from ..names import name_key
from .conditions import invulnerable_save
from .loadout import FieldedModels, Loadout

__all__ = ["PROBE_ATTACKER", "Held", "TargetFielding", "describe", "held_abilities", "stat_line",
           "target_groups"]

#: The attacker a target is fielded against before the attack is known (nothing in it
#: meets a condition on the attacker: such parts wait for the real one).
PROBE_ATTACKER = Attacker(name="an attacker not yet known", weapons=(WeaponLine(
    name="probe", A="1", skill=4, S=4, D="1"),))
_LIMITS = {"T": (1, 20), "Sv": (2, 7), "W": (1, 60), "invuln": (2, 6)}


@dataclass(frozen=True)
class Held:
    """One encoded ability of one datasheet of a fielded unit."""

    sheet: Datasheet
    ability: Ability
    #: ``unit_ability(ability)``, a function of ``ability``: left out of the value
    #: (compared and hashed as the datasheet, the ability and the items)
    compiled: UnitAbility = field(compare=False)
    #: the item keys that carry it (an ability on wargear), else () for every model
    items: frozenset[str] = frozenset()

    @property
    def label(self) -> str:
        return f"{self.ability.name} ({self.sheet.name})"

    def carried_by(self, m: FieldedModels) -> bool:
        return not self.items or any(name_key(e) in self.items for e in m.equipment)


def _items(sheet: Datasheet) -> set[str]:
    names = {i for mt in sheet.model_types for i in mt.equipment}
    names |= {i for o in sheet.wargear for c in o.choices for i in c}
    return {name_key(n) for n in names if n}


def held_abilities(sheet: Datasheet) -> list[Held]:
    """The abilities of ``sheet`` that the dataset encodes (the seed catalogue's named
    effects, such as Cult Demagogue, are applied by name instead). Each is ``sheet``'s
    own, by identity too (fielding tells a unit's models from its leaders' by their
    datasheet): the answer cached for an equal datasheet, another object, is rebound."""
    found = _held_abilities(sheet)
    if found and found[0].sheet is not sheet:
        return [replace(h, sheet=sheet) for h in found]
    return list(found)


@lasting_cache(maxsize=4096)
def _held_abilities(sheet: Datasheet) -> tuple[Held, ...]:
    """``held_abilities``, cached by the datasheet's value: a table of many matchups asks
    it for the same attacker again and again."""
    out = []
    items = _items(sheet)
    for a in sheet.abilities:
        ua = unit_ability(a) if a.kind == "unit" else None
        if ua is None or unit_ability_effect(a.name, sheet.rules) is not None:
            continue
        key = name_key(a.name)
        carried = frozenset(i for i in items if key and (i == key or key in i))
        out.append(Held(sheet, a, ua, carried))
    return tuple(out)


def stat_line(sheet: Datasheet, name: str) -> ModelProfile | None:
    """The stat line of ``sheet``'s ``name`` models: by name, then by name without a
    plural "s", then the datasheet's only stat line; ``None`` when none fits."""
    key = name_key(name)
    found = next((p for p in sheet.models if name_key(p.name) == key), None)
    found = found or next((p for p in sheet.models
                           if name_key(p.name).rstrip("s") == key.rstrip("s")), None)
    if found is None and len(sheet.models) == 1:
        found = sheet.models[0]
    return found


@dataclass
class _Group:
    sheet: Datasheet
    profile: ModelProfile
    count: int
    carried: frozenset[str]  # labels of the item abilities its models carry
    character: bool
    fnp: int | None = None
    stats: dict[str, int | None] = field(default_factory=dict)


def _apply_changes(g: _Group, changes: list[tuple[str, str, int]]) -> None:
    for stat, op, value in changes:
        current = g.stats.get(stat)
        if op == "best":
            g.stats[stat] = value if current is None else min(current, value)
        elif op == "set":
            g.stats[stat] = value
        elif current is not None:
            low, high = _LIMITS[stat]
            g.stats[stat] = max(low, min(high, current + value))


@dataclass
class TargetFielding:
    """The groups and what the target's abilities did at fielding."""

    groups: list[ModelGroup]
    damage_reduction: int = 0
    applied: list[str] = field(default_factory=list)
    not_applied: list[str] = field(default_factory=list)
    #: abilities with parts left for the attack (conditions on the attacker, modifiers
    #: to its rolls, Stealth), with the part terms already applied
    pending: list[tuple[Held, tuple[str, ...]]] = field(default_factory=list)
    #: every encoded ability of the unit's datasheets
    held: list[Held] = field(default_factory=list)


def _base_groups(loadouts: list[tuple[Datasheet, Loadout]], main: Datasheet,
                 held: list[Held], phase: Phase) -> list[_Group]:
    groups: dict[tuple[str, str, frozenset[str]], _Group] = {}
    for sheet, loadout in loadouts:
        character = sheet is not main or sheet.has_keyword("CHARACTER")
        # the best of the sheet's Feel No Pain abilities (core, or the loader's reading
        # of a unit ability that is one)
        fnp = min((a.parameter.min for a in sheet.abilities
                   if a.name.casefold() == "feel no pain" and a.parameter is not None),
                  default=None)
        mine = [h for h in held if h.sheet is sheet and h.items]
        for m in loadout.models:
            p = stat_line(sheet, m.profile)
            if p is None:
                raise LookupError(f"{sheet.name}: the data gives no stat line for its "
                                  f"{m.profile} models")
            missing = [s for s in ("T", "Sv", "W") if getattr(p, s) is None]
            if missing:
                raise LookupError(f"{sheet.name}: model {p.name} has no {', '.join(missing)}")
            carried = frozenset(h.label for h in mine if h.carried_by(m))
            key = (sheet.name, p.name, carried)
            if key in groups:
                groups[key].count += m.count
                continue
            groups[key] = _Group(sheet, p, m.count, carried, character, fnp, {
                "T": p.T, "Sv": p.Sv, "W": p.W, "invuln": invulnerable_save(p, phase)})
    return list(groups.values())


def _model_groups(groups: list[_Group]) -> list[ModelGroup]:
    out = []
    seen = Counter((g.sheet.name, g.profile.name) for g in groups)
    for g in groups:
        name = g.profile.name
        if seen[(g.sheet.name, name)] > 1 and g.carried:  # models with and without it
            name += " (" + ", ".join(sorted(x.split(" (")[0] for x in g.carried)) + ")"
        t, sv, w = g.stats["T"], g.stats["Sv"], g.stats["W"]
        assert t is not None and sv is not None and w is not None
        out.append(ModelGroup(name=name, count=g.count, T=t, Sv=sv, invuln=g.stats["invuln"],
                              W=w, fnp=g.fnp, character=g.character))
    return out


def _mine(h: Held, g: _Group, bearer: bool) -> bool:
    """Whether a part of ``h`` reaches group ``g``: a bearer's part only the bearer's
    models (the item's carriers, or the datasheet's own models); a unit's every model."""
    if h.items:
        return h.label in g.carried
    return g.sheet is h.sheet if bearer else True


def _apply(h: Held, v: Verdict, groups: list[_Group], out: TargetFielding) -> list[str]:
    """Apply the characteristic parts of ``v`` to ``groups``; the reasons of those that
    cannot be (a damage reduction on some models only)."""
    problems = []
    for t, bearer in v.fnp:
        for g in groups:
            if _mine(h, g, bearer):
                g.fnp = t if g.fnp is None else min(g.fnp, t)
    for r, bearer in v.damage_reduction:
        if all(_mine(h, g, bearer) for g in groups):
            out.damage_reduction += r
        else:
            problems.append(f"-{r} Damage: only some of the unit's models have it (damage "
                            "reduction is calculated for the whole unit)")
    for stat, op, value, bearer in v.target_changes:
        for g in groups:
            if _mine(h, g, bearer):
                _apply_changes(g, [(stat, op, value)])
    return problems


def describe(h: Held, v: Verdict, whose: Owner,
             pending: tuple[str, ...] = ()) -> tuple[list[str], list[str]]:
    """The lines of one ability: what it applied (notes) and what it did not, with why
    (``not_calculated``); ``pending`` are applied parts whose effect waits for the
    attack (a target fielded on its own)."""
    applied, skipped = _describe(h.label, h.ability, whose, pending, tuple(v.terms),
                                 tuple(v.skipped), v.other_side)
    return list(applied), list(skipped)


@lasting_cache(maxsize=16384)
def _describe(label: str, ability: Ability, whose: Owner, pending: tuple[str, ...],
              terms: tuple[str, ...], skipped_parts: tuple[str, ...], other_side: bool
              ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``describe``'s lines from what it reads of the verdict, cached by value (a table
    of many matchups describes the same verdicts again and again): read-only tuples."""
    ua = unit_ability(ability)
    assert ua is not None  # a held ability is one the dataset encodes
    done = [t for t in terms if t not in pending]
    applied = [f"{label}: {'; '.join(done)}"] if done else []
    skipped = [f"{label}: not applied: {x}" for x in skipped_parts]
    skipped += [f"{label}: not applied: {t}: applied once the attacker is known"
                for t in pending]
    if other_side:
        skipped.append(f"{label}: {unapplied_reason(ua, whose)}")
    else:
        skipped += [f"{label}: not calculated: {m}" for m in ua.missing]
    return tuple(applied), tuple(skipped)


def target_groups(loadouts: list[tuple[Datasheet, Loadout]], main: Datasheet,
                  phase: Phase, keywords: tuple[str, ...]) -> TargetFielding:
    """The target's model groups (one per stat line and carried item ability; an attached
    leader's are CHARACTER groups), with the defensive abilities applied whose
    conditions hold before the attack is known. Raises ``LookupError`` for a model with
    no stat line."""
    held = [h for sheet, _ in loadouts for h in held_abilities(sheet)]
    groups = _base_groups(loadouts, main, held, phase)
    out = TargetFielding([], held=held)
    probe: Scenario | None = None
    for h in held:
        if probe is None and any(p.owner == "target" for p in h.compiled.compiled.parts):
            probe = Scenario(phase=phase, attacker=PROBE_ATTACKER, target=Target(
                name=main.name, keywords=keywords, models=tuple(_model_groups(groups))))
        v = evaluate(h.compiled, "target", probe) if probe is not None else \
            Verdict(other_side=True)
        if h.items and not any(h.label in g.carried for g in groups):
            v = Verdict(skipped=[f"{p.terms}: no model carries it" for p in
                                 h.compiled.compiled.parts if p.owner == "target"],
                        other_side=v.other_side)
            applied, skipped = describe(h, v, "target")
            out.not_applied += skipped
            continue
        static = Verdict(terms=v.static, fnp=v.fnp, damage_reduction=v.damage_reduction,
                         target_changes=v.target_changes)
        problems = _apply(h, static, groups, out)
        later = tuple(t for t in v.terms if t not in v.static)
        if later or v.skipped:
            out.pending.append((h, tuple(v.static)))
        applied, skipped = describe(h, v, "target", later)
        out.applied += applied
        out.not_applied += skipped + [f"{h.label}: not applied: {p}" for p in problems]
    out.groups = _model_groups(groups)
    return out
