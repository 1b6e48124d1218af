"""``tactica calc``: a scenario file (or stdin) in, the result out; or a human mode that
builds the scenario from the unit library.

Thin by design: it parses options, builds a ``Scenario`` and calls ``tactica.calculate``.
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

from ..combat import Result, Scenario, calculate
from ..combat.scenario import Attacker, Context, Effect, WeaponLine
from ..model.abilities import RapidFire
from ..model.common import RulesVersion
from ..model.datasheet import Datasheet, WeaponProfile

__all__ = ["build_attacker", "calc", "render_result"]

_err = Console(stderr=True)


def _weapon_line(p: WeaponProfile, name: str, count: int) -> WeaponLine:
    return WeaponLine(name=name, count=count, range=p.range, A=p.A, skill=p.skill, S=p.S,
                      AP=p.AP, D=p.D, abilities=p.abilities)


def _main_gun(unit: str, weapons: list[tuple[Any, WeaponProfile]]) -> tuple[Any, WeaponProfile]:
    """The weapon a unit's models most likely carry when the data has no wargear list:
    one named in the unit's name ("Acolyte Hybrids with Hand Flamers"), else the first
    that is a basic gun (no abilities but Rapid Fire or Assault; the fewest attacks and
    lowest S, which is what most models carry), else the first that is
    neither One Shot nor a Pistol, else the first that is not One Shot."""
    named = [(w, p) for w, p in weapons
             if w.name.casefold().rstrip("s") in unit.casefold()
             or w.name.casefold() + "s" in unit.casefold()]
    main = [(w, p) for w, p in weapons if not p.has("One Shot") and not p.has("Pistol")]
    basic = [(w, p) for w, p in main if len(w.profiles) == 1
             and all(isinstance(a, RapidFire) or str(a) == "Assault" for a in p.abilities)]
    basic.sort(key=lambda wp: (wp[1].A.mean, wp[1].S))  # the troops' gun is the plainest
    reusable = [(w, p) for w, p in weapons if not p.has("One Shot")]
    return (named or basic or main or reusable or weapons)[0]


def build_attacker(sheet: Datasheet, models: int, phase: str,
                   weapons: list[str]) -> tuple[Attacker, list[str]]:
    """An attacker from a datasheet. ``weapons`` entries are ``NAME`` or ``NAME:COUNT``
    (COUNT = how many models fire/fight with it; default all ``models``). Multi-profile
    weapons take their first profile unless named ``"Weapon – profile"``.

    Without ``weapons`` (the seed pages lack wargear lists): in the fight phase each model
    uses its Extra Attacks weapons and its first other melee weapon (24.11); in the
    shooting phase a MONSTER/VEHICLE fires every ranged weapon, other units one weapon
    (``_main_gun``). The choice is returned as a note.
    """
    melee = phase == "fight"
    notes: list[str] = []
    chosen: list[tuple[WeaponProfile, str, int]] = []
    profiles = [(w, p) for w in sheet.weapons for p in w.profiles]
    if weapons:
        for spec in weapons:
            name, _, count_text = spec.partition(":")
            count = int(count_text) if count_text.strip() else models
            key = name.strip().casefold()
            match = [(w, p) for w, p in profiles
                     if key in (w.name.casefold(), p.name.casefold(),
                                f"{w.name} – {p.name}".casefold())]
            if not match:
                names = sorted({w.name for w in sheet.weapons})
                raise typer.BadParameter(
                    f"{sheet.name} has no weapon {name.strip()!r}; it has: {', '.join(names)}",
                    param_hint="--weapon")
            w, p = match[0]
            chosen.append((p, w.name if len(w.profiles) == 1 else f"{w.name} ({p.name})", count))
    else:
        of_phase = [(w, w.profiles[0]) for w in sheet.weapons if w.is_melee == melee]
        if not of_phase:
            raise typer.BadParameter(f"{sheet.name} has no {'melee' if melee else 'ranged'} "
                                     "weapons", param_hint="--phase")
        if melee:
            extra = [(w, p) for w, p in of_phase if p.has("Extra Attacks")]
            other = [(w, p) for w, p in of_phase if not p.has("Extra Attacks")][:1]
            picked = other + extra
        elif sheet.has_keyword("VEHICLE") or sheet.has_keyword("MONSTER"):
            picked = of_phase
        else:
            picked = [_main_gun(sheet.name, of_phase)]
        chosen = [(p, w.name, models) for w, p in picked]
        notes.append("weapons chosen by default (no wargear list in the data): "
                     + ", ".join(f"{n} x{c}" for _, n, c in chosen)
                     + "; pick with --weapon NAME[:COUNT]")
    lines = tuple(_weapon_line(p, n, c) for p, n, c in chosen)
    kws = tuple(dict.fromkeys(sheet.keywords + sheet.faction_keywords))
    return Attacker(name=sheet.name, keywords=kws, weapons=lines), notes


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
    weapon: Annotated[list[str] | None, typer.Option(help="NAME or NAME:COUNT (repeat)")] = None,
    target: Annotated[str | None, typer.Option(help="preset (meq, geq, ...) or unit")] = None,
    target_models: Annotated[int | None, typer.Option(help="models in the target")] = None,
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
    led_by: Annotated[list[str] | None, typer.Option(help="leader attached (Primus)")] = None,
    arrived: Annotated[bool, typer.Option(
        "--arrived", help="set up as Reinforcements this turn or last")] = False,
    disembarked: Annotated[bool, typer.Option("--disembarked")] = False,
    tyranids_nearby: Annotated[bool, typer.Option(
        "--tyranids-nearby", help="a friendly TYRANIDS unit within 6\" of the target")] = False,
    wounds_left: Annotated[int | None, typer.Option(
        help="wounds left on the attacking model (Damaged profiles)")] = None,
    game_mode: Annotated[str, typer.Option(
        help="standard, boarding actions or combat patrol")] = "standard",
    designated: Annotated[list[str] | None, typer.Option(
        help="a rule whose chosen enemy unit the target is (Oath of Moment); repeatable. "
        "Not given: naming such a rule says the target is its chosen unit")] = None,
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
            scenario = Scenario.model_validate_json(text)
            if monte_carlo:
                scenario = scenario.model_copy(update={"method": "monte-carlo",
                                                       "trials": monte_carlo, "seed": seed})
        else:
            if attacker is None or target is None:
                raise typer.BadParameter("give a scenario FILE, or --attacker and --target")
            from ..library import load_library

            lib = load_library()
            built = None
            if list_file is not None:  # issue 7: the unit as built in an army list
                from ..army.attack import list_attacker
                from ..army.formats import load_roster

                if weapon or models:
                    raise typer.BadParameter("--weapon and --models come from the list "
                                             "with --list")
                built = list_attacker(load_roster(list_file, library=lib), attacker, lib,
                                      phase)
                sheet, atk, notes = built.sheet, built.attacker, list(built.notes)
                led_by = [*(led_by or ()), *built.led_by]
            else:
                # the datasheet of the rules version asked for, if the library has one
                version: RulesVersion | None = (
                    "10th" if rules == "10th" else "11th" if rules == "11th" else None)
                sheet = lib.datasheet(attacker, version)
                n = models or sum(c.min for c in sheet.composition) or 1
                atk, notes = build_attacker(sheet, n, phase, weapon or [])
            tgt = lib.target(target, models=target_models)
            data: dict[str, Any] = {
                "rules": rules, "phase": phase, "attacker": atk, "target": tgt,
                "context": Context(distance=distance, remained_stationary=stationary,
                                   charged=charged, cover=cover, stealth=stealth,
                                   led_by=tuple(led_by or ()), arrived_from_reserves=arrived,
                                   disembarked=disembarked, tyranids_nearby=tyranids_nearby,
                                   attacker_wounds_left=wounds_left,
                                   designated=None if designated is None
                                   else tuple(designated), game_mode=game_mode,
                                   attacker_toughness=next(
                                       (m.T for m in sheet.models if m.T is not None), None)),
                "effects": tuple(_parse_effect(e) for e in (effect or [])),
            }
            if monte_carlo:
                data.update(method="monte-carlo", trials=monte_carlo, seed=seed)
            if built is not None:
                data["context"] = data["context"].model_copy(update={
                    "army_faction": built.army_faction, "detachment": built.detachment})
            scenario = Scenario.model_validate(data)
            # the unit's own abilities and its leaders' that are named effects (Cult
            # Demagogue, a Damaged profile), applied when their conditions hold
            from ..effects.candidates import ability_effects, apply_candidates

            own = ability_effects(sheet)
            for leader in led_by or ():
                try:
                    own += ability_effects(lib.datasheet(leader), damaged=False)
                except LookupError:
                    notes.append(f"leader {leader!r} is not in the library: its abilities "
                                 "are not applied")
            # an ability is not a choice: only those that apply are reported
            scenario, more = apply_candidates(scenario, own, "ability", report_skipped=False)
            notes += more
            if built is not None:
                from ..army.attack import apply_list_effects

                scenario, more = apply_list_effects(scenario, built.candidates,
                                                    built.situational)
                notes += more
        result = calculate(scenario)
    except ValidationError as exc:
        _err.print(f"[red]invalid scenario:[/red] {exc}")
        raise typer.Exit(2) from None
    except (ValueError, LookupError, OSError) as exc:
        _err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None
    if as_json:
        typer.echo(result.model_dump_json(indent=2))
    else:
        render_result(result, out, notes)
