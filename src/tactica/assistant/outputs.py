"""What each tool answers, as the output schema its listing declares: the answer's
top-level fields and their types (a nested document, such as a datasheet or a result,
by its type alone, as ``schemas.flatten`` writes the inputs). The SDK's client checks
every answer against it; so do the tests (``tests/assistant``).

Every answer has ``omitted``: what it left out and how to ask for it (empty when nothing
was).
"""

from __future__ import annotations

from typing import Any

__all__ = ["OUTPUTS"]

Schema = dict[str, Any]

_S: Schema = {"type": "string"}
_N: Schema = {"type": "number"}
_I: Schema = {"type": "integer"}
_B: Schema = {"type": "boolean"}
_O: Schema = {"type": "object"}


def _list(items: Schema) -> Schema:
    return {"type": "array", "items": items}


def _or_null(schema: Schema) -> Schema:
    return {"anyOf": [schema, {"type": "null"}]}


def _object(required: tuple[str, ...] = (), **properties: Schema) -> Schema:
    out: Schema = {"type": "object", "properties": properties}
    if required:
        out["required"] = list(required)
    return out


_OMITTED = _list(_S)
_UNITS = _object(("total", "offset", "units", "omitted"), total=_I, offset=_I,
                 units=_list(_object(("name",), name=_S)), omitted=_OMITTED)
_DETAIL: Schema = {"enum": ["summary", "all"], "type": "string"}

OUTPUTS: dict[str, Schema] = {
    "simulate_combat": _object(
        ("headline", "battle_shock", "fielded", "document", "omitted"),
        headline=_object(("expected_models_destroyed", "p_unit_destroyed", "not_calculated"),
                         expected_models_destroyed=_N, p_unit_destroyed=_N,
                         not_calculated=_list(_S)),
        battle_shock=_or_null(_object(("p_battle_shocked",), p_battle_shocked=_N)),
        fielded=_list(_S), document=_O, omitted=_OMITTED),
    "calculate": _object(
        ("models_destroyed", "p_unit_destroyed", "not_calculated", "omitted"),
        models_destroyed=_O, p_unit_destroyed=_N, not_calculated=_list(_S),
        omitted=_OMITTED),
    "lookup_unit": _object(("datasheet", "omitted"), datasheet=_O, omitted=_OMITTED),
    "lookup_rule": _object(("rules", "omitted"), rules=_list(_O), omitted=_OMITTED),
    "list_units": _UNITS,
    "find_units": _UNITS,
    "validate_list": _object(("legal", "violations", "units", "omitted"), legal=_B,
                             violations=_list(_O), units=_list(_O), omitted=_OMITTED),
    "matchup": _object(("detail", "mine", "enemy", "omitted"), detail=_DETAIL, mine=_O,
                       enemy=_O, omitted=_OMITTED),
    "plan": _object(("detail", "plan", "omitted"), detail=_DETAIL, plan=_O,
                    omitted=_OMITTED),
}
