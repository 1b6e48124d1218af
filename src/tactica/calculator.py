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
from .combat.result import Resolved
from .units.resolve import UnitLibrary, resolve
from .units.scenario import ScenarioDocument, parse_document

__all__ = ["calculate", "prepare"]


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
    plain, resolved, notes = prepare(scenario, library)
    result = calculate_scenario(plain)
    if resolved is None:
        return result
    return result.model_copy(update={"resolved": resolved,
                                     "notes": (*notes, *result.notes)})
