"""The combat calculator: scenario in, exact (or sampled) distributions out."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..inputs import loads
from .batch import calculate_many
from .contract.result import Distribution, Result
from .contract.scenario import Scenario
from .exact.engine import ScenarioError, calculate_exact
from .exact.unit_rules import finish

if TYPE_CHECKING:  # a turn's contract is read when a turn is asked for
    from .contract.sequence import Sequence

__all__ = ["Distribution", "Result", "Scenario", "ScenarioError", "calculate",
           "calculate_many"]


def calculate(scenario: Scenario | Sequence | dict[str, Any] | str) -> Result:
    """Compute a scenario (a ``Scenario``, its dict, or its JSON text), or a sequence (a
    document with ``steps``: the result is a ``SequenceResult``).

    >>> r = calculate('''{"attacker": {"weapons": [{"name": "Lascannon", "range": 48,
    ...   "A": "1", "skill": 4, "S": 12, "AP": -3, "D": "D6+1"}]},
    ...   "target": {"models": [{"T": 10, "Sv": 3, "W": 13}]}}''')
    >>> round(r.damage.mean, 4)    # 1/2 x 2/3 x 5/6 x 4.5
    1.25
    """
    if isinstance(scenario, str):
        try:
            data = loads(scenario)
        except ValueError:
            data = None  # pydantic's own JSON refusal below
        if isinstance(data, dict) and "steps" in data:
            scenario = _sequence(data)
        else:
            scenario = Scenario.model_validate_json(scenario)
    elif isinstance(scenario, dict) and "steps" in scenario:
        scenario = _sequence(scenario)
    elif isinstance(scenario, dict):
        scenario = Scenario.model_validate(scenario)
    if not isinstance(scenario, Scenario):  # a sequence
        if scenario.method == "monte-carlo":
            from .turn.sampled import simulate_sequence

            return simulate_sequence(scenario, scenario.trials, scenario.seed)
        from .turn.exact import calculate_sequence

        return calculate_sequence(scenario)
    if scenario.method == "monte-carlo":
        from .sampled.engine import simulate  # type: ignore[import-not-found, unused-ignore]

        result: Result = simulate(scenario)
        return finish(scenario, result)
    return finish(scenario, calculate_exact(scenario))


def _sequence(data: dict[str, Any]) -> Sequence:
    from .contract.sequence import Sequence

    return Sequence.model_validate(data)
