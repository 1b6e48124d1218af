"""tactica: Warhammer 40,000 datasheets as data and the exact odds of an attack.

>>> import tactica
>>> r = tactica.calculate({"attacker": {"weapons": [{"name": "Bolt rifle", "count": 10,
...     "A": "1", "skill": 3, "S": 4, "AP": -1, "D": "1"}]},
...     "target": {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}})
>>> round(r.models_destroyed.mean, 4), round(sum(r.damage.pmf), 9)
(0.5877, 1.0)
"""

from __future__ import annotations

from .combat import Result, Scenario, ScenarioError, calculate, calculate_many
from .dice import DiceExpr

__version__ = "0.1.0"

__all__ = ["DiceExpr", "Result", "Scenario", "ScenarioError", "__version__", "calculate",
           "calculate_many"]
