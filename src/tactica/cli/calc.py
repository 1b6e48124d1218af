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
from typing import Annotated, Any, Literal

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..combat import Result, Scenario, calculate
from ..combat.scenario import Attacker, Context, Effect, WeaponLine
from ..errors import one_line
from ..model.abilities import RapidFire
from ..model.common import RulesVersion
from ..model.datasheet import Datasheet, WeaponProfile
from .errors import FLAG_WORDS, fail

__all__ = ["build_attacker", "calc", "render_result"]


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
            count = models
            if count_text.strip():
                if not count_text.strip().isascii() or not count_text.strip().isdigit() \
                        or not 1 <= int(count_text) <= models:
                    raise typer.BadParameter(
                        f"{spec!r}: COUNT in NAME:COUNT is a whole number from 1 to {models} "
                        "(the models in the unit)", param_hint="--weapon")
                count = int(count_text)
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
    rules = tuple(dict.fromkeys(str(a) for a in sheet.abilities))
    return Attacker(name=sheet.name, keywords=kws, weapons=lines, abilities=rules), notes


def _embark(lib: Any, transport: Datasheet, atk: Attacker, spec: str,
            phase: str) -> tuple[Attacker, list[str]]:
    """``--embarked NAME[:MODELS]``: the passengers' default guns (one per model, up to
    the transport's Firing Deck X) join the transport's attack (``army.firing_deck``)."""
    from ..army.firing_deck import firing_deck_size, with_firing_deck

    if phase != "shooting":
        raise typer.BadParameter("Firing Deck shoots in the shooting phase",
                                 param_hint="--embarked")
    name, _, count = spec.partition(":")
    try:
        x = firing_deck_size(transport)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--embarked") from None
    passengers = lib.datasheet(name.strip())
    if count.strip() and not count.strip().isdigit():
        raise typer.BadParameter(f"{spec!r}: MODELS must be a number", param_hint="--embarked")
    n = int(count) if count.strip() else sum(c.min for c in passengers.composition) or 1
    lines, notes = build_attacker(passengers, min(n, x), "shooting", [])
    atk, more = with_firing_deck(atk, x, passengers.name, lines.weapons)
    return atk, notes + more


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
        stages.add_row(Text(st.weapon), Text(st.stage), Text(st.detail))
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
    for note in dict.fromkeys([*(extra_notes or []), *result.notes]):
        console.print(f"[dim]note:[/dim] {escape(note)}")
    for item in result.not_calculated:
        console.print(f"[yellow]not calculated:[/yellow] {escape(item)}")
    if result.effects_applied:
        console.print(Text(f"effects: {', '.join(result.effects_applied)} "
                           f"({result.cp_spent}CP)"))


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


def _check_effects(effects: list[str]) -> None:
    """A named effect (a stratagem, an enhancement) is used once: given twice, it would be
    paid and applied twice."""
    seen: set[str] = set()
    for text in effects:
        key = " ".join(text.split()).casefold()
        if not key.startswith("{") and "=" not in key:
            if key in seen:
                raise typer.BadParameter(f"{text!r} is given twice (each effect is used once)",
                                         param_hint="--effect")
            seen.add(key)


def _check_models(sheet: Datasheet, models: int) -> None:
    """``--models`` within the datasheet's unit composition (its minimum and maximum)."""
    if not sheet.composition:
        return
    low = sum(c.min for c in sheet.composition)
    high = sum(c.max for c in sheet.composition)
    if not low <= models <= high:
        allowed = f"{low}" if low == high else f"{low} to {high}"
        raise typer.BadParameter(f"{sheet.name} has {allowed} model{'s' if high > 1 else ''}",
                                 param_hint="--models")


def _check_leaders(sheet: Datasheet, leaders: list[str], lib: Any) -> None:
    """Each ``--led-by`` unit can lead this one (its datasheet's Leader list)."""
    for name in leaders:
        try:
            leader = lib.datasheet(name)
        except LookupError:
            continue  # reported as a note: its abilities are not applied
        if not leader.leader_of:
            raise typer.BadParameter(f"{leader.name} is not a Leader", param_hint="--led-by")
        from ..names import name_key

        if name_key(sheet.name) not in {name_key(n) for n in leader.leader_of}:
            raise typer.BadParameter(
                f"{leader.name} cannot lead {sheet.name}; it leads: "
                f"{', '.join(leader.leader_of)}", param_hint="--led-by")


def _rules_note(sheet: Datasheet, rules: str) -> str | None:
    if sheet.rules == rules:
        return None
    return (f"{sheet.name}: the library has no {rules}-edition datasheet; its "
            f"{sheet.rules}-edition stats are used under the {rules} rules")


def calc(
    file: Annotated[str | None, typer.Argument(help="scenario JSON file, or - for stdin")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the result document")] = False,
    attacker: Annotated[str | None, typer.Option(help="attacking unit from the library")] = None,
    models: Annotated[int | None, typer.Option(
        min=1, help="models in the attacking unit (within its datasheet's range)")] = None,
    weapon: Annotated[list[str] | None, typer.Option(help="NAME or NAME:COUNT (repeat)")] = None,
    target: Annotated[str | None, typer.Option(help="preset (meq, geq, ...) or unit")] = None,
    target_models: Annotated[int | None, typer.Option(
        min=1, max=1000, help="models in the target")] = None,
    phase: Annotated[Literal["shooting", "fight"], typer.Option(
        help="shooting or fight")] = "shooting",
    rules: Annotated[Literal["11th", "10th"], typer.Option(help="11th or 10th")] = "11th",
    distance: Annotated[float | None, typer.Option(
        min=0, max=1000, help="inches to the target")] = None,
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
        min=1, help="wounds left on the attacking model (Damaged profiles)")] = None,
    game_mode: Annotated[str, typer.Option(
        help="standard, boarding actions or combat patrol")] = "standard",
    designated: Annotated[list[str] | None, typer.Option(
        help="a rule whose chosen enemy unit the target is (Oath of Moment); repeatable. "
        "Not given: naming such a rule says the target is its chosen unit")] = None,
    monte_carlo: Annotated[
        int | None, typer.Option("--monte-carlo", min=1, help="sample N trials")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Monte Carlo seed")] = None,
    embarked: Annotated[str | None, typer.Option(
        help="NAME[:MODELS]: a unit embarked in the attacking TRANSPORT; its models' guns "
        "join the attack through Firing Deck")] = None,
    list_file: Annotated[Path | None, typer.Option(
        "--list", help="army list file: --attacker is the unit as built in it (models, "
        "wargear, attached leader, enhancement, detachment rule)")] = None,
) -> None:
    """Compute the exact odds of an attack (a scenario file, or units from the library)."""
    out = Console(width=120) if not sys.stdout.isatty() else Console()
    notes: list[str] = []
    rules_note: str | None = None
    _check_effects(effect or [])
    if file is not None and (file.casefold() in FLAG_WORDS and not Path(file).exists()):
        fail(f"flags such as --charged take no value: remove {file!r}")
    if file is not None and (attacker or target or list_file or weapon or models or led_by
                             or embarked):
        fail("give a scenario FILE or --attacker and --target, not both (the file's attacker "
             "and target would be used and the flags ignored)")
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
                if models is not None:
                    _check_models(sheet, models)
                n = models or sum(c.min for c in sheet.composition) or 1
                atk, notes = build_attacker(sheet, n, phase, weapon or [])
            _check_leaders(sheet, led_by or [], lib)
            rules_note = _rules_note(sheet, rules)
            if rules_note is not None:
                notes.insert(0, rules_note)
            if embarked is not None:
                atk, more = _embark(lib, sheet, atk, embarked, phase)
                notes += more
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
    except typer.BadParameter:
        raise
    except ValidationError as exc:
        fail(f"invalid scenario: {one_line(exc)}")
    except (ValueError, LookupError, OSError) as exc:
        fail(one_line(exc))
    if rules_note is not None:
        result = result.model_copy(update={"notes": (rules_note, *result.notes)})
    if as_json:
        typer.echo(result.model_dump_json(indent=2))
    else:
        render_result(result, out, notes)
