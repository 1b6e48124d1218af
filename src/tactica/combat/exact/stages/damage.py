"""Inflict damage (05.05 / Inflict Damage): the D characteristic and its additions,
halving and reductions; Devastating Wounds packets. ``damage_stage`` is a pure function
of one ``DamageInputs`` record (the cache key: it holds what the stage reads and nothing
else, issue 42)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tactica.combat.contract.scenario import Effect
from tactica.dice import DiceExpr, FloatArray
from tactica.model.abilities import Melta
from tactica.rules.base import RuleSet

from .attacks import reroll_roll
from .inputs import WeaponInputs, effects_reroll, effects_reroll_below, effects_total

__all__ = ["DamageInputs", "DamageStage", "damage_distribution", "damage_stage",
           "feel_no_pain"]


class DamageInputs(NamedTuple):
    """Everything ``damage_stage`` reads (a batch makes each line's damage once for the
    targets whose records are equal)."""

    rules: RuleSet
    D: DiceExpr
    effects: tuple[Effect, ...]
    #: the line's Melta abilities within half range (none beyond it)
    melta: tuple[Melta, ...]
    damage_reduction: int
    half_damage: bool

    @classmethod
    def of(cls, inp: WeaponInputs) -> DamageInputs:
        """The damage's record of the line ``inp``."""
        target = inp.scenario.target
        return cls(inp.rules, inp.weapon.D, inp.effects,
                   inp.kinds.melta if inp.half_range else (), target.damage_reduction,
                   target.half_damage)


class DamageStage(NamedTuple):
    damage_pmf: FloatArray  # per normal attack, after additions/halving/reduction
    mortal_pmf: FloatArray  # per Devastating Wounds critical (rule-set dependent)
    fnp_effect: int | None
    mortal_afresh: bool  # 11th: each mortal wound picks a model (06.02)
    explanation: str
    fnp_mortal: int | None = None  # against mortal wounds: also the mortal-only FNP


def feel_no_pain(effects: tuple[Effect, ...], mortal: bool) -> int | None:
    """The best Feel No Pain the effects give against normal damage, or (``mortal``)
    against mortal wounds, where a Feel No Pain "against mortal wounds" only (``fnp_mortal``:
    Catalytic Biofortification, Faithful Fortitude) also counts (reference facts §4.7)."""
    found = [e.fnp for e in effects if e.fnp]
    if mortal:
        found += [e.fnp_mortal for e in effects if e.fnp_mortal]
    return min(found, default=None)


def damage_distribution(base: FloatArray, plus: FloatArray, half: bool,
                        reduction: int) -> FloatArray:
    """Reference facts §4.7: additions (Melta, +damage), then halving rounding up, then
    reductions; D "cannot be less than 1" (02.02.01). Nothing added, halved or reduced,
    and no chance of 0: the distribution itself (a copy; the same floats as the sums)."""
    trivial = len(plus) == 1 and plus[0] == 1.0
    if trivial and not half and not reduction and not base[0]:
        return base.copy()
    total = base + 0.0 if trivial else np.convolve(base, plus)
    out = [0.0] * len(total)  # Python floats: the same sums, without numpy per entry
    for v, p in enumerate(total.tolist()):
        if not p:
            continue
        d = -(-v // 2) if half else v
        out[max(1, d - reduction)] += p
    return np.array(out, dtype=np.float64)


def damage_stage(inp: DamageInputs) -> DamageStage:
    """D rolled per attack (re-rolled under the effects' policy), plus [MELTA X] within
    half range (24.24) and positive ``damage`` effects; halved if the target halves it;
    reduced by its damage reduction and negative ``damage`` effects (minimum 1).
    Devastating Wounds (the rule set's variant): 11th 24.10 mortal wounds equal to the
    weapon's D (not halved or reduced), each picking a model afresh (06.02); 10th: the
    damage after modifiers, allocated like an attack."""
    effects = inp.effects
    below = effects_reroll_below(effects, "damage")
    base = reroll_roll(inp.D, effects_reroll(effects, "damage"), below)
    plus = np.array([1.0])
    parts = [f"Damage {inp.D}"]
    if below is not None and inp.D.is_random:
        parts.append(f"(rolls below {below} re-rolled)")
    for ab in inp.melta:
        plus = np.convolve(plus, ab.extra.pmf())
        parts.append(f"+{ab.extra} {ab} (half range)")
    add = effects_total(effects, "damage", sign=1)
    if add:
        plus = np.convolve(plus, DiceExpr.parse(add).pmf())
        parts.append(f"+{add} (effects)")
    reduction = inp.damage_reduction - effects_total(effects, "damage", sign=-1)
    if inp.half_damage:
        parts.append("halved (round up)")
    if reduction:
        parts.append(f"-{reduction} (minimum 1)")
    damage = damage_distribution(base, plus, inp.half_damage, reduction)
    afresh = inp.rules.devastating_wounds == "mortal"
    # the same pmf when nothing halves or reduces the damage (one array for both)
    plain = not inp.half_damage and not reduction
    mortal = damage_distribution(base, plus, False, 0) if afresh and not plain else damage
    return DamageStage(damage, mortal, feel_no_pain(effects, False), afresh,
                       " ".join(parts), feel_no_pain(effects, True))

