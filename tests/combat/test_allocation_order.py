"""The exact engine against the brute-force oracle on the allocation-order cases the
Monte Carlo twin found (reference facts §5.1: the current group stays current until all
its models are destroyed; §5.5: 10th-edition Devastating Wounds per weapon, Precision)."""

from __future__ import annotations

from typing import Any

import pytest

from oracle.bruteforce import brute_force
from tactica.combat.contract.scenario import Scenario
from tactica.combat.exact.engine import calculate_exact

from .test_montecarlo import ORACLE_CASES


def _pad(values: tuple[float, ...], n: int) -> list[float]:
    return list(values) + [0.0] * (n - len(values))


@pytest.mark.parametrize("name", list(ORACLE_CASES))
def test_exact_engine_matches_oracle(name: str) -> None:
    """Every pmf of the exact engine equals the oracle's (to 1e-9) on cases where the
    allocation order decides the outcome."""
    scenario = Scenario.model_validate(ORACLE_CASES[name])
    exact = calculate_exact(scenario)
    oracle: Any = brute_force(scenario)
    for stage in ("unsaved", "damage", "models_destroyed"):
        want = oracle[stage]
        got = getattr(exact, stage).pmf
        n = max(len(got), max(want) + 1)
        expected = [float(want.get(i, 0)) for i in range(n)]
        assert _pad(got, n) == pytest.approx(expected, abs=1e-9), stage
