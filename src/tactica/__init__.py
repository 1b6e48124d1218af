"""tactica: Warhammer 40,000 datasheets as data and the exact odds of an attack.

>>> import tactica
>>> r = tactica.calculate({"attacker": {"weapons": [{"name": "Bolt rifle", "count": 10,
...     "A": "1", "skill": 3, "S": 4, "AP": -1, "D": "1"}]},
...     "target": {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}})
>>> round(r.models_destroyed.mean, 4), round(sum(r.damage.pmf), 9)
(0.5877, 1.0)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .version import __version__

__all__ = ["DiceExpr", "Result", "Scenario", "ScenarioError", "__version__", "calculate",
           "calculate_many", "to_frame"]

if TYPE_CHECKING:
    from .calculator import calculate_many
    from .combat import Result, Scenario, ScenarioError
    from .combat.contract.frames import to_frame
    from .dice import DiceExpr
    from .units.resolve import UnitLibrary

#: The names above, imported on first use (``import tactica`` stays light: the command
#: line checks its arguments and files before the engine is loaded).
_LAZY = {"Result": ".combat", "Scenario": ".combat", "ScenarioError": ".combat",
         "calculate_many": ".calculator", "DiceExpr": ".dice",
         "to_frame": ".combat.contract.frames"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def calculate(scenario: Scenario | dict[str, Any] | str,
              library: UnitLibrary | None = None) -> Result:
    """``tactica.calculator.calculate``: a scenario (version 1, or version 2 naming library
    units) in, the result out. Imported on first use, so that ``import tactica`` (a web
    calculation worker's start) stays light."""
    from .calculator import calculate as calculate_document
    from .errors import refusing_documents

    with refusing_documents():  # a bad document: tactica's DocumentError, one line
        return calculate_document(scenario, library)
