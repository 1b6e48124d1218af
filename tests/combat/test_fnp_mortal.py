"""A Feel No Pain against mortal wounds only (``Effect.fnp_mortal``, issue 41): Catalytic
Biofortification, Faithful Fortitude, Shield of Faith... Reference facts §4.7: Feel No
Pain is rolled for each wound that would be lost; this one only for the wounds of mortal
wounds (those suffered before the attacks, 06.02, and Devastating Wounds, 24.10), never
for the attacks' normal damage. Each expected value is worked out by hand below."""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import pytest

from tactica import calculate


def _scenario(*effects: dict[str, Any], dw: bool = True) -> dict[str, Any]:
    """6 attacks, BS3+, S4 AP0 D1 ([DEVASTATING WOUNDS] if ``dw``) against 20 models T4
    Sv3+ W1 (no overkill: at most 6 + 6 wounds)."""
    return {"attacker": {"name": "x", "weapons": [
        {"name": "gun", "count": 6, "A": "1", "skill": 3, "S": 4, "AP": 0, "D": "1",
         "abilities": ["Devastating Wounds"] if dw else []}]},
        "target": {"name": "t", "models": [{"count": 20, "T": 4, "Sv": 3, "W": 1}]},
        "effects": list(effects)}


#: Per attack: hits on 3+ (2/3); of a hit, a critical wound (1/6) is one mortal wound
#: (24.10) and a normal wound (2/6) is saved on 3+ (fails 1/3).
MORTAL = 6 * F(2, 3) * F(1, 6)
NORMAL = 6 * F(2, 3) * F(2, 6) * F(1, 3)


def test_it_saves_mortal_wounds_only() -> None:
    """FNP 4+ against mortal wounds halves the Devastating Wounds part (2/3) and leaves
    the saved attacks' damage (4/9) as it was: 2/3 x 1/2 + 4/9 = 7/9."""
    plain = calculate(_scenario())
    assert plain.damage.mean == pytest.approx(float(MORTAL + NORMAL))
    got = calculate(_scenario({"fnp_mortal": 4}))
    assert got.damage.mean == pytest.approx(float(MORTAL * F(1, 2) + NORMAL))
    every = calculate(_scenario({"fnp": 4}))  # an ordinary Feel No Pain: both halves
    assert every.damage.mean == pytest.approx(float((MORTAL + NORMAL) * F(1, 2)))


def test_no_mortal_wounds_nothing_changes() -> None:
    """Without Devastating Wounds (and no mortal wounds before), it changes nothing:
    6 x 2/3 x 1/2 x 1/3 = 2/3 either way (Intercessors on a Norn Assimilator)."""
    base = calculate(_scenario(dw=False))
    got = calculate(_scenario({"fnp_mortal": 4}, dw=False))
    assert base.damage.mean == pytest.approx(float(6 * F(2, 3) * F(1, 2) * F(1, 3)))
    assert got.damage.mean == pytest.approx(base.damage.mean)


def test_mortal_wounds_before_the_attacks() -> None:
    """3 mortal wounds before the attacks (06.02), each ignored on a 4+: 3/2 lost, plus
    the attacks as in the first test; the better of two Feel No Pains counts (5+ and 4+
    against mortal wounds: 4+)."""
    got = calculate(_scenario({"fnp_mortal": 5}, {"fnp_mortal": 4}, {"mortal_wounds": "3"}))
    assert got.damage.mean == pytest.approx(float(F(3, 2) + MORTAL * F(1, 2) + NORMAL))


def test_the_monte_carlo_twin_agrees() -> None:
    """The sampled engine rolls the same Feel No Pain for mortal wounds only (the full
    statistical check is ``test_montecarlo``'s "fnp-mortal-only-dw-11th")."""
    s = {**_scenario({"fnp_mortal": 4}, {"mortal_wounds": "3"}), "method": "monte-carlo",
         "trials": 100_000, "seed": 41}
    exact = float(F(3, 2) + MORTAL * F(1, 2) + NORMAL)
    assert calculate(s).damage.mean == pytest.approx(exact, abs=0.03)
