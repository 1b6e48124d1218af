"""Caches by value on the plan (issue 42, part 6): random volleys of random sides drawn
from the packaged library (units of any faction at a size their datasheet allows, the
table's circumstances: cover, a stationary unit, half range, a distance, the phase)
computed together (one ``Volleys``: the target's states shared between orders that
start alike, the engine's work per pair), in order and reversed, each alone (a fresh
``Volleys``), and again with every cache cleared (the sides read again) give the same
outcomes, bit for bit; the matrix's cells likewise (one memo per grid, as
``matchup_sides`` shares it, against none). A one-unit volley is also checked against its
cell (``calculate_exact``'s figures; the volley reads them off the final states).

The comparisons are ``==`` on whole outcomes and cells: the same arithmetic on the same
numbers (a cache hands back the very floats computed), so equality is the property.

``QUICK`` examples in the default run; ``VOLUME`` in the slow suite.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from meta.test_rows_property import cold
from tactica.combat.contract.scenario import ScenarioError, Target
from tactica.library import Library, load_library
from tactica.model.datasheet import EscalatingPoints
from tactica.plan import read_side
from tactica.plan.army import Side, SideError
from tactica.plan.cells import Cell, Conditions, compute_cell
from tactica.plan.volley import Outcome, Volleys

QUICK, VOLUME = 15, 1000
_SETTINGS = settings(max_examples=QUICK, derandomize=True, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow,
                                            HealthCheck.data_too_large,
                                            HealthCheck.filter_too_much])


@cache
def _lib() -> Library:
    return load_library()


@cache
def _units() -> tuple[str, ...]:
    return tuple(sorted({d.name for d in _lib().datasheets("11th")}))


@cache
def _sizes(name: str) -> tuple[int, ...]:
    """The sizes the unit's datasheet prices (its first tier's, if escalating)."""
    points = _lib().datasheet(name, "11th").points
    if isinstance(points, EscalatingPoints):
        points = next(t.brackets for t in points.tiers if t.first == 1)
    return tuple(sorted({b.models for b in points or ()}))


@st.composite
def _unit(draw: st.DrawFn) -> str:
    name = draw(st.sampled_from(_units()))
    sizes = _sizes(name)
    return f"{name}:{draw(st.sampled_from(sizes))}" if sizes else name


class Drawn:
    """Two sides (unit names with sizes), the circumstances, the phase, and volleys as
    (enemy unit, my units in order) by index, taken modulo the units read."""

    def __init__(self, mine: list[str], enemy: list[str], conditions: Conditions,
                 phase: str, volleys: list[tuple[int, tuple[int, ...]]]) -> None:
        self.mine, self.enemy, self.conditions = mine, enemy, conditions
        self.phase, self.volleys = phase, volleys

    def __repr__(self) -> str:
        return (f"Drawn(mine={self.mine!r}, enemy={self.enemy!r}, "
                f"conditions={self.conditions!r}, phase={self.phase!r}, "
                f"volleys={self.volleys!r})")


@st.composite
def drawn(draw: st.DrawFn) -> Drawn:
    mine = draw(st.lists(_unit(), min_size=1, max_size=3))
    enemy = draw(st.lists(_unit(), min_size=1, max_size=2))
    phase = draw(st.sampled_from(["shooting", "fight"]))
    conditions = Conditions(cover=draw(st.booleans()), stationary=draw(st.booleans()),
                            half_range=draw(st.booleans()),
                            distance=draw(st.sampled_from([None, 3.0, 9.0, 18.0, 30.0])))
    orders = st.lists(st.integers(0, 2), min_size=1, max_size=3, unique=True)
    volleys = draw(st.lists(st.tuples(st.integers(0, 1), orders.map(tuple)), min_size=1,
                            max_size=5))
    return Drawn(mine, enemy, conditions, phase, volleys)


def _sides(d: Drawn) -> tuple[Side, Side]:
    lib = _lib()
    return (read_side(", ".join(d.mine), lib, name="my list"),
            read_side(", ".join(d.enemy), lib, name="enemy list"))


def _volleys(d: Drawn, mine: Side, enemy: Side) -> list[tuple[int, tuple[int, ...]]]:
    """The drawn volleys on the units read (each index modulo their count, repeats
    left out of an order), at the enemy units that can be attacked in the phase (the
    plan asks no volley at another)."""
    n, m = len(mine.units), len(enemy.units)
    return [(j % m, tuple(dict.fromkeys(i % n for i in order))) for j, order in d.volleys
            if isinstance(enemy.units[j % m].target.get(d.phase), Target)]


def _outcome(v: Volleys, j: int, order: tuple[int, ...]) -> Outcome | str:
    try:
        return v.outcome(j, order)
    except ScenarioError as exc:
        return str(exc)


def _together(d: Drawn, mine: Side, enemy: Side, reverse: bool = False
              ) -> list[Outcome | str]:
    v = Volleys(mine, enemy, d.conditions, d.phase)  # type: ignore[arg-type]
    todo = _volleys(d, mine, enemy)
    got = [_outcome(v, j, order) for j, order in (todo[::-1] if reverse else todo)]
    return got[::-1] if reverse else got


def _alone(d: Drawn, mine: Side, enemy: Side) -> list[Outcome | str]:
    return [_outcome(Volleys(mine, enemy, d.conditions, d.phase),  # type: ignore[arg-type]
                     j, order) for j, order in _volleys(d, mine, enemy)]


def _cells(d: Drawn, mine: Side, enemy: Side, shared: bool) -> list[Cell]:
    """Every cell of my units at the enemy's, through one memo (``matchup_sides``'s
    way) or each through none."""
    memo: dict[Any, Any] = {}
    return [compute_cell(a, e, d.phase, mine.rules, d.conditions,  # type: ignore[arg-type]
                         memo if shared else None)
            for a in mine.units for e in enemy.units]


def check_volleys(d: Drawn) -> None:
    try:
        mine, enemy = _sides(d)
    except SideError:  # a drawn list the reader refuses (a size, a combination)
        assume(False)
        raise
    together = _together(d, mine, enemy)
    cells = _cells(d, mine, enemy, shared=True)
    assert _together(d, mine, enemy, reverse=True) == together
    assert _alone(d, mine, enemy) == together
    assert _cells(d, mine, enemy, shared=False) == cells
    cold()
    mine, enemy = _sides(d)
    # exact: the same arithmetic on the same numbers (a cache hands back its floats)
    assert _together(d, mine, enemy, reverse=True) == together
    assert _cells(d, mine, enemy, shared=True) == cells
    n = len(enemy.units)
    for (j, order), got in zip(_volleys(d, mine, enemy), together, strict=True):
        cell = cells[order[0] * n + j]
        charged = d.phase == "fight" and d.conditions.distance is not None
        if len(order) == 1 and isinstance(got, Outcome) and cell.ok and not charged:
            # two routes: the volley's final states, the cell's result document (a
            # charge at a distance weighs the volley by P(it reaches), not the cell)
            assert math.isclose(got.models, cell.models_destroyed, rel_tol=0,
                                abs_tol=1e-9)
            assert math.isclose(got.p_destroyed, cell.p_destroyed, rel_tol=0,
                                abs_tol=1e-9)


@_SETTINGS
@given(drawn())
def test_a_plan_gives_each_volley_and_cell_what_it_gives_alone_and_cleared(
        d: Drawn) -> None:
    check_volleys(d)


test_a_plan_gives_each_volley_and_cell_what_it_gives_alone_and_cleared_at_volume = \
    pytest.mark.slow(settings(_SETTINGS, max_examples=VOLUME)(given(drawn())(
        check_volleys)))
