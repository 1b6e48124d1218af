"""Strict numbers in the API: a field the scenario contract types as a number must be a
JSON number, not text ("count": "3" is refused, where pydantic's lax mode would take it).

The number fields are read from the contract's own JSON Schema (every property typed
``integer`` or ``number``), so the check follows the contract as it changes.

>>> from tactica.combat.contract.scenario import Scenario
>>> fields = number_fields(Scenario.model_json_schema())
>>> {"count", "skill", "W"} <= fields
True
>>> numbers_as_text({"attacker": {"weapons": [{"count": "3"}]}}, fields)
['attacker', 'weapons', 0, 'count']
"""

from __future__ import annotations

from functools import cache
from typing import Any

__all__ = ["number_fields", "numbers_as_text", "scenario_number_fields"]


def _is_number(schema: dict[str, Any]) -> bool:
    if schema.get("type") in ("integer", "number"):
        return True
    options = schema.get("anyOf") or schema.get("oneOf") or ()
    kinds = {o.get("type") for o in options if isinstance(o, dict)}
    return bool(kinds) and kinds <= {"integer", "number", "null"} and bool(
        kinds & {"integer", "number"})


def number_fields(schema: dict[str, Any]) -> frozenset[str]:
    """The property names typed as numbers anywhere in ``schema`` (and its ``$defs``)."""
    out: set[str] = set()
    todo: list[Any] = [schema]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            for name, prop in (node.get("properties") or {}).items():
                if isinstance(prop, dict) and _is_number(prop):
                    out.add(name)
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
    return frozenset(out)


@cache
def scenario_number_fields() -> frozenset[str]:
    """The number fields of a scenario and of a turn, library units' included (a unit's
    ``models``: ``{"unit": "Boyz", "models": "10"}`` was taken as 10)."""
    from ..service import Scenario, ScenarioDocument, SequenceDocument

    return frozenset().union(*(number_fields(m.model_json_schema()) for m in (
        Scenario, ScenarioDocument, SequenceDocument)))


def numbers_as_text(doc: Any, fields: frozenset[str]) -> list[str | int] | None:
    """The path of the first number field of ``doc`` given as text, or ``None``."""
    todo: list[tuple[Any, list[str | int]]] = [(doc, [])]
    while todo:
        node, path = todo.pop(0)
        if isinstance(node, dict):
            for key, value in node.items():
                if key in fields and isinstance(value, str):
                    return [*path, key]
                todo.append((value, [*path, key]))
        elif isinstance(node, list):
            todo.extend((value, [*path, i]) for i, value in enumerate(node))
    return None
