"""``tactica calc``: a scenario file (or stdin) in, the result out; or a human mode that
builds the scenario from the unit library.

Thin by design: it parses options into a scenario document whose attacker and target name
library units (scenario contract v2: ``{"unit", "models", "wargear", "led_by"}``) and
calls ``tactica.calculate``, which fields the units (``tactica.units``).
With ``--list FILE`` the attacker is the unit as built in an army list
(``tactica.army.attack``: its wargear, attached leader, enhancement, detachment rule).
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, NoReturn

import typer
from pydantic import ValidationError
from rich.console import Console

from ..service import (
    MAX_MODELS,
    MAX_SEED,
    MAX_TRIAL_LINES,
    MAX_TRIALS,
    Attacker,
    Context,
    Datasheet,
    Effect,
    Resolved,
    Result,
    Scenario,
    UnitError,
    calculate,
    decode,
    loads,
    one_line,
    read_text_file,
)
from .circumstances import context_of, with_circumstances
from .errors import FLAG_WORDS, fail
from .result_view import render_result

__all__ = ["calc", "render_result"]

#: The flag each field of a unit reference comes from (``UnitError`` names the field); a
#: scenario FILE's refusal names the file's own field instead (``_unit_refusal``).
_FLAGS = {"attacker.unit": "--attacker", "attacker.weapons": "--weapon",
          "attacker.led_by": "--led-by", "attacker.models": "--models",
          "attacker.wargear": "--wargear", "attacker.profiles": "--profile",
          "attacker": "--attacker", "target.unit": "--target",
          "target.led_by": "--target-led-by", "target.models": "--target-models",
          "target.wargear": "--target-wargear", "target": "--target", "phase": "--phase"}


def _embark(lib: Any, transport: Datasheet, atk: Attacker, spec: str,
            phase: str) -> tuple[Attacker, list[str]]:
    """``--embarked NAME[:MODELS]``: the passengers' default guns (one per model, up to
    the transport's Firing Deck X) join the transport's attack (``army.firing_deck``)."""
    from ..service import firing_deck_size, with_firing_deck

    if phase != "shooting":
        raise typer.BadParameter("Firing Deck shoots in the shooting phase",
                                 param_hint="--embarked")
    name, _, count = spec.partition(":")
    try:
        x = firing_deck_size(transport)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--embarked") from None
    try:
        passengers = lib.datasheet(name.strip())
    except LookupError as exc:
        raise typer.BadParameter(f"{spec!r}: {one_line(exc)}", param_hint="--embarked"
                                 ) from None
    digits = count.strip()
    if digits and not (digits.isascii() and digits.isdigit() and int(digits) > 0):
        raise typer.BadParameter(f"{spec!r}: MODELS is a number of models, 1 or more",
                                 param_hint="--embarked")
    n = int(count) if count.strip() else sum(c.min for c in passengers.composition) or 1
    from ..service import UnitError, UnitRef, resolve_attacker

    try:
        # the whole unit as fielded; the Firing Deck takes up to X of its models' guns
        lines, _ = resolve_attacker(UnitRef(unit=passengers.name, models=n), lib,
                                    passengers.rules, "shooting")
    except UnitError as exc:
        raise typer.BadParameter(str(exc).removeprefix("attacker: "),
                                 param_hint="--embarked") from None
    atk, more = with_firing_deck(atk, x, passengers.name, lines.weapons)
    return atk, more


def _parse_effect(text: str) -> Effect | str:
    t = text.strip()
    try:
        if t.startswith("{"):
            return Effect.model_validate(json.loads(t))
        if "=" in t:
            key, _, value = t.partition("=")
            val: Any = value.strip()
            if val.lstrip("+-").isascii() and val.lstrip("+-").isdigit():
                val = int(val)
            elif val.lower() in ("true", "false"):
                val = val.lower() == "true"
            return Effect.model_validate({key.strip(): val})
    except ValueError as exc:  # not JSON, or a modifier out of range
        raise typer.BadParameter(f"{text!r}: {one_line(exc)}", param_hint="--effect") from None
    return t


def _damage_reroll(text: str | None) -> tuple[Effect, ...]:
    """``--reroll-damage ones`` or ``--reroll-damage N`` as the contract's effect."""
    if text is None:
        return ()
    value = text.strip().casefold()
    if value in ("ones", "1s"):
        return (Effect(reroll="damage", which="ones"),)
    if value.isascii() and value.isdigit() and 2 <= int(value) <= 36:
        return (Effect(reroll="damage", which="below", below=int(value)),)
    raise typer.BadParameter(f"{text!r}: give 'ones', or a number from 2 to 36 (damage "
                             "rolls below it are re-rolled)", param_hint="--reroll-damage")


def _is_sequence(text: str) -> bool:
    """A sequence document (several steps against one target) has ``steps``."""
    try:
        data = loads(text)
    except ValueError:
        return False
    return isinstance(data, dict) and "steps" in data


def _check_models(sheet: Datasheet, models: int) -> None:
    """``--models`` within the datasheet's unit composition (``check_size``)."""
    from ..service import WargearError, check_size

    try:
        check_size(sheet, models)
    except WargearError as exc:
        raise typer.BadParameter(str(exc), param_hint="--models") from None


def _check_leaders(sheet: Datasheet, leaders: list[str], lib: Any) -> None:
    """The ``--led-by`` units may lead this one together (the units core's check, 24.22)."""
    from ..service import LeaderError, check_leaders

    found = []
    for name in leaders:
        try:
            found.append(lib.datasheet(name))
        except LookupError:
            continue  # reported as a note: its abilities are not applied
    try:
        check_leaders(sheet, found)
    except LeaderError as exc:
        raise typer.BadParameter(str(exc), param_hint="--led-by") from None


@with_circumstances(skip=("led_by",))  # --led-by: the attacker's leaders, fielded with it
def calc(
    file: Annotated[str | None, typer.Argument(help="scenario JSON file, or - for stdin")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the result document")] = False,
    attacker: Annotated[str | None, typer.Option(help="attacking unit from the library")] = None,
    models: Annotated[int | None, typer.Option(
        min=1, help="models in the attacking unit (within its datasheet's range)")] = None,
    wargear: Annotated[list[str] | None, typer.Option(
        help="wargear option the attacker takes: NAME, NAME + NAME, NAME:MODELS (repeat)")
    ] = None,
    weapon: Annotated[list[str] | None, typer.Option(
        help="only this weapon attacks, NAME or NAME:COUNT (repeat); default: the loadout")
    ] = None,
    profile: Annotated[list[str] | None, typer.Option(
        help="profile of a multi-profile weapon to use, its full name or its own "
        "('Supercharge') when one carried weapon has it (default: the most expected damage "
        "less a Hazardous profile's cost)")] = None,
    target: Annotated[str | None, typer.Option(help="preset (meq, geq, ...) or unit")] = None,
    target_models: Annotated[int | None, typer.Option(
        min=1, max=MAX_MODELS, help="models in the target")] = None,
    target_wargear: Annotated[list[str] | None, typer.Option(
        help="wargear option the target takes (repeat)")] = None,
    target_led_by: Annotated[list[str] | None, typer.Option(
        help="leader attached to the target")] = None,
    phase: Annotated[Literal["shooting", "fight"], typer.Option(
        help="shooting or fight")] = "shooting",
    rules: Annotated[Literal["11th", "10th"], typer.Option(help="11th or 10th")] = "11th",
    effect: Annotated[list[str] | None, typer.Option(
        help='plain modifier (hit=1, \'{"reroll":"wound","which":"ones"}\') or a rule name'
    )] = None,
    led_by: Annotated[list[str] | None, typer.Option(help="leader attached (Primus)")] = None,
    monte_carlo: Annotated[int | None, typer.Option(
        "--monte-carlo", min=100, max=MAX_TRIALS,
        help=f"sample N trials (at most {MAX_TRIALS:,}; trials x weapon lines at most "
        f"{MAX_TRIAL_LINES:,})")] = None,
    seed: Annotated[int | None, typer.Option(
        min=0, max=MAX_SEED, help="Monte Carlo seed (0 to 2**53 - 1)")] = None,
    embarked: Annotated[str | None, typer.Option(
        help="NAME[:MODELS]: a unit embarked in the attacking TRANSPORT; its models' guns "
        "join the attack through Firing Deck")] = None,
    list_file: Annotated[Path | None, typer.Option(
        "--list", help="army list file: --attacker is the unit as built in it (models, "
        "wargear, attached leader, enhancement, detachment rule)")] = None,
    reroll_damage: Annotated[str | None, typer.Option(
        "--reroll-damage", help="re-roll damage rolls: 'ones' (the lowest result), or N "
        "(every result below N), once per roll")] = None,
    **circumstances: Any,
) -> None:
    """Compute the exact odds of an attack (a scenario file, or units from the library).
    The circumstances (``--distance``, ``--charged``, ...) are the scenario contract's
    (``cli.circumstances``)."""
    given = {k: v for k, v in locals().items() if k != "circumstances"}
    _run(CalcOptions(**given, circumstances=context_of(circumstances)))


@dataclass(frozen=True)
class CalcOptions:
    """The options of one ``tactica calc`` command, as given."""

    file: str | None
    as_json: bool
    attacker: str | None
    models: int | None
    wargear: list[str] | None
    weapon: list[str] | None
    profile: list[str] | None
    target: str | None
    target_models: int | None
    target_wargear: list[str] | None
    target_led_by: list[str] | None
    phase: Literal["shooting", "fight"]
    rules: Literal["11th", "10th"]
    effect: list[str] | None
    led_by: list[str] | None
    monte_carlo: int | None
    seed: int | None
    embarked: str | None
    list_file: Path | None
    reroll_damage: str | None = None
    #: the contract's circumstances given (``cli.circumstances``), by field
    circumstances: dict[str, Any] = field(default_factory=dict)

    @property
    def distance(self) -> float | None:
        value = self.circumstances.get("distance")
        return None if value is None else float(value)


@dataclass
class _Prepared:
    """The scenario to calculate, the units as fielded and the notes for the report."""

    scenario: Scenario
    resolved: Resolved | None
    notes: list[str]


def _check_flags(o: CalcOptions) -> None:
    """Refuse flags that cannot go together, before any work."""
    if o.file is not None and (o.file.casefold() in FLAG_WORDS and not Path(o.file).exists()):
        fail(f"flags such as --charged take no value: remove {o.file!r}")
    if o.file is not None and (o.attacker or o.target or o.list_file or o.weapon or o.models
                               or o.led_by or o.embarked or o.reroll_damage):
        fail("give a scenario FILE or --attacker and --target, not both (the file's attacker "
             "and target would be used and the flags ignored)")


def _read(file: str) -> tuple[str, str | None]:
    """The scenario file's text (its encoding found: ``textfile``; standard input as
    bytes, ``-``), and a note when it was not UTF-8: said after the answer (``_say``),
    never before a refusal."""
    if file == "-":
        return decode(sys.stdin.buffer.read(), "standard input")
    return read_text_file(file)


def _say(file: str | None, note: str | None) -> None:
    """How the file was read, on stderr, once it is answered."""
    if note is not None:
        Console(stderr=True, highlight=False, soft_wrap=True).print(
            f"note: {'standard input' if file == '-' else file}: {note}", markup=False)


def _run(o: CalcOptions) -> None:
    out = Console(width=120) if not sys.stdout.isatty() else Console()
    _check_flags(o)
    note = None
    try:
        if o.file is not None:
            text, note = _read(o.file)
            if _is_sequence(text):
                from .turn import run_sequence_text

                run_sequence_text(text, o.as_json, out, o.monte_carlo, o.seed)
                return _say(o.file, note)
            prep = _from_file(text, o)
        else:
            prep = _from_flags(o)
        result = calculate(prep.scenario)
        if prep.resolved is not None:
            result = result.model_copy(update={"resolved": prep.resolved})
    except typer.BadParameter:
        raise
    except UnitError as exc:  # a unit that cannot be fielded as asked
        _unit_refusal(exc, o)
    except ValidationError as exc:
        fail(f"invalid scenario: {one_line(exc)}")
    except (ValueError, LookupError, OSError) as exc:
        fail(_effect_places(one_line(exc), o))
    _print(result, prep, o.as_json, out)
    _say(o.file, note)


_EFFECT_PLACE = re.compile(r"\beffects(?:\.(\d+)|\[(\d+)\]): |(\()effects\.(\d+)\)")
#: The context's fields the flags give, by the flag.
_CONTEXT_FLAGS = (("context.detachment", "--detachment"),
                  ("context.army_faction", "--army-faction"))


def _effect_places(message: str, o: CalcOptions) -> str:
    """A refusal of the scenario's ``effects.N`` (or ``effects[N]``) said as the
    ``--effect`` the player typed, the effect's name said once (the flags' effects come
    first, in their order; a file's places are its own); a context field as its flag."""
    given = o.effect or []
    if o.file is not None:
        return message

    def flag(found: re.Match[str]) -> str:
        index = int(found[1] or found[2] or found[4])
        if index >= len(given):
            return found[0]
        text = given[index]
        if found[3] is not None:  # "(effects.0)": the earlier use
            return f"(--effect {text!r})"
        rest = message[found.end():]  # the name again: "Waaagh!: ..." or "'waaagh!' is"
        for name, keep in ((f"{text.strip()}: ", ": "), (f"{text!r} ", " ")):
            if rest.casefold().startswith(name.casefold()):
                skipped[found.end()] = len(name)
                return f"--effect {text!r}{keep}"
        return f"--effect {text!r}: "

    skipped: dict[int, int] = {}
    said, last = "", 0
    for found in _EFFECT_PLACE.finditer(message):
        if found.start() < last:
            continue
        said += message[last:found.start()] + flag(found)
        last = found.end() + skipped.get(found.end(), 0)
    said += message[last:]
    for place, option in _CONTEXT_FLAGS:  # a context name the library does not know
        if said.startswith(place + ":"):
            said = option + said.removeprefix(place)
    return said


def _unit_refusal(exc: UnitError, o: CalcOptions) -> NoReturn:
    """A unit that cannot be fielded as asked, refused naming the place as the user gave
    it: a scenario file's field (``attacker.models``), else the flag at fault (a default
    one included: a melee-only unit shooting is the phase's fault, ``--phase fight``)."""
    if o.file is not None:
        fail(f"{'standard input' if o.file == '-' else o.file}: {exc}")
    field, _, message = str(exc).partition(": ")
    if field == "phase":
        other = "fight" if o.phase == "shooting" else "shooting"
        message = f"{message.split('; its ')[0]}; give --phase {other}"
    raise typer.BadParameter(message, param_hint=_FLAGS.get(field, "--attacker")) from None


def _print(result: Result, prep: _Prepared, as_json: bool, out: Console) -> None:
    if as_json:  # the document tactica.calculate gives: the fielding notes first
        result = result.model_copy(update={"notes": (*prep.notes, *result.notes)})
        typer.echo(result.model_dump_json(indent=2))
        return
    notes = prep.notes
    if result.resolved is not None:
        notes = [*(f"fielded: {t}" for t in (*result.resolved.attacker_models,
                                              *result.resolved.target_models)),
                 *(f"default: {d}" for d in result.resolved.defaults), *notes]
    render_result(result, out, notes)


def _refuse_no_scenario(text: str, file: str) -> None:
    """A file that is no scenario, refused naming it: empty, or an army list (then what
    to type to attack with one of its units)."""
    name = "standard input" if file == "-" else file
    if not text.strip():
        fail(f"{name}: empty file (a scenario is a JSON object: docs/scenario.md)")
    from ..service import UnsupportedFormatError, detect_format, import_formats

    try:
        key = detect_format(text)
    except UnsupportedFormatError:
        return
    kind = next((f.name for f in import_formats() if f.key == key), key)
    where = "FILE (the list saved to a file)" if file == "-" else shlex.quote(file)
    fail(f"{name}: an army list ({kind}), not a scenario: to attack with one of its units, "
         f"type tactica calc --list {where} --attacker UNIT --target TARGET")


def _from_file(text: str, o: CalcOptions) -> _Prepared:
    """A scenario file: the units named in it are fielded (``calculator.prepare``)."""
    from ..service import prepare

    assert o.file is not None
    _refuse_no_scenario(text, o.file)

    scenario, resolved, notes = prepare(text)
    if o.monte_carlo:
        scenario = scenario.model_copy(update={"method": "monte-carlo",
                                               "trials": o.monte_carlo, "seed": o.seed})
    return _Prepared(scenario, resolved, notes)


def _context(o: CalcOptions) -> Context:
    """The circumstances given, as the contract's ``Context`` (a value out of its bounds
    was refused by its option)."""
    return Context(**o.circumstances)


def _from_flags(o: CalcOptions) -> _Prepared:
    """The attacker and target named by the flags, fielded from the library (or the
    attacker as built in an army list, ``--list``)."""
    if o.attacker is None or o.target is None:
        raise typer.BadParameter("give a scenario FILE, or --attacker and --target")
    from ..service import load_library, prepare

    lib = load_library()
    built = None
    notes: list[str] = []
    led_by = list(o.led_by or ())
    if o.list_file is not None:  # issue 7: the unit as built in an army list
        from ..service import list_attacker, load_roster

        if o.weapon or o.models or o.wargear:
            raise typer.BadParameter("--weapon, --wargear and --models come from the "
                                     "list with --list")
        from ..service import UnitRef, aim_for

        aim = aim_for(UnitRef(unit=o.target, models=o.target_models,
                              wargear=tuple(o.target_wargear or ()),
                              led_by=tuple(o.target_led_by or ())), lib, o.rules, o.phase,
                      o.distance)
        built = list_attacker(load_roster(o.list_file, library=lib), o.attacker, lib,
                              o.phase, aim)
        sheet, notes = built.sheet, list(built.notes)
        led_by += built.led_by
    else:
        # the datasheet of the rules version asked for, if the library has one
        sheet = lib.datasheet(o.attacker, o.rules)
        if o.models is not None:
            _check_models(sheet, o.models)
    _check_leaders(sheet, led_by, lib)
    data: dict[str, Any] = {
        "rules": o.rules, "phase": o.phase, "context": _context(o),
        "target": {"unit": o.target, "models": o.target_models,
                   "wargear": o.target_wargear or [], "led_by": o.target_led_by or []},
        "effects": (*(_parse_effect(e) for e in (o.effect or [])),
                    *_damage_reroll(o.reroll_damage)),
    }
    if o.monte_carlo:
        data.update(method="monte-carlo", trials=o.monte_carlo, seed=o.seed)
    if built is None:  # the unit as fielded (tactica.units): loadout, leaders
        data["attacker"] = {"unit": sheet.name, "models": o.models,
                            "wargear": o.wargear or [], "led_by": led_by,
                            "weapons": o.weapon or [], "profiles": o.profile or []}
        scenario, resolved, more = prepare(data, lib)
        notes += more
    else:
        scenario, resolved, notes = _list_scenario(lib, built, data, led_by, notes)
    if o.embarked is not None:
        atk, more = _embark(lib, sheet, scenario.attacker, o.embarked, o.phase)
        scenario = scenario.model_copy(update={"attacker": atk})
        notes += more
    return _Prepared(scenario, resolved, notes)


def _list_scenario(lib: Any, built: Any, data: dict[str, Any], led_by: list[str],
                   notes: list[str]) -> tuple[Scenario, Resolved | None, list[str]]:
    """The attacker as built in an army list (``tactica.army.attack``) against the target
    of the options, with the unit's and its leaders' rules and the list's effects
    (``with_unit_rules``: the order the army matrix uses too)."""
    from ..service import prepare, unit_abilities, with_unit_rules

    sheet = built.sheet
    context = data["context"].model_copy(update={
        "led_by": tuple(led_by), "army_faction": built.army_faction,
        "detachment": data["context"].detachment or built.detachment,
        "attacker_toughness": next((m.T for m in sheet.models if m.T is not None), None)})
    scenario, resolved, more = prepare({**data, "attacker": built.attacker,
                                        "context": context}, lib)
    abilities, sheets, missing = unit_abilities(sheet, led_by, lib)
    scenario, applied = with_unit_rules(scenario, abilities, sheets, built.candidates,
                                        built.situational)
    return scenario, resolved, [*notes, *more, *missing, *applied]
