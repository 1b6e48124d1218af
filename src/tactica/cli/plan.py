"""``tactica matchup MY_LIST ENEMY_LIST`` and ``tactica plan MY_LIST ENEMY_LIST``: army
against army (``tactica.plan``), thin: options in, the core's answer out as a table, JSON,
CSV or a picture.

Each list is a list file in any format tactica reads, or unit names
(``"Intercessor Squad:10+Lieutenant, Hellblaster Squad"``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..service import (
    VALUES,
    Conditions,
    Matchup,
    MatchupRequest,
    Plan,
    PlanRequest,
    RulesVersion,
    cell_value,
    format_names,
    load_library,
    plot_matchup,
    plot_plan,
)
from .errors import fail

__all__ = ["matchup_command", "plan_command"]

MyList = Annotated[str, typer.Argument(metavar="MY_LIST", help=(
    f"my army: a list file ({format_names()}) or unit names, e.g. "
    "\"Intercessor Squad:10, Lieutenant\""))]
EnemyList = Annotated[str, typer.Argument(metavar="ENEMY_LIST",
                                          help="the enemy army, the same way")]
Json = Annotated[bool, typer.Option("--json", help="machine-readable output")]
Strict = Annotated[bool, typer.Option(
    "--strict", help="refuse a list that does not validate (by default it is answered, "
    "its problems listed as warnings)")]
Charge = Annotated[float | None, typer.Option(
    "--charge", min=0, max=48, help="fights happen after a charge of this many inches "
    "(the values are weighed by the chance the charge reaches)")]
Stationary = Annotated[bool, typer.Option("--stationary", help="the shooters remained "
                                          "stationary (Heavy)")]
HalfRange = Annotated[bool, typer.Option("--half-range", help="targets within half range "
                                         "(Rapid Fire, Melta)")]
Cover = Annotated[bool, typer.Option("--cover", help="targets have the Benefit of Cover")]
Distance = Annotated[list[str] | None, typer.Option(
    "--distance", help="inches between the shooters and their targets: INCHES for every "
    "pair, \"UNIT=INCHES\" for one unit and every unit of the other side, or "
    "\"MY UNIT>ENEMY UNIT=INCHES\" for one pair (repeatable); a weapon beyond its range "
    "makes no attacks; in the fight plan, the charge's distance")]
Stratagem = Annotated[list[str] | None, typer.Option(
    "--stratagem", help="a stratagem or other rule for one unit: \"UNIT=NAME\" "
    "(repeatable; applied where its conditions hold)")]
Rules = Annotated[RulesVersion, typer.Option("--rules", help="rules version for unit "
                                             "names (a list states its own)")]


def _inches(text: str, option: str) -> float:
    try:
        inches = float(text)
    except ValueError:
        inches = -1.0
    if not 0 <= inches <= 200:
        fail(f"--distance {option!r}: inches from 0 to 200, e.g. 24 or "
             "\"Intercessor Squad>Boyz=18\"")
    return inches


def _distances(texts: list[str] | None) -> tuple[float | None, dict[tuple[str, str], float],
                                                dict[str, float]]:
    """``--distance``: INCHES for every pair (the last given), "UNIT=INCHES" for one unit,
    "MY UNIT>ENEMY UNIT=INCHES" for one pair."""
    every: float | None = None
    pairs: dict[tuple[str, str], float] = {}
    units: dict[str, float] = {}
    for text in texts or ():
        pair, sep, inches = text.rpartition("=")
        if not sep:
            every = _inches(text, text)
            continue
        a, arrow, t = pair.partition(">")
        if not a.strip() or (arrow and not t.strip()):
            fail(f"--distance {text!r}: write INCHES, \"UNIT=INCHES\" or "
                 "\"MY UNIT>ENEMY UNIT=INCHES\"")
        if arrow:
            pairs[(a.strip(), t.strip())] = _inches(inches.strip(), text)
        else:
            units[a.strip()] = _inches(inches.strip(), text)
    return every, pairs, units


def _conditions(charge: float | None, stationary: bool, half_range: bool, cover: bool,
                stratagems: list[str] | None, distance: list[str] | None = None
                ) -> Conditions:
    named: dict[str, tuple[str, ...]] = {}
    for text in stratagems or ():
        unit, sep, name = text.partition("=")
        if not sep or not unit.strip() or not name.strip():
            fail(f"--stratagem {text!r}: write UNIT=NAME, e.g. \"Dark Reapers=Fire "
                 "Overwatch\"")
        named[unit.strip()] = (*named.get(unit.strip(), ()), name.strip())
    every, pairs, units = _distances(distance)
    return Conditions(charge=charge, stationary=stationary, half_range=half_range,
                      cover=cover, stratagems=named, distance=every, distances=pairs,
                      unit_distances=units)


def _fmt(value: float, what: str) -> str:
    return f"{value:.0%}" if what == "destroy" else f"{value:.1f}"


def _grid_table(m: Matchup, side: str, phase: str, what: str) -> tuple[Table, list[str]]:
    grid = m.grids[(side, phase)]  # type: ignore[index]
    attackers, defenders = m.attackers(side), m.defenders(side)  # type: ignore[arg-type]
    who = "My units" if side == "mine" else "The enemy's units"
    table = Table(title=f"{who}, {phase}: {VALUES[what][1]}", box=box.SIMPLE_HEAD,
                  title_justify="left")
    table.add_column("unit (points)", no_wrap=True)
    for j, _ in enumerate(defenders.units, 1):
        table.add_column(f"T{j}", justify="right", no_wrap=True, min_width=5)
    notes: list[str] = []
    values = [v for row in grid for c in row if (v := cell_value(c, what)) is not None]
    top = max(values, default=0.0) or 1.0
    for unit, row in zip(attackers.units, grid, strict=True):
        cells: list[Text | str] = []
        for c in row:
            v = cell_value(c, what)
            if v is None:
                cells.append(Text("-", style="dim"))
                why = f"{unit.label} ({c.status}): {c.reason}"
                if why not in notes:
                    notes.append(why)
            else:
                share = v / top
                style = "bold green" if share > 0.66 else "yellow" if share > 0.33 else ""
                cells.append(Text(_fmt(v, what), style=style))
        table.add_row(f"{unit.label} ({unit.points})", *cells)
    return table, notes


def matchup_command(
    mine: MyList, enemy: EnemyList,
    phase: Annotated[list[str] | None, typer.Option(
        "--phase", help="shooting and/or fight (default: both)")] = None,
    side: Annotated[str, typer.Option("--side", help="mine, enemy or both")] = "both",
    value: Annotated[str, typer.Option("--value", help="what the table shows: points, "
                                       "per100, models, destroy or damage")] = "points",
    charge: Charge = None, stationary: Stationary = False, half_range: HalfRange = False,
    cover: Cover = False, stratagem: Stratagem = None, distance: Distance = None,
    rules: Rules = "11th", json_out: Json = False,
    csv_out: Annotated[bool, typer.Option("--csv", help="one CSV row per cell")] = False,
    strict: Strict = False,
    plot: Annotated[Path | None, typer.Option("--plot", help="draw the matrix into "
                                              "FILE.png or FILE.svg")] = None,
) -> None:
    """Every unit of my army against every unit of the enemy's, and theirs against mine:
    shooting and fight, exactly (points destroyed, per 100 points, models, P(destroy))."""
    phases = tuple(dict.fromkeys(phase or ("shooting", "fight")))
    if any(p not in ("shooting", "fight") for p in phases):
        fail(f"--phase {', '.join(phases)}: the phases are shooting and fight")
    if side not in ("mine", "enemy", "both"):
        fail(f"--side {side}: write mine, enemy or both")
    if value not in VALUES:
        fail(f"--value {value}: one of {', '.join(VALUES)}")
    every, pairs, units = _distances(distance)
    m = MatchupRequest.from_words({
        "mine": mine, "enemy": enemy, "phases": phases, "sides": side, "charge": charge,
        "stationary": stationary, "half_range": half_range, "cover": cover,
        "distance": every,
        "distances": {**units, **{f"{a}>{t}": d for (a, t), d in pairs.items()}},
        "stratagems": _conditions(None, False, False, False, stratagem).stratagems,
        "rules": rules, "strict": strict}).run(load_library(), files=True)
    if plot is not None:
        plot_matchup(m, plot, value)
    if json_out:
        typer.echo(json.dumps(m.to_json(), indent=2))
        return
    if csv_out:
        typer.echo(m.to_csv(), nl=False)
        return
    out = Console(highlight=False, soft_wrap=False, width=max(120, Console().width))
    for w in (*m.mine.warnings, *m.enemy.warnings):
        out.print(f"warning: {w}", markup=False)
    out.print(f"{m.mine.name} ({m.mine.points} pts: {m.mine.points_source}) against "
              f"{m.enemy.name} ({m.enemy.points} pts: {m.enemy.points_source})", markup=False)
    for (s, p) in m.grids:
        table, notes = _grid_table(m, s, p, value)
        out.print(table)
        targets = m.defenders(s).units
        out.print("  " + "; ".join(f"T{j} {u.label} ({u.points})"
                                   for j, u in enumerate(targets, 1)), markup=False)
        for n in notes:
            out.print(f"  - {n}", markup=False)
    if plot is not None:
        out.print(f"picture: {plot}", markup=False)


def _volleys(title: str, p: Plan, naive: bool) -> Table:
    table = Table(title=title, box=box.SIMPLE_HEAD, title_justify="left")
    who = "units charging, in order (P charge)" if p.phase == "fight" else \
        "units firing, in order"
    for col, just in (("target", "left"), (who, "left"), ("points", "right"),
                      ("models", "right"), ("P(destroy)", "right")):
        table.add_column(col, justify=just)  # type: ignore[arg-type]
    for v in p.naive_volleys if naive else p.volleys:
        units = [f"{u} ({c:.0%})" if p.phase == "fight" else u
                 for u, c in zip(v.order, v.p_charge or (1.0,) * len(v.order), strict=True)]
        table.add_row(v.target, ", then ".join(units), f"{v.outcome.points:.1f}",
                      f"{v.outcome.models:.2f}", f"{v.outcome.p_destroyed:.0%}")
    return table


def _how(p: Plan) -> str:
    """How the plan was found and how close to the best it is proved to be."""
    if p.method == "exhaustive":
        return f"the best of all {p.assignments} assignments (exhaustive search)"
    if p.method == "nothing to assign":
        return "no unit to assign"
    gap = p.gap or 0.0
    share = f" ({gap / p.bound:.2%})" if p.bound else ""
    if p.optimal:
        return (f"proved optimal by branch and price over {p.assignments:.3g} assignments "
                f"(its bound {p.bound:.1f} meets the plan; {p.branches} branches, "
                f"{p.volleys_evaluated} volleys evaluated)")
    return (f"the best found by branch and price over {p.assignments:.3g} assignments, "
            f"not proved optimal: bound {p.bound:.1f}, certified gap {gap:.1f}{share}")


def _charge_rolls(modifiers: list[str] | None) -> dict[str, int]:
    out: dict[str, int] = {}
    for text in modifiers or ():
        unit, sep, value = text.rpartition("=")
        try:
            number = int(value)
        except ValueError:
            number = 99
        if not sep or not unit.strip() or abs(number) > 6:
            fail(f"--charge-modifier {text!r}: write \"UNIT=+1\" (from -6 to +6)")
        out[unit.strip()] = number
    return out


def plan_command(
    mine: MyList, enemy: EnemyList,
    forbid: Annotated[list[str] | None, typer.Option(
        "--forbid", help="\"MY UNIT>ENEMY UNIT\": that unit cannot attack that target "
        "(out of range, not visible, engaged); repeatable")] = None,
    destroy: Annotated[list[str] | None, typer.Option(
        "--destroy", help="maximise the chance to destroy this enemy unit (repeatable; "
        "then the points)")] = None,
    objective: Annotated[str, typer.Option(
        "--objective", help="points (expected points destroyed) or threat (the enemy's "
        "expected points destroyed next turn, removed)")] = "points",
    phase: Annotated[str, typer.Option(
        "--phase", help="shooting (the shooting plan) or fight (the charge plan: which "
        "units charge which, each fight weighed by P(the charge reaches) at --distance)")
    ] = "shooting",
    charge_modifier: Annotated[list[str] | None, typer.Option(
        "--charge-modifier", help="\"UNIT=+1\": a modifier to that unit's charge rolls "
        "(repeatable)")] = None,
    reroll_charge: Annotated[list[str] | None, typer.Option(
        "--reroll-charge", help="UNIT: that unit re-rolls its charge rolls (repeatable)")
    ] = None,
    stationary: Stationary = False, half_range: HalfRange = False, cover: Cover = False,
    stratagem: Stratagem = None, distance: Distance = None, rules: Rules = "11th",
    json_out: Json = False, strict: Strict = False,
    plot: Annotated[Path | None, typer.Option(
        "--plot", help="draw the plan into FILE.png or FILE.svg: my units, their "
        "targets, the points and P(destroyed) on each arrow")] = None,
) -> None:
    """The shooting plan: each of my shooting units at one enemy unit, to destroy the most
    points (exact, overkill counted), beside the naive plan; with --phase fight, the
    charge plan."""
    if objective not in ("points", "threat"):
        fail(f"--objective {objective}: points or threat")
    if phase not in ("shooting", "fight"):
        fail(f"--phase {phase}: shooting or fight")
    every, pairs, units = _distances(distance)
    request = PlanRequest.from_words({
        "mine": mine, "enemy": enemy, "forbid": forbid or (), "destroy": destroy or (),
        "objective": objective, "phase": phase,
        "charge_modifiers": _charge_rolls(charge_modifier),
        "reroll_charges": reroll_charge or (), "stationary": stationary,
        "half_range": half_range, "cover": cover, "distance": every,
        "distances": {**units, **{f"{a}>{t}": d for (a, t), d in pairs.items()}},
        "stratagems": _conditions(None, False, False, False, stratagem).stratagems,
        "rules": rules, "strict": strict})
    p = request.run(load_library(), files=True)
    if plot is not None:
        plot_plan(p, plot)
    if json_out:
        typer.echo(json.dumps(p.to_json(), indent=2))
        return
    _print_plan(p)
    if plot is not None:
        typer.echo(f"picture: {plot}")


def _print_plan(p: Plan) -> None:
    out = Console(highlight=False, soft_wrap=False, width=max(100, Console().width))
    for w in p.warnings:
        out.print(f"warning: {w}", markup=False)
    out.print(f"Objective: {p.objective}", markup=False)
    for line in p.points_from:
        out.print(f"Points: {line}", markup=False)
    out.print(_volleys(f"The plan: {p.points:.1f} points destroyed", p, False))
    out.print(_volleys(f"The naive plan (each unit at its own best target): "
                       f"{p.naive_points:.1f} points destroyed", p, True))
    out.print(f"Method: {_how(p)}; {p.steps} attacks computed exactly.", markup=False)
    verb = "charge" if p.phase == "fight" else "shoot"
    for unit, why in p.idle.items():
        out.print(f"  - {unit} does not {verb}: {why}", markup=False)
    for n in p.notes:
        out.print(f"  - {n}", markup=False)
