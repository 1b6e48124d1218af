"""Inflict damage (05.05 / Inflict Damage): the D characteristic and its additions,
halving and reductions; Devastating Wounds packets."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tactica.combat.contract.scenario import Effect
from tactica.dice import DiceExpr, FloatArray
from tactica.model.abilities import Melta

from .attacks import reroll_roll
from .inputs import WeaponInputs

__all__ = ["DamageStage", "damage_distribution", "damage_stage", "damage_stage_key",
           "feel_no_pain"]


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


def damage_stage(inp: WeaponInputs) -> DamageStage:
    """D rolled per attack (re-rolled under the effects' policy), plus [MELTA X] within
    half range (24.24) and positive ``damage`` effects; halved if the target halves it;
    reduced by its damage reduction and negative ``damage`` effects (minimum 1).
    Devastating Wounds (the rule set's variant): 11th 24.10 mortal wounds equal to the
    weapon's D (not halved or reduced), each picking a model afresh (06.02); 10th: the
    damage after modifiers, allocated like an attack."""
    w, target = inp.weapon, inp.scenario.target
    below = inp.reroll_below("damage")
    base = reroll_roll(w.D, inp.reroll("damage"), below)
    plus = np.array([1.0])
    parts = [f"Damage {w.D}"]
    if below is not None and w.D.is_random:
        parts.append(f"(rolls below {below} re-rolled)")
    for ab in inp.abilities:
        if isinstance(ab, Melta) and inp.half_range:
            plus = np.convolve(plus, ab.extra.pmf())
            parts.append(f"+{ab.extra} {ab} (half range)")
    add = inp.total("damage", sign=1)
    if add:
        plus = np.convolve(plus, DiceExpr.parse(add).pmf())
        parts.append(f"+{add} (effects)")
    reduction = target.damage_reduction - inp.total("damage", sign=-1)
    if target.half_damage:
        parts.append("halved (round up)")
    if reduction:
        parts.append(f"-{reduction} (minimum 1)")
    damage = damage_distribution(base, plus, target.half_damage, reduction)
    afresh = inp.rules.devastating_wounds == "mortal"
    # the same pmf when nothing halves or reduces the damage (one array for both)
    plain = not target.half_damage and not reduction
    mortal = damage_distribution(base, plus, False, 0) if afresh and not plain else damage
    return DamageStage(damage, mortal, feel_no_pain(inp.effects, False), afresh,
                       " ".join(parts), feel_no_pain(inp.effects, True))


def damage_stage_key(inp: WeaponInputs) -> tuple[object, ...]:
    """Everything ``damage_stage(inp)`` reads, as a key (a batch makes each line's
    damage once for the targets that share it): the rule set, D, the effects that apply
    to the line, its Melta abilities within half range, the target's damage reduction
    and halving. Keep it in step with ``damage_stage``."""
    melta = inp.kinds.melta if inp.half_range else ()
    target = inp.scenario.target
    return ("damage", inp.rules, inp.weapon.D, inp.effects, melta, target.damage_reduction,
            target.half_damage)
