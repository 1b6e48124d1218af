"""What the player sees of a plan (issue 48 item 6): the plan drawn (my units, their
targets, the points each adds and P(destroyed) on each arrow), units that add nothing
left unassigned and said so, and a cell's applied rules in its notes.

Each arrow's points are checked against the matrix: the first unit at a target does
alone what its matrix cell says (a separate route through the engine: the batch of the
matrix, not the volley's carried states)."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest

from tactica.library import load_library
from tactica.plan import matchup_sides, read_side, solve
from tactica.plan.plot import arrow_label, arrows, plot_plan
from tactica.plan.solver import _unneeded

MINE = "Intercessor Squad:10, Intercessor Squad:10, Mek Gunz, Fire Dragons:5"
ENEMY = "Cadian Shock Troops:20, Rhino"


@pytest.fixture(scope="module")
def drawn() -> tuple[object, object, object]:
    lib = load_library()
    mine, enemy = read_side(MINE, lib), read_side(ENEMY, lib)
    return mine, enemy, solve(mine, enemy)


def test_each_arrow_carries_what_its_unit_adds(drawn: tuple) -> None:  # type: ignore[type-arg]
    mine, enemy, p = drawn
    shown = arrows(p)
    assert {a for a, *_ in shown} == {u.label for u in mine.units} - set(p.idle)
    m = matchup_sides(mine, enemy, phases=("shooting",), sides=("mine",))
    for v in p.volleys:
        mine_at = [x for x in shown if x[1] == v.target]
        assert [a for a, *_ in mine_at] == list(v.order)
        assert math.isclose(sum(x[2] for x in mine_at), v.outcome.points, rel_tol=1e-9)
        assert mine_at[-1][3] == pytest.approx(v.outcome.p_destroyed, abs=1e-12)
        first, _, points, p_dead = mine_at[0]
        cell = m.cell("mine", "shooting", first, v.target)
        assert points == pytest.approx(cell.points, rel=1e-9)
        assert p_dead == pytest.approx(cell.p_destroyed, abs=1e-9)
        assert all(x[2] >= 0 for x in mine_at)
        # P(destroyed) only grows as units attack in turn
        assert all(a[3] <= b[3] + 1e-12 for a, b in itertools.pairwise(mine_at))
    assert len(shown) >= 3 and len(p.volleys) >= 1


def test_the_plan_drawn_as_svg_and_png(drawn: tuple, tmp_path: Path) -> None:  # type: ignore[type-arg]
    _, _, p = drawn
    svg = plot_plan(p, tmp_path / "plan.svg").read_text(encoding="utf-8")
    for unit, target, points, p_dead in arrows(p):
        assert unit in svg and target in svg
        assert arrow_label(points, p_dead) in svg
    png = plot_plan(p, tmp_path / "plan.png").read_bytes()
    assert png.startswith(b"\x89PNG")
    with pytest.raises(ValueError, match=r"a picture is \.png or \.svg"):
        plot_plan(p, tmp_path / "plan.pdf")


def test_the_cli_draws_the_plan(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tactica.cli import commands

    out = tmp_path / "p.svg"
    res = CliRunner().invoke(commands.app, ["plan", "Intercessor Squad:10",
                                            "Cadian Shock Troops:20", "--plot", str(out)])
    assert res.exit_code == 0, res.output
    assert "Intercessor Squad" in out.read_text(encoding="utf-8")
    assert f"picture: {out}" in res.stdout


class _Additive:
    """A plan's value as each unit's worth at its target (0 where it adds nothing)."""

    def __init__(self, worth: list[dict[int, float]]) -> None:
        self.worth = worth

    def value(self, a: tuple[int | None, ...]) -> float:
        return sum(self.worth[k].get(j, 0.0) for k, j in enumerate(a) if j is not None)


def test_a_unit_adding_nothing_is_left_without_a_target() -> None:
    p = _Additive([{0: 5.0}, {0: 0.0, 1: 0.0}, {1: 1e-3}])
    assert _unneeded(p, (0, 1, 1)) == (0, None, 1)  # type: ignore[arg-type]
    assert _unneeded(p, (0, None, 1)) == (0, None, 1)  # type: ignore[arg-type]


def test_a_cell_lists_the_rules_applied() -> None:
    """Fire Dragons' Assured Destruction (re-rolls against a MONSTER or VEHICLE) is in
    the Rhino's cell's notes, not in the Intercessors'."""
    lib = load_library()
    m = matchup_sides(read_side("Fire Dragons:5", lib),
                      read_side("Rhino, Intercessor Squad:5", lib), phases=("shooting",),
                      sides=("mine",))
    rhino = m.cell("mine", "shooting", "Fire Dragons", "Rhino")
    marines = m.cell("mine", "shooting", "Fire Dragons", "Intercessor Squad")
    assert any(n.startswith("applied: Assured Destruction") for n in rhino.notes)
    assert not any("Assured Destruction" in n for n in marines.notes)
