"""The matrix and the plan at a distance (04.02 Select Targets: a weapon can only target
a unit within its range): ``--distance INCHES`` for every pair, ``"MY UNIT>ENEMY
UNIT=INCHES"`` for one, whichever side shoots; the fight is not affected.

By hand: Intercessors' weapons (bolt rifles, grenade launcher) reach 24", Gretchin's
Grot Blastas 12", Hellblasters' plasma incinerators 24": at 30" none of them fires; at
10" all of them do.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import tactica
from tactica.cli import commands
from tactica.library import Library, load_library
from tactica.names import UnknownNameError
from tactica.plan import Conditions, matchup_sides, read_side, solve
from tactica.plan.army import Armed, Side
from tactica.plan.cells import pair_scenario

pytest.importorskip("wh40kdc")

MINE = "Intercessor Squad:5, Hellblaster Squad"
ENEMY = "Gretchin:10"


@pytest.fixture(scope="module")
def lib() -> Library:
    return load_library()


@pytest.fixture(scope="module")
def sides(lib: Library) -> tuple[Side, Side]:
    return read_side(MINE, lib, name="my list"), read_side(ENEMY, lib, name="enemy list")


def _ranges(side: Side, label: str) -> set[int | str]:
    armed = side.unit(label).attack["shooting"]
    assert isinstance(armed, Armed)
    return {w.range for w in armed.built.attacker.weapons}


def test_the_units_reach_what_the_module_text_says(sides: tuple[Side, Side]) -> None:
    mine, enemy = sides
    assert _ranges(mine, "Intercessor Squad") == {24}
    assert _ranges(mine, "Hellblaster Squad") == {24}
    assert _ranges(enemy, "Gretchin") == {12}


def test_at_30_inches_nobody_shoots_and_the_cells_say_why(sides: tuple[Side, Side]) -> None:
    mine, enemy = sides
    m = matchup_sides(mine, enemy, conditions=Conditions(distance=30))
    plain = matchup_sides(mine, enemy)
    for side, c in m.cells():
        if c.phase == "shooting":
            # exact: nothing in range (or nothing can happen): a point mass at 0, no sum
            assert c.ok and c.models_destroyed == c.damage == c.points == 0.0, c
            assert c.notes and all(n.endswith('out of range at 30"') for n in c.notes
                                   if "out of range" in n)
            assert any("out of range" in n for n in c.notes)
        else:  # the fight: as without a distance
            other = plain.cell(side, "fight", c.attacker, c.target)
            assert (c.models_destroyed, c.points) == (other.models_destroyed, other.points)


def test_a_pair_has_its_own_distance_whichever_side_shoots(sides: tuple[Side, Side],
                                                           lib: Library) -> None:
    mine, enemy = sides
    conditions = Conditions(distance=30, distances={("Hellblaster Squad", "Gretchin"): 10})
    m = matchup_sides(mine, enemy, phases=("shooting",), conditions=conditions)
    at_10 = matchup_sides(mine, enemy, phases=("shooting",), conditions=Conditions(distance=10))
    for c, ref in ((m.cell("mine", "shooting", "Hellblaster Squad", "Gretchin"),
                    at_10.cell("mine", "shooting", "Hellblaster Squad", "Gretchin")),
                   (m.cell("enemy", "shooting", "Gretchin", "Hellblaster Squad"),
                    at_10.cell("enemy", "shooting", "Gretchin", "Hellblaster Squad"))):
        assert c.models_destroyed == ref.models_destroyed > 0
    # exact: nothing in range (or nothing can happen): a point mass at 0, no sum
    assert m.cell("mine", "shooting", "Intercessor Squad", "Gretchin").models_destroyed == 0.0
    # the cell is the calculator's answer on the same scenario at 10"
    armed = mine.unit("Hellblaster Squad").attack["shooting"]
    target = enemy.unit("Gretchin").target["shooting"]
    assert isinstance(armed, Armed) and not isinstance(target, str)
    scenario, _ = pair_scenario(armed, target, "shooting", mine.rules, conditions.for_sides(
        mine, enemy), "Hellblaster Squad", "Gretchin")
    assert scenario.context.distance == 10
    assert tactica.calculate(scenario).models_destroyed.mean == pytest.approx(
        m.cell("mine", "shooting", "Hellblaster Squad", "Gretchin").models_destroyed,
        abs=1e-12)
    js = m.to_json()["conditions"]
    assert js["distance"] == 30 and js["distances"] == [
        {"mine": "Hellblaster Squad", "enemy": "Gretchin", "inches": 10}]


def test_a_pair_naming_no_unit_is_refused(sides: tuple[Side, Side]) -> None:
    mine, enemy = sides
    with pytest.raises(UnknownNameError, match="Nobody"):
        matchup_sides(mine, enemy, conditions=Conditions(distances={("Nobody", "Gretchin"): 9}))


def test_the_plan_leaves_a_unit_with_no_target_in_range_idle(sides: tuple[Side, Side]) -> None:
    mine, enemy = sides
    p = solve(mine, enemy, Conditions(distance=30,
                                      distances={("Hellblaster Squad", "Gretchin"): 10}))
    assert p.idle == {"Intercessor Squad": "no target within range"}
    assert [(v.target, v.order) for v in p.volleys] == [("Gretchin", ("Hellblaster Squad",))]
    assert p.points > 0
    nobody = solve(mine, enemy, Conditions(distance=30))
    assert nobody.volleys == () and set(nobody.idle.values()) == {"no target within range"}


def _cli(*args: str) -> tuple[int, str]:
    run = CliRunner().invoke(commands.app, list(args))
    return run.exit_code, run.output


def test_the_command_line_takes_a_distance_and_pairs() -> None:
    code, text = _cli("matchup", MINE, ENEMY, "--phase", "shooting", "--json",
                      "--distance", "30", "--distance", "Hellblaster Squad>Gretchin=10")
    assert code == 0, text
    doc = json.loads(text)
    cells = {(c["attacker"], c["target"]): c for c in doc["cells"]}
    # exact: nothing in range (or nothing can happen): a point mass at 0, no sum
    assert cells[("Intercessor Squad", "Gretchin")]["models_destroyed"] == 0.0
    assert cells[("Hellblaster Squad", "Gretchin")]["models_destroyed"] > 0
    code, text = _cli("plan", MINE, ENEMY, "--distance", "30")
    assert code == 0 and "no target within range" in text, text
    code, text = _cli("matchup", MINE, ENEMY, "--phase", "shooting", "--json",
                      "--distance", "30", "--distance", "Hellblaster Squad=10")
    assert code == 0, text  # one unit's distance to every unit of the other side
    cells = {(c["attacker"], c["target"]): c for c in json.loads(text)["cells"]}
    # exact: out of range, no attack: a point mass at 0
    assert cells[("Intercessor Squad", "Gretchin")]["models_destroyed"] == 0.0
    assert cells[("Hellblaster Squad", "Gretchin")]["models_destroyed"] > 0
    for bad in ("far", "-1", "Hellblaster Squad>=10", "=10", "Hellblaster Squad>Gretchin=999"):
        code, text = _cli("matchup", MINE, ENEMY, "--distance", bad)
        assert code != 0 and "--distance" in text and len(text.strip().splitlines()) == 1, text
