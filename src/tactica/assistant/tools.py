"""The tools: each parses its arguments (``arguments``), calls one function of the core
and formats what it returns as a JSON document (``attacks``, ``lookups``, ``armies``).
No rule is decided here.

=================  ========================================================================
tool               core function
=================  ========================================================================
simulate_combat    ``tactica.calculate`` on the document built from the names, then
                   ``tactica.summary.headline``
calculate          ``tactica.calculate`` (scenario or sequence document)
find_units         ``tactica.lookup.search.search_units``
lookup_unit        ``Library.datasheet``
lookup_rule        ``tactica.lookup.rule_entries``
list_units         ``tactica.lookup.find_units``
validate_list      ``tactica.army.parse_roster`` then ``tactica.army.validate``
matchup            ``tactica.plan.read_side`` (each army) then ``tactica.plan.matchup_sides``
plan               ``tactica.plan.read_side`` (each army) then ``tactica.plan.solve``
=================  ========================================================================

A handler raises the core's own errors (``ValueError``, ``LookupError``); the server turns
them into one-line tool errors (``tactica.assistant.server``). Each tool declares its
input schema (its argument model's, flattened: ``arguments.input_schema``) and its output
schema (``outputs.OUTPUTS``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from ..service import Library
from . import armies, attacks, lookups
from .arguments import (
    CalculateArgs,
    FindUnitsArgs,
    ListUnitsArgs,
    LookupRuleArgs,
    LookupUnitArgs,
    MatchupArgs,
    PlanArgs,
    SimulateArgs,
    ValidateListArgs,
    calculate_schema,
    input_schema,
)
from .outputs import OUTPUTS

__all__ = ["TOOLS", "ToolSpec"]

Document = dict[str, Any]

_READ_ONLY = "Read-only; a refusal is one line ('error: ...') with close names."


@dataclass(frozen=True)
class ToolSpec:
    """One tool: its name, its description for the model, its argument model, the input
    schema (the argument model's, flattened, unless given) and its handler."""

    name: str
    title: str
    description: str
    arguments: type[BaseModel]
    run: Callable[[Any, Library], Document]
    schema: Callable[[], dict[str, Any]] | None = None
    #: army against army: bounded by ``Limits.army_timeout``, not ``Limits.timeout``
    armies: bool = False
    #: what a call past its time bound is told to do
    late: str = "try again in a moment"
    #: reads the index of every datasheet's abilities (built once, after the library):
    #: the first call waits for it rather than racing its time bound
    indexed: bool = False

    def describe(self) -> str:
        """The description, the standard targets' names filled in (``PRESETS``)."""
        if "PRESETS" not in self.description:
            return self.description
        from ..service import load_presets

        names = ", ".join(p.name for p in load_presets())
        return self.description.replace("PRESETS", names)

    def input_schema(self) -> dict[str, Any]:
        return self.schema() if self.schema is not None else input_schema(self.arguments)

    def output_schema(self) -> dict[str, Any] | None:
        return OUTPUTS.get(self.name)


_LATE_CALCULATION = "use method monte-carlo (with fewer trials)"
_ARMIES = ("Armies: a list's text or unit names (\"Intercessor Squad:10+Lieutenant, "
           "Hellblaster Squad:5\"), 40 units at most. ")

TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "simulate_combat", "Simulate one unit attacking another",
        "Exact odds of one Warhammer 40,000 unit attacking another, by library name "
        "(find_units finds names; standard targets: PRESETS): shooting, fight, or a turn "
        "(shooting, charge, fight) with battle-shock. Returns the headline (expected "
        "models destroyed, P(destroyed), damage, median and 10-90% band, "
        "'not_calculated': rules left out, always report them), the units as fielded and "
        "the document computed (reusable with calculate). " + _READ_ONLY,
        SimulateArgs, attacks.simulate_combat, late=_LATE_CALCULATION),
    ToolSpec(
        "calculate", "Calculate a scenario or a turn",
        "Compute a scenario document (attacker, target, phase, context, effects) or a turn "
        "(target and steps), e.g. the document simulate_combat returns, changed: the full "
        "result (distributions of attacks, hits, wounds, damage, models destroyed; per "
        "weapon; stage by stage; 'not_calculated'). Exact unless method is monte-carlo. "
        + _READ_ONLY,
        CalculateArgs, attacks.calculate, calculate_schema, late=_LATE_CALCULATION),
    ToolSpec(
        "find_units", "Find units by name",
        "Search the library's units by what a player calls them (misspelt, plural: "
        "\"Intercessors\" finds Intercessor Squad first) or by keywords and faction "
        "(\"tyranids monster\"): names best first, each with its faction keywords, "
        "keywords and size range. " + _READ_ONLY,
        FindUnitsArgs, lookups.find_units),
    ToolSpec(
        "lookup_unit", "Look up a datasheet",
        "A unit's datasheet: profiles, weapons, abilities with text, keywords, "
        "composition, wargear options, leaders, points. " + _READ_ONLY,
        LookupUnitArgs, lookups.lookup_unit),
    ToolSpec(
        "lookup_rule", "Look up a rule",
        "Every stratagem, enhancement, detachment rule, army rule, core rule or ability of "
        "that name: its record, CP, phases, where it comes from, and 'calculator': "
        "whether the odds model it and how; a dataset record without published text has "
        "'generated' (its effect code in words) and the dataset's 'notes'. " + _READ_ONLY,
        LookupRuleArgs, lookups.lookup_rule, indexed=True),
    ToolSpec(
        "list_units", "List units",
        "The library's units of a faction and/or with a keyword, a page at a time: name, "
        "edition, keywords, size range, and the total. " + _READ_ONLY,
        ListUnitsArgs, lookups.list_units),
    ToolSpec(
        "validate_list", "Check an army list",
        "Read an army list (each format `format` names), price it and check every "
        "army-building rule: 'legal', the total and limit, each violation with its code and "
        "rule. " + _READ_ONLY,
        ValidateListArgs, lookups.validate_list),
    ToolSpec(
        "matchup", "Matchup matrix of two armies",
        "Every unit of my army against every unit of the enemy's and back, shooting and "
        "fight, exactly: per side and phase the best cells (expected points and models "
        "destroyed, P(destroyed)), units that cannot attack, rules left out; detail "
        "\"all\" for every cell. " + _ARMIES + _READ_ONLY,
        MatchupArgs, armies.matchup, armies=True, late="name fewer units"),
    ToolSpec(
        "plan", "Shooting plan",
        "Assign each of my shooting units to one enemy unit for the most expected points "
        "destroyed (or the best chance to destroy 'destroy'), firing order and overkill "
        "counted exactly: the plan beside the naive plan's total, idle units, notes. "
        + _ARMIES + _READ_ONLY,
        PlanArgs, armies.plan, armies=True, late="name fewer units"),
)
