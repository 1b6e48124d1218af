"""tactica: Warhammer 40,000 datasheets as data and the exact odds of an attack.

>>> import tactica
>>> r = tactica.calculate({"attacker": {"weapons": [{"name": "Bolt rifle", "count": 10,
...     "A": "1", "skill": 3, "S": 4, "AP": -1, "D": "1"}]},
...     "target": {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}})
>>> round(r.models_destroyed.mean, 4), round(sum(r.damage.pmf), 9)
(0.5877, 1.0)

The names below are imported on first use, so that ``import tactica`` (a command's or a
web worker's start) stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .version import __version__

__all__ = ["DiceExpr", "Result", "Scenario", "ScenarioError", "__version__", "calculate",
           "calculate_many"]

if TYPE_CHECKING:
    from .calculator import calculate, calculate_many
    from .combat import Result, Scenario, ScenarioError
    from .dice import DiceExpr

#: public name -> the module that defines it
_LAZY = {"calculate": "calculator", "calculate_many": "calculator", "Result": "combat",
         "Scenario": "combat", "ScenarioError": "combat", "DiceExpr": "dice"}


def __getattr__(name: str) -> Any:
    """``tactica.calculate`` and the other public names, imported on first use."""
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module 'tactica' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{where}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
