"""``tactica turn``: a turn of combat against one target from flags (library units), and
the human view of a sequence's result (``tactica calc`` on a sequence file uses it too).

Thin: it builds a ``Sequence`` (each unit's weapons as ``tactica calc`` picks them) and
calls ``tactica.calculate`` (units named in a file are fielded there).
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, Literal

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.table import Table

from ..service import (
    MAX_MODELS,
    Context,
    SequenceResult,
    UnitError,
    UnitRef,
    aim_of,
    armed_with_abilities,
    carriers,
    circumstances,
    loads,
    one_line,
    resolve_attacker,
)
from ..service import calculate as calculate_document
from .errors import fail
from .result_view import render_result

__all__ = ["CHARGE_INCHES", "LEADERSHIP", "parse_step", "render_sequence",
           "run_sequence_text", "sequence_document", "turn"]

#: The sequence contract's bounds, checked here so that a bad value is refused naming the
#: flag as typed (a test keeps them the contract's): a charge step's inches, the target's
#: Leadership.
CHARGE_INCHES = (0, 48)
LEADERSHIP = (2, 12)
#: The contract's distance circumstance (its bounds are ``--distance``'s, as in ``calc``).
_DISTANCE = next(c for c in circumstances() if c.name == "distance")


def _fielded(lib: Any, unit: str, models: int, rules: Any, phase: Any, target: Any,
             context: dict[str, Any]) -> tuple[Any, tuple[Any, ...]]:
    """The unit's attacker as fielded by default (``tactica.units``: its profiles
    picked against ``target`` at the context's distance, as ``tactica.calculate`` picks
    them), with the plain effects of its own abilities against ``target`` in ``context``."""
    try:
        attacker, side = resolve_attacker(UnitRef(unit=unit, models=models), lib, rules,
                                          phase, aim_of(target, context.get("distance")))
    except UnitError as exc:
        raise typer.BadParameter(str(exc).removeprefix("attacker: "),
                                 param_hint="--step") from None
    return armed_with_abilities(attacker, [s for s, _ in side.loadouts], side.lines_of,
                                target, phase, Context.model_validate(context), rules)


def parse_step(text: str) -> tuple[str, str, float | None, int | None]:
    """``UNIT:PHASE[@INCHES][:MODELS]`` -> (unit, phase, charge distance, models).

    >>> parse_step("Death Riders:charge@7"), parse_step("Neophyte Hybrids:shooting:10")
    (('Death Riders', 'charge', 7.0, None), ('Neophyte Hybrids', 'shooting', None, 10))
    """
    parts = text.split(":")
    if len(parts) not in (2, 3) or not parts[0].strip():
        raise typer.BadParameter(f"--step {text!r}: write UNIT:shooting, UNIT:fight or "
                                 "UNIT:charge@INCHES (optionally :MODELS)")
    unit, phase = parts[0].strip(), parts[1].strip().lower()
    distance = None
    if phase.startswith("charge"):
        _, _, inches = phase.partition("@")
        try:
            distance = float(inches)
        except ValueError:
            raise typer.BadParameter(f"--step {text!r}: a charge needs its distance, "
                                     "e.g. charge@7") from None
        low, high = CHARGE_INCHES
        if not low <= distance <= high:  # NaN too
            raise typer.BadParameter(f"--step {text!r}: the charge distance is {low} to "
                                     f"{high} inches")
        phase = "charge"
    if phase not in ("shooting", "fight", "charge"):
        raise typer.BadParameter(f"--step {text!r}: the phase is shooting, fight or "
                                 "charge@INCHES")
    models = None
    if len(parts) == 3:
        if not (parts[2].strip().isascii() and parts[2].strip().isdigit()) \
                or int(parts[2]) < 1:
            raise typer.BadParameter(f"--step {text!r}: MODELS is a number of models, 1 "
                                     "or more")
        models = int(parts[2])
    return unit, phase, distance, models


def _steps(specs: list[str], rules: str, distance: float | None, stationary: bool,
           target_name: str, fight_back: bool, target_models: int | None,
           target: Any) -> list[dict[str, Any]]:
    from ..service import load_library

    lib = load_library()
    steps: list[dict[str, Any]] = []
    last_charger: str | None = None
    for spec in specs:
        unit, phase, inches, models = parse_step(spec)
        try:
            sheet = lib.datasheet(unit, "10th" if rules == "10th" else "11th")
        except LookupError as exc:
            raise typer.BadParameter(f"{spec!r}: {one_line(exc)}", param_hint="--step"
                                     ) from None
        n = models or sum(c.min for c in sheet.composition) or 1
        fights = phase in ("fight", "charge")
        context: dict[str, Any] = {"charged": phase == "charge"} if fights else {
            "distance": distance, "remained_stationary": stationary}
        attacker, effects = _fielded(lib, sheet.name, n, sheet.rules,
                                     "fight" if fights else "shooting", target, context)
        if phase == "charge":
            steps.append({"phase": "charge", "unit": sheet.name, "distance": inches})
            last_charger = sheet.name
        step: dict[str, Any] = {"phase": "fight" if fights else "shooting",
                                "attacker": attacker, "context": context}
        if effects:
            step["effects"] = list(effects)
        if fights:
            step["models"] = lib.target(sheet.name, models=n).models
            step["carried_by"] = carriers(UnitRef(unit=sheet.name, models=n), lib,
                                          sheet.rules, "fight")
        steps.append(step)
    if fight_back:
        if last_charger is None:
            raise typer.BadParameter("--fight-back: the target fights back against a unit "
                                     "that charged (a UNIT:charge@INCHES step)")
        sheet = lib.datasheet(target_name)
        n = target_models or sum(c.min for c in sheet.composition) or 1
        attacker, effects = _fielded(lib, sheet.name, n, sheet.rules, "fight",
                                     lib.target(last_charger), {})
        steps.append({"phase": "fight", "fights_back": True, "attacker": attacker,
                      **({"effects": list(effects)} if effects else {}),
                      "against": last_charger, "carried_by": carriers(
                          UnitRef(unit=sheet.name, models=n), lib, sheet.rules, "fight")})
    order = {"shooting": 0, "charge": 1, "fight": 2}
    return sorted(steps, key=lambda s: order[s["phase"]])


def sequence_document(steps: list[str], target: str, target_models: int | None = None,
                      rules: str = "11th", distance: float | None = None,
                      stationary: bool = False, fight_back: bool = False,
                      leadership: int | None = None) -> dict[str, Any]:
    """The sequence document the ``tactica turn`` flags describe (library units; each
    unit's weapons as ``tactica calc`` picks them; the target's Leadership and Deadly
    Demise from its datasheet unless given)."""
    from ..service import load_library

    lib = load_library()
    try:
        tgt = lib.target(target, models=target_models)
    except LookupError as exc:
        raise typer.BadParameter(f"{target!r}: {one_line(exc)}", param_hint="--target"
                                 ) from None
    except ValueError as exc:  # a size the unit does not come in
        raise typer.BadParameter(one_line(exc), param_hint="--target-models") from None
    doc: dict[str, Any] = {"rules": rules, "target": tgt.model_dump(mode="json"),
                           "steps": _steps(steps, rules, distance, stationary, target,
                                           fight_back, target_models, tgt)}
    ld = leadership
    try:
        sheet = lib.datasheet(target)
    except LookupError:
        sheet = None  # a preset: no Leadership known
    if sheet is not None and ld is None:
        ld = min((m.Ld for m in sheet.models if m.Ld is not None), default=None)
    doc["target_leadership"] = ld
    return doc


def render_sequence(result: SequenceResult, console: Console) -> None:
    """The human view: one row per step, then the whole turn as a scenario's result."""
    table = Table(title="Step by step", header_style="bold")
    for col in ("step", "unit", "phase", "happens", "models destroyed", "unit destroyed",
                "losses"):
        table.add_column(col, justify="left" if col in ("unit", "phase") else "right")
    for s in result.steps:
        phase = "fights back" if s.fights_back else s.phase
        losses = f"{s.attacker_losses.mean:.2f}" if s.attacker_losses is not None else ""
        happens = f"charge {s.p_charge:.1%}" if s.p_charge is not None else f"{s.p_happens:.1%}"
        table.add_row(str(s.step + 1), s.unit, phase, happens,
                      f"{s.models_destroyed.mean:.2f}", f"{s.p_unit_destroyed:.1%}", losses)
    console.print(table)
    render_result(result, console)
    if result.battle_shock is not None:
        b = result.battle_shock
        console.print(f"Battle-shock (Ld {b.leadership}+): tested {b.p_tested:.1%}, "
                      f"battle-shocked {b.p_battle_shocked:.1%}")
    if result.cp_expected != result.cp_spent:
        console.print(f"Command points: {result.cp_expected:.2f} expected "
                      f"({result.cp_spent} whatever the dice)")
    for nd in result.other_mortal_wounds:
        console.print(f"{nd.label}: expected {nd.distribution.mean:.3f}")


def run_sequence_text(text: str, as_json: bool, console: Console,
                      monte_carlo: int | None = None, seed: int | None = None) -> None:
    """Compute a sequence document and print it (``tactica calc`` on a sequence file);
    ``monte_carlo`` trials ask for the Monte Carlo twin."""
    try:
        if monte_carlo:
            doc = loads(text)
            doc.update(method="monte-carlo", trials=monte_carlo, seed=seed)
            text = json.dumps(doc)
        result = calculate_document(text)  # units named in it: fielded
    except UnitError as exc:
        fail(f"cannot field the unit: {exc}")
    except ValidationError as exc:
        fail(f"invalid sequence: {one_line(exc)}")
    except (ValueError, LookupError) as exc:
        fail(one_line(exc))
    assert isinstance(result, SequenceResult)
    if as_json:
        typer.echo(result.model_dump_json(indent=2))
    else:
        render_sequence(result, console)


def turn(
    step: Annotated[list[str], typer.Option(
        help="UNIT:shooting, UNIT:fight or UNIT:charge@INCHES (the charge, then its "
             "fight), optionally :MODELS; repeat, in the order of the turn")],
    target: Annotated[str, typer.Option(help="the target: a preset (meq, ...) or a unit")],
    target_models: Annotated[int | None, typer.Option(
        min=1, max=MAX_MODELS, help="models in the target")] = None,
    rules: Annotated[Literal["11th", "10th"], typer.Option(help="11th or 10th")] = "11th",
    distance: Annotated[float | None, typer.Option(
        min=0, max=_DISTANCE.maximum, help="inches to the target (shooting)")] = None,
    stationary: Annotated[bool, typer.Option("--stationary",
                                             help="the shooting units remained stationary")
                          ] = False,
    fight_back: Annotated[bool, typer.Option(
        "--fight-back", help="the target's survivors fight the unit that charged")] = False,
    leadership: Annotated[int | None, typer.Option(
        min=LEADERSHIP[0], max=LEADERSHIP[1],
        help="the target's Leadership (default: its datasheet's), for battle-shock")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the result document")] = False,
) -> None:
    """The exact odds of a turn: several units shoot, charge and fight one target."""
    out = Console(width=120) if not sys.stdout.isatty() else Console()
    try:
        doc = sequence_document(step, target, target_models, rules, distance, stationary,
                                fight_back, leadership)
        text = json.dumps(doc, default=_plain)
    except (ValueError, LookupError) as exc:
        fail(one_line(exc))
    run_sequence_text(text, as_json, out)


def _plain(value: Any) -> Any:
    """JSON for the pydantic models the builders return."""
    return value.model_dump(mode="json")
