"""``calculate_many`` gives what single ``calculate`` calls give, on real library units
(the default library: seed pages and the bundled dataset): every 40th datasheet in both
phases into the ten target presets (in the default run every third of those; all of them
``..._at_volume``, marked slow), and many attackers into one target."""

from __future__ import annotations

import numpy as np
import pytest

from tactica import calculate, calculate_many
from tactica.combat.batch import figures_each
from tactica.combat.contract.scenario import Attacker, Scenario, ScenarioError, Target

from .library_sample import library_sample


def _sample() -> tuple[list[tuple[str, Attacker]], list[Target]]:
    return library_sample(40)


def _single(s: Scenario) -> object:
    try:
        return calculate(s)
    except ScenarioError as exc:
        return exc


def _assert_same(batched: object, single: object) -> None:
    if isinstance(single, ScenarioError):
        assert type(batched) is type(single) and str(batched) == str(single)
        return
    a, b = batched.model_dump(), single.model_dump()  # type: ignore[attr-defined]
    for field in ("attacks", "hits", "wounds", "unsaved", "damage", "models_destroyed"):
        np.testing.assert_allclose(a[field]["pmf"], b[field]["pmf"], rtol=0, atol=1e-12)
    assert abs(a["p_unit_destroyed"] - b["p_unit_destroyed"]) <= 1e-12
    assert (a["notes"], a["not_calculated"], a["stages"]) == (
        b["notes"], b["not_calculated"], b["stages"])


def _into_the_presets(every: int) -> None:
    """Every ``every``-th sampled attacker into the ten presets, batched and one by one."""
    attackers, targets = _sample()
    assert len(attackers) > 30 and len(targets) == 10
    for phase, attacker in attackers[::every]:
        base = Scenario(attacker=attacker, target=targets[0], phase=phase)
        batched = calculate_many(base, targets=targets)
        assert len(batched) == len(targets)
        for r, t in zip(batched, targets, strict=True):
            _assert_same(r, _single(base.model_copy(update={"target": t})))


def test_one_attacker_into_the_ten_presets_equals_single_calls() -> None:
    """Every third attacker of the sample (an odd step: both phases); all of them at
    volume."""
    _into_the_presets(3)


@pytest.mark.slow
def test_one_attacker_into_the_ten_presets_equals_single_calls_at_volume() -> None:
    _into_the_presets(1)


@pytest.mark.parametrize("preset", [0, 2, 9])
def test_many_attackers_into_one_target_equal_single_calls(preset: int) -> None:
    attackers, targets = _sample()
    shooting = [a for phase, a in attackers if phase == "shooting"]
    base = Scenario(attacker=shooting[0], target=targets[preset])
    batched = calculate_many(base, attackers=shooting)
    for r, a in zip(batched, shooting, strict=True):
        _assert_same(r, _single(base.model_copy(update={"attacker": a})))


def test_a_refused_scenario_gives_its_error_in_its_place() -> None:
    attackers, targets = _sample()
    melee = next(a for phase, a in attackers if phase == "fight")
    base = Scenario(attacker=melee, target=targets[0], phase="fight")
    shooting = next(a for phase, a in attackers if phase == "shooting")
    out = calculate_many(base, attackers=[melee, shooting, melee])
    assert isinstance(out[1], ScenarioError) and "ranged weapon" in str(out[1])
    assert not isinstance(out[0], ScenarioError) and not isinstance(out[2], ScenarioError)


def test_targets_and_attackers_together_are_refused() -> None:
    attackers, targets = _sample()
    base = Scenario(attacker=attackers[0][1], target=targets[0], phase=attackers[0][0])
    with pytest.raises(ScenarioError, match="not both"):
        calculate_many(base, targets=targets, attackers=[attackers[0][1]])


def _varied() -> list[Scenario]:
    """Pairs of scenarios that differ in one thing only a stage of one weapon line reads
    (``profile.resolve_weapon``'s batch memo keys, the stages' input records:
    ``AttackInputs``, ``HitInputs``, ``WoundInputs``, ``DamageInputs``;
    ``dice_stages.DieInputs``)."""
    def s(weapon: dict[str, object], target: dict[str, object], **more: object) -> Scenario:
        base = {"name": "w", "count": 2, "A": "D6", "skill": 3, "S": 6, "AP": -1, "D": "2",
                "range": 24}
        groups = target.pop("models", [{"count": 10, "T": 5, "Sv": 3, "W": 2}])
        return Scenario.model_validate({
            "attacker": {"weapons": [{**base, **weapon}], **more.pop("attacker", {})},  # type: ignore[dict-item]
            "target": {"models": groups, **target}, **more})
    five = [{"count": 5, "T": 5, "Sv": 3, "W": 2}]
    return [
        # the attack dice: Blast reads the target's models (5 against 10)
        s({"abilities": ["Blast"]}, {}), s({"abilities": ["Blast"]}, {"models": five}),
        # Rapid Fire within half range or not
        s({"abilities": ["Rapid Fire 1"]}, {}, context={"distance": 6}),
        s({"abilities": ["Rapid Fire 1"]}, {}, context={"distance": 20}),
        # the hit roll: Heavy after remaining stationary, Stealth, an effect, the target
        # a VEHICLE engaged with friendly units (17.03: -1 to hit it)
        s({"abilities": ["Heavy"]}, {}, context={"remained_stationary": True}),
        s({"abilities": ["Heavy"]}, {}),
        s({}, {"abilities": ["Stealth"]}), s({}, {}),
        s({}, {}, effects=[{"hit": 1}]), s({}, {}, effects=[{"reroll": "hit", "which": "ones"}]),
        s({}, {"keywords": ["VEHICLE"]}, context={"target_engaged": True}),
        s({}, {}, context={"target_engaged": True}),
        # the damage: Melta within half range, the target's reduction and halving
        s({"abilities": ["Melta 2"], "D": "1"}, {}, context={"distance": 6}),
        s({"abilities": ["Melta 2"], "D": "1"}, {}, context={"distance": 20}),
        s({"D": "D6"}, {"damage_reduction": 1}), s({"D": "D6"}, {"half_damage": True}),
        s({"D": "D6"}, {}),
        # the wound roll: Lance after a charge, Twin-linked (and the die: its need)
        s({"abilities": ["Lance"], "S": 4}, {}, context={"charged": True}),
        s({"abilities": ["Lance"], "S": 4}, {}),
        s({"abilities": ["Twin-linked"], "S": 4}, {}),
        # the die: the wound roll's need (T), Anti, Lethal Hits against Devastating Wounds
        s({"abilities": ["Anti-Infantry 4+"], "S": 3}, {"keywords": ["INFANTRY"]}),
        s({"abilities": ["Anti-Infantry 4+"], "S": 3}, {}),
        s({"abilities": ["Lethal Hits", "Devastating Wounds"]}, {}),
        s({"abilities": ["Lethal Hits"]}, {}),
    ]


def test_the_batch_memo_keys_tell_apart_what_each_stage_reads() -> None:
    """A batch of scenarios that differ in one thing a stage reads, all through one
    memo (in order and in reverse), gives each scenario's own figures bit for bit, as
    it gives alone with a fresh memo; and each pair's figures differ (the difference is
    read: a key that left it out would give the first one's figures twice)."""
    scenarios = _varied()
    alone = [figures_each([x])[0] for x in scenarios]
    assert figures_each(scenarios) == alone
    assert figures_each(scenarios[::-1])[::-1] == alone
    pairs = [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11), (12, 13), (14, 16),
             (15, 16), (17, 18), (17, 19), (20, 21), (22, 23)]
    for i, j in pairs:
        assert alone[i] != alone[j], (i, j)
