"""The charge roll, exactly: P(2D6 + modifier reaches the distance), with a re-roll.

10th Charge: "make a Charge roll for the charging unit by rolling 2D6. The result is the
maximum number of inches each model in that unit can be moved"; 11th 11.02 / 11.04 (the
charge roll, then the charge move up to it). 15.02 Command Re-roll: "select one of those
dice to re-roll (excluding charge rolls, which you must re-roll in full)"; "your unit can
re-roll charge rolls" (Divine Imperative) likewise re-rolls both dice. A die is re-rolled
at most once, so two sources give one re-roll; the player re-rolls a roll that falls short
(a re-roll can only help then, and a successful roll is kept).

Worked example (checked by hand): a 9" charge needs 9+ on 2D6: 4+3+2+1 = 10 of 36 rolls,
P = 10/36; with a re-roll of a failure, 10/36 + (26/36)(10/36) = 620/1296.

>>> round(charge_probability(9), 6), round(charge_probability(9, reroll=True) * 1296, 6)
(0.277778, 620.0)
"""

from __future__ import annotations

import numpy as np

from tactica.dice import FloatArray
from tactica.rules.turn import TurnRules, get_turn_rules

__all__ = ["charge_probability", "charge_roll_pmf"]


def charge_roll_pmf(rules: TurnRules | None = None) -> FloatArray:
    """P(charge roll = i) before modifiers, i = 0..12 (the sum of ``charge_dice`` D6)."""
    dice = (rules or get_turn_rules()).charge_dice
    pmf = np.array([1.0])
    for _ in range(dice):
        pmf = np.convolve(pmf, np.array([0.0, *[1 / 6] * 6]))
    return pmf


def charge_probability(distance: float, modifier: int = 0, reroll: bool = False,
                       rules: TurnRules | None = None) -> float:
    """P(the charge roll plus ``modifier`` is at least ``distance``), with one re-roll of
    the whole roll when it falls short (``reroll``)."""
    pmf = charge_roll_pmf(rules)
    p = float(sum(q for i, q in enumerate(pmf) if i + modifier >= distance))
    return p + (1 - p) * p if reroll else p
