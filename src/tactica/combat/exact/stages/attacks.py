"""Gather attack dice (05.01): the A characteristic, its modifiers and the abilities that
add attack dice."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tactica.dice import DiceExpr, FloatArray
from tactica.model.abilities import Blast, Cleave, RapidFire

from .inputs import RerollPolicy, WeaponInputs

__all__ = ["AttackDice", "attack_dice", "attack_dice_key", "reroll_roll", "shift_floor"]


class AttackDice(NamedTuple):
    """The attack dice of the whole line (all copies) and how they were counted."""

    pmf: FloatArray
    explanation: str
    notes: tuple[str, ...] = ()


def shift_floor(pmf: FloatArray, shift: int, floor: int) -> FloatArray:
    """pmf of max(floor, X + shift) for X >= 0 with the given pmf (no shift and no
    chance below the floor: a copy of the pmf, the same floats)."""
    if not shift and len(pmf) > floor and not any(pmf[:floor].tolist()):
        return pmf.copy()
    out = np.zeros(max(len(pmf) + shift, floor + 1), dtype=np.float64)
    for v, p in enumerate(pmf.tolist()):  # Python floats: the same sums, faster
        if p:
            out[max(floor, v + shift)] += p
    return out


def power(pmf: FloatArray, n: int) -> FloatArray:
    """The pmf of the sum of ``n`` independent copies (a fixed value: placed directly,
    as the convolutions would place it).

    >>> power(np.array([0.0, 0.5, 0.5]), 2).tolist(), power(np.array([0.0, 1.0]), 3).tolist()
    ([0.0, 0.0, 0.25, 0.5, 0.25], [0.0, 0.0, 0.0, 1.0])
    """
    if n == 1:
        return pmf.copy()  # one copy: the convolution with [1.0] is the pmf itself
    where = pmf.nonzero()[0]
    if len(where) == 1 and pmf[where[0]] == 1.0:
        fixed = np.zeros(n * (len(pmf) - 1) + 1)
        fixed[n * int(where[0])] = 1.0
        return fixed
    out = np.array([1.0])
    for _ in range(n):
        out = np.convolve(out, pmf)
    return out


def reroll_roll(expr: DiceExpr, policy: RerollPolicy, below: int | None = None
                ) -> FloatArray:
    """A roll of ``expr`` re-rolled once under ``policy`` (reference facts §4.5: before
    modifiers, at most once; the whole roll, "you re-roll that roll"): ``ones`` re-rolls
    the lowest possible result, ``failed``/``any`` re-roll results below the mean (the
    attacker's best single re-roll of a characteristic roll; noted in the result);
    ``below`` re-rolls every result under that value ("re-roll damage rolls below 3"),
    and with a policy too, a result either allows.

    >>> from tactica.dice import DiceExpr
    >>> [round(float(p) * 9, 6) for p in reroll_roll(DiceExpr.parse("D3"), None, below=2)[1:]]
    [1.0, 4.0, 4.0]
    """
    pmf = expr.pmf()
    if (policy is None and below is None) or not expr.is_random:
        return pmf  # the cached pmf itself (read-only: every caller makes a new one)
    values = np.arange(len(pmf))
    mean = float(np.dot(values, pmf))
    reroll = np.zeros(len(pmf), dtype=bool) if policy is None else \
        values == expr.min if policy == "ones" else values < mean
    if below is not None:
        reroll |= values < below
    keep: FloatArray = np.where(reroll, 0.0, pmf)
    return keep + float(pmf[reroll].sum()) * pmf


def attack_dice(inp: WeaponInputs) -> AttackDice:
    """02.02.03: a random A is rolled per weapon; effects add to A, which "cannot be less
    than 1" (02.02.01); 10th Extra Attacks weapons ignore such modifiers. Then the
    abilities that add dice for the line: 24.05 [BLAST X] and 24.06 [CLEAVE X] (X per
    five models in the target at the Select Targets step, ``rules.per_five_models``:
    the same count, reference facts §5.9 / §6.6) and [RAPID FIRE X] within half range."""
    w, rules = inp.weapon, inp.rules
    notes: list[str] = []
    unmodifiable = "Extra Attacks" in inp.flags and rules.extra_attacks_unmodifiable
    bonus = 0 if unmodifiable else inp.total("attacks")
    per_copy = shift_floor(reroll_roll(w.A, inp.reroll("attacks"),
                                       inp.reroll_below("attacks")), bonus, 1)
    parts = [f"A{w.A}"]
    if bonus:
        parts.append(f"{bonus:+d} (effects, minimum 1)")
    if unmodifiable and inp.total("attacks"):
        notes.append(f"{w.name}: Extra Attacks weapon, attacks not modified (10th)")
    models = inp.target_models
    for ab in inp.abilities:
        if isinstance(ab, Blast | Cleave):
            extra = ab.extra * rules.per_five_models(models)
            per_copy = shift_floor(per_copy, extra, 1) if extra else per_copy
            parts.append(f"+{extra} {ab} ({models} models)" if extra
                         else f"{ab}: no bonus ({models} models)")
        elif isinstance(ab, RapidFire) and inp.half_range:
            per_copy = np.convolve(per_copy, ab.extra.pmf())
            parts.append(f"+{ab.extra} {ab} (half range)")
    return AttackDice(power(per_copy, w.count), f"{w.count} x " + " ".join(parts),
                      tuple(notes))


def attack_dice_key(inp: WeaponInputs) -> tuple[object, ...]:
    """Everything ``attack_dice(inp)`` reads, as a key (a batch counts each line's dice
    once for the targets that share them): the rule set, the line's name (in the notes),
    A and count, its flags, the effects that apply to it, its Blast, Cleave and Rapid
    Fire abilities, the target's model count where Blast or Cleave reads it, and half
    range. Keep it in step with ``attack_dice``."""
    w, found = inp.weapon, inp.kinds
    models = inp.target_models if found.counts_models else None
    return ("attacks", inp.rules, w.name, w.A, w.count, inp.flags, inp.effects, found.adding,
            models, inp.half_range)
