"""10th-edition Devastating Wounds held back until the whole unit has attacked
(reference facts §5.5) carried as an operator over the target's states
(``deferred.run_deferred``), against the chain that carries their counts as keys
(``chain.run_chain``): the same final states to 1e-12 on generated scenarios (several
lines with different damage, Precision into attached units, Command Re-roll branches,
mortal wounds before the attacks, wounded models; the junction states all at once and
one at a time), and ten such lines, refused before,
now computed and in line with the Monte Carlo twin."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tactica import calculate
from tactica.combat.contract.scenario import Scenario
from tactica.combat.exact import deferred
from tactica.combat.exact import engine as exact
from tactica.combat.exact.chain import run_chain
from tactica.combat.exact.deferred import run_deferred
from tactica.combat.exact.engine import calculate_exact
from tactica.combat.exact.one_group import general_chain

_DAMAGE = ("1", "2", "D3", "3", "D3+1")


@st.composite
def _lines(draw: st.DrawFn, precision: bool) -> list[dict[str, Any]]:
    out = []
    for i in range(draw(st.integers(1, 4))):
        abilities = ["Devastating Wounds"] if draw(st.booleans()) or i == 0 else []
        if precision and draw(st.booleans()):
            abilities.append("Precision")
        if draw(st.integers(0, 3)) == 0:
            abilities.append("Sustained Hits 1")
        out.append({"name": f"gun {i}", "count": draw(st.integers(1, 4)),
                    "A": draw(st.sampled_from(("1", "2", "D3"))), "skill": 3,
                    "S": draw(st.integers(3, 6)), "AP": -draw(st.integers(0, 2)),
                    "D": draw(st.sampled_from(_DAMAGE)), "abilities": abilities})
    return out


@st.composite
def _scenarios(draw: st.DrawFn) -> dict[str, Any]:
    models: list[dict[str, Any]] = [{
        "name": "Guard", "count": draw(st.integers(1, 5)), "T": 4, "Sv": draw(
            st.integers(2, 6)), "W": draw(st.integers(1, 3)),
        "fnp": draw(st.sampled_from((None, 5, 6)))}]
    if models[0]["W"] > 1 and draw(st.booleans()):
        models[0]["wounds_lost"] = 1
    character = draw(st.booleans())
    if character:
        models.append({"name": "Captain", "count": 1, "T": 4, "Sv": 2, "invuln": 4,
                       "W": draw(st.integers(2, 5)), "character": True})
    effects: list[dict[str, Any]] = []
    if draw(st.booleans()):
        effects.append({"command_reroll": draw(st.sampled_from(("hit", "wound")))})
    if draw(st.booleans()):
        effects.append({"mortal_wounds": "D3"})
    return {"rules": "10th", "attacker": {"weapons": draw(_lines(character))},
            "target": {"models": models}, "effects": effects}


@pytest.mark.slow
@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(_scenarios())
def test_operator_chain_equals_keys_chain(doc: dict[str, Any]) -> None:
    calls: list[float] = []

    def both(lines: Any, nms: Any, x0: Any, mp: Any, per_line: bool) -> Any:
        keys = run_chain(lines, nms, x0, mp, per_line)
        tensor = run_deferred(lines, nms, x0, mp)
        with pytest.MonkeyPatch.context() as one:  # one junction state at a time
            one.setattr(deferred, "BLOCK_FLOATS", 1.0)
            blocked = run_deferred(lines, nms, x0, mp)
        calls.append(float(max(np.abs(keys - tensor).max(), np.abs(keys - blocked).max())))
        return keys

    with pytest.MonkeyPatch.context() as m, general_chain():  # the general path's two ways
        m.setattr(exact, "run_chain", both)
        m.setattr(exact, "run_deferred", lambda *a: both(*a, False))
        result = calculate_exact(Scenario.model_validate(doc))
    assert calls and max(calls) < 1e-12
    assert abs(sum(result.damage.pmf) - 1) < 1e-12


def _ten_lines() -> dict[str, Any]:
    """Ten lines of ten shots with Devastating Wounds, ten different damages, into ten
    W2 models (refused before: ~2.6e10 combinations of held-back counts as keys)."""
    lines = [{"name": f"gun {i}", "count": 10, "A": "1", "skill": 3, "S": 5, "AP": -1,
              "D": d, "abilities": ["Devastating Wounds"]}
             for i, d in enumerate(("1", "2", "D3", "3", "D6", "4", "2", "D3+1", "5", "6"))]
    return {"rules": "10th", "attacker": {"weapons": lines},
            "target": {"models": [{"name": "Marine", "count": 10, "T": 4, "Sv": 3,
                                   "W": 2}]}}


@pytest.mark.slow
def test_ten_lines_with_different_damage_are_computed_and_agree_with_monte_carlo(
        monkeypatch: pytest.MonkeyPatch) -> None:
    used: list[str] = []
    real = exact.run_deferred

    def spy(*args: Any) -> Any:
        used.append("tensor")
        return real(*args)

    monkeypatch.setattr(exact, "run_deferred", spy)
    exact_r = calculate(_ten_lines())
    assert used, "the held-back criticals were not carried as an operator"
    assert abs(sum(exact_r.damage.pmf) - 1) < 1e-12
    mc = calculate({**_ten_lines(), "method": "monte-carlo", "trials": 20_000, "seed": 3})
    # 20,000 trials: the standard error of the mean is below 0.02 wounds
    assert abs(exact_r.damage.mean - mc.damage.mean) < 0.1
    assert abs(exact_r.models_destroyed.mean - mc.models_destroyed.mean) < 0.05
    assert abs(exact_r.unsaved.mean - mc.unsaved.mean) < 0.2
