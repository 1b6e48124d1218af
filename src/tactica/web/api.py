"""The JSON API (``/api``): the scenario contract, datasheet and rule look-up, named
effects and list validation.

Look-ups answered from the loaded library (a datasheet, the presets, a target, rule
texts) run on the server's event loop: a thread hand-off would cost more than they do.
Work that can take longer (every unit, an attacker's weapons, effects) runs on threads,
calculations and list checks in worker processes (``tactica.web.compute``; a list over
a library no worker can build on the server's own list threads, ``tactica.web.lists``).

Thin by design, like the command line: each endpoint validates its input, calls the
public function the CLI calls (``tactica.calculate``, ``load_library()`` and its
look-ups, ``tactica.effects``, ``tactica.units``) and returns the
document. Every refusal is a 422 whose ``detail`` names the field (``loc``), as pydantic
does for malformed input; an unknown name is a 404 with close names.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal
from urllib.parse import quote

from fastapi import APIRouter, Body, Path, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.concurrency import run_in_threadpool

from ..service import (
    MAX_MODELS,
    Datasheet,
    Library,
    NamedEffect,
    Phase,
    Result,
    RuleEntry,
    RulesVersion,
    Scenario,
    ScenarioDocument,
    SequenceDocument,
    SequenceResult,
    Target,
    UnitError,
    UnknownNameError,
    WeaponLine,
    error_words,
    field_parts,
    resolve_sequence,
)
from ..service import Sequence as TurnSequence
from . import lists
from .compute import CalcBusy, CalcCrashed, CalcInvalid, CalcPool, CalcTimeout
from .rules import found_rules
from .strict import numbers_as_text, scenario_number_fields

__all__ = [
    "AttackerChoice",
    "EffectCheck",
    "EffectInfo",
    "PresetInfo",
    "UnitSummary",
    "WeaponRow",
    "error_response",
    "loc_of",
    "router",
]

router = APIRouter()

#: The engine's messages start with the field they are about ("attacker.weapons.0: ...").
_FIELD = re.compile(r"^((?:[A-Za-z_]\w*)(?:\.\w+|\[\d+\])*): ")

TOO_SLOW = "scenario too large for exact; try method monte-carlo"


# --- errors --------------------------------------------------------------------------------


def loc_of(message: str, prefix: str = "body") -> tuple[list[str | int], str]:
    """The field a message names and the rest of it.

    >>> loc_of("attacker.weapons.0: 'Flamer' is a ranged weapon")
    (['body', 'attacker', 'weapons', 0], "'Flamer' is a ranged weapon")
    >>> loc_of("steps[0].effects[1]: 'Oath of Moment' is given twice")
    (['body', 'steps', 0, 'effects', 1], "'Oath of Moment' is given twice")
    >>> loc_of("something went wrong")
    (['body'], 'something went wrong')
    """
    m = _FIELD.match(message)
    if not m:
        return [prefix], message
    return [prefix, *_path_parts(m.group(1))], message[m.end():]


def _path_parts(path: str) -> list[str | int]:
    """A field path as the engine writes it (``steps[0].effects.1``) as its parts."""
    return [int(p) if p.isdigit() else p for p in re.split(r"[.\[\]]+", path) if p]


def error_response(status: int, loc: Sequence[str | int], msg: str, kind: str,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    """A refusal in pydantic's shape: ``{"detail": [{"loc", "msg", "type"}]}``."""
    return JSONResponse({"detail": [{"loc": list(loc), "msg": msg, "type": kind}]},
                        status_code=status, headers=headers)


def _engine_error(exc: ValueError) -> JSONResponse:
    """Engine refusals: several "field: message" parts joined by "; " (named effects)."""
    details: list[dict[str, Any]] = []
    for part in str(exc).split("; effects."):
        text = part if part.startswith("effects.") or not details else f"effects.{part}"
        loc, msg = loc_of(text)
        details.append({"loc": loc, "msg": msg, "type": "value_error"})
    return JSONResponse({"detail": details}, status_code=422)


def _unknown(exc: UnknownNameError, loc: Sequence[str | int]) -> JSONResponse:
    return JSONResponse(
        {"detail": [{"loc": list(loc), "msg": str(exc), "type": "unknown_name",
                     "suggestions": list(exc.suggestions)}]},
        status_code=404)


def _context_refusal(data: Any, lib: Library) -> JSONResponse | None:
    """A 422 naming each context's detachment or army faction ``lib`` does not know
    (``tactica.service.context_names``), with close names."""
    from ..service import context_names

    found = context_names(data, lib)
    if not found:
        return None
    return JSONResponse({"detail": [
        {"loc": ["body", *_path_parts(where)],
         "msg": str(exc), "type": "unknown_name", "suggestions": list(exc.suggestions)}
        for where, exc in found]}, status_code=422)


def _library(request: Request) -> Library:
    getter: Callable[[], Library] = request.app.state.library
    return getter()


# --- documents -----------------------------------------------------------------------------


class _Doc(BaseModel):
    model_config = ConfigDict(frozen=True)


class UnitSummary(_Doc):
    """One datasheet in the unit list."""

    name: str
    rules: RulesVersion
    faction_keywords: list[str]
    keywords: list[str]
    points: str = Field(description="the unit's points, e.g. '10 models: 90 | 20 models: 180'")
    page: str = Field(description="its web page")


class WeaponRow(_Doc):
    """A weapon line of the calculator form: the scenario's ``WeaponLine`` with the dice
    and abilities written as on a datasheet, and whether it is picked by default."""

    name: str
    count: int
    range: int | Literal["Melee"]
    A: str
    skill: int | None
    S: int
    AP: int
    D: str
    abilities: list[str]
    selected: bool = False
    weapon: str | None = Field(default=None, description="the weapon this is one profile of, "
                               "when it has several (one of them is used at a time)")


class AttackerChoice(_Doc):
    """A library unit as an attacker: every weapon of the phase as a row, those its
    default loadout fires (``tactica.units``) selected."""

    unit: str
    rules: RulesVersion
    phase: Phase
    models: int
    min_models: int
    max_models: int
    keywords: list[str]
    weapons: list[WeaponRow]
    notes: list[str]
    attacker_toughness: int | None
    damaged: str | None = Field(default=None, description="the Damaged profile, if any")
    abilities: list[str] = Field(default_factory=list, description="the unit's rules by name")
    factions: list[str] = Field(default_factory=list, description="its faction keywords")


class PresetInfo(_Doc):
    name: str
    unit: str
    models: int
    T: int
    Sv: int
    InSv: int | None
    conditional_saves: list[str] = Field(
        default_factory=list, description="invulnerable saves against ranged or melee "
        "attacks only ('5+ invulnerable save against ranged attacks')")
    W: int
    fnp: int | None
    damage_reduction: int
    keywords: list[str]


class EffectInfo(_Doc):
    """A named effect (what ``tactica effects --json`` lists)."""

    name: str
    kind: str
    source: str
    cp: int
    phases: list[str]
    rules: list[str]
    terms: str
    conditions: list[str]
    parameter: str | None
    aliases: list[str]


class EffectCheck(EffectInfo):
    """A named effect checked against one scenario: ``holds`` when every condition does."""

    holds: bool
    failures: list[str]


def _points_text(sheet: Datasheet) -> str:
    points = sheet.points
    if isinstance(points, tuple):
        return " | ".join(f"{b.models} model{'s' if b.models != 1 else ''}: {b.points}"
                          for b in points)
    tiers = []
    for t in points.tiers:
        which = f"units {t.first}-{t.last}" if t.last else f"units {t.first}+"
        tiers.append(f"{which}: " + ", ".join(f"{b.models}: {b.points}" for b in t.brackets))
    return " | ".join(tiers)


def unit_summary(sheet: Datasheet) -> UnitSummary:
    return UnitSummary(name=sheet.name, rules=sheet.rules,
                       faction_keywords=list(sheet.faction_keywords),
                       keywords=list(sheet.keywords), points=_points_text(sheet),
                       page=f"/units/{quote(sheet.name, safe='')}?rules={sheet.rules}")


def _row(line: WeaponLine, selected: bool, weapon: str | None = None) -> WeaponRow:
    return WeaponRow(name=line.name, count=line.count, range=line.range, A=str(line.A),
                     skill=line.skill, S=line.S, AP=line.AP, D=str(line.D),
                     abilities=[str(a) for a in line.abilities], selected=selected,
                     weapon=weapon)


def attacker_choice(lib: Library, sheet: Datasheet, models: int | None,
                    phase: Phase | None, target: str | None = None) -> AttackerChoice:
    """The unit as fielded by default (``tactica.units``: its loadout's weapon lines
    selected, each weapon's profile picked against ``target`` as the calculator picks it),
    with every other weapon profile of the phase as an unselected row. Without a
    ``phase``, or when the unit has no weapon for it, the phase it has weapons for."""
    from ..service import UnitError, UnitRef, aim_for, check_size, resolve_attacker, sizes

    n = check_size(sheet, models)  # a WargearError (a ValueError) names the sizes allowed
    spans = sizes(sheet)
    ref = UnitRef(unit=sheet.name, models=n)
    # a phase asked for is answered (no rows if the unit has no weapon for it); without
    # one, the first phase the unit has weapons for
    order: list[Phase] = [phase] if phase is not None else ["shooting", "fight"]
    notes: list[str] = []
    lines: list[WeaponLine] = []
    used: Phase = order[0]
    for candidate in order:
        try:
            aim = aim_for(UnitRef(unit=target), lib, sheet.rules, candidate) if target else None
            if target and aim is None and not notes:  # said once, not taken silently
                notes.append(f"each weapon's profile is not picked against {target!r}: "
                             "no unit or standard target of that name can be fielded")
            attacker, _ = resolve_attacker(ref, lib, sheet.rules, candidate, aim)
        except UnitError as exc:
            # the phase shown next says which phase it attacks in
            notes.append(str(exc).removeprefix("attacker: ").removeprefix("phase: ")
                         .partition("; its ")[0])
            continue
        lines, used = list(attacker.weapons), candidate
        break
    if lines and used != order[0]:
        notes.append(f"showing the {used} phase")
    chosen = {line.name for line in lines}
    of = {p.name: w.name for w in sheet.weapons if len(w.profiles) > 1 for p in w.profiles}
    rows = [_row(line, True, of.get(line.name)) for line in lines]
    rows += [_row(WeaponLine(name=p.name, count=n, range=p.range, A=p.A, skill=p.skill,
                             S=p.S, AP=p.AP, D=p.D, abilities=p.abilities), False,
                  of.get(p.name))
             for w in sheet.weapons if w.is_melee == (used == "fight")
             for p in w.profiles if p.name not in chosen]
    rows = list({r.name: r for r in reversed(rows)}.values())[::-1]
    toughness = next((m.T for m in sheet.models if m.T is not None), None)
    damaged = None
    if sheet.damaged is not None:
        d = sheet.damaged
        damaged = f"{d.min_wounds}-{d.max_wounds} wounds remaining: {d.text}"
    return AttackerChoice(
        unit=sheet.name, rules=sheet.rules, phase=used, models=n, min_models=spans[0][0],
        max_models=min(spans[-1][1], MAX_MODELS),
        keywords=list(dict.fromkeys(sheet.keywords + sheet.faction_keywords)),
        weapons=rows, notes=notes if lines else notes[:1], attacker_toughness=toughness,
        damaged=damaged, abilities=list(dict.fromkeys(str(a) for a in sheet.abilities)),
        factions=list(sheet.faction_keywords))


def effect_info(e: NamedEffect) -> dict[str, Any]:
    return {"name": e.name, "kind": e.kind, "source": e.source, "cp": e.cp,
            "phases": list(e.phases), "rules": list(e.rules), "terms": e.terms,
            "conditions": [c.description for c in e.conditions],
            "parameter": e.parameter, "aliases": list(e.aliases)}


# --- endpoints -----------------------------------------------------------------------------

RulesQuery = Annotated[RulesVersion | None, Query(description="10th or 11th; default: 11th "
                                                               "where the unit has it")]
NamePath = Annotated[str, Path(description="a name; case, accents and punctuation ignored",
                               max_length=200)]


async def _strict_refusal(request: Request, scenario: Scenario) -> JSONResponse | None:
    """A 422 for a number field sent as text ("count": "3"; ``tactica.web.strict``). (A
    named effect given twice is the core's refusal: ``tactica.calculator.effect_twice``.)"""
    path = numbers_as_text(await request.json(), scenario_number_fields())
    if path is not None:
        return error_response(422, ["body", *path], "a number, not text (write 3, not "
                              "\"3\")", "number_type")
    return None


async def _utf8_body(request: Request) -> str | None:
    """The request's body as text, if it is UTF-8 (JSON may come in UTF-16 too)."""
    try:
        return (await request.body()).decode("utf-8")
    except UnicodeDecodeError:
        return None


async def _compute(request: Request, document: str, method: str) -> str | Response:
    """The answer of a calculator worker to ``document`` (a scenario or a sequence), or
    the response that refuses it: too slow (422), every worker busy (503), refused by
    the engine (422, naming the field) or a failed worker (500)."""
    pool: CalcPool = request.app.state.calc_pool
    try:
        text: str = await pool.compute(document)
    except CalcTimeout:
        if method == "exact":
            return error_response(422, ["body"], TOO_SLOW, "too_slow")
        return error_response(422, ["body", "trials"],
                              "too many trials to finish in time; use fewer", "too_slow")
    except CalcBusy as exc:
        return JSONResponse({"detail": str(exc)}, status_code=503,
                            headers={"Retry-After": "2"})
    except CalcInvalid as exc:
        return _engine_error(exc)
    except CalcCrashed as exc:
        return JSONResponse({"detail": f"the calculation failed: {exc}"}, status_code=500)
    return text


@router.post("/calc", response_model=Result, summary="Calculate a scenario",
             responses={422: {"description": "the scenario is refused; `loc` names the field"},
                        503: {"description": "every calculator is busy"}})
async def calc(request: Request, scenario: ScenarioDocument) -> Response:
    """The exact (or Monte Carlo) distributions of an attack: the scenario contract in,
    the result document out (`tactica schema scenario|result`). Units named as attacker or
    target are fielded from the library first. A calculation that does not finish within
    a few seconds is stopped and refused."""
    from ..service import prepare

    refused = await _strict_refusal(request, scenario) or _context_refusal(
        await request.json(), _library(request))
    if refused is not None:
        return refused
    body = None if scenario.has_units else await _utf8_body(request)
    if body is not None:  # the body as sent is the worker's document: no second
        text = await _compute(request, body, scenario.method)  # validation, no dump here
        return text if isinstance(text, Response) else Response(
            text, media_type="application/json")
    try:
        plain, resolved, notes = await run_in_threadpool(prepare, scenario, _library(request))
    except ValueError as exc:
        return _engine_error(exc)
    text = await _compute(request, plain.model_dump_json(), plain.method)
    if isinstance(text, Response):
        return text
    if resolved is not None:
        result = Result.model_validate_json(text)
        text = result.model_copy(update={"resolved": resolved,
                                         "notes": (*notes, *result.notes)}).model_dump_json()
    return Response(text, media_type="application/json")


@router.post("/turn", response_model=SequenceResult, summary="Calculate a turn (a sequence)",
             responses={422: {"description": "the sequence is refused; `loc` names the field"},
                        503: {"description": "every calculator is busy"}})
async def turn(request: Request, sequence: SequenceDocument) -> Response:
    """A turn of combat against one target (the sequence contract, `docs/sequence.md`):
    the result of the whole sequence plus one result per step, exact (or Monte Carlo).
    The target and each step's attacker may name library units, fielded as `tactica calc`
    fields them (`examples/turn_units.json`); the result says what they became."""
    data = await request.json()
    path = numbers_as_text(data, scenario_number_fields())
    if path is not None:
        return error_response(422, ["body", *path], "a number, not text (write 3, not "
                              "\"3\")", "number_type")
    refused = _context_refusal(data, _library(request))
    if refused is not None:
        return refused
    try:
        plain, target, per_step, notes = await run_in_threadpool(
            resolve_sequence, data, _library(request))
        seq = TurnSequence.model_validate(plain)
    except UnitError as exc:
        return _engine_error(ValueError(_dotted(str(exc))))
    except ValidationError as exc:
        return JSONResponse({"detail": [
            {"loc": field_parts(("body", *e["loc"])), "type": e["type"],
             "msg": error_words(e)}
            for e in exc.errors(include_url=False)]}, status_code=422)
    except ValueError as exc:
        return _engine_error(exc)
    text = await _compute(request, seq.model_dump_json(), seq.method)
    if isinstance(text, Response):
        return text
    if target is not None or per_step or notes:
        result = SequenceResult.model_validate_json(text)
        steps = tuple(s.model_copy(update={"resolved": per_step.get(s.step)})
                      for s in result.steps)
        text = result.model_copy(update={"resolved": target, "steps": steps, "notes": (
            *dict.fromkeys(notes), *result.notes)}).model_dump_json()
    return Response(text, media_type="application/json")


def _dotted(message: str) -> str:
    """``steps[2].attacker: ...`` -> ``steps.2.attacker: ...`` (a field path for ``loc``).

    >>> _dotted("steps[2].attacker: Atalan Jackals has 5-10 models")
    'steps.2.attacker: Atalan Jackals has 5-10 models'
    """
    return re.sub(r"^(\w+)\[(\d+)\]", r"\1.\2", message)


@router.post("/effects/check", response_model=list[EffectCheck],
             summary="Which named effects a scenario can use")
def effects_check(scenario: Scenario) -> list[EffectCheck]:
    """The rules the attacker's own army may use (``tactica.effects.offer``: the core
    rules, its faction's army rules and each of its detachments' rules; never another
    faction's), each with the conditions it fails for this scenario (rules version,
    phase, attacker and target keywords, circumstances). The scenario's own effects are
    ignored."""
    from ..service import rules_on_offer

    return [EffectCheck(**effect_info(o.effect), holds=o.holds, failures=list(o.failures))
            for o in rules_on_offer(scenario)]


@router.get("/effects", response_model=list[EffectInfo], summary="List named effects")
def effects(
    request: Request,
    detachment: Annotated[str | None, Query(max_length=200)] = None,
    unit: Annotated[str | None, Query(max_length=200,
                                      description="only those this library unit can use")] = None,
) -> Any:
    from ..service import list_effects

    keywords: tuple[str, ...] = ()
    if unit is not None:
        try:
            sheet = _library(request).datasheet(unit)
        except UnknownNameError as exc:
            return _unknown(exc, ["query", "unit"])
        keywords, unit = sheet.keywords + sheet.faction_keywords, sheet.name
    return [EffectInfo(**effect_info(e)) for e in list_effects(detachment, unit, keywords)]


@router.get("/units", response_model=list[UnitSummary], summary="List the units")
def units(request: Request, rules: RulesQuery = None) -> list[UnitSummary]:
    return [unit_summary(d) for d in _library(request).datasheets(rules)]


@router.get("/units/{name}", response_model=Datasheet, summary="A unit's datasheet")
async def unit(request: Request, name: NamePath, rules: RulesQuery = None) -> Any:
    try:
        return _library(request).datasheet(name, rules)
    except UnknownNameError as exc:
        return _unknown(exc, ["path", "name"])


@router.get("/units/{name}/attacker", response_model=AttackerChoice,
            summary="A unit as the attacker: its weapons for a phase")
def unit_attacker(
    request: Request, name: NamePath, rules: RulesQuery = None, phase: Phase | None = None,
    models: Annotated[int | None, Query(ge=1, le=MAX_MODELS)] = None,
    target: Annotated[str | None, Query(max_length=200, description="the target (a preset "
                                        "or unit) the default profiles are picked against")
                      ] = None,
) -> Any:
    lib = _library(request)
    try:
        sheet = lib.datasheet(name, rules)
    except UnknownNameError as exc:
        return _unknown(exc, ["path", "name"])
    try:
        return attacker_choice(lib, sheet, models, phase, target)
    except ValueError as exc:
        return error_response(422, ["query", "models"], str(exc), "value_error")


@router.get("/targets", response_model=list[PresetInfo], summary="The standard targets")
async def targets(request: Request) -> list[PresetInfo]:
    return [PresetInfo(name=p.name, unit=p.unit, models=p.models, T=p.T, Sv=p.Sv, InSv=p.InSv,
                       conditional_saves=[str(c) for c in p.conditional_saves],
                       W=p.W, fnp=p.fnp, damage_reduction=p.damage_reduction,
                       keywords=list(p.keywords))
            for p in _library(request).presets()]


@router.get("/targets/{name}", response_model=Target,
            summary="A target: a preset (meq, geq, ...) or a library unit")
async def target(
    request: Request, name: NamePath, rules: RulesQuery = None,
    models: Annotated[int | None, Query(ge=1, le=MAX_MODELS)] = None,
) -> Any:
    try:
        return _library(request).target(name, models=models, rules=rules)
    except UnknownNameError as exc:
        return _unknown(exc, ["path", "name"])
    except ValueError as exc:
        return error_response(422, ["query", "models"], str(exc), "value_error")


@router.get("/rules/{name}", response_model=list[RuleEntry],
            summary="Rule texts: stratagems, abilities, enhancements, core rules")
def rule(request: Request, name: NamePath, rules: RulesQuery = None) -> Any:
    """The rules of that name as ``tactica rule NAME`` finds them, each with the
    calculator's status (``tactica.web.rules``: the same look-up)."""
    try:
        return [entry.as_json() for entry in found_rules(request, name, rules)]
    except UnknownNameError as exc:
        return _unknown(exc, ["path", "name"])


@router.post("/list/validate", response_model=lists.ListReport,
             summary="Price and check an army list",
             responses={422: {"description": "the list cannot be read; `loc` names the field"},
                        503: {"description": "army lists are not available, or every "
                                              "worker is busy"}})
async def list_validate(
    request: Request,
    body: Annotated[lists.ListRequest, Body(description="the list's text and format")],
) -> Any:
    """An army list (pasted text or an uploaded file's text) priced unit by unit, with
    every rule it breaks."""
    recipe = lists.library_recipe(request.app.state.library)
    if recipe is None:  # a library only this process has: the server's list threads
        status, text = await lists.validate(body, request.app.state.library)
    elif not lists.available():
        status, text = lists.unavailable()
    else:
        pool: CalcPool = request.app.state.calc_pool
        try:
            status, text = await pool.check_list(recipe, body.model_dump_json(),
                                                 lists.LIST_TIMEOUT)
        except CalcTimeout:
            status, text = lists.too_slow()
        except CalcBusy as exc:
            return JSONResponse({"detail": str(exc)}, status_code=503,
                                headers={"Retry-After": "2"})
        except CalcCrashed as exc:
            return JSONResponse({"detail": f"the list check failed: {exc}"},
                                status_code=500)
    return Response(text, status_code=status, media_type="application/json")
