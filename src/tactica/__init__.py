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
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .version import __version__

__all__ = ["DiceExpr", "Result", "Scenario", "ScenarioError", "__version__", "calculate",
           "calculate_many", "to_frame"]

if TYPE_CHECKING:
    from .combat import Result, Scenario, ScenarioError
    from .combat.contract.frames import to_frame
    from .dice import DiceExpr
    from .units.resolve import UnitLibrary

#: The names above, imported on first use (``import tactica`` stays light: the command
#: line checks its arguments and files before the engine is loaded).
_LAZY = {"Result": ".combat", "Scenario": ".combat", "ScenarioError": ".combat",
         "DiceExpr": ".dice",
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
        _known_context_names(scenario, library)
        return calculate_document(scenario, library)


def calculate_many(scenario: Scenario | dict[str, Any] | str, *,
                   targets: Iterable[Any] = (), attackers: Iterable[Any] = (),
                   library: UnitLibrary | None = None) -> list[Result | ScenarioError]:
    """``tactica.calculator.calculate_many``: ``scenario`` with its target replaced by each
    of ``targets`` in turn, or its attacker by each of ``attackers``; its context's
    names checked as ``calculate`` checks them."""
    from .calculator import calculate_many as calculate_each

    _known_context_names(scenario, library)
    return calculate_each(scenario, targets=targets, attackers=attackers, library=library)


def _known_context_names(scenario: object, library: UnitLibrary | None) -> None:
    """A context's detachment or army faction the library does not know refused, naming
    its field, with close names (``army.lookups.context_names``): the engine would take
    it silently, and a rule of the detachment would then be refused as another's (15.01).
    The library is loaded only for a document whose context names one."""
    data: Any = scenario
    if isinstance(scenario, str):
        from .inputs import loads

        try:
            data = loads(scenario)
        except ValueError:
            return  # the document's own refusal follows
    elif hasattr(scenario, "model_dump"):
        data = scenario.model_dump(include={"context", "steps"})
    from .army.lookups import context_names, names_context

    if not names_context(data):
        return
    from .combat import ScenarioError
    from .library import Library, load_library

    lib = load_library() if library is None else library
    if isinstance(lib, Library):
        for where, exc in context_names(data, lib)[:1]:
            raise ScenarioError(f"{where}: {exc}")
