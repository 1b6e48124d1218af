"""The size check refuses, before the target's chain is computed, the 10th-edition
scenarios whose Devastating Wounds counts are carried jointly until the whole unit has
attacked (reference facts §5.5): several lines with different damage make one pending
combination per product of their counts. Refused with ``TooLargeError`` (what a caller's
fall-back to Monte Carlo catches), and the chain is never entered."""

from __future__ import annotations

from typing import Any

import pytest

from tactica import calculate
from tactica.combat import exact
from tactica.combat.allocation import TooLargeError

_LINE = {"name": "w", "count": 50, "A": "D6", "skill": 3, "S": 6, "AP": -1, "D": "D6",
         "abilities": ["Sustained Hits 2", "Devastating Wounds"]}
#: the web tests' HEAVY scenario: two such lines (D6, D3) into 20 models W3
HEAVY: dict[str, Any] = {
    "rules": "10th",
    "attacker": {"weapons": [_LINE, {**_LINE, "name": "v", "D": "D3"}]},
    "target": {"models": [{"count": 20, "T": 5, "Sv": 3, "W": 3, "fnp": 5}]},
}


def _many_lines(n: int) -> dict[str, Any]:
    """``n`` lines of 10 shots with Devastating Wounds, each of a different damage."""
    lines = [{"name": f"gun {i}", "count": 10, "A": "1", "skill": 3, "S": 5, "AP": -1,
              "D": str(i + 1), "abilities": ["Devastating Wounds"]} for i in range(n)]
    return {"rules": "10th", "attacker": {"weapons": lines},
            "target": {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}}


@pytest.fixture
def no_chain(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the chain was entered before the size check refused")

    monkeypatch.setattr(exact, "run_chain", refuse)


@pytest.mark.usefixtures("no_chain")
@pytest.mark.parametrize("scenario", [HEAVY, _many_lines(6)], ids=["heavy", "six-lines"])
def test_jointly_carried_devastating_wounds_are_refused_before_the_chain(
        scenario: dict[str, Any]) -> None:
    with pytest.raises(TooLargeError, match=r"Devastating Wounds.*monte-carlo"):
        calculate(scenario)


def test_the_same_lines_under_11th_are_not_carried_jointly_and_are_computed() -> None:
    r = calculate({**_many_lines(6), "rules": "11th"})
    assert abs(sum(r.damage.pmf) - 1) < 1e-9


def test_two_small_lines_under_10th_are_still_computed() -> None:
    r = calculate(_many_lines(2))
    assert abs(sum(r.damage.pmf) - 1) < 1e-9 and r.damage.mean > 0
