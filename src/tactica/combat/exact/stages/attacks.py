"""Gather attack dice (05.01): the A characteristic, its modifiers and the abilities that
add attack dice. ``attack_dice`` is a pure function of one ``AttackInputs`` record (the
cache key: it holds what the stage reads and nothing else, issue 42)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tactica.combat.contract.scenario import Effect
from tactica.dice import DiceExpr, FloatArray
from tactica.model.abilities import Blast, Cleave, RapidFire, WeaponAbility
from tactica.rules.base import RuleSet

from .inputs import (
    RerollPolicy,
    WeaponInputs,
    effects_reroll,
    effects_reroll_below,
    effects_total,
)

__all__ = ["AttackDice", "AttackInputs", "attack_dice", "reroll_roll", "shift_floor"]


class AttackInputs(NamedTuple):
    """Everything ``attack_dice`` reads (a batch counts each line's dice once for the
    targets whose records are equal)."""

    rules: RuleSet
    name: str  # the line's, in the notes
    A: DiceExpr
    copies: int  # the line's count
    extra_attacks: bool  # an Extra Attacks weapon
    effects: tuple[Effect, ...]
    #: Blast, Cleave and Rapid Fire, in order
    adding: tuple[WeaponAbility, ...]
    #: the target's models at the Select Targets step; None when no Blast or Cleave
    #: counts them
    target_models: int | None
    half_range: bool

    @classmethod
    def of(cls, inp: WeaponInputs) -> AttackInputs:
        """The attack dice's record of the line ``inp``."""
        w, found = inp.weapon, inp.kinds
        return cls(inp.rules, w.name, w.A, w.count, "Extra Attacks" in inp.flags,
                   inp.effects, found.adding,
                   inp.target_models if found.counts_models else None, inp.half_range)


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


def attack_dice(inp: AttackInputs) -> AttackDice:
    """02.02.03: a random A is rolled per weapon; effects add to A, which "cannot be less
    than 1" (02.02.01); 10th Extra Attacks weapons ignore such modifiers. Then the
    abilities that add dice for the line: 24.05 [BLAST X] and 24.06 [CLEAVE X] (X per
    five models in the target at the Select Targets step, ``rules.per_five_models``:
    the same count, reference facts §5.9 / §6.6) and [RAPID FIRE X] within half range."""
    rules, effects = inp.rules, inp.effects
    notes: list[str] = []
    unmodifiable = inp.extra_attacks and rules.extra_attacks_unmodifiable
    bonus = 0 if unmodifiable else effects_total(effects, "attacks")
    per_copy = shift_floor(reroll_roll(inp.A, effects_reroll(effects, "attacks"),
                                       effects_reroll_below(effects, "attacks")), bonus, 1)
    parts = [f"A{inp.A}"]
    if bonus:
        parts.append(f"{bonus:+d} (effects, minimum 1)")
    if unmodifiable and effects_total(effects, "attacks"):
        notes.append(f"{inp.name}: Extra Attacks weapon, attacks not modified (10th)")
    models = inp.target_models
    for ab in inp.adding:
        if isinstance(ab, Blast | Cleave):
            assert models is not None  # AttackInputs.of: counted for Blast and Cleave
            extra = ab.extra * rules.per_five_models(models)
            per_copy = shift_floor(per_copy, extra, 1) if extra else per_copy
            size = f"{models} model{'' if models == 1 else 's'}"
            parts.append(f"+{extra} {ab} ({size})" if extra else f"{ab}: no bonus ({size})")
        elif isinstance(ab, RapidFire) and inp.half_range:
            per_copy = np.convolve(per_copy, ab.extra.pmf())
            parts.append(f"+{ab.extra} {ab} (half range)")
    return AttackDice(power(per_copy, inp.copies), f"{inp.copies} x " + " ".join(parts),
                      tuple(notes))

