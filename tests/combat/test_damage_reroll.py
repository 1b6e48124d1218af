"""Re-rolling damage rolls below a threshold (``{"reroll": "damage", "which": "below",
"below": N}``; UnitCrunch's "re-roll damage rolls below N"): reference facts §4.5, a die
re-rolled once, before modifiers; the whole damage roll is re-rolled ("you re-roll that
roll", 11th core rules 15.02). Hand-worked distributions, the engine's distribution of
one attack, an independent simulation of the dice and the Monte Carlo twin."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from pydantic import ValidationError

from tactica import calculate
from tactica.combat.contract.scenario import Effect
from tactica.combat.exact.stages.attacks import reroll_roll
from tactica.dice import DiceExpr

F = Fraction


def _pmf(expr: str, below: int) -> list[Fraction]:
    return [F(p).limit_denominator(10**6) for p in
            reroll_roll(DiceExpr.parse(expr), None, below=below)]


def test_d3_re_rolling_ones() -> None:
    # D3 re-rolling 1s: a 1 stays only if rolled twice, 1/3 x 1/3 = 1/9; a 2 is rolled
    # first (1/3) or after a 1 (1/3 x 1/3): 4/9; the same for a 3
    assert _pmf("D3", 2) == [0, F(1, 9), F(4, 9), F(4, 9)]


def test_d6_re_rolling_below_3() -> None:
    # D6 re-rolling 1s and 2s: P(1) = P(2) = 2/6 x 1/6 = 1/18; P(3..6) = 1/6 + 2/6 x 1/6
    # = 2/9 each; mean 3 x 1/18 + 18 x 2/9 = 25/6 (3.5 without)
    pmf = _pmf("D6", 3)
    assert pmf == [0, F(1, 18), F(1, 18), *[F(2, 9)] * 4]
    assert sum(v * p for v, p in enumerate(pmf)) == F(25, 6)


def test_a_threshold_at_or_below_the_minimum_re_rolls_nothing() -> None:
    assert _pmf("D3+1", 2) == [0, 0, F(1, 3), F(1, 3), F(1, 3)]
    assert _pmf("2", 5) == [0, 0, 1]  # a fixed damage is not rolled


def _scenario(effects: list[Any], method: str = "exact") -> dict[str, Any]:
    # one attack of D6 damage that always hits (Torrent) into a model it cannot destroy
    return {"method": method, "trials": 200_000, "seed": 7,
            "attacker": {"weapons": [{"name": "Gun", "range": 24, "A": "1", "skill": 2,
                                      "S": 12, "AP": -6, "D": "D6", "abilities": ["Torrent"]}]},
            "target": {"models": [{"name": "Brute", "count": 1, "T": 3, "Sv": 7,
                                   "W": 10}]},
            "effects": effects}


def test_the_engine_s_damage_is_the_hand_distribution() -> None:
    # Torrent: the attack hits; S12 vs T3 wounds on 2+ (5/6); no save (Sv 7+, AP-6):
    # P(damage d) = 5/6 x P(D6 re-rolled below 3 = d), P(0) = 1/6
    result = calculate(_scenario([{"reroll": "damage", "which": "below", "below": 3}]))
    expected = [F(1, 6)] + [F(5, 6) * p for p in _pmf("D6", 3)[1:]]
    assert result.damage.pmf == pytest.approx([float(p) for p in expected], abs=1e-12)
    assert math.isclose(sum(result.damage.pmf), 1.0, abs_tol=1e-12)
    assert result.damage.mean == pytest.approx(float(F(5, 6) * F(25, 6)))
    plain = calculate(_scenario([]))
    assert plain.damage.mean == pytest.approx(5 / 6 * 3.5)


def test_an_independent_simulation_and_the_twin_agree_with_the_exact_mean() -> None:
    rng = np.random.default_rng(11)
    n = 400_000
    wounds = rng.integers(1, 7, n) >= 2
    first = rng.integers(1, 7, n)
    again = rng.integers(1, 7, n)
    damage = np.where(first < 3, again, first) * wounds
    exact = calculate(_scenario([{"reroll": "damage", "which": "below", "below": 3}]))
    se = damage.std() / math.sqrt(n)
    assert abs(damage.mean() - exact.damage.mean) < 4 * se
    twin = calculate(_scenario([{"reroll": "damage", "which": "below", "below": 3}],
                               method="monte-carlo"))
    assert abs(twin.damage.mean - exact.damage.mean) < 4 * damage.std() / math.sqrt(200_000)


def test_with_ones_as_well_a_result_either_allows_is_re_rolled() -> None:
    # "ones" alone re-rolls the lowest result (1); below 3 re-rolls 1 and 2: together, 1-2
    both = reroll_roll(DiceExpr.parse("D6"), "ones", below=3)
    assert both.tolist() == pytest.approx([float(p) for p in _pmf("D6", 3)])


@pytest.mark.parametrize("effect, says", [
    ({"reroll": "hit", "which": "below", "below": 3}, "damage or attacks rolls"),
    ({"reroll": "damage", "which": "below"}, '"below"'),
    ({"reroll": "damage", "which": "ones", "below": 3}, '"below"'),
    ({"reroll": "damage", "which": "below", "below": 1}, "greater than or equal to 2"),
])
def test_a_threshold_re_roll_is_refused_where_it_means_nothing(effect: dict[str, Any],
                                                                 says: str) -> None:
    with pytest.raises(ValidationError, match=says):
        Effect.model_validate(effect)
