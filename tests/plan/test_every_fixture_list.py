"""Lists as players export them (issue 48): every list of the project's fixtures that can
be read at all (the app's text, New Recruit text and JSON, WTC, List Forge, Rosterizer),
legal or not, gets a matrix and a plan, its rule problems listed as warnings; read
strictly, a list with problems is refused naming them. The default run checks every
other fixture; the slow suite all of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tactica.library import load_library
from tactica.plan import SideError, matchup_sides, read_side, solve

pytest.importorskip("wh40kdc")

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "rosters"
LISTS = sorted(p for p in FIXTURES.rglob("*") if p.is_file() and (
    p.name.startswith("input.") or p.parent.name == "gw-app-11e"))
ENEMY = "Intercessor Squad:10, Gretchin:10"


def _check(path: Path) -> None:
    lib = load_library()
    try:
        side = read_side(path, lib)
    except SideError as exc:  # a list that cannot be read at all: one line, its file
        assert "\n" not in str(exc) and path.name in str(exc), str(exc)
        return
    enemy = read_side(ENEMY, lib)
    m = matchup_sides(side, enemy, phases=("shooting",), sides=("mine",))
    assert len(m.grids[("mine", "shooting")]) == len(side.units)
    plan = solve(side, enemy)
    assert plan.warnings == side.warnings
    assert all(str(path) in w for w in side.warnings)
    if side.warnings:
        with pytest.raises(SideError):
            read_side(path, lib, strict=True)


@pytest.mark.parametrize("path", [pytest.param(p, marks=() if i % 2 == 0 else
                                               pytest.mark.slow)
                                  for i, p in enumerate(LISTS)],
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_readable_fixture_list_gets_a_matrix_and_a_plan(path: Path) -> None:
    _check(path)


def test_the_fixtures_hold_lists_of_every_kind() -> None:
    kinds = {p.name.split(".")[1] if p.name.startswith("input.") else "gw-app" for p in LISTS}
    assert {"gw", "listforge-text", "newrecruit-json", "rosterizer", "gw-app"} <= kinds, kinds
