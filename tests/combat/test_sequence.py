"""The sequence contract and its exact evaluation (``tactica.combat.turn.exact``).

Worked examples, checked by hand (derivations in each test's docstring).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

import numpy as np
import pytest
from pydantic import ValidationError

from tactica.combat.contract.result import Distribution, Result
from tactica.combat.contract.scenario import Scenario, ScenarioError
from tactica.combat.contract.sequence import Sequence
from tactica.combat.exact.allocation import TooLargeError
from tactica.combat.exact.engine import calculate_exact
from tactica.combat.turn.charge import charge_probability
from tactica.combat.turn.exact import alive_per_entry, calculate_sequence
from tactica.rules.turn import get_turn_rules

NEOPHYTES = {"name": "Neophyte Hybrids", "weapons": [
    {"name": "Autogun", "count": 8, "A": "2", "skill": 4, "S": 3, "D": "1",
     "abilities": ["Rapid Fire 1"]},
    {"name": "Mining laser", "A": "1", "skill": 5, "S": 10, "AP": -3, "D": "D6+1",
     "abilities": ["Heavy"]}]}
GOLIATH = {"name": "Goliath Rockgrinder", "weapons": [
    {"name": "Heavy mining laser", "A": "D3", "skill": 4, "S": 10, "AP": -3, "D": "D6+1",
     "abilities": ["Blast"]},
    {"name": "Heavy stubber", "A": "3", "skill": 4, "S": 4, "D": "1",
     "abilities": ["Sustained Hits 1"]}]}
TARGET = {"name": "Intercessors", "models": [
    {"name": "Sergeant", "count": 1, "T": 4, "Sv": 3, "W": 2},
    {"name": "Intercessor", "count": 4, "T": 4, "Sv": 3, "W": 2, "wounds_lost": 1},
    {"name": "Lieutenant", "count": 1, "T": 4, "Sv": 3, "invuln": 4, "W": 5,
     "character": True}]}
CONTEXT = {"distance": 10, "remained_stationary": True}


def _gap(a: Distribution, b: Distribution) -> float:
    x, y = np.asarray(a.pmf), np.asarray(b.pmf)
    n = max(len(x), len(y))
    return float(np.abs(np.pad(x, (0, n - len(x))) - np.pad(y, (0, n - len(y)))).max())


DICE = ("attacks", "hits", "wounds", "attacker_mortal_wounds")


def _same(r: Result, s: Result, tol: float, fields: tuple[str, ...] = (*DICE, "unsaved",
          "damage", "models_destroyed")) -> None:
    for f in fields:
        assert _gap(getattr(r, f), getattr(s, f)) <= tol, f
    assert abs(r.p_unit_destroyed - s.p_unit_destroyed) <= tol


@pytest.mark.parametrize("rules", ["10th", "11th"])
def test_two_steps_equal_one_scenario_with_both_units(rules: str) -> None:
    """Without Devastating Wounds the steps' weapon lines resolve one after another
    either way, so two shooting steps are the single scenario with both units' lines
    (the target's state carried from the first to the second) -- but for the dice: the
    second unit does not shoot where the first destroyed the target (05.04.04), so its
    step happens with P = 1 - P(destroyed by the first). The Goliath's laser without its
    [BLAST] here: in the sequence Blast counts the models the Neophytes left, in the
    single scenario all six (``test_select_targets``)."""
    goliath = {**GOLIATH, "weapons": [{**GOLIATH["weapons"][0], "abilities": []},
                                      GOLIATH["weapons"][1]]}
    seq = Sequence.model_validate({"rules": rules, "target": TARGET, "steps": [
        {"phase": "shooting", "attacker": NEOPHYTES, "context": CONTEXT},
        {"phase": "shooting", "attacker": goliath, "context": CONTEXT}]})
    both = {"name": "both", "weapons": NEOPHYTES["weapons"] + goliath["weapons"]}
    single = calculate_exact(Scenario.model_validate(
        {"rules": rules, "attacker": both, "target": TARGET, "context": CONTEXT}))
    result = calculate_sequence(seq)
    assert single.damage.mean > 1.0  # the comparison is not between two empty results
    _same(result, single, 1e-12, ("unsaved", "damage", "models_destroyed"))
    assert result.steps[0].p_unit_destroyed > 1e-9
    assert result.steps[1].p_happens == pytest.approx(1 - result.steps[0].p_unit_destroyed,
                                                      abs=1e-12)
    # the Goliath's attacks are its own whenever it shoots: mean = P(happens) x its mean
    alone = calculate_exact(Scenario.model_validate(
        {"rules": rules, "attacker": goliath, "target": TARGET, "context": CONTEXT}))
    assert result.steps[1].attacks.mean == pytest.approx(
        result.steps[1].p_happens * alone.attacks.mean, abs=1e-9)
    # the first step alone is the first unit's scenario
    first = calculate_exact(Scenario.model_validate(
        {"rules": rules, "attacker": NEOPHYTES, "target": TARGET, "context": CONTEXT}))
    assert _gap(result.steps[0].damage, first.damage) <= 1e-12
    assert result.steps[1].damage == result.damage


def test_one_step_sequence_is_the_scenario() -> None:
    data: dict[str, Any] = {"attacker": NEOPHYTES, "target": TARGET, "context": CONTEXT,
                            "effects": [{"hit": 1}, "Command Re-roll: wound"]}
    single = calculate_exact(Scenario.model_validate(data))
    seq = Sequence.model_validate({"target": TARGET, "steps": [
        {"phase": "shooting", "attacker": NEOPHYTES, "context": CONTEXT,
         "effects": data["effects"]}]})
    result = calculate_sequence(seq)
    # bit for bit: the step is the scenario's own calculation, mixed over one world of
    # weight 1.0 (products with 1.0, sums with 0.0: exact in any order)
    _same(result, single, 0.0)
    assert result.cp_spent == single.cp_spent == 1
    assert result.steps[0].p_happens == 1.0  # exact: the first step's one world, p = 1.0


@pytest.mark.parametrize("distance", range(2, 13))
def test_charge_probability_is_the_2d6_table(distance: int) -> None:
    """P(2D6 >= d), counted over the 36 rolls; with a re-roll of a failure, p + (1-p)p;
    +1 to the roll is the table one inch shorter."""
    hits = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b >= distance)
    p = Fraction(hits, 36)
    assert charge_probability(distance) == pytest.approx(float(p), abs=1e-15)
    assert charge_probability(distance, reroll=True) == pytest.approx(
        float(p + (1 - p) * p), abs=1e-15)
    shorter = sum(1 for a, b in product(range(1, 7), repeat=2) if a + b + 1 >= distance)
    assert charge_probability(distance, modifier=1) == pytest.approx(shorter / 36, abs=1e-15)


GROTS = {"name": "Grots", "models": [{"name": "Grot", "count": 2, "T": 3, "Sv": 7, "W": 1}]}
HERO = {"name": "Hero", "weapons": [{"name": "Sword", "range": "Melee", "A": "1", "skill": 2,
                                     "S": 3, "D": "1"}]}
HERO_MODELS = [{"name": "Hero", "count": 1, "T": 3, "Sv": 7, "W": 1}]
KNIVES = {"name": "Grots", "weapons": [{"name": "Knife", "count": 2, "range": "Melee",
                                        "A": "1", "skill": 4, "S": 3, "D": "1"}]}


def _fight_back(rules: str, grots_first: bool) -> Sequence:
    return Sequence.model_validate({
        "rules": rules, "target": GROTS | {"deadly_demise": "1"}, "target_leadership": 7,
        "steps": [{"phase": "charge", "unit": "Hero", "distance": 7},
                  {"phase": "fight", "attacker": HERO, "models": HERO_MODELS},
                  {"phase": "fight", "fights_back": True, "attacker": KNIVES,
                   "fights_first": grots_first}]})


@pytest.mark.parametrize("rules", ["10th", "11th"])
def test_fight_back_by_hand(rules: str) -> None:
    """The Hero charges 7": P = 21/36 = 7/12. It fights first (it charged): one attack,
    2+ to hit (5/6), S3 v T3 wounds on 4+ (1/2), no save: a Grot dies with 5/12. The
    Grots fight back with one knife per survivor: 4+ to hit, 4+ to wound, no save, 1/4
    each. P(Hero destroyed) = 7/12 x [7/12 x (1 - (3/4)^2) + 5/12 x 1/4] = 7/12 x 69/192.
    P(a Grot destroyed) = 7/12 x 5/12 = 35/144. Deadly Demise 1: 1/6 of that.
    Battle-shock: one Grot of two left is at half strength: 11th tests (at or below
    half), 10th does not (below half); it fails on 2D6 < 7, 15/36."""
    r = calculate_sequence(_fight_back(rules, grots_first=False))
    back = r.steps[2]
    assert back.fights_back and back.unit == "Grots"
    assert back.attacker_losses is not None
    assert back.attacker_losses.pmf[1] == pytest.approx(7 / 12 * 69 / 192, abs=1e-12)
    assert r.models_destroyed.pmf[1] == pytest.approx(35 / 144, abs=1e-12)
    assert r.steps[0].p_charge == pytest.approx(7 / 12, abs=1e-15)
    assert r.steps[1].p_happens == pytest.approx(7 / 12, abs=1e-15)
    dd = r.other_mortal_wounds[-1]
    assert dd.label.startswith("Deadly Demise 1")
    assert dd.distribution.mean == pytest.approx(35 / 144 / 6, abs=1e-12)
    assert r.battle_shock is not None
    tested = 35 / 144 if rules == "11th" else 0.0
    assert r.battle_shock.p_tested == pytest.approx(tested, abs=1e-12)
    assert r.battle_shock.p_battle_shocked == pytest.approx(tested * 15 / 36, abs=1e-12)
    assert any("Fight order" in n for n in r.notes)


def test_a_fights_first_target_fights_before_the_charger() -> None:
    """Both have Fights First (the Hero from its charge): the player whose turn it is
    not selects first, so the Grots fight first: the Hero dies with 1 - (3/4)^2 = 7/16
    (after a 7/12 charge); a surviving Hero kills a Grot with 5/12.
    P(a Grot destroyed) = 7/12 x 9/16 x 5/12."""
    r = calculate_sequence(_fight_back("10th", grots_first=True))
    assert [s.step for s in r.steps] == [0, 2, 1]
    assert r.steps[1].attacker_losses is not None
    assert r.steps[1].attacker_losses.pmf[1] == pytest.approx(7 / 12 * 7 / 16, abs=1e-12)
    assert r.models_destroyed.pmf[1] == pytest.approx(7 / 12 * 9 / 16 * 5 / 12, abs=1e-12)


def test_a_destroyed_target_stays_destroyed() -> None:
    """A single W1 model: the first step destroys it with q; the second step can only
    act where it survived, so P(destroyed) = q1 + (1 - q1) q2, with each q from the
    one-step scenario."""
    target = {"models": [{"count": 1, "T": 4, "Sv": 7, "W": 1}]}
    gun = {"name": "Gun", "weapons": [{"name": "Gun", "A": "1", "skill": 4, "S": 4, "D": "1"}]}
    q = calculate_exact(Scenario.model_validate({"attacker": gun, "target": target}))
    r = calculate_sequence(Sequence.model_validate({"target": target, "steps": [
        {"phase": "shooting", "attacker": gun}, {"phase": "shooting", "attacker": gun}]}))
    p = q.p_unit_destroyed
    assert r.p_unit_destroyed == pytest.approx(p + (1 - p) * p, abs=1e-15)
    assert r.steps[0].p_unit_destroyed == pytest.approx(p, abs=1e-15)


def test_a_failed_charge_means_no_fight() -> None:
    """A 13" charge cannot succeed (2D6 reach 12 at most): the fight step never happens
    and its dice are all zero."""
    r = calculate_sequence(Sequence.model_validate({"target": GROTS, "steps": [
        {"phase": "charge", "unit": "Hero", "distance": 13},
        {"phase": "fight", "attacker": HERO}]}))
    # exact: P(2D6 >= 13) is a sum of no terms, 0.0; the one world left has p = 1.0
    assert r.steps[1].p_happens == 0.0
    assert r.attacks.pmf == (1.0,)  # exact: as above
    assert r.models_destroyed.pmf[0] == 1.0  # exact: as above


def test_stratagems_once_per_phase_across_steps_and_cp_summed() -> None:
    steps: list[dict[str, Any]] = [
        {"phase": "shooting", "attacker": NEOPHYTES, "effects": ["Command Re-roll: hit"]},
        {"phase": "shooting", "attacker": GOLIATH, "effects": ["Command Re-roll: wound"]}]
    with pytest.raises(ScenarioError, match=r"steps\.1\.effects\.0: Command Re-roll is "
                                            r"already used in this shooting phase"):
        calculate_sequence(Sequence.model_validate({"target": TARGET, "steps": steps}))
    steps[1] = {"phase": "charge", "unit": "Goliath", "distance": 8, "command_reroll": True}
    r = calculate_sequence(Sequence.model_validate({"target": TARGET, "steps": steps}))
    # the charge's Command Re-roll is spent only when the first roll (8+: 15/36) fails
    assert r.cp_spent == 1 and [s.cp_spent for s in r.steps] == [1, 0]
    declared = r.steps[1].p_happens
    assert 0.999 < declared <= 1.0
    assert r.steps[1].cp_expected == pytest.approx(declared * 21 / 36, abs=1e-12)
    assert r.cp_expected == pytest.approx(1 + declared * 21 / 36, abs=1e-12)
    assert any("only when the first roll falls short" in n for n in r.notes)
    assert r.steps[1].p_charge == pytest.approx(declared * charge_probability(8, reroll=True))


@pytest.mark.parametrize(("data", "message"), [
    ({"steps": [{"phase": "charge", "unit": "X", "distance": 7},
                {"phase": "shooting", "attacker": HERO}]}, "steps.1: a shooting step after"),
    ({"steps": [{"phase": "charge", "unit": "X"}]}, "needs 'distance'"),
    ({"steps": [{"phase": "fight"}]}, "needs 'attacker'"),
])
def test_malformed_sequences_are_refused(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message.replace(".", r"\.")):
        Sequence.model_validate({"target": GROTS, **data})


def test_fight_back_needs_the_fought_units_models() -> None:
    with pytest.raises(ScenarioError, match=r"steps\.1: fighting back needs"):
        calculate_sequence(Sequence.model_validate({"target": GROTS, "steps": [
            {"phase": "fight", "attacker": HERO},
            {"phase": "fight", "fights_back": True, "attacker": KNIVES, "against": "Hero"}]}))


def test_survivors_per_entry_follow_the_allocation_order() -> None:
    """Sergeant and Intercessors share one allocation part; the wounded Intercessor is
    removed first, then the models in the order listed (the Sergeant first); the
    Lieutenant is its own part."""
    seq = Sequence.model_validate({"target": TARGET, "steps": [
        {"phase": "shooting", "attacker": HERO | {"weapons": [
            HERO["weapons"][0] | {"range": 24}]}}]})
    entries = seq.target.models
    assert alive_per_entry(entries, (5, 1, 1, 5, -1, -1)) == [1, 4, 1]
    assert alive_per_entry(entries, (4, 2, 1, 5, -1, -1)) == [1, 3, 1]
    assert alive_per_entry(entries, (3, 2, 0, 0, -1, -1)) == [0, 3, 0]


def test_below_half_strength_per_edition() -> None:
    ten, eleven = get_turn_rules("10th"), get_turn_rules("11th")
    assert (ten.below_half(5, 10, 10, 20), eleven.below_half(5, 10, 10, 20)) == (False, True)
    assert ten.below_half(1, 1, 4, 10) and not ten.below_half(1, 1, 5, 10)
    assert not eleven.below_half(0, 10, 0, 20)  # a destroyed unit takes no test


def test_too_many_worlds_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A charge splits the turn in two; with room for one world the exact evaluation
    refuses and points to Monte Carlo."""
    import tactica.combat.turn.exact as turn

    monkeypatch.setattr(turn, "MAX_WORLDS", 1)
    with pytest.raises(TooLargeError, match="use method monte-carlo"):
        calculate_sequence(Sequence.model_validate({"target": GROTS, "steps": [
            {"phase": "charge", "unit": "Hero", "distance": 7},
            {"phase": "fight", "attacker": HERO}]}))
