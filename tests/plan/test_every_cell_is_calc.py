"""One fielding per matchup (issue 46): every cell of the matrix of two real lists is what
``tactica calc --list MINE --attacker UNIT --target ENEMY ...`` prints for that pair, the
attacker fielded against that target (a weapon with several profiles picks per target:
Dark Reapers' Reaper launcher, the Avatar of Khaine's Wailing Doom).

The command line is the independent route here: it builds its scenario from its own
options (``cli/calc.py``), the matrix from the sides (``plan/army.py``, ``plan/cells.py``).
The default run checks every cell of the profile-choosing units and a sample of the rest;
the slow suite checks every cell."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from tactica.cli import commands
from tactica.library import load_library
from tactica.plan import Matchup, matchup_sides, read_side
from tactica.plan.army import SideUnit

from .helpers import ROSTERS

pytest.importorskip("wh40kdc")

MINE, ENEMY = "official_9.txt", "official_16.txt"  # Aeldari, Orks (the app's exports)
#: The cells the issue named: the matrix once fired one profile at every enemy.
NAMED = {("Dark Reapers", "Gretchin"), ("Avatar of Khaine", "Kill Rig")}


@pytest.fixture(scope="module")
def matrix() -> Matchup:
    lib = load_library()
    mine, enemy = read_side(ROSTERS / MINE, lib), read_side(ROSTERS / ENEMY, lib)
    return matchup_sides(mine, enemy)


def _several_profiles(unit: SideUnit) -> bool:
    return any("–" in w.name or " - " in w.name
               for phase in ("shooting", "fight")
               for w in getattr(unit.attack.get(phase), "built", None).attacker.weapons
               if getattr(unit.attack.get(phase), "built", None) is not None)


def _calc(cell_attacker: str, enemy: SideUnit, phase: str) -> dict[str, float]:
    args = ["calc", "--list", str(ROSTERS / MINE), "--attacker", cell_attacker,
            "--target", enemy.body.name, "--target-models", str(enemy.body.models),
            "--phase", phase, "--json"]
    for leader in enemy.leaders:
        args += ["--target-led-by", leader.name]
    if phase == "fight":
        args.append("--charged")
    done = CliRunner().invoke(commands.app, args)
    assert done.exit_code == 0, (args, done.output)
    doc = json.loads(done.stdout)
    return {"models": doc["models_destroyed"]["mean"], "p": doc["p_unit_destroyed"]}


def _cells(m: Matchup, every: int) -> list[tuple[str, str, str]]:
    out = []
    mine = m.attackers("mine")
    for n, (side, cell) in enumerate(m.cells()):
        if side != "mine" or not cell.ok:
            continue
        enemy = m.defenders(side).unit(cell.target)
        if any(u.attach_role == "support" for u in enemy.leaders):
            continue  # the command line names no support unit of a target
        unit = mine.unit(cell.attacker)
        named = (unit.body.name, enemy.body.name) in NAMED
        if named or _several_profiles(unit) or n % every == 0:
            out.append((cell.attacker, cell.target, cell.phase))
    return out


def _check(m: Matchup, cells: list[tuple[str, str, str]]) -> None:
    for attacker, target, phase in cells:
        cell = next(c for s, c in m.cells() if s == "mine" and c.attacker == attacker
                    and c.target == target and c.phase == phase)
        enemy = m.defenders("mine").unit(target)
        printed = _calc(m.attackers("mine").unit(attacker).body.name
                        if "#" not in attacker else attacker.replace(" #", "#"),
                        enemy, phase)
        assert math.isclose(cell.models_destroyed, printed["models"], abs_tol=1e-9), \
            (attacker, target, phase, cell.models_destroyed, printed)
        assert math.isclose(cell.p_destroyed, printed["p"], abs_tol=1e-9), \
            (attacker, target, phase)


def test_the_named_cells_are_what_calc_prints(matrix: Matchup) -> None:
    cells = [c for c in _cells(matrix, 10**9)
             if (c[0].split(" #")[0], c[1].split(" #")[0].split(" + ")[0]) in NAMED]
    assert {(a.split(" #")[0], t.split(" #")[0].split(" + ")[0]) for a, t, _ in cells} \
        == NAMED
    _check(matrix, cells)



def test_unit_names_pick_per_target_too() -> None:
    """Sides of unit names (the datasheets' default loadouts) against the calculator's
    own fielding of the same units: Dark Reapers at 10 Gretchin take Starswarm."""
    m = matchup_sides(read_side("Dark Reapers"), read_side("Gretchin:10, Kill Rig"))
    for target, args in (("Gretchin", ["--target-models", "10"]), ("Kill Rig", [])):
        cell = next(c for s, c in m.cells() if s == "mine" and c.target == target
                    and c.phase == "shooting")
        done = CliRunner().invoke(commands.app, [
            "calc", "--attacker", "Dark Reapers", "--target", target, *args, "--json"])
        doc = json.loads(done.stdout)
        assert math.isclose(cell.p_destroyed, doc["p_unit_destroyed"], abs_tol=1e-9)
        assert math.isclose(cell.models_destroyed, doc["models_destroyed"]["mean"],
                            abs_tol=1e-9)
    # the list's Dark Reapers at 10 Gretchin (the figures: 5.69 and 0.0035 when
    # the matrix fired the profile picked against its default target)
    m = matchup_sides(read_side(ROSTERS / MINE), read_side("Gretchin:10"))
    cell = next(c for s, c in m.cells() if s == "mine" and c.phase == "shooting"
                and c.attacker == "Dark Reapers")
    assert cell.p_destroyed > 0.9 and cell.models_destroyed > 9.5


def test_profile_choosing_units_and_a_sample_are_what_calc_prints(matrix: Matchup) -> None:
    cells = _cells(matrix, 7)
    assert len(cells) >= 20
    _check(matrix, cells)


@pytest.mark.slow
def test_every_cell_is_what_calc_prints(matrix: Matchup) -> None:
    _check(matrix, _cells(matrix, 1))
