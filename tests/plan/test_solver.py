"""The shooting plan, checked by evaluations that do not use its code: every assignment
and every firing order evaluated by the sequence engine (``tactica.combat.turn`` on a
sequence document), and the plan's volleys likewise.
"""

from __future__ import annotations

import itertools
import math

import pytest

from tactica.combat.contract.scenario import Target
from tactica.library import load_library
from tactica.plan import Side, matchup_sides, read_side, solve
from tactica.plan.army import Armed
from tactica.plan.cells import Conditions, pair_scenario
from tactica.plan.solver import Plan

from .helpers import REAL_LISTS, ROSTERS, has_precision, sequence_points

pytest.importorskip("wh40kdc")


def _scenario(mine: Side, enemy: Side, attacker: str, target: str) -> object:
    unit, foe = mine.unit(attacker), enemy.unit(target)
    aimed = foe.target["shooting"]
    assert isinstance(aimed, Target)
    armed = unit.armed("shooting", aimed)  # its profiles picked against this target
    assert isinstance(armed, Armed)
    return pair_scenario(armed, aimed, "shooting", mine.rules, Conditions(), unit.label,
                         pending=foe.pending["shooting"])[0]


def _independent(mine: Side, enemy: Side, groups: dict[str, tuple[str, ...]]) -> float:
    """The expected points destroyed of these volleys (target -> units in firing order),
    by the sequence engine."""
    total = 0.0
    for target, order in groups.items():
        if order:
            total += sequence_points([_scenario(mine, enemy, a, target) for a in order],
                                     enemy.unit(target).entry_points)
    return total


def _of(plan_volleys: tuple[object, ...]) -> dict[str, tuple[str, ...]]:
    return {v.target: v.order for v in plan_volleys}  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def overkill() -> tuple[Side, Side, Plan]:
    """Two 10-model Intercessor Squads; ten Gretchin (45 pts) and ten Boyz (85 pts).
    Alone, each squad destroys more points shooting the Gretchin (T2, 1 W, 7+ save) than
    the Boyz; both at the Gretchin waste shots on dead models."""
    lib = load_library()
    mine = read_side("Intercessor Squad:10, Intercessor Squad:10", lib)
    enemy = read_side("Gretchin:10, Boyz:10", lib)
    return mine, enemy, solve(mine, enemy)


def test_the_naive_plan_overkills_and_the_plan_does_better(
        overkill: tuple[Side, Side, Plan]) -> None:
    mine, enemy, plan = overkill
    assert _of(plan.naive_volleys) == {"Gretchin": ("Intercessor Squad #1",
                                                    "Intercessor Squad #2")}
    assert plan.points > plan.naive_points + 1.0
    assert {v.target for v in plan.volleys} == {"Gretchin", "Boyz"}
    # the naive plan's value is that of its sequence, exactly
    assert math.isclose(plan.naive_points, _independent(mine, enemy, _of(plan.naive_volleys)),
                        abs_tol=1e-9)


def test_the_plan_is_optimal_by_exhaustive_search(overkill: tuple[Side, Side, Plan]) -> None:
    """Every assignment of the two squads to the two targets, every firing order at a
    target: the sequence engine's best equals the plan's value, and the plan's own
    volleys give it."""
    mine, enemy, plan = overkill
    shooters = [u.label for u in mine.units]
    targets = [u.label for u in enemy.units]
    best = -1.0
    for choice in itertools.product(targets, repeat=len(shooters)):
        at = {t: [s for s, c in zip(shooters, choice, strict=True) if c == t]
              for t in targets}
        for orders in itertools.product(*(itertools.permutations(at[t]) for t in targets)):
            best = max(best, _independent(mine, enemy, dict(zip(targets, orders,
                                                                strict=True))))
    assert plan.method == "exhaustive" and plan.optimal
    assert math.isclose(plan.points, best, abs_tol=1e-9)
    assert math.isclose(plan.points, _independent(mine, enemy, _of(plan.volleys)),
                        abs_tol=1e-9)


def test_the_proved_search_finds_it_too(overkill: tuple[Side, Side, Plan]) -> None:
    """Without exhaustive search: the branch and price search proves the same optimum
    (its bound meets the plan's value)."""
    mine, enemy, plan = overkill
    searched = solve(mine, enemy, exhaustive_limit=0)
    assert searched.method == "branch and price" and searched.optimal
    assert math.isclose(searched.points, plan.points, abs_tol=1e-9)
    assert searched.bound is not None and searched.bound >= plan.points - 1e-9
    assert searched.gap is not None and searched.gap <= 1e-6 * plan.points


def test_forbidden_pairs_are_kept() -> None:
    lib = load_library()
    mine = read_side("Intercessor Squad:10, Intercessor Squad:10", lib)
    enemy = read_side("Gretchin:10, Boyz:10", lib)
    plan = solve(mine, enemy, forbidden=[("Intercessor Squad #1", "Gretchin"),
                                         ("Intercessor Squad #2", "Gretchin")])
    assert _of(plan.volleys) == {"Boyz": ("Intercessor Squad #1", "Intercessor Squad #2")}
    everything_forbidden = solve(mine, enemy, forbidden=[
        (a, t) for a in ("Intercessor Squad #1", "Intercessor Squad #2")
        for t in ("Gretchin", "Boyz")])
    assert everything_forbidden.volleys == () and set(everything_forbidden.idle) == {
        "Intercessor Squad #1", "Intercessor Squad #2"}


def test_the_destroy_objective_puts_the_chance_first() -> None:
    """Asked to destroy the Boyz, both squads shoot them: P(destroyed) counts first."""
    lib = load_library()
    mine = read_side("Intercessor Squad:10, Intercessor Squad:10", lib)
    enemy = read_side("Gretchin:10, Boyz:10", lib)
    plan = solve(mine, enemy, destroy=["Boyz"])
    boyz = next(v for v in plan.volleys if v.target == "Boyz")
    assert len(boyz.order) == 2
    assert plan.score == pytest.approx(boyz.outcome.p_destroyed)
    assert "Boyz" in plan.objective


@pytest.mark.parametrize("pair", [("official_9.txt", "official_16.txt"),
                                  ("official_16.txt", "official_10.txt")],
                         ids=["aeldari-orks", "orks-knights"])
def test_a_real_plan_equals_the_sequence_engine(pair: tuple[str, str]) -> None:
    """The plan of a real list (its first six units, to stay quick) against another:
    each volley's value is the sequence engine's on the same steps, and the plan is at
    least as good as the naive plan."""
    lib = load_library()
    mine, enemy = read_side(ROSTERS / pair[0], lib), read_side(ROSTERS / pair[1], lib)
    mine.units = mine.units[:6]
    plan = solve(mine, enemy)
    assert plan.points >= plan.naive_points - 1e-9
    checked = 0
    for v in plan.volleys:
        scenarios = [_scenario(mine, enemy, a, v.target) for a in v.order]
        if has_precision(scenarios):  # type: ignore[arg-type]
            continue
        assert math.isclose(v.outcome.points, sequence_points(
            scenarios, enemy.unit(v.target).entry_points), abs_tol=1e-9), v.target  # type: ignore[arg-type]
        checked += 1
    assert checked >= 1
    assert math.isclose(plan.points, sum(v.outcome.points for v in plan.volleys),
                        abs_tol=1e-9)


def test_the_real_lists_are_the_ones_of_the_fixtures() -> None:
    assert all((ROSTERS / name).is_file() for name in REAL_LISTS)


def test_the_threat_objective_removes_the_most_threat() -> None:
    """Each enemy unit's threat is its best shooting plus its best fight against my units
    (the enemy's side of the matrix); a volley removes that share of it per model
    destroyed; the plan is the best assignment for it."""
    lib = load_library()
    mine = read_side("Intercessor Squad:10, Hellblaster Squad:5", lib)
    enemy = read_side("Gretchin:10, Boyz:10", lib)
    plan = solve(mine, enemy, objective="threat")
    m = matchup_sides(mine, enemy, sides=("enemy",))
    for v in plan.volleys:
        threat = sum(max(c.points for _, c in m.cells() if c.attacker == v.target
                         and c.phase == phase and c.ok) for phase in ("shooting", "fight"))
        models = sum(n for n, _ in enemy.unit(v.target).entry_points)
        assert math.isclose(v.outcome.threat, threat / models * v.outcome.models,
                            abs_tol=1e-9)
    assert math.isclose(plan.score, sum(v.outcome.threat for v in plan.volleys),
                        abs_tol=1e-9)
    assert "threat" in plan.objective or "next turn" in plan.objective
    assert plan.score >= plan.naive_score - 1e-9
