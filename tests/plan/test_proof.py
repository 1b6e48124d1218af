"""The plan's proof (``tactica.plan.proof``): its parts checked against brute force and
against the exact evaluator, and its answers on real lists checked by evaluations that
do not use the search.

* the subproblem's search (``pricing.price``) against every subset;
* the bounds (``bounds``) against the exact value of volleys of real lists: never below
  it, and equal to it for a lone model (the damage convolution);
* the search against every assignment on a list small enough to try them all;
* a real plan: no single move (one unit to another target, or to none) and no exchange
  of two units' targets improves it, every neighbour evaluated by the volley evaluator.
"""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from tactica.combat.contract.scenario import Target
from tactica.library import load_library
from tactica.plan import Side, read_side, solve
from tactica.plan.bounds import PairBound, TargetBound, capped
from tactica.plan.cells import Conditions
from tactica.plan.pricing import price
from tactica.plan.problem import Problem

from .helpers import ROSTERS

pytest.importorskip("wh40kdc")


def _margins(tb: TargetBound, pairs: list[PairBound]) -> list[np.ndarray]:
    out = [np.eye(c + 1)[0] for c in tb.caps]
    for p in pairs:
        out = [capped(a, b) for a, b in zip(out, p.pmfs, strict=True)]
    return out


def _random_pair(tb: TargetBound, rng: np.random.Generator) -> PairBound:
    pmfs = []
    for cap in tb.caps:
        p = rng.random(cap + 1) ** 3
        p[0] += rng.random()
        pmfs.append(p / p.sum())
    means = tuple(float(np.dot(np.arange(len(p)), p)) for p in pmfs)
    return PairBound(tuple(pmfs), means, bool(rng.random() < 0.2),
                     int(rng.integers(1, 4)))


TARGETS = {
    "bodyguard and leader": Target.model_validate({"models": [
        {"name": "Boy", "count": 5, "T": 5, "Sv": 5, "W": 1},
        {"name": "Nob", "count": 1, "T": 5, "Sv": 4, "W": 2},
        {"name": "Boss", "count": 1, "T": 5, "Sv": 4, "W": 4, "character": True}]}),
    "one model": Target.model_validate({"models": [
        {"name": "Tank", "count": 1, "T": 10, "Sv": 3, "W": 9}]}),
}


KINDS = [0, 1, 2, 3, 4, 5, 0]  # unit 6 is a copy of unit 0


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_the_subproblem_search_is_the_maximum_over_every_set(name: str) -> None:
    """``price`` against the brute force over every subset of 7 units (random margins
    and prices; some sets evaluated, worth less than their bound; copies of a unit at
    different prices; a unit that must be in)."""
    target = TARGETS[name]
    worths = [(10.0 * (1 + i % 3), g.character) for g in target.models for i in range(g.count)]
    tb = TargetBound.of(target, worths, last=5.0)
    rng = np.random.default_rng(7)
    for trial in range(12):
        pairs = [_random_pair(tb, rng) for _ in range(6)]
        pairs.append(pairs[0])  # unit 6 is a copy of unit 0
        prices = {k: float(rng.random() * tb.by_count[-1] / 3) for k in range(7)}

        def bound(s: frozenset[int], pairs: list[PairBound] = pairs) -> float:
            return tb.value(_margins(tb, [pairs[k] for k in s]),
                            any(pairs[k].precision for k in s))

        exact = {s: 0.9 * bound(s) for s in map(frozenset, itertools.combinations(
            range(7), 2)) if rng.random() < 0.3}
        must = frozenset({3}) if trial % 3 == 0 else frozenset()
        brute = max(((exact[s] if s in exact else bound(s)) - sum(prices[k] for k in s)
                     for r in range(8) for s in map(frozenset, itertools.combinations(
                         range(7), r)) if must <= s and (s or not must)),
                    default=0.0)
        found = price(tb, list(range(7)), dict(enumerate(pairs)), prices, exact, must=must,
                      kinds=KINDS.__getitem__)
        assert found.complete
        assert math.isclose(found.best, brute, rel_tol=1e-9, abs_tol=1e-9), trial


@pytest.fixture(scope="module")
def aeldari_orks() -> Problem:
    lib = load_library()
    mine, enemy = read_side(ROSTERS / "official_9.txt", lib), read_side(
        ROSTERS / "official_16.txt", lib)
    return Problem(mine, enemy, Conditions().for_sides(mine, enemy), (), ())


def test_the_bounds_are_never_below_the_exact_value(aeldari_orks: Problem) -> None:
    """Random volleys of a real list (Aeldari) at every unit of another (Orks: lone
    vehicles and characters, Gretchin, bodyguards with leaders): the exact value from the
    volley evaluator is at most the bound, and equals it for a lone model."""
    p = aeldari_orks
    inst = p.instance()
    rng = random.Random(48)
    checked = 0
    for j, tb in inst.targets.items():
        units = [k for k, ok in enumerate(inst.allowed) if j in ok]
        for size in (1, 2, 3, 4):
            s = frozenset(rng.sample(units, size))
            pairs = [inst.pairs[(k, j)] for k in s]
            bound = tb.value(_margins(tb, pairs), any(q.precision for q in pairs))
            value = inst.evaluate(j, s)
            assert value <= bound + 1e-9 * max(1.0, bound), (p.enemy.units[j].label, s)
            if tb.single:
                assert math.isclose(value, bound, rel_tol=1e-9, abs_tol=1e-9)
            checked += 1
    assert checked == 4 * len(inst.targets)


def test_the_search_equals_every_assignment_tried() -> None:
    """Four shooting units at three targets (a bodyguard with its leader, Gretchin, a
    lone vehicle): the branch and price search proves the optimum that trying all 81
    assignments finds."""
    lib = load_library()
    mine = read_side("Intercessor Squad:10, Hellblaster Squad:5, Eradicator Squad:3, "
                     "Devastator Squad:5", lib)
    enemy = read_side("Boyz:10+Warboss, Gretchin:10, Battlewagon", lib)
    every = solve(mine, enemy)
    searched = solve(mine, enemy, exhaustive_limit=0)
    assert every.method == "exhaustive" and searched.method == "branch and price"
    assert searched.optimal and searched.bound is not None
    assert math.isclose(searched.points, every.points, rel_tol=1e-9)
    assert searched.bound >= every.points - 1e-6


def _neighbours(p: Problem, chosen: tuple[int | None, ...]
                ) -> list[tuple[int | None, ...]]:
    out = []
    for k, ok in enumerate(p.allowed):
        for j in (*ok, None):
            if j != chosen[k]:
                out.append((*chosen[:k], j, *chosen[k + 1:]))
    for k1, k2 in itertools.combinations(range(len(chosen)), 2):
        j1, j2 = chosen[k1], chosen[k2]
        if j1 != j2 and (j2 is None or j2 in p.allowed[k1]) and \
                (j1 is None or j1 in p.allowed[k2]):
            swapped = list(chosen)
            swapped[k1], swapped[k2] = j2, j1
            out.append(tuple(swapped))
    return out


def _no_move_improves(mine: Side, enemy: Side) -> None:
    plan = solve(mine, enemy)
    assert plan.method == "branch and price"
    assert plan.gap is not None and plan.gap <= 0.01 * plan.score
    p = Problem(mine, enemy, Conditions().for_sides(mine, enemy), (), ())
    labels = [mine.units[i].label for i in p.shooters]
    at = {u: enemy.units.index(enemy.unit(v.target)) for v in plan.volleys for u in v.order}
    chosen = tuple(at.get(label) for label in labels)
    value = p.value(chosen)
    assert math.isclose(value, plan.points, rel_tol=1e-9)
    for other in _neighbours(p, chosen):
        assert p.value(other) <= value + 1e-9, other


def test_no_move_or_swap_improves_a_real_plan() -> None:
    """Orks against Aeldari (12 units that shoot, 13 targets): the plan is proved optimal
    or within 1%, and none of its neighbours is better."""
    lib = load_library()
    _no_move_improves(read_side(ROSTERS / "official_16.txt", lib),
                      read_side(ROSTERS / "official_9.txt", lib))


@pytest.mark.slow
@pytest.mark.parametrize("pair", [("official_9.txt", "official_16.txt"),
                                  ("official_10.txt", "official_16.txt"),
                                  ("official_10.txt", "official_9.txt"),
                                  ("official_9.txt", "official_10.txt")],
                         ids=["aeldari-orks", "knights-orks", "knights-aeldari",
                              "aeldari-knights"])
def test_no_move_or_swap_improves_the_other_real_plans(pair: tuple[str, str]) -> None:
    lib = load_library()
    _no_move_improves(read_side(ROSTERS / pair[0], lib), read_side(ROSTERS / pair[1], lib))


@pytest.mark.parametrize("objective", [{"destroy": ["Boyz"]}, {"objective": "threat"}],
                         ids=["destroy", "threat"])
def test_the_search_proves_the_other_objectives_too(objective: dict[str, object]) -> None:
    """The chance to destroy a named unit (then the points), and the threat removed: the
    search's plan is worth what the exhaustive one is, proved."""
    lib = load_library()
    mine = read_side("Intercessor Squad:10, Hellblaster Squad:5, Eradicator Squad:3", lib)
    enemy = read_side("Boyz:10+Warboss, Gretchin:10, Battlewagon", lib)
    every = solve(mine, enemy, **objective)  # type: ignore[arg-type]
    searched = solve(mine, enemy, exhaustive_limit=0, **objective)  # type: ignore[arg-type]
    assert searched.optimal and searched.gap is not None and searched.gap <= 1e-6
    assert math.isclose(searched.score, every.score, rel_tol=1e-9, abs_tol=1e-12)
    assert math.isclose(searched.points, every.points, rel_tol=1e-6) or \
        searched.points >= every.points
