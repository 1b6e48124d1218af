"""``calculate_many`` gives what single ``calculate`` calls give, on real library units
(the default library: seed pages and the bundled dataset): every 40th datasheet in both
phases into the ten target presets (in the default run every third of those; all of them
``..._at_volume``, marked slow), and many attackers into one target."""

from __future__ import annotations

import numpy as np
import pytest

from tactica import calculate, calculate_many
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
