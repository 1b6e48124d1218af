"""A plan's volley with a Blast unit after other units at the same target, checked by a
Monte Carlo simulation written here (numpy, die by die; not the engine's sampled twin).

Two Intercessor Squads and a Mek Gun at twenty Cadian Shock Troops (the only target):
three units at one target fire in the order of what each does alone, so the Mek Gun's
Smasha Gun ([BLAST]) fires last and gathers D3+1 attack dice plus one for every five
Cadians still alive when its unit selects its targets (24.05), not the twenty's four.
Every Cadian has one wound and the same save, so each failed save destroys one model
while any is left: the simulation needs no allocation.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from tactica.combat.contract.scenario import Scenario, Target
from tactica.library import load_library
from tactica.plan import read_side, solve
from tactica.plan.army import Armed
from tactica.plan.cells import Conditions, pair_scenario

from .helpers import removal_costs

pytest.importorskip("wh40kdc")

TRIALS = 200_000


def _roll(expr: str, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` rolls of "3", "D3", "D3+1" or "2D6" (each die a uniform draw)."""
    m = re.fullmatch(r"(\d*)D(\d+)([+-]\d+)?|(\d+)", expr)
    assert m is not None, expr
    if m.group(4):
        return np.full(n, int(m.group(4)))
    dice, sides, plus = int(m.group(1) or 1), int(m.group(2)), int(m.group(3) or 0)
    return rng.integers(1, sides + 1, size=(n, dice)).sum(axis=1) + plus


def _needed_to_wound(s: int, t: int) -> int:
    return 2 if s >= 2 * t else 3 if s > t else 4 if s == t else 6 if 2 * s <= t else 5


def _simulate(scenarios: list[Scenario], models: int, rng: np.random.Generator,
              full_strength: bool = False) -> np.ndarray:
    """Models left after each unit shoots in turn, per trial. ``full_strength``: Blast
    counts all ``models`` whatever is left (the old reading, for the test's power)."""
    alive = np.full(TRIALS, models)
    for s in scenarios:
        (group,) = {(g.T, g.Sv, g.W, g.invuln, g.fnp) for g in s.target.models}
        t, sv, w, invuln, fnp = group
        assert w == 1 and invuln is None and fnp is None
        counted = np.full(TRIALS, models) if full_strength else alive.copy()
        unsaved = np.zeros(TRIALS, dtype=np.int64)
        for line in s.attacker.weapons:
            names = {str(a) for a in line.abilities}
            # Heavy needs a stationary unit, Rapid Fire half range, Assault an Advance:
            # none is stated
            assert names <= {"Heavy", "Rapid Fire 1", "Blast", "Assault"}, names
            dice = sum(_roll(str(line.A), TRIALS, rng) for _ in range(line.count))
            if "Blast" in names:
                dice = dice + line.count * (counted // 5)
            hits = rng.binomial(dice, (7 - line.skill) / 6)
            wounds = rng.binomial(hits, (7 - _needed_to_wound(line.S, t)) / 6)
            save = sv - line.AP  # AP is 0 or negative
            unsaved += rng.binomial(wounds, min(1.0, (save - 1) / 6))
        alive = alive - np.minimum(alive, unsaved)
    return alive


def test_a_blast_unit_after_others_matches_a_simulation() -> None:
    lib = load_library()
    mine = read_side("Intercessor Squad:10, Intercessor Squad:10, Mek Gunz", lib)
    enemy = read_side("Cadian Shock Troops:20", lib)
    plan = solve(mine, enemy)
    (volley,) = plan.volleys
    assert volley.order == ("Intercessor Squad #1", "Intercessor Squad #2", "Mek Gunz")
    foe = enemy.unit(volley.target)
    target = foe.target["shooting"]
    scenarios = []
    for label in volley.order:
        assert isinstance(target, Target)
        armed = mine.unit(label).armed("shooting", target)  # picked against the Cadians
        assert isinstance(armed, Armed)
        s = pair_scenario(armed, target, "shooting", mine.rules, Conditions(), label,
                          pending=foe.pending["shooting"])[0]
        assert not s.effects and s.context.distance is None
        assert not s.context.remained_stationary and s.context.within_half_range is None
        scenarios.append(s)
    models = sum(g.count for g in scenarios[0].target.models)
    costs = np.array(removal_costs(scenarios[0].target, foe.entry_points))
    rng = np.random.default_rng(41)
    points = costs[models - _simulate(scenarios, models, rng)]
    se = float(points.std(ddof=1)) / math.sqrt(TRIALS)
    assert abs(float(points.mean()) - volley.outcome.points) <= 4 * se
    assert math.isclose(plan.points, volley.outcome.points)
    # the test can tell: Blast counted from all twenty is far outside 4 standard errors
    old = costs[models - _simulate(scenarios, models, rng, full_strength=True)]
    assert float(old.mean()) - volley.outcome.points > 20 * se
