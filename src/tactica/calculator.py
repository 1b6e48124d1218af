"""``tactica.calculate``: a scenario document in (version 1, or version 2 with units named
from the library), the result out.

Unit references are resolved first (``tactica.units.resolve``) through ``library``
(default: ``load_library()``, the configured sources); the engine then reads the plain
version-1 scenario, and the result carries what the units resolved into (``resolved``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ValidationError

from .combat import Result, Scenario, ScenarioError
from .combat import calculate as calculate_scenario
from .combat.batch import calculate_each
from .combat.contract.result import Resolved
from .errors import DocumentError, one_line
from .inputs import loads
from .units.resolve import UnitError, UnitLibrary, resolve
from .units.scenario import ScenarioDocument, file_named, file_refusal, parse_document

__all__ = ["calculate", "calculate_many", "calculate_units_sequence", "effect_twice", "prepare"]


def effect_twice(effects: Iterable[Any], rules: str, where: str = "effects") -> None:
    """Refuse a rule named twice (case and spacing aside) that is no stratagem: an army
    rule, a detachment rule or an enhancement given twice would be applied twice. (A
    stratagem given twice is the engine's refusal, once per phase, 15.01:
    ``effects.stratagem_use``.) ``ScenarioError`` naming its place."""
    from .effects import find_effect

    seen: set[str] = set()
    for i, effect in enumerate(effects):
        if not isinstance(effect, str):
            continue
        key = " ".join(effect.split()).casefold()
        if key in seen:
            try:
                kind = find_effect(effect, rules, hints=False)[0].kind
            except LookupError:  # the engine refuses it, naming it
                continue
            if kind != "stratagem":
                raise ScenarioError(f"{where}[{i}]: {effect!r} is given twice (each "
                                    "effect is used once)")
        seen.add(key)


def prepare(scenario: Scenario | dict[str, Any] | str, library: UnitLibrary | None = None
            ) -> tuple[Scenario, Resolved | None, list[str]]:
    """The version-1 scenario to compute, what its units resolved into (``None`` for a
    version-1 document), and notes; a named effect given twice refused
    (``effect_twice``)."""
    doc = parse_document(scenario)
    effect_twice(doc.effects, doc.rules)
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
    from .units.sequence import resolve_sequence

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
    if data is not None:  # a turn: its contract read only now
        from .units.sequence import names_units

        steps = data.get("steps")
        for i, step in enumerate(steps if isinstance(steps, list) else ()):
            if isinstance(step, dict) and isinstance(step.get("effects"), list):
                effect_twice(step["effects"], str(data.get("rules", "11th")),
                             f"steps[{i}].effects")

        if names_units(data):
            return calculate_units_sequence(data, library)
        return calculate_scenario(data)
    plain, resolved, notes = prepare(scenario, library)
    result = calculate_scenario(plain)
    if resolved is None:
        return result
    return result.model_copy(update={"resolved": resolved,
                                     "notes": (*notes, *result.notes)})


Side = BaseModel | dict[str, Any]


def _as_data(value: BaseModel | dict[str, Any] | str) -> dict[str, Any]:
    named = file_named(value)
    if named is not None:
        raise ScenarioError(file_refusal(named))
    if isinstance(value, str):
        try:
            value = loads(value)
        except ValueError as exc:
            raise ScenarioError(f"document: not JSON ({exc})") from None
    if isinstance(value, BaseModel):
        return value.model_dump(exclude_unset=True)
    if not isinstance(value, dict):
        raise ScenarioError("document: a scenario is a JSON object")
    return value


def _prepared(data: dict[str, Any], library: UnitLibrary | None
              ) -> tuple[Scenario, Resolved | None, list[str]] | ScenarioError:
    try:
        return prepare(data, library)
    except (UnitError, DocumentError) as exc:  # a part's refusal, said as the scenario's
        return ScenarioError(one_line(exc))
    except ScenarioError as exc:
        return exc
    except (ValidationError, ValueError) as exc:  # pydantic's
        return ScenarioError(one_line(exc))


def _sides(name: str, given: object) -> tuple[Any, ...]:
    """``targets`` or ``attackers`` as given: a list (any iterable) of units; one unit
    given bare (a dict, a name) is refused, never taken key by key or letter by letter."""
    if isinstance(given, str | bytes | dict | BaseModel) or not isinstance(given, Iterable):
        raise ScenarioError(f"{name}: a list of units ([{{\"unit\": \"geq\"}}, ...]), not "
                            f"{type(given).__name__} {str(given)[:60]!r}")
    return tuple(given)


def calculate_many(scenario: Scenario | dict[str, Any] | str, *,
                   targets: Iterable[Side] = (), attackers: Iterable[Side] = (),
                   library: UnitLibrary | None = None) -> list[Result | ScenarioError]:
    """``scenario`` with its target replaced by each of ``targets`` in turn, or its
    attacker by each of ``attackers``: exact results, in order, sharing the work that
    does not change (``tactica.combat.batch``). The scenario and each replacement may name
    library units exactly as ``calculate`` reads them (``{"unit": "Termagants"}``); each
    pair is fielded as ``calculate`` fields it (profiles picked against that target), so
    every result equals ``calculate``'s. A replacement that cannot be fielded or computed
    gives its one-line ``ScenarioError`` in its place; a malformed scenario raises one.

    >>> rs = calculate_many({"attacker": {"unit": "Intercessor Squad"},
    ...                      "target": {"unit": "meq"}},
    ...                     targets=[{"unit": "geq"}, {"unit": "Nowhere Squad"}])
    >>> round(rs[0].models_destroyed.mean, 2), type(rs[1]).__name__
    (5.91, 'ScenarioError')
    """
    targets, attackers = _sides("targets", targets), _sides("attackers", attackers)
    if targets and attackers:
        raise ScenarioError("calculate_many: targets or attackers, not both")
    base = _as_data(scenario)
    if not isinstance(scenario, Scenario):
        checked = _prepared(base, library)  # the scenario itself must be readable
        if isinstance(checked, ScenarioError):
            raise checked
        if checked[0].method != "exact":
            raise ScenarioError("method: calculate_many computes exact results only")
    elif scenario.method != "exact":
        raise ScenarioError("method: calculate_many computes exact results only")
    field, changes = ("target", targets) if targets else ("attacker", attackers)
    items = [_prepared({**base, field: _as_data(c) if isinstance(c, BaseModel) else c},
                       library) for c in changes]
    results = calculate_each(i if isinstance(i, ScenarioError) else i[0] for i in items)
    out: list[Result | ScenarioError] = []
    for item, result in zip(items, results, strict=True):
        if isinstance(result, ScenarioError) or isinstance(item, ScenarioError) \
                or item[1] is None:
            out.append(result)
            continue
        out.append(result.model_copy(update={"resolved": item[1],
                                             "notes": (*item[2], *result.notes)}))
    return out
