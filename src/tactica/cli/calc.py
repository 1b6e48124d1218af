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
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.table import Table

from .. import calculate
from ..combat import Result, Scenario
from ..combat.scenario import Context, Effect

__all__ = ["calc", "render_result"]

_err = Console(stderr=True)


def _histogram(title: str, pmf: tuple[float, ...], width: int = 40) -> Table:
    table = Table(title=title, show_header=True, header_style="bold", box=None)
    table.add_column("value", justify="right")
    table.add_column("P", justify="right")
    table.add_column("P(>= value)", justify="right")
    table.add_column("")
    top = max(pmf) if pmf else 1.0
    tail = 1.0
    for v, p in enumerate(pmf):
        if p >= 0.0005 or v == 0:
            bar = "█" * max(0, round(width * p / top)) if top else ""
            table.add_row(str(v), f"{p:.1%}", f"{max(tail, 0.0):.1%}", bar)
        tail -= p
    return table


def render_result(result: Result, console: Console, extra_notes: list[str] | None = None) -> None:
    """The human view: stage table, means, histograms, chance to destroy at least N."""
    kind = "exact" if result.method == "exact" else f"Monte Carlo, {result.trials} trials"
    console.print(f"[bold]tactica[/bold] — rules {result.rules}, {kind}")
    stages = Table(title="Stages", header_style="bold")
    stages.add_column("weapon")
    stages.add_column("stage")
    stages.add_column("how")
    for st in result.stages:
        stages.add_row(st.weapon, st.stage, st.detail)
    console.print(stages)
    means = Table(title="Expected", header_style="bold")
    for col in ("attacks", "hits", "wounds", "unsaved", "damage", "models destroyed",
                "unit destroyed"):
        means.add_column(col, justify="right")
    means.add_row(*(f"{getattr(result, k).mean:.3f}" for k in
                    ("attacks", "hits", "wounds", "unsaved", "damage", "models_destroyed")),
                  f"{result.p_unit_destroyed:.1%}")
    console.print(means)
    console.print(_histogram("Damage", result.damage.pmf))
    console.print(_histogram("Models destroyed", result.models_destroyed.pmf))
    if result.attacker_mortal_wounds.mean:
        console.print(f"Hazardous: expected {result.attacker_mortal_wounds.mean:.3f} "
                      "mortal wounds to the attacker")
    for note in [*(extra_notes or []), *result.notes]:
        console.print(f"[dim]note:[/dim] {note}")
    for item in result.not_calculated:
        console.print(f"[yellow]not calculated:[/yellow] {item}")
    if result.effects_applied:
        console.print(f"effects: {', '.join(result.effects_applied)} ({result.cp_spent}CP)")


def _parse_effect(text: str) -> Effect | str:
    t = text.strip()
    if t.startswith("{"):
        return Effect.model_validate(json.loads(t))
    if "=" in t:
        key, _, value = t.partition("=")
        val: Any = value.strip()
        if val.lstrip("+-").isdigit():
            val = int(val)
        elif val.lower() in ("true", "false"):
            val = val.lower() == "true"
        return Effect.model_validate({key.strip(): val})
    return t


def calc(
    file: Annotated[str | None, typer.Argument(help="scenario JSON file, or - for stdin")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the result document")] = False,
    attacker: Annotated[str | None, typer.Option(help="attacking unit from the library")] = None,
    models: Annotated[int | None, typer.Option(help="models in the attacking unit")] = None,
    wargear: Annotated[list[str] | None, typer.Option(
        help="wargear option the attacker takes: NAME, NAME + NAME, NAME:MODELS (repeat)")
    ] = None,
    led_by: Annotated[list[str] | None, typer.Option(help="leader attached (Primus)")] = None,
    weapon: Annotated[list[str] | None, typer.Option(
        help="only this weapon attacks, NAME or NAME:COUNT (repeat); default: the loadout")
    ] = None,
    profile: Annotated[list[str] | None, typer.Option(
        help="profile of a multi-profile weapon to use (default: the best)")] = None,
    target: Annotated[str | None, typer.Option(help="preset (meq, geq, ...) or unit")] = None,
    target_models: Annotated[int | None, typer.Option(help="models in the target")] = None,
    target_wargear: Annotated[list[str] | None, typer.Option(
        help="wargear option the target takes (repeat)")] = None,
    target_led_by: Annotated[list[str] | None, typer.Option(
        help="leader attached to the target")] = None,
    phase: Annotated[str, typer.Option(help="shooting or fight")] = "shooting",
    rules: Annotated[str, typer.Option(help="11th or 10th")] = "11th",
    distance: Annotated[float | None, typer.Option(help="inches to the target")] = None,
    stationary: Annotated[bool, typer.Option("--stationary", help="remained stationary")] = False,
    charged: Annotated[bool, typer.Option("--charged", help="the attacker charged")] = False,
    cover: Annotated[bool, typer.Option("--cover", help="target has cover")] = False,
    stealth: Annotated[bool, typer.Option("--stealth", help="target has Stealth")] = False,
    effect: Annotated[list[str] | None, typer.Option(
        help='plain modifier (hit=1, \'{"reroll":"wound","which":"ones"}\') or a rule name'
    )] = None,
    arrived: Annotated[bool, typer.Option(
        "--arrived", help="set up as Reinforcements this turn or last")] = False,
    disembarked: Annotated[bool, typer.Option("--disembarked")] = False,
    tyranids_nearby: Annotated[bool, typer.Option(
        "--tyranids-nearby", help="a friendly TYRANIDS unit within 6\" of the target")] = False,
    wounds_left: Annotated[int | None, typer.Option(
        help="wounds left on the attacking model (Damaged profiles)")] = None,
    monte_carlo: Annotated[
        int | None, typer.Option("--monte-carlo", help="sample N trials")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Monte Carlo seed")] = None,
    list_file: Annotated[Path | None, typer.Option(
        "--list", help="army list file: --attacker is the unit as built in it (models, "
        "wargear, attached leader, enhancement, detachment rule)")] = None,
) -> None:
    """Compute the exact odds of an attack (a scenario file, or units from the library)."""
    out = Console(width=120) if not sys.stdout.isatty() else Console()
    notes: list[str] = []
    try:
        if file is not None:
            text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
            document: Scenario | dict[str, Any] | str = text
            if monte_carlo:
                document = {**json.loads(text), "method": "monte-carlo",
                            "trials": monte_carlo, "seed": seed}
            result = calculate(document)
        else:
            if attacker is None or target is None:
                raise typer.BadParameter("give a scenario FILE, or --attacker and --target")
            context = Context(distance=distance, remained_stationary=stationary,
                              charged=charged, cover=cover, stealth=stealth,
                              arrived_from_reserves=arrived, disembarked=disembarked,
                              tyranids_nearby=tyranids_nearby,
                              attacker_wounds_left=wounds_left)
            data: dict[str, Any] = {
                "rules": rules, "phase": phase, "context": context,
                "target": {"unit": target, "models": target_models,
                           "wargear": target_wargear or [], "led_by": target_led_by or []},
                "effects": tuple(_parse_effect(e) for e in (effect or [])),
            }
            if monte_carlo:
                data.update(method="monte-carlo", trials=monte_carlo, seed=seed)
            if list_file is not None:  # issue 7: the unit as built in an army list
                if weapon or models or wargear:
                    raise typer.BadParameter("--weapon, --wargear and --models come from the "
                                             "list with --list")
                result, notes = _list_calc(list_file, attacker, data, led_by or [])
            else:
                data["attacker"] = {"unit": attacker, "models": models,
                                    "wargear": wargear or [], "led_by": led_by or [],
                                    "weapons": weapon or [], "profiles": profile or []}
                result = calculate(data)
    except ValidationError as exc:
        _err.print(f"[red]invalid scenario:[/red] {exc}")
        raise typer.Exit(2) from None
    except (ValueError, LookupError, OSError) as exc:
        _err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None
    if as_json:
        typer.echo(result.model_dump_json(indent=2))
    else:
        if result.resolved is not None:
            notes = [*(f"fielded: {t}" for t in (*result.resolved.attacker_models,
                                                  *result.resolved.target_models)),
                     *(f"default: {d}" for d in result.resolved.defaults), *notes]
        render_result(result, out, notes)


def _list_calc(list_file: Path, attacker: str, data: dict[str, Any],
               led_by: list[str]) -> tuple[Result, list[str]]:
    """The attacker as built in an army list (``tactica.army.attack``), the target and
    context from the options."""
    from ..army.attack import apply_list_effects, list_attacker
    from ..army.formats import load_roster
    from ..calculator import prepare
    from ..combat import calculate as calculate_scenario
    from ..effects.candidates import ability_effects, apply_candidates
    from ..library import load_library

    lib = load_library()
    built = list_attacker(load_roster(list_file, library=lib), attacker, lib,
                          str(data["phase"]))
    notes = list(built.notes)
    leaders = [*led_by, *built.led_by]
    context = data["context"].model_copy(update={
        "led_by": tuple(leaders), "army_faction": built.army_faction,
        "detachment": built.detachment,
        "attacker_toughness": next((m.T for m in built.sheet.models if m.T is not None), None)})
    plain, resolved, more = prepare({**data, "attacker": built.attacker, "context": context})
    notes += more
    own = ability_effects(built.sheet)
    for leader in leaders:
        try:
            own += ability_effects(lib.datasheet(leader), damaged=False)
        except LookupError:
            notes.append(f"leader {leader!r} is not in the library: its abilities "
                         "are not applied")
    plain, more = apply_candidates(plain, own, "ability", report_skipped=False)
    notes += more
    plain, more = apply_list_effects(plain, built.candidates)
    notes += more
    result = calculate_scenario(plain)
    if resolved is not None:
        result = result.model_copy(update={"resolved": resolved})
    return result, notes
