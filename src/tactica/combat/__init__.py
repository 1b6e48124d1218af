"""The combat calculator: scenario in, exact (or sampled) distributions out."""

from __future__ import annotations

from typing import Any

from .exact import ScenarioError, calculate_exact
from .result import Distribution, Result
from .scenario import Scenario
from .unit_rules import finish

__all__ = ["Distribution", "Result", "Scenario", "ScenarioError", "calculate"]


def calculate(scenario: Scenario | dict[str, Any] | str) -> Result:
    """Compute a scenario (a ``Scenario``, its dict, or its JSON text).

    >>> r = calculate('''{"attacker": {"weapons": [{"name": "Lascannon", "range": 48,
    ...   "A": "1", "skill": 4, "S": 12, "AP": -3, "D": "D6+1"}]},
    ...   "target": {"models": [{"T": 10, "Sv": 3, "W": 13}]}}''')
    >>> round(r.damage.mean, 4)    # 1/2 x 2/3 x 5/6 x 4.5
    1.25
    """
    if isinstance(scenario, str):
        scenario = Scenario.model_validate_json(scenario)
    elif isinstance(scenario, dict):
        scenario = Scenario.model_validate(scenario)
    if scenario.method == "monte-carlo":
        from .montecarlo import simulate  # type: ignore[import-not-found, unused-ignore]

        result: Result = simulate(scenario)
        return finish(scenario, result)
    return finish(scenario, calculate_exact(scenario))
