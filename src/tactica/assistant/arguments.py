"""The arguments of each tool, as pydantic models: their JSON Schemas, flattened
(``tactica.assistant.schemas``), are the tools' input schemas, built from the same models
as ``tactica schema`` (``UnitRef``, ``Context``, the effect entries, ``ScenarioDocument``
and the turn ``SequenceDocument``).

Every model refuses unknown fields, so a misspelt argument is a one-line error naming it
rather than ignored.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    field_validator,
    model_validator,
)

from ..service import (
    MAX_TRIALS,
    Context,
    EffectEntry,
    MatchupRequest,
    PlanRequest,
    RulesVersion,
    ScenarioDocument,
    Seed,
    SequenceDocument,
    Trials,
    UnitRef,
    formats_help,
)
from .schemas import flatten, merge_objects, prefer_object

__all__ = [
    "MAX_ARMY_UNITS",
    "MAX_LIST_BYTES",
    "MAX_TRIALS",
    "CalculateArgs",
    "FindUnitsArgs",
    "ListUnitsArgs",
    "LookupRuleArgs",
    "LookupUnitArgs",
    "MatchupArgs",
    "PlanArgs",
    "SimulateArgs",
    "ValidateListArgs",
    "calculate_schema",
    "input_schema",
]

#: A list's text, at most (the web API's request bound).
MAX_LIST_BYTES = 256 * 1024
#: Monte Carlo trials a call may ask for: the contract's bound, the same at every door
#: (a million trials of one line take about 1 s on one core).
MAX_TRIALS = MAX_TRIALS

_NAME = Field(min_length=1, max_length=200)


def _kind(value: Any) -> str:
    return "Name" if isinstance(value, str) else "Unit"


def _named(value: Any) -> Any:
    """A unit's name must say something (an empty one is refused in words, not
    pydantic's "String should have at least 1 character")."""
    name = value if isinstance(value, str) else \
        value.get("unit") if isinstance(value, dict) else None
    if isinstance(name, str) and not name.strip():
        raise ValueError("an empty unit name; name a library unit (find_units finds one) "
                         "or a standard target (meq, geq, ...)")
    return value


#: A unit by name, or as fielded; the tags are capitalised so that a refusal's field path
#: leaves them out (``attacker.models``, not ``attacker.Unit.models``).
UnitArg = Annotated[Annotated[str, Tag("Name")] | Annotated[UnitRef, Tag("Unit")],
                    Discriminator(_kind), BeforeValidator(_named)]


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def input_schema(model: type[BaseModel]) -> dict[str, Any]:
    """A tool's input schema: its argument model's, flattened (``schemas.flatten``: no
    ``$ref``, words on the arguments only, nested objects past two levels by their type
    alone); an argument that is a unit (a name or ``{"unit": ...}``) advertised as the
    object."""
    flat = flatten(model.model_json_schema(), detail=1, depth=2)
    flat.pop("description", None)  # the model's docstring: the tool's description says it
    units = [k for k, v in flat["properties"].items()
             if any(b.get("type") == "object" and "unit" in b.get("properties", {})
                    for b in v.get("anyOf", ()))]
    return prefer_object(flat, *units) if units else flat


def calculate_schema() -> dict[str, Any]:
    """``calculate``'s input: ``document``, a scenario (``tactica schema scenario``) or a
    turn (``units.sequence.SequenceDocument``: its target and each step's attacker may be
    library units), flattened into one object with the fields of both (each object two
    levels down by its type alone: the server checks every field and refuses in one
    line)."""
    scenario = flatten(ScenarioDocument.model_json_schema(), detail=0, depth=3, level=1)
    sequence = flatten(SequenceDocument.model_json_schema(), detail=0, depth=3, level=1)
    # the context's fields are simulate_combat's (listed there): here its type alone
    scenario["properties"]["context"] = {"type": "object"}
    document = merge_objects(
        "a scenario {rules, phase, attacker, target, context, effects} or a turn {rules, "
        "target, steps, target_leadership}; an attacker, the target or a step's attacker "
        "is weapon lines and model groups, or a library unit {\"unit\": \"Intercessor "
        "Squad\", \"models\": 10, \"led_by\": [\"Lieutenant\"]} (docs/scenario.md, "
        "docs/sequence.md)", scenario, sequence)
    return {"type": "object", "properties": {"document": document},
            "required": ["document"], "additionalProperties": False}


class CalculateArgs(_Args):
    """A scenario or sequence document, as ``tactica calc FILE`` reads it (its JSON text
    is read too: some clients send an object argument as a string)."""

    document: dict[str, Any]

    @field_validator("document", mode="before")
    @classmethod
    def _json_text(cls, value: Any) -> Any:
        if isinstance(value, str):
            try:
                return json.loads(value)
            except ValueError as exc:
                raise ValueError(f"not a JSON object ({exc})") from None
        return value


class SimulateArgs(_Args):
    """One unit attacking another, by name (the scenario contract's unit references)."""

    attacker: UnitArg = Field(description="the attacking unit: {\"unit\": NAME, \"models\", "
                              "\"wargear\", \"led_by\", \"weapons\", \"profiles\"} (a bare "
                              "name is read as {\"unit\": NAME})")
    defender: UnitArg = Field(description="the target, the same way; or a standard target "
                              "{\"unit\": \"meq\"} (geq, teq, ...)")
    phases: tuple[Literal["shooting", "charge", "fight"], ...] = Field(
        default=("shooting",), min_length=1, max_length=3,
        description="[\"shooting\"], [\"fight\"], or a turn in order, e.g. [\"shooting\", "
        "\"charge\", \"fight\"] (a charge needs charge_distance)")
    charge_distance: float | None = Field(default=None, ge=0, le=48,
                                          description="inches the charge roll must reach")
    context: Context = Field(default=Context(), description="circumstances: distance "
                             "(inches), cover, remained_stationary, charged, detachment, ...")
    effects: tuple[EffectEntry, ...] = Field(
        default=(), max_length=50, description="rules by name (stratagems, detachment "
        "rules, enhancements: \"Oath of Moment\") or plain modifiers ({\"hit\": 1})")
    effects_by_phase: dict[Literal["shooting", "fight"], tuple[EffectEntry, ...]] = Field(
        default_factory=dict, description="a turn's effects per phase: {\"shooting\": [...], "
        "\"fight\": [...]}")
    leadership: int | None = Field(default=None, ge=2, le=12, description="the defender's "
                                   "Leadership for battle-shock after a turn (default: its "
                                   "datasheet's)")
    rules: RulesVersion = Field(default="11th", description="rules edition")
    method: Literal["exact", "monte-carlo"] = "exact"
    trials: Trials = None
    seed: Seed = None
    full_result: bool = Field(default=False, description="also the whole result document")

    @field_validator("phases")
    @classmethod
    def _order(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        order = ("shooting", "charge", "fight")
        if list(value) != sorted(set(value), key=order.index):
            raise ValueError("each phase once, in turn order (shooting, charge, fight)")
        if value == ("charge",):
            raise ValueError("a charge alone attacks nothing: add \"fight\"")
        return value

    @model_validator(mode="after")
    def _effects(self) -> SimulateArgs:
        attacking = [p for p in self.phases if p != "charge"]
        if self.effects and len(attacking) > 1:
            raise ValueError("effects: a turn of several phases takes effects_by_phase "
                             "({\"shooting\": [...], \"fight\": [...]})")
        if self.effects_by_phase and len(attacking) == 1:
            raise ValueError("effects_by_phase: one phase takes 'effects'")
        missing = [p for p in self.effects_by_phase if p not in attacking]
        if missing:
            raise ValueError(f"effects_by_phase: {missing[0]} is not one of the phases")
        if "charge" in self.phases and self.charge_distance is None:
            raise ValueError("charge_distance: a charge needs the inches to the target")
        if self.charge_distance is not None and "charge" not in self.phases:
            raise ValueError("charge_distance: only a turn with a charge reads it; phases "
                             "[\"charge\", \"fight\"] or [\"shooting\", \"charge\", \"fight\"]")
        if self.leadership is not None and len(self.phases) == 1:
            raise ValueError("leadership: battle-shock is tested after a turn; phases of "
                             "more than one step (e.g. [\"shooting\", \"charge\", "
                             "\"fight\"])")
        return self


class LookupUnitArgs(_Args):
    name: str = Field(min_length=1, max_length=200, description="the unit's name "
                      "(find_units finds one)")
    rules: RulesVersion | None = Field(default=None, description="10th or 11th (default: "
                                       "11th where the library has it)")


class LookupRuleArgs(_Args):
    name: str = Field(min_length=1, max_length=200, description="a stratagem, "
                      "enhancement, detachment rule, army rule, core rule or ability, or "
                      "an 11th-edition section (\"15.02\")")
    rules: RulesVersion | None = None


#: Rows of ``list_units`` and ``find_units`` a call may ask for (100-230 bytes a row: a
#: page is at most 20 KB).
MAX_ROWS = 80


class ListUnitsArgs(_Args):
    faction: str | None = Field(default=None, max_length=200,
                                description="e.g. \"Genestealer Cults\"")
    keyword: str | None = Field(default=None, max_length=200,
                                description="e.g. \"Character\", \"Infantry\", \"Vehicle\"")
    rules: RulesVersion | None = None
    offset: int = Field(default=0, ge=0, description="the first row (paging)")
    limit: int = Field(default=50, ge=1, le=MAX_ROWS, description="rows at most")


class FindUnitsArgs(_Args):
    query: str = Field(min_length=1, max_length=200, description="what the player "
                       "calls it, misspelt or plural too (\"Intercessors\"), or keywords "
                       "(\"tyranids monster\")")
    faction: str | None = Field(default=None, max_length=200,
                                description="only this faction's units")
    keyword: str | None = Field(default=None, max_length=200,
                                description="only units with this keyword")
    rules: RulesVersion | None = None
    offset: int = Field(default=0, ge=0, description="the first row (paging)")
    limit: int = Field(default=10, ge=1, le=MAX_ROWS, description="rows at most")


class ValidateListArgs(_Args):
    text: str = Field(min_length=1, max_length=MAX_LIST_BYTES,
                      description="the list as exported, in a format `format` names")
    format: str | None = Field(default=None, max_length=40,
                               description=f"{formats_help()} (detected when omitted)")


#: Units an army may field in ``matchup`` and ``plan`` (a 3,000-point list has about 30).
MAX_ARMY_UNITS = 40

_DETAIL: Any = Field(default="summary",
                     description="all: the whole document (hundreds of KB)")


class MatchupArgs(MatchupRequest):
    """``tactica matchup``'s request (``tactica.plan.request``), and how much to answer."""

    detail: Literal["summary", "all"] = _DETAIL
    top: int = Field(default=10, ge=1, le=50, description="summary: the best cells per "
                     "side and phase")


class PlanArgs(PlanRequest):
    """``tactica plan``'s request (``tactica.plan.request``), and how much to answer."""

    detail: Literal["summary", "all"] = _DETAIL
