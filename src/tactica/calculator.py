"""``tactica.calculate``: a scenario document in (version 1, or version 2 with units named
from the library), the result out.

Unit references are resolved first (``tactica.units.resolve``) through ``library``
(default: ``load_library()``, the configured sources); the engine then reads the plain
version-1 scenario, and the result carries what the units resolved into (``resolved``).
"""

from __future__ import annotations

from typing import Any

from .combat import Result, Scenario
from .combat import calculate as calculate_scenario
from .combat.contract.result import Resolved
from .inputs import loads
from .units.resolve import UnitLibrary, resolve
from .units.scenario import ScenarioDocument, parse_document
from .units.sequence import names_units, resolve_sequence

__all__ = ["calculate", "calculate_units_sequence", "prepare"]


def prepare(scenario: Scenario | dict[str, Any] | str, library: UnitLibrary | None = None
            ) -> tuple[Scenario, Resolved | None, list[str]]:
    """The version-1 scenario to compute, what its units resolved into (``None`` for a
    version-1 document), and notes."""
    doc = parse_document(scenario)
    if not isinstance(doc, ScenarioDocument) or not doc.has_units:
        if isinstance(doc, ScenarioDocument):
            doc = Scenario.model_validate({k: getattr(doc, k) for k in Scenario.model_fields})
        return doc, None, []
    if library is None:
        from .library import load_library

        library = load_library()
    return resolve(doc, library)


def _library(library: UnitLibrary | None) -> UnitLibrary:
    if library is not None:
        return library
    from .library import load_library

    return load_library()


def _sequence_data(scenario: Scenario | dict[str, Any] | str) -> dict[str, Any] | None:
    """The document's data when it is a sequence (it has ``steps``)."""
    data: Any = scenario
    if isinstance(scenario, str):
        try:
            data = loads(scenario)
        except ValueError:
            return None
    return data if isinstance(data, dict) and "steps" in data else None


def calculate_units_sequence(data: dict[str, Any], library: UnitLibrary | None = None
                             ) -> Result:
    """A sequence document whose target or steps name library units: each resolved as in
    a single scenario (``tactica.units.sequence``), the result echoing what they became
    (``resolved`` for the target, each step's ``resolved`` for its unit)."""
    from .combat.contract.sequence import SequenceResult

    plain, target, per_step, notes = resolve_sequence(data, _library(library))
    result = calculate_scenario(plain)
    assert isinstance(result, SequenceResult)
    steps = tuple(s.model_copy(update={"resolved": per_step.get(s.step)})
                  for s in result.steps)
    return result.model_copy(update={"resolved": target, "steps": steps,
                                     "notes": (*dict.fromkeys(notes), *result.notes)})


def calculate(scenario: Scenario | dict[str, Any] | str,
              library: UnitLibrary | None = None) -> Result:
    """Compute a scenario (a ``Scenario``, its dict, or its JSON text); attackers and
    targets may name library units (``{"unit": "Intercessor Squad", "models": 10}``).

    >>> r = calculate({"attacker": {"weapons": [{"name": "Lascannon", "range": 48,
    ...   "A": "1", "skill": 4, "S": 12, "AP": -3, "D": "D6+1"}]},
    ...   "target": {"models": [{"T": 10, "Sv": 3, "W": 13}]}})
    >>> round(r.damage.mean, 4), r.resolved is None
    (1.25, True)
    """
    data = _sequence_data(scenario)
    if data is not None:
        if names_units(data):
            return calculate_units_sequence(data, library)
        return calculate_scenario(data)
    plain, resolved, notes = prepare(scenario, library)
    result = calculate_scenario(plain)
    if resolved is None:
        return result
    return result.model_copy(update={"resolved": resolved,
                                     "notes": (*notes, *result.notes)})
