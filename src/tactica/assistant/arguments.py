"""The arguments of each tool, as pydantic models: their JSON Schemas are the tools'
input schemas, built from the same models as ``tactica schema`` (``UnitRef``,
``Context``, the effect entries, ``ScenarioDocument`` and the turn ``Sequence``).

Every model refuses unknown fields, so a misspelt argument is a one-line error naming it
rather than ignored.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    field_validator,
    model_validator,
)

from ..combat.contract import sampling
from ..combat.contract.scenario import Context, EffectEntry
from ..combat.contract.sequence import Sequence
from ..model.common import RulesVersion
from ..units.scenario import ScenarioDocument, UnitRef

__all__ = [
    "MAX_ARMY_UNITS",
    "MAX_LIST_BYTES",
    "MAX_TRIALS",
    "CalculateArgs",
    "ListUnitsArgs",
    "LookupRuleArgs",
    "LookupUnitArgs",
    "MatchupArgs",
    "PlanArgs",
    "SimulateArgs",
    "ValidateListArgs",
    "calculate_schema",
]

#: A list's text, at most (the web API's request bound).
MAX_LIST_BYTES = 256 * 1024
#: Monte Carlo trials a call may ask for: the contract's bound, the same at every door
#: (a million trials of one line take about 1 s on one core).
MAX_TRIALS = sampling.MAX_TRIALS

_NAME = Field(min_length=1, max_length=200)


def _kind(value: Any) -> str:
    return "Name" if isinstance(value, str) else "Unit"


#: A unit by name, or as fielded; the tags are capitalised so that a refusal's field path
#: leaves them out (``attacker.models``, not ``attacker.Unit.models``).
UnitArg = Annotated[Annotated[str, Tag("Name")] | Annotated[UnitRef, Tag("Unit")],
                    Discriminator(_kind)]


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _merge_defs(into: dict[str, Any], schema: dict[str, Any], name: str) -> dict[str, Any]:
    """Move ``schema`` into ``into['$defs'][name]`` (with its own definitions); a
    definition of the same name must be the same definition."""
    defs = into.setdefault("$defs", {})
    for key, value in schema.pop("$defs", {}).items():
        if defs.setdefault(key, value) != value:
            raise ValueError(f"two different schema definitions named {key!r}")
    defs[name] = schema
    return {"$ref": f"#/$defs/{name}"}


def calculate_schema() -> dict[str, Any]:
    """``calculate``'s input: ``document``, a scenario (``tactica schema scenario``) or a
    turn sequence (``docs/sequence.md``)."""
    out: dict[str, Any] = {"type": "object", "additionalProperties": False}
    scenario = _merge_defs(out, ScenarioDocument.model_json_schema(), "ScenarioDocument")
    sequence = _merge_defs(out, Sequence.model_json_schema(), "SequenceDocument")
    out["properties"] = {"document": {
        "description": "a scenario (attacker, target, phase, context, effects) or a "
        "sequence (target and steps: a turn of shooting, charging and fighting); the "
        "attacker, the target and each step's attacker may name a library unit "
        "({\"unit\": \"Intercessor Squad\", \"models\": 10, \"led_by\": [\"Lieutenant\"]})",
        "anyOf": [scenario, sequence]}}
    out["required"] = ["document"]
    return out


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

    attacker: UnitArg = Field(description="the attacking unit: its name, or "
                                    "{unit, models, wargear, led_by, weapons, profiles}")
    defender: UnitArg = Field(description="the target: a unit name, a standard "
                                    "target (meq, geq, teq, ...), or {unit, models, "
                                    "wargear, led_by}")
    phases: tuple[Literal["shooting", "charge", "fight"], ...] = Field(
        default=("shooting",), min_length=1, max_length=3,
        description="the attacker's phases, in turn order: [\"shooting\"], [\"fight\"], "
        "or a turn such as [\"shooting\", \"charge\", \"fight\"] (a charge needs "
        "charge_distance)")
    charge_distance: float | None = Field(default=None, ge=0, le=48,
                                          description="inches the charge roll must reach")
    context: Context = Field(default=Context(), description="circumstances: distance, "
                             "cover, charged, remained_stationary, ...")
    effects: tuple[EffectEntry, ...] = Field(
        default=(), max_length=50, description="stratagems, detachment rules, "
        "enhancements, abilities by name (\"Oath of Moment\"), or plain modifiers "
        "({\"hit\": 1})")
    effects_by_phase: dict[Literal["shooting", "fight"], tuple[EffectEntry, ...]] = Field(
        default_factory=dict, description="for a turn of several phases: each phase's "
        "effects ({\"shooting\": [...], \"fight\": [...]}) instead of 'effects'")
    rules: RulesVersion = Field(default="11th", description="rules edition")
    method: Literal["exact", "monte-carlo"] = "exact"
    trials: sampling.Trials = None
    seed: sampling.Seed = None
    full_result: bool = Field(default=False, description="also return the whole result "
                              "document (every distribution, stage by stage)")

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
        return self


class LookupUnitArgs(_Args):
    name: str = _NAME
    rules: RulesVersion | None = Field(default=None, description="10th or 11th; default: "
                                       "11th where the library has it")


class LookupRuleArgs(_Args):
    name: str = Field(min_length=1, max_length=200, description="a stratagem, "
                      "enhancement, detachment rule, army rule, core rule or ability "
                      "name, or an 11th-edition section number (\"15.02\")")
    rules: RulesVersion | None = None


class ListUnitsArgs(_Args):
    faction: str | None = Field(default=None, max_length=200,
                                description="e.g. \"Genestealer Cults\"")
    keyword: str | None = Field(default=None, max_length=200,
                                description="e.g. \"Character\", \"Infantry\", \"Vehicle\"")
    rules: RulesVersion | None = None
    offset: int = Field(default=0, ge=0)
    limit: int = Field(default=200, ge=1, le=2000)


class ValidateListArgs(_Args):
    text: str = Field(min_length=1, max_length=MAX_LIST_BYTES,
                      description="the list as exported by the Warhammer 40,000 app, New "
                      "Recruit (JSON or text, WTC), List Forge, Rosterizer or tactica")
    format: str | None = Field(default=None, max_length=40,
                               description="gw-text, newrecruit-json, newrecruit-text, wtc, "
                               "listforge-text, listforge-json, rosterizer, tactica-json; "
                               "detected when omitted")


#: Units an army may field in ``matchup`` and ``plan`` (a 3,000-point list has about 30).
MAX_ARMY_UNITS = 40

_ARMY = ("a list's text in any format validate_list reads, or unit names separated by "
         "commas, each NAME[:MODELS][+LEADER]: \"Intercessor Squad:10+Lieutenant, "
         "Hellblaster Squad:5\" (not a file name)")
_UNIT_NAME = Annotated[str, Field(min_length=1, max_length=200)]


class _ArmyArgs(_Args):
    """Two armies and the table situation (``tactica.plan.Conditions``)."""

    mine: str = Field(min_length=1, max_length=MAX_LIST_BYTES,
                      description="my army: " + _ARMY)
    enemy: str = Field(min_length=1, max_length=MAX_LIST_BYTES,
                       description="the enemy army, the same way")
    stationary: bool = Field(default=False, description="the shooters remained "
                             "stationary (Heavy)")
    half_range: bool = Field(default=False, description="targets within half range "
                             "(Rapid Fire, Melta)")
    cover: bool = Field(default=False, description="targets have the Benefit of Cover")
    distance: float | None = Field(
        default=None, ge=0, le=200, description="inches between each shooting unit and its "
        "target: a weapon beyond its range makes no attacks (default: every target within "
        "range)")
    stratagems: dict[_UNIT_NAME, tuple[_UNIT_NAME, ...]] = Field(
        default_factory=dict, max_length=MAX_ARMY_UNITS,
        description="rules for one unit's attacks: {\"UNIT\": [\"STRATAGEM\", ...]} "
        "(applied where their conditions hold)")
    rules: RulesVersion = Field(default="11th", description="rules edition for unit names "
                                "(a list states its own)")
    strict: bool = Field(default=False, description="refuse a list that does not validate "
                         "(by default it is answered, its problems under warnings)")


class MatchupArgs(_ArmyArgs):
    phases: tuple[Literal["shooting", "fight"], ...] = Field(
        default=("shooting", "fight"), min_length=1, max_length=2,
        description="the phases of the matrix")
    sides: Literal["mine", "enemy", "both"] = Field(
        default="both", description="whose attacks: my units at the enemy's, theirs at "
        "mine, or both")
    charge: float | None = Field(default=None, ge=0, le=48, description="fights happen "
                                 "after a charge of this many inches (the fight's values "
                                 "weighed by the chance it reaches)")


class PlanArgs(_ArmyArgs):
    forbid: tuple[tuple[_UNIT_NAME, _UNIT_NAME], ...] = Field(
        default=(), max_length=MAX_ARMY_UNITS ** 2,
        description="[MY UNIT, ENEMY UNIT] pairs that cannot shoot (out of range, not "
        "visible, engaged)")
    destroy: tuple[_UNIT_NAME, ...] = Field(
        default=(), max_length=MAX_ARMY_UNITS, description="enemy units to destroy: the "
        "plan maximises the chance to destroy them (summed), then the points")
    objective: Literal["points", "threat"] = Field(
        default="points", description="points: expected points destroyed; threat: the "
        "enemy's expected points destroyed next turn, removed")
