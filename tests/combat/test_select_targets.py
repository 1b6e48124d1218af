"""Counts of the target's models after losses (``combat.exact.select_targets``).

11th 24.05 Blast: "add one additional attack dice for every five models that were in the
target unit in the Select Targets step (rounding down)"; 24.06 Cleave counts the same
models (10th Blast: "when you selected it as the target"). A unit selects its targets
before any of its attacks, so in a sequence a later step counts the models the earlier
steps left: its attack dice are a mixture over their distribution.

Checked against hand calculations that never call the engine: the binomial distribution
of the models a first step destroys (every model one wound, one failed save one model),
computed here with Fractions; against the brute-force sequence oracle; and by
metamorphic relations (a Blast step first, or after a step that cannot destroy a model,
is the standalone calculation).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

import numpy as np
import pytest

import tactica
from oracle.sequence import sequence_brute_force
from tactica.combat.contract.result import Distribution
from tactica.combat.contract.scenario import Scenario
from tactica.combat.contract.sequence import Sequence
from tactica.combat.exact.engine import calculate_exact
from tactica.combat.turn.exact import calculate_sequence

TOLERANCE = 1e-12

#: ten boltguns at Cadians: a hit on 3+, S4 against T3 wounds on 3+, Sv 5+ fails on 1-4
BOLTGUNS = {"name": "Boltgun", "count": 10, "A": "1", "skill": 3, "S": 4, "AP": 0, "D": "1"}
P_BOLTGUN = Fraction(4, 6) * Fraction(4, 6) * Fraction(4, 6)  # 8/27 per boltgun
#: a frag launcher: D3 Blast, a hit on 4+, wounds on 3+, the save fails on 1-4
LAUNCHER = {"name": "Frag launcher", "A": "D3", "skill": 4, "S": 4, "AP": 0, "D": "1",
            "abilities": ["Blast"]}
P_LAUNCHER = Fraction(3, 6) * Fraction(4, 6) * Fraction(4, 6)  # 2/9 per attack die
CADIANS = {"name": "Cadians", "models": [{"count": 10, "T": 3, "Sv": 5, "W": 1}]}
D3 = {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}


def binomial(n: int, p: Fraction) -> dict[int, Fraction]:
    return {k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


def _step(attacker: dict[str, Any], phase: str = "shooting", **more: Any) -> dict[str, Any]:
    return {"phase": phase, "attacker": {"name": attacker["name"], "weapons": [attacker]},
            **more}


def _gap(got: Distribution, want: dict[int, Fraction] | Distribution) -> float:
    x = np.asarray(got.pmf)
    if isinstance(want, Distribution):
        y = np.asarray(want.pmf)
    else:
        y = np.zeros(max(want) + 1)
        for k, p in want.items():
            y[k] = float(p)
    n = max(len(x), len(y))
    return float(np.abs(np.pad(x, (0, n - len(x))) - np.pad(y, (0, n - len(y)))).max())


def _cadian_turn() -> tactica.SequenceResult:
    return tactica.calculate({"rules": "11th", "target": CADIANS, "steps": [
        _step(BOLTGUNS), _step(LAUNCHER)]})


def test_a_blast_after_ten_boltguns_counts_the_cadians_left() -> None:
    """Issue 41 item 2's example. K ~ Binomial(10, 8/27) Cadians destroyed by the
    boltguns; where some are left (K < 10) the launcher gathers D3 + (10 - K) // 5 dice
    (24.05), where none are it does not shoot (0 dice). Then each die destroys a model
    with P 2/9 while one is left. Both distributions, by hand, to 1e-12: the launcher's
    dice (mean about 2.99, not the 4.00 of the full ten) and the Cadians destroyed."""
    killed = binomial(10, P_BOLTGUN)
    dice: dict[int, Fraction] = {0: killed[10]}
    destroyed: dict[int, Fraction] = {10: killed[10]}
    for k in range(10):
        for roll, p_roll in D3.items():
            a = roll + (10 - k) // 5
            dice[a] = dice.get(a, Fraction(0)) + killed[k] * p_roll
            for u, p_u in binomial(a, P_LAUNCHER).items():
                total = k + min(10 - k, u)
                destroyed[total] = destroyed.get(total, Fraction(0)) + killed[k] * p_roll * p_u
    assert sum(dice.values()) == 1 and sum(destroyed.values()) == 1
    mean = float(sum(a * p for a, p in dice.items()))
    assert 2.98 < mean < 2.99  # the full ten's count: 4 x P(the launcher shoots)

    r = _cadian_turn()
    launcher = r.steps[1]
    assert _gap(launcher.attacks, dice) <= TOLERANCE
    assert abs(launcher.attacks.mean - mean) <= TOLERANCE
    assert _gap(r.models_destroyed, destroyed) <= TOLERANCE
    assert abs(sum(launcher.attacks.pmf) - 1) <= TOLERANCE
    assert abs(sum(r.models_destroyed.pmf) - 1) <= TOLERANCE
    assert any("Select Targets" in n or "selects its targets" in n for n in launcher.notes)
    # the launcher's explanation gives each count with its chance
    detail = next(s.detail for s in r.stages
                  if s.weapon == "Frag launcher" and s.stage == "attacks")
    assert "+2 Blast (10 models)" in detail and "+1 Blast" in detail


def test_the_monte_carlo_twin_counts_the_same() -> None:
    """The sequence's Monte Carlo twin (its trials grouped by the Cadians left) agrees
    with the exact launcher dice within 4 standard errors."""
    exact = _cadian_turn().steps[1].attacks
    mc = tactica.calculate({"rules": "11th", "method": "monte-carlo", "trials": 40_000,
                            "seed": 3, "target": CADIANS,
                            "steps": [_step(BOLTGUNS), _step(LAUNCHER)]}).steps[1].attacks
    values = np.arange(len(exact.pmf))
    sd = float(np.sqrt(np.dot((values - exact.mean) ** 2, exact.pmf)))
    assert abs(mc.mean - exact.mean) <= 4 * sd / np.sqrt(40_000)


def test_a_cleave_fight_after_a_charge_counts_the_models_left() -> None:
    """Fight after charge: Choppas charge 2" (2D6 always reaches) and fight first, 6
    attacks: hit 3+ (2/3), S4 v T3 3+ (2/3), save 5+ fails on 1-4 (2/3); K ~
    Binomial(6, 8/27) Cadians destroyed. The Klaw (Cleave 1, no charge: engaged already)
    then gathers 2 + (10 - K) // 5 dice (24.06), not 2 + 2."""
    choppas = {"name": "Choppa", "count": 6, "range": "Melee", "A": "1", "skill": 3,
               "S": 4, "AP": 0, "D": "1"}
    klaw = {"name": "Klaw", "range": "Melee", "A": "2", "skill": 4, "S": 9, "AP": -2,
            "D": "2", "abilities": ["Cleave 1"]}
    r = tactica.calculate({"rules": "11th", "target": CADIANS, "steps": [
        {"phase": "charge", "unit": "Choppa", "distance": 2},
        _step(choppas, "fight"), _step(klaw, "fight")]})
    killed = binomial(6, P_BOLTGUN)
    dice = {2 + (10 - k) // 5: Fraction(0) for k in killed}
    for k, p in killed.items():
        dice[2 + (10 - k) // 5] += p
    assert _gap(r.steps[2].attacks, dice) <= TOLERANCE
    # exact: a certainty (1) or an impossibility (0): no sum
    assert r.steps[1].p_happens == 1.0


@pytest.mark.parametrize("rules", ["10th", "11th"])
def test_a_blast_step_first_is_the_standalone_calculation(rules: str) -> None:
    r = tactica.calculate({"rules": rules, "target": CADIANS, "steps": [
        _step(LAUNCHER), _step(BOLTGUNS)]})
    alone = calculate_exact(Scenario.model_validate({
        "rules": rules, "attacker": {"name": "Frag launcher", "weapons": [LAUNCHER]},
        "target": CADIANS}))
    for name in ("attacks", "hits", "wounds", "unsaved", "damage", "models_destroyed"):
        assert _gap(getattr(r.steps[0], name), getattr(alone, name)) <= TOLERANCE, name
    assert r.steps[0].weapons == alone.weapons


@pytest.mark.parametrize("rules", ["10th", "11th"])
def test_a_blast_step_after_a_step_that_destroys_nothing_is_the_standalone(
        rules: str) -> None:
    """A pistol's one D1 attack cannot destroy a 2-wound model: the ten are alive when
    the cannon shoots, so its dice are the standalone ones (D6 +2 Blast); each of its
    unsaved D2 attacks destroys one model, wounded or not, so the models destroyed are
    the standalone ones too."""
    pistol = {"name": "Pistol", "A": "1", "skill": 2, "S": 10, "AP": -3, "D": "1"}
    cannon = {"name": "Cannon", "A": "D6", "skill": 3, "S": 6, "AP": -1, "D": "2",
              "abilities": ["Blast"]}
    target = {"name": "Veterans", "models": [{"count": 10, "T": 4, "Sv": 4, "W": 2}]}
    r = tactica.calculate({"rules": rules, "target": target, "steps": [
        _step(pistol), _step(cannon)]})
    alone = calculate_exact(Scenario.model_validate({
        "rules": rules, "attacker": {"name": "Cannon", "weapons": [cannon]},
        "target": target}))
    assert r.steps[0].damage.mean > 0.5 and abs(r.steps[1].p_happens - 1) <= TOLERANCE
    for name in ("attacks", "hits", "wounds"):
        assert _gap(getattr(r.steps[1], name), getattr(alone, name)) <= TOLERANCE, name
    assert _gap(r.models_destroyed, alone.models_destroyed) <= TOLERANCE
    assert alone.attacks.mean == pytest.approx(3.5 + 2)


def test_a_cleave_fight_after_a_fight_that_never_happens_is_the_standalone() -> None:
    """A charge of 13" never succeeds (2D6 reach 12 at most), so its unit's fight never
    happens; the Cleave unit (engaged already) then fights the ten: the standalone
    fight."""
    choppas = {"name": "Choppa", "count": 6, "range": "Melee", "A": "2", "skill": 3,
               "S": 4, "AP": 0, "D": "1"}
    klaw = {"name": "Klaw", "range": "Melee", "A": "3", "skill": 4, "S": 9, "AP": -2,
            "D": "2", "abilities": ["Cleave 1"]}
    r = tactica.calculate({"rules": "11th", "target": CADIANS, "steps": [
        {"phase": "charge", "unit": "Choppa", "distance": 13},
        _step(choppas, "fight"), _step(klaw, "fight")]})
    alone = calculate_exact(Scenario.model_validate({
        "rules": "11th", "phase": "fight", "attacker": {"name": "Klaw", "weapons": [klaw]},
        "target": CADIANS}))
    # exact: a certainty (1) or an impossibility (0): no sum
    assert r.steps[0].p_charge == 0.0 and r.steps[1].p_happens == 0.0
    for name in ("attacks", "hits", "wounds", "unsaved", "damage", "models_destroyed"):
        assert _gap(getattr(r, name) if name not in ("attacks", "hits", "wounds")
                    else getattr(r.steps[2], name), getattr(alone, name)) <= TOLERANCE, name
    # exact: a fixed number of attack dice: a point mass, its mean is that number
    assert alone.attacks.mean == 5.0  # 3 + 1 x (10 // 5)


def test_blast_after_losses_agrees_with_the_brute_force_oracle() -> None:
    """Five 1-wound models: two shots first, then a D3 Blast (+1 while all five are
    alive, none below): every distribution of the turn against the oracle, die by die."""
    first = {"name": "Rifle", "count": 2, "A": "1", "skill": 3, "S": 4, "AP": 0, "D": "1"}
    blast = {"name": "Mortar", "A": "D3", "skill": 4, "S": 5, "AP": 0, "D": "1",
             "abilities": ["Blast"]}
    seq = Sequence.model_validate({"rules": "11th", "target": {"name": "Five", "models": [
        {"count": 5, "T": 3, "Sv": 5, "W": 1}]}, "steps": [_step(first), _step(blast)]})
    result, oracle = calculate_sequence(seq), sequence_brute_force(seq)
    for name in ("unsaved", "damage", "models_destroyed"):
        assert _gap(getattr(result, name), oracle.pmfs[name]) <= 1e-9, name
    for name in ("attacks", "hits", "wounds"):  # the dice totals: exact in their means
        want = sum(v * p for v, p in oracle.pmfs[name].items())
        assert abs(getattr(result, name).mean - float(want)) <= 1e-9, name
    assert abs(result.p_unit_destroyed - float(oracle.p_unit_destroyed)) <= 1e-9
