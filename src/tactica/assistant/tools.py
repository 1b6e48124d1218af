"""The tools: each parses its arguments (``arguments``), calls one function of the core
and formats what it returns as a JSON document. No rule is decided here.

=================  ========================================================================
tool               core function
=================  ========================================================================
calculate          ``tactica.calculate`` (scenario or sequence document)
simulate_combat    ``tactica.calculate`` on the document built from the names, then
                   ``tactica.summary.headline``
lookup_unit        ``Library.datasheet``
lookup_rule        ``tactica.lookup.rule_entries``
list_units         ``tactica.lookup.find_units``
validate_list      ``tactica.army.parse_roster`` then ``tactica.army.validate``
matchup            ``tactica.plan.read_side`` (each army) then ``tactica.plan.matchup_sides``
plan               ``tactica.plan.read_side`` (each army) then ``tactica.plan.solve``
=================  ========================================================================

A handler raises the core's own errors (``ValueError``, ``LookupError``); the server turns
them into one-line tool errors (``tactica.assistant.server``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel

from ..errors import one_line
from ..library import Library
from .arguments import (
    MAX_ARMY_UNITS,
    MAX_TRIALS,
    CalculateArgs,
    ListUnitsArgs,
    LookupRuleArgs,
    LookupUnitArgs,
    MatchupArgs,
    PlanArgs,
    SimulateArgs,
    ValidateListArgs,
    calculate_schema,
)

__all__ = ["TOOLS", "ToolSpec"]

Document = dict[str, Any]

_READ_ONLY = ("Read-only: it computes or looks up, and changes nothing. A refusal is a "
              "tool error of one line, starting 'error:', naming the argument or field "
              "and what is allowed (an unknown name lists close names).")


@dataclass(frozen=True)
class ToolSpec:
    """One tool: its name, its description for the model, its argument model, the input
    schema (the argument model's, unless given) and its handler."""

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
        from ..facts import load_presets

        names = ", ".join(f"{p.name} ({p.unit})" for p in load_presets())
        return self.description.replace("PRESETS", names)

    def input_schema(self) -> dict[str, Any]:
        return self.schema() if self.schema is not None else \
            self.arguments.model_json_schema()


def _bounded_trials(document: Document) -> None:
    """A Monte Carlo document asks for at most ``MAX_TRIALS`` trials."""
    trials = document.get("trials")
    if isinstance(trials, int) and not isinstance(trials, bool) and trials > MAX_TRIALS:
        raise ValueError(f"trials: at most {MAX_TRIALS:,} trials per call (asked for "
                         f"{trials:,})")


def calculate(args: CalculateArgs, library: Library) -> Document:
    """The result document of a scenario or a sequence."""
    from .. import calculate as compute

    _bounded_trials(args.document)
    result = compute(args.document, library)
    return result.model_dump(mode="json")


# --- simulate_combat -----------------------------------------------------------------------


def _ref(value: Any) -> Document:
    if isinstance(value, str):
        return {"unit": value}
    dumped: Document = value.model_dump(exclude_defaults=True)
    return dumped


def _effects(entries: tuple[Any, ...]) -> list[Any]:
    return [e if isinstance(e, str) else e.model_dump(exclude_defaults=True) for e in entries]


def simulate_document(args: SimulateArgs) -> Document:
    """The scenario (one phase) or sequence (a turn) document the arguments describe."""
    context = args.context.model_dump(mode="json", exclude_defaults=True)
    effects = _effects(args.effects)
    common: Document = {"rules": args.rules, "method": args.method}
    if args.method == "monte-carlo":
        common.update(trials=args.trials, seed=args.seed)
    attacker, target = _ref(args.attacker), _ref(args.defender)
    if len(args.phases) == 1:
        return {**common, "phase": args.phases[0], "attacker": attacker, "target": target,
                "context": context, "effects": effects}
    steps: list[Document] = []
    for phase in args.phases:
        if phase == "charge":
            if args.charge_distance is None:
                raise ValueError("charge_distance: a charge needs the inches to the target")
            steps.append({"phase": "charge", "unit": attacker["unit"],
                          "distance": args.charge_distance})
            continue
        ctx = {**context, "charged": True} if phase == "fight" and "charge" in args.phases \
            else context
        step: Document = {"phase": phase, "attacker": attacker, "context": ctx}
        if phase in args.effects_by_phase:
            step["effects"] = _effects(args.effects_by_phase[phase])
        steps.append(step)
    if args.charge_distance is not None and "charge" not in args.phases:
        raise ValueError("charge_distance: add \"charge\" to phases")
    return {**common, "target": target, "steps": steps}


def _fielded(result: Any) -> list[str]:
    resolved = [result.resolved] if result.resolved is not None else []
    resolved += [s.resolved for s in getattr(result, "steps", ()) if s.resolved is not None]
    out = [m for r in resolved for m in (*r.attacker_models, *r.target_models)]
    out += [f"default: {d}" for r in resolved for d in r.defaults]
    return list(dict.fromkeys(out))


def simulate_combat(args: SimulateArgs, library: Library) -> Document:
    """The headline figures of one unit attacking another (module text)."""
    from .. import calculate as compute
    from ..summary import headline

    document = simulate_document(args)
    try:
        result = compute(document, library)
    except ValueError as exc:  # the document calls the defender "target"
        text = str(exc)
        if text.startswith("target"):
            text = "defender" + text.removeprefix("target")
        raise ValueError(text) from None
    out: Document = {"headline": headline(result).model_dump(mode="json"),
                     "fielded": _fielded(result), "document": document}
    if args.full_result:
        out["result"] = result.model_dump(mode="json")
    return out


# --- look-ups ------------------------------------------------------------------------------


def lookup_unit(args: LookupUnitArgs, library: Library) -> Document:
    sheet = library.datasheet(args.name, args.rules)
    out: Document = {"datasheet": sheet.model_dump(mode="json")}
    if args.rules is not None and sheet.rules != args.rules:
        out["note"] = (f"the library has no {args.rules}-edition datasheet for "
                       f"{sheet.name}; this is the {sheet.rules}-edition one")
    return out


def lookup_rule(args: LookupRuleArgs, library: Library) -> Document:
    from ..lookup import rule_entries

    found = rule_entries(args.name, args.rules, library)
    return {"rules": [e.as_json() for e in found]}


def list_units(args: ListUnitsArgs, library: Library) -> Document:
    from ..lookup import find_units

    sheets = find_units(library, args.faction, args.keyword, args.rules)
    page = sheets[args.offset:args.offset + args.limit]
    rows = [{"name": d.name, "rules": d.rules, "faction_keywords": list(d.faction_keywords),
             "keywords": list(d.keywords),
             "models": [sum(c.min for c in d.composition), sum(c.max for c in d.composition)]
             if d.composition else None}
            for d in page]
    return {"total": len(sheets), "offset": args.offset, "units": rows}


def validate_list(args: ValidateListArgs, library: Library) -> Document:
    from ..army import parse_roster, validate

    roster = parse_roster(args.text, args.format, library=library)
    checked = validate(roster, library)
    prices = checked.prices
    return {
        "legal": checked.legal, "name": roster.name, "faction": roster.faction,
        "detachments": list(roster.detachments), "battle_size": roster.size,
        "rules": roster.rules, "total": prices.total, "limit": prices.limit,
        "violations": [v.model_dump(mode="json") for v in checked.violations],
        "units": [{"name": u.name, "datasheet": u.datasheet, "models": u.models,
                   "points": u.total, "notes": list(u.notes)} for u in prices.units],
        "detachment_points": checked.detachment_points,
        "detachment_budget": checked.detachment_budget, "notes": list(roster.notes)}


# --- army against army ----------------------------------------------------------------------


def _sides(args: MatchupArgs | PlanArgs, library: Library) -> tuple[Any, Any, Any]:
    """Both armies read from their text (never from a file of the server's) and the
    conditions, each army of at most ``MAX_ARMY_UNITS`` units."""
    from ..plan import Conditions, SideError, read_side

    sides = []
    for field, label in (("mine", "my list"), ("enemy", "enemy list")):
        side = read_side(getattr(args, field), library, name=label, rules=args.rules,
                         files=False, strict=args.strict)
        if len(side.units) > MAX_ARMY_UNITS:
            raise SideError(f"{field}: {len(side.units)} units; at most {MAX_ARMY_UNITS} "
                            "per army")
        sides.append(side)
    conditions = Conditions(charge=getattr(args, "charge", None),
                            stationary=args.stationary, half_range=args.half_range,
                            cover=args.cover, stratagems=dict(args.stratagems),
                            distance=args.distance)
    try:  # the core checks them too; here the refusal names the argument
        units = sides[0].units if isinstance(args, PlanArgs) else \
            (*sides[0].units, *sides[1].units)
        conditions.check(units, sides[0].rules)
    except LookupError as exc:
        raise SideError(f"stratagems: {one_line(exc)}") from None
    return sides[0], sides[1], conditions


def matchup(args: MatchupArgs, library: Library) -> Document:
    """The matchup matrix, as ``tactica matchup --json`` prints it."""
    from ..plan import matchup_sides

    mine, enemy, conditions = _sides(args, library)
    sides: tuple[Literal["mine", "enemy"], ...] = \
        ("mine", "enemy") if args.sides == "both" else (args.sides,)
    m = matchup_sides(mine, enemy, phases=args.phases, sides=sides, conditions=conditions)
    return m.to_json()


def plan(args: PlanArgs, library: Library) -> Document:
    """The shooting plan, as ``tactica plan --json`` prints it."""
    from ..plan import solve

    mine, enemy, conditions = _sides(args, library)
    p = solve(mine, enemy, conditions, forbidden=args.forbid, destroy=args.destroy,
              objective=args.objective)
    return p.to_json()


# --- the registry --------------------------------------------------------------------------

_LATE_CALCULATION = "use method monte-carlo (with fewer trials)"

TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "simulate_combat", "Simulate one unit attacking another",
        "The odds of one Warhammer 40,000 unit attacking another, both named from the "
        "library (about 1,100 datasheets; 11th edition by default): the attacker with its "
        "size, wargear, attached leaders and chosen weapons, the defender (a unit, or a "
        "standard target: PRESETS), the phase or a turn (shooting, charge, "
        "fight), the circumstances and rules by name (stratagems, detachment rules, "
        "enhancements). Returns the headline figures, computed exactly (every die "
        "enumerated, not sampled): expected models destroyed, P(defender destroyed), "
        "expected damage, the median and 10-90% band of each, the weapons used, the "
        "rules the figures leave out ('not_calculated': always read and report them), "
        "the units as fielded, and the scenario document it computed (reusable with "
        "'calculate'); with full_result the whole result document. A problem too large "
        "to compute exactly is refused with 'use method monte-carlo'. " + _READ_ONLY,
        SimulateArgs, simulate_combat, late=_LATE_CALCULATION),
    ToolSpec(
        "calculate", "Calculate a scenario or a turn",
        "Compute a tactica scenario document (attacker weapon lines or a library unit, "
        "target model groups or a library unit, phase, context, effects) or a sequence "
        "document (a turn: steps of shooting, charging and fighting against one target) "
        "and return the full result document: distributions (pmf and mean) of attacks, "
        "hits, wounds, unsaved wounds, damage and models destroyed, P(unit destroyed), "
        "per-weapon summaries, stage-by-stage explanations, notes and 'not_calculated' "
        "(the rules in play that the numbers leave out: always report them). Exact "
        "unless method is monte-carlo. Too large for exact: refused with 'use method "
        "monte-carlo'. " + _READ_ONLY,
        CalculateArgs, calculate, calculate_schema, late=_LATE_CALCULATION),
    ToolSpec(
        "lookup_unit", "Look up a datasheet",
        "A unit's datasheet from the library: profiles (M, T, Sv, W, Ld, OC, invulnerable "
        "save), weapons and their profiles, abilities with their text, keywords, unit "
        "composition, wargear options, leader attachments and points. Names match "
        "ignoring case, accents and punctuation. " + _READ_ONLY,
        LookupUnitArgs, lookup_unit),
    ToolSpec(
        "lookup_rule", "Look up a rule",
        "Every stratagem, enhancement, detachment rule, army rule, core rule or "
        "datasheet ability with this name: its text, CP cost, phases, points, detachment "
        "or faction, and 'calculator': whether tactica's calculator models it (and what "
        "it does in the numbers) or why not. A record of the bundled dataset has no "
        "published text: 'generated' is its effect code in plain English (marked by "
        "'generated_from'; not the published wording) and 'notes' the dataset's notes on "
        "it. " + _READ_ONLY,
        LookupRuleArgs, lookup_rule, indexed=True),
    ToolSpec(
        "list_units", "List units",
        "The library's units, optionally one faction's and only those with a keyword "
        "(e.g. faction \"Genestealer Cults\", keyword \"Character\"): name, rules edition, "
        "faction keywords, keywords and the unit's size range, with the total count "
        "(page with offset and limit). " + _READ_ONLY,
        ListUnitsArgs, list_units),
    ToolSpec(
        "validate_list", "Check an army list",
        "Read an army list (the Warhammer 40,000 app's text export, New Recruit JSON or "
        "text, WTC, List Forge, Rosterizer, tactica JSON; the format is detected), price "
        "it unit by unit and check every army-building rule: 'legal' (no error), the "
        "total and the limit, and each violation with its code, severity, unit, sentence "
        "and the rule cited. A line that cannot be read is refused naming the line. "
        + _READ_ONLY,
        ValidateListArgs, validate_list),
    ToolSpec(
        "matchup", "Matchup matrix of two armies",
        "Every unit of my army against every unit of the enemy's, and theirs against "
        "mine, in the shooting phase and in the fight after a charge, computed exactly. "
        "Each army is a list's text (the formats validate_list reads; it must validate) "
        "or unit names (\"Intercessor Squad:10+Lieutenant, Hellblaster Squad:5\"). "
        "Returns both sides' units (label, points, models) and one cell per attacker, "
        "target and phase: expected models destroyed, P(unit destroyed), expected "
        "damage, expected points destroyed and per 100 points of the attacker, the "
        "rules applied, and 'notes' (rules the cell leaves out or assumes: report them); "
        "a unit that cannot attack in a phase has cells with status and reason instead "
        "of numbers. Army rules, detachment rules and enhancements of a list apply where "
        "their conditions hold. At most 40 units an army. " + _READ_ONLY,
        MatchupArgs, matchup, armies=True, late="name fewer units"),
    ToolSpec(
        "plan", "Shooting plan",
        "Assign each of my shooting units to one enemy unit to destroy the most expected "
        "points (or, with 'destroy', the best chance to destroy the named units; or, "
        "with objective 'threat', the enemy's expected damage next turn removed), "
        "several units at one target evaluated exactly in firing order (overkill "
        "counted). Armies as in matchup. Returns the plan (each target, the units "
        "firing at it in order, expected points and models destroyed, P(destroyed)) "
        "beside the naive plan (each unit at its own best target), how it was found "
        "('optimal' when every assignment was tried; otherwise the bound and gap of an "
        "integer programme and local search), the units that do not shoot and why, and "
        "notes. " + _READ_ONLY,
        PlanArgs, plan, armies=True, late="name fewer units"),
)
