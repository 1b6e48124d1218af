"""The 11th-edition Lethal Hits search (24.23, ``exact._lethal_search``) reuses its work:
the hit totals are shared between the choices, and the result is finished from the
better choice's final states when the search kept its unsaved counts (the one-group fast
path). Over generated scenarios with an open choice (Lethal Hits with Devastating
Wounds, some with Command Re-roll) every distribution of ``calculate_exact`` equals the
plain calculation of the chosen choice from nothing (``exact._calculate`` without a
memo) to 1e-12, and so do ``calculate_exact_from``'s result and final states."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tactica.combat.contract.result import Result
from tactica.combat.contract.scenario import Scenario, ScenarioError
from tactica.combat.exact import engine as exact
from tactica.combat.exact.allocation import StateSpace, build_groups
from tactica.combat.exact.attack_lines import search_mean
from volume import sampled

from .test_properties import scenarios

TOL = 1e-12
STRESS = {"attacker": {"weapons": [{
    "name": "g", "count": 40, "range": 24, "A": "1", "skill": 3, "S": 6, "AP": -1,
    "D": "D6", "abilities": ["Sustained Hits 2", "Lethal Hits", "Devastating Wounds"]}]},
    "target": {"models": [{"count": 10, "T": 5, "Sv": 3, "W": 3, "fnp": 5}]}}


def _gap(a: Any, b: Any, path: str = "") -> float:
    """The largest difference between two dumped results (numbers), asserting that
    everything else (texts, lengths, keys) is the same."""
    if isinstance(a, dict):
        assert a.keys() == b.keys(), path
        return max((_gap(a[k], b[k], f"{path}.{k}") for k in a), default=0.0)
    if isinstance(a, (list, tuple)):
        assert len(a) == len(b), path
        pairs = enumerate(zip(a, b, strict=True))
        return max((_gap(x, y, f"{path}[{i}]") for i, (x, y) in pairs), default=0.0)
    if isinstance(a, float) and not isinstance(b, bool):
        return abs(a - b)
    assert a == b, path
    return 0.0


def _open_choice(draw: st.DrawFn) -> dict[str, Any]:
    doc = copy.deepcopy(draw(scenarios()))
    doc["rules"] = "11th"
    for w in doc["attacker"]["weapons"]:
        w["abilities"] = sorted({*w["abilities"], "Lethal Hits", "Devastating Wounds"})
    if draw(st.booleans()) and draw(st.booleans()):
        doc["effects"] = [{"command_reroll": draw(st.sampled_from(("hit", "wound")))}]
    return doc


def _plain(s: Scenario, initial: exact.Initial | None = None,
           ) -> tuple[Result, exact.Initial]:
    """The chosen choice's calculation from nothing, with the search's notes."""
    choice = exact._lethal_search(s, finish=False, initial=initial)[0]
    out: exact.Initial = {}
    r = exact._calculate(exact._prepare(s), choice, initial=initial, states_out=out)
    notes = exact.lethal_notes(s, choice)
    return r.model_copy(update={"notes": notes + r.notes}), out


@pytest.mark.slow
@settings(max_examples=60, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.composite(_open_choice)())
def test_the_search_finishes_as_the_plain_calculation(doc: dict[str, Any]) -> None:
    s = Scenario.model_validate(doc)
    try:
        plain, _ = _plain(s)
    except ScenarioError as e:  # e.g. a melee line in the shooting phase: refused alike
        try:
            exact.calculate_exact(s)
        except ScenarioError as f:
            assert str(f) == str(e)
            return
        raise AssertionError("refused only by the plain calculation") from e
    assert _gap(exact.calculate_exact(s).model_dump(), plain.model_dump()) <= TOL
    # from a damaged start (a sequence's second step), with the final states
    start = {StateSpace(build_groups(s.target)).initial: np.ones(1)}
    _, first = exact.calculate_exact_from(s, start)
    got, got_states = exact.calculate_exact_from(s, first)
    want, want_states = _plain(s, first)
    assert _gap(got.model_dump(), want.model_dump()) <= TOL
    assert got_states.keys() == want_states.keys()
    for k, v in got_states.items():
        assert len(v) == len(want_states[k])
        assert float(np.abs(v - want_states[k]).max()) <= TOL


def test_the_stress_case_shares_the_hit_totals_between_the_choices() -> None:
    """40 attacks, Sustained Hits 2, Lethal Hits, Devastating Wounds: one die's hits do
    not depend on the Lethal Hits choice, so both choices calculated with one memo hold
    one hit total and a wound total per choice; ``calculate_exact`` takes Lethal Hits
    here and computes the declined choice's mean without its wound totals."""
    p = exact._prepare(Scenario.model_validate(STRESS))
    memo: dict[Any, Any] = {}
    for choice in ((True,), (False,)):
        exact._calculate(p, choice, memo=memo)
    kinds = [k[0] for k in memo if isinstance(k, tuple) and k[0].endswith("totals")]
    assert sorted(kinds) == ["hit totals", "wound totals", "wound totals"]
    memo = {}
    assert exact.calculate_exact(p.scenario, memo=memo).notes[0].startswith(
        "g: Lethal Hits taken")
    kinds = [k[0] for k in memo if isinstance(k, tuple) and k[0].endswith("totals")]
    assert sorted(kinds) == ["hit totals", "wound totals"]


@settings(max_examples=80, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.composite(_open_choice)())
def test_the_search_mean_is_the_full_calculations_mean(doc: dict[str, Any]) -> None:
    """``attack_lines.search_mean`` (one-dimensional totals, thinned per die) gives the
    expected damage of the full calculation of the same choice, where it applies."""
    s = Scenario.model_validate(doc)
    try:
        p = exact._prepare(s)
    except ScenarioError:
        return
    for choice in ((True,) * len(p.weapons), (False,) * len(p.weapons)):
        try:
            full = exact._calculate(p, choice).damage.mean
        except ScenarioError:
            continue
        got = search_mean(p.groups, p.rules, p.effects, p.named, p.weapons, choice)
        if got is not None:
            assert abs(got - full) <= TOL


def test_the_search_mean_applies_to_the_stress_case() -> None:
    s = Scenario.model_validate(STRESS)
    p = exact._prepare(s)
    for choice in ((True,), (False,)):
        got = search_mean(p.groups, p.rules, p.effects, p.named, p.weapons, choice)
        assert got is not None
        assert abs(got - exact._calculate(p, choice).damage.mean) <= TOL


# --- the default run's samples (tests/volume.py): each property below runs a few
# dozen examples by default and its full count as its ``_at_volume`` twin (slow) ---
(test_the_search_mean_is_the_full_calculations_mean,
 test_the_search_mean_is_the_full_calculations_mean_at_volume) = sampled(
    test_the_search_mean_is_the_full_calculations_mean, 25)
