"""The shooting plan: each of my shooting units assigned to one enemy unit, so as to
maximise the expected points destroyed (or the chance to destroy named enemy units, then
the points), with several units at one target evaluated exactly in their firing order
(``tactica.plan.volley``: overkill counts, a wounded model is finished first).

How the plan is found, and how close to the optimum it is:

* **exhaustive** when the assignments number at most ``EXHAUSTIVE_LIMIT``: every
  assignment is evaluated exactly; the plan is optimal (over assignments; the firing
  order at each target is the best of every order up to ``MAX_ORDERS`` units there);
* otherwise **integer programme + local search**: ``scipy.optimize.milp`` (HiGHS)
  maximises the sum over targets of min(the target's cap, r x the sum of the expected
  wounds the units assigned to it make it lose alone), where r is the most a wound is
  worth there (the largest points per wound of its models; for P(destroyed): one over
  its total wounds) and the cap its points (1 for P(destroyed)). A model destroyed has
  lost all its wounds, and with one allocation group wounds carried over never make a
  later attack lose more, so this optimum is an upper bound on the exact optimum (for a
  unit with an attached leader of another save, the same model's estimate); its plan is
  a start. A local search then moves one unit to another of its ``CANDIDATES`` best
  targets, or swaps the targets of two units, while the exact value improves. The gap to
  the bound is reported (an exact value above the bound is noted).

The naive plan (each unit at its own best target, alone) is evaluated exactly as well and
shown beside the plan.

Objectives: the expected points destroyed (default); the chance to destroy named enemy
units (summed), then the points; or the enemy's threat removed: each enemy unit's
expected points destroyed next turn (``threats``: its best shooting plus its best fight
against my units, exact cells), shared evenly by its models, times the models destroyed.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np

from ..combat.contract.scenario import Scenario
from ..library import Library, load_library
from ..model.common import RulesVersion
from ..rules import get_ruleset
from .army import PHASES, Armed, Side, read_side
from .cells import Conditions, compute_cell
from .volley import MAX_ORDERS, Outcome, Volleys

__all__ = ["CANDIDATES", "EXHAUSTIVE_LIMIT", "Assignment", "Plan", "Volley", "plan", "solve"]

#: At most this many assignments are all evaluated (the plan is then proven optimal).
EXHAUSTIVE_LIMIT = 5_000
#: The local search moves a unit to one of this many of its best targets (alone).
CANDIDATES = 4

Objective = Literal["points", "threat"]
Method = Literal["exhaustive", "integer programme + local search", "nothing to assign"]
Score = tuple[float, float]
#: An assignment: the target index of each shooter (``None``: no target allowed).
Assignment = tuple[int | None, ...]


@dataclass(frozen=True)
class Volley:
    """One target of a plan: the units firing at it in order and the exact outcome."""

    target: str
    order: tuple[str, ...]
    outcome: Outcome


@dataclass(frozen=True)
class Plan:
    """A shooting plan and how it was found (the module text)."""

    objective: str
    volleys: tuple[Volley, ...]
    points: float
    score: float
    naive_volleys: tuple[Volley, ...]
    naive_points: float
    naive_score: float
    method: Method
    optimal: bool
    assignments: int
    bound: float | None
    steps: int
    idle: dict[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    #: the lists' rule problems (``Side.warnings``): the plan is answered all the same
    warnings: tuple[str, ...] = ()

    @property
    def gap(self) -> float | None:
        """The bound less the plan's score (``None`` without a bound)."""
        return None if self.bound is None else self.bound - self.score

    def to_json(self) -> dict[str, Any]:
        """The document ``tactica plan --json`` prints."""
        def volleys(vs: tuple[Volley, ...]) -> list[dict[str, Any]]:
            return [{"target": v.target, "order": list(v.order),
                     "points_destroyed": v.outcome.points,
                     "models_destroyed": v.outcome.models,
                     "p_destroyed": v.outcome.p_destroyed, "damage": v.outcome.damage,
                     "threat_removed": v.outcome.threat}
                    for v in vs]
        return {"objective": self.objective, "method": self.method, "optimal": self.optimal,
                "assignments": self.assignments, "bound": self.bound, "gap": self.gap,
                "attacks_computed": self.steps,
                "plan": {"score": self.score, "points_destroyed": self.points,
                         "volleys": volleys(self.volleys)},
                "naive": {"score": self.naive_score, "points_destroyed": self.naive_points,
                          "volleys": volleys(self.naive_volleys)},
                "idle": self.idle, "notes": list(self.notes),
                "warnings": list(self.warnings)}


def threats(mine: Side, enemy: Side) -> list[float]:
    """Each enemy unit's threat: the points it can expect to destroy next turn, its best
    shooting at one of my units plus its best fight against one (after a charge), from
    the exact cells of the enemy's side of the matrix."""
    out = []
    for foe in enemy.units:
        total = 0.0
        for phase in PHASES:
            cells = [compute_cell(foe, u, phase, enemy.rules, Conditions()) for u in mine.units]
            total += max((c.points for c in cells if c.ok), default=0.0)
        out.append(total)
    return out


def _reaches(scenario: Scenario | str) -> bool:
    """Whether some weapon of the attacker is within range of its target (04.02, the
    rule set's ``in_range``): beyond every one, the unit has nothing to shoot there."""
    if isinstance(scenario, str):
        return False
    rules = get_ruleset(scenario.rules)
    return any(rules.in_range(w.range, scenario.context.distance)
               for w in scenario.attacker.weapons)


class _Problem:
    def __init__(self, mine: Side, enemy: Side, conditions: Conditions,
                 forbidden: Iterable[tuple[str, str]], destroy: Iterable[str],
                 objective: Objective = "points") -> None:
        self.volleys = Volleys(mine, enemy, conditions)
        self.mine, self.enemy = mine, enemy
        self.named = {enemy.units.index(enemy.unit(n)) for n in destroy}
        self.threat = objective == "threat" and not self.named
        if self.threat:
            self.threats = threats(mine, enemy)
            for j, (unit, t) in enumerate(zip(enemy.units, self.threats, strict=True)):
                models = sum(n for n, _ in unit.entry_points)
                self.volleys.threat[j] = t / models if models else 0.0
        banned = {(mine.units.index(mine.unit(a)), enemy.units.index(enemy.unit(t)))
                  for a, t in forbidden}
        self.idle: dict[str, str] = {}
        self.shooters: list[int] = []
        self.allowed: list[list[int]] = []
        for i, unit in enumerate(mine.units):
            armed = unit.attack.get("shooting")
            if not isinstance(armed, Armed):
                self.idle[unit.label] = armed or "cannot shoot"
                continue
            can = [j for j in range(len(enemy.units)) if (i, j) not in banned
                   and not isinstance(self.volleys.scenario(i, j), str)]
            ok = [j for j in can if _reaches(self.volleys.scenario(i, j))]
            if not ok:
                self.idle[unit.label] = "no target within range" if can else \
                    "no target allowed"
                continue
            self.shooters.append(i)
            self.allowed.append(ok)

    def score(self, o: Outcome, j: int) -> Score:
        if self.named:
            return (o.p_destroyed if j in self.named else 0.0, o.points)
        if self.threat:
            return (o.threat, o.points)
        return (o.points, o.points)

    def cap(self, j: int) -> float:
        if self.threat:
            return self.threats[j]
        return 1.0 if self.named else float(self.enemy.units[j].points)

    def rate(self, j: int) -> float:
        """The most a wound lost is worth at ``j``: the largest points per wound of its
        models (P(destroyed) objective: 1 over its total wounds, 0 if not named)."""
        target = self.volleys.target(j)
        if self.named:
            return (1.0 / sum(g.count * g.W for g in target.models)
                    if j in self.named else 0.0)
        if self.threat:
            return self.volleys.threat[j] / min(g.W for g in target.models)
        return max(ppm / g.W for (_, ppm), g in zip(self.enemy.units[j].entry_points,
                                                      target.models, strict=True))

    def damage(self, k: int, j: int) -> float:
        """The expected wounds unit ``k`` alone makes ``j`` lose."""
        return self.volleys.outcome(j, (self.shooters[k],)).damage

    def single(self, k: int, j: int) -> Score:
        return self.score(self.volleys.outcome(j, (self.shooters[k],)), j)

    def groups(self, a: Assignment) -> dict[int, frozenset[int]]:
        out: dict[int, set[int]] = {}
        for k, j in enumerate(a):
            if j is not None:
                out.setdefault(j, set()).add(self.shooters[k])
        return {j: frozenset(s) for j, s in out.items()}

    def group_score(self, j: int, shooters: frozenset[int]) -> Score:
        _, o = self.volleys.best(j, shooters, self.score)
        return self.score(o, j)

    def value(self, a: Assignment) -> Score:
        total = (0.0, 0.0)
        for j, s in self.groups(a).items():
            g = self.group_score(j, s)
            total = (total[0] + g[0], total[1] + g[1])
        return total

    def naive(self) -> Assignment:
        return tuple(max(ok, key=lambda j: self.single(k, j))
                     for k, ok in enumerate(self.allowed))

    def size(self) -> int:
        return math.prod(len(ok) for ok in self.allowed)

    def exhaustive(self) -> Assignment:
        return max(itertools.product(*self.allowed), key=self.value)

    def describe(self, a: Assignment) -> tuple[Volley, ...]:
        out = []
        for j, s in sorted(self.groups(a).items()):
            order, o = self.volleys.best(j, s, self.score)
            out.append(Volley(self.enemy.units[j].label,
                              tuple(self.mine.units[i].label for i in order), o))
        return tuple(out)


def _milp(p: _Problem) -> tuple[Assignment, float]:
    """The integer programme of the module text: its plan and its optimum (the bound)."""
    from scipy.optimize import Bounds, LinearConstraint, milp

    pairs = [(k, j) for k, ok in enumerate(p.allowed) for j in ok]
    targets = sorted({j for _, j in pairs})
    n, m = len(pairs), len(targets)
    col = {j: n + t for t, j in enumerate(targets)}
    c = np.zeros(n + m)
    c[n:] = -1.0  # maximise the sum of the capped target values y_j
    rows, lo, hi = [], [], []
    for k in range(len(p.allowed)):  # each unit shoots exactly one target
        row = np.zeros(n + m)
        row[[x for x, (kk, _) in enumerate(pairs) if kk == k]] = 1.0
        rows.append(row)
        lo.append(1.0)
        hi.append(1.0)
    for j in targets:  # y_j <= sum of the independent values at j
        row = np.zeros(n + m)
        for x, (k, jj) in enumerate(pairs):
            if jj == j:
                row[x] = -p.rate(j) * p.damage(k, j)
        row[col[j]] = 1.0
        rows.append(row)
        lo.append(-np.inf)
        hi.append(0.0)
    upper = np.concatenate([np.ones(n), [p.cap(j) for j in targets]])
    integrality = np.concatenate([np.ones(n), np.zeros(m)])
    res = milp(c, constraints=LinearConstraint(np.array(rows), lo, hi),
               integrality=integrality, bounds=Bounds(np.zeros(n + m), upper))
    if res.x is None:  # pragma: no cover - the problem always has a solution
        return p.naive(), math.inf
    chosen: list[int | None] = [None] * len(p.allowed)
    for x, (k, j) in enumerate(pairs):
        if res.x[x] > 0.5:
            chosen[k] = j
    return tuple(chosen), -float(res.fun)


def _best_alone(p: _Problem, k: int, ok: list[int]) -> list[int]:
    def alone(j: int) -> Score:
        return p.single(k, j)

    return sorted(ok, key=alone, reverse=True)[:CANDIDATES]


def _local_search(p: _Problem, start: Assignment) -> Assignment:
    """Moves of one unit (to one of its ``CANDIDATES`` best targets alone, or the target
    it has in the start) and swaps of two, while the exact value improves."""
    best, best_value = start, p.value(start)
    cands = [_best_alone(p, k, ok) for k, ok in enumerate(p.allowed)]
    for k, j0 in enumerate(start):
        if j0 is not None and j0 not in cands[k]:
            cands[k].append(j0)
    improved = True
    while improved:
        improved = False
        for k, ok in enumerate(cands):
            for j in ok:
                if j == best[k]:
                    continue
                cand = (*best[:k], j, *best[k + 1:])
                v = p.value(cand)
                if v > best_value:
                    best, best_value, improved = cand, v, True
        for k1, k2 in itertools.combinations(range(len(best)), 2):
            j1, j2 = best[k1], best[k2]
            if j1 == j2 or j2 not in p.allowed[k1] or j1 not in p.allowed[k2]:
                continue
            swapped = list(best)
            swapped[k1], swapped[k2] = j2, j1
            v = p.value(tuple(swapped))
            if v > best_value:
                best, best_value, improved = tuple(swapped), v, True
    return best


def plan(mine: str | Path | Side, enemy: str | Path | Side, *,
         conditions: Conditions | None = None, forbidden: Iterable[tuple[str, str]] = (),
         destroy: Iterable[str] = (), objective: Objective = "points",
         library: Library | None = None, rules: RulesVersion = "11th",
         strict: bool = False) -> Plan:
    """The shooting plan of two armies, each a list file, a list's text or unit names
    (``tactica.plan.army.read_side``); see ``solve``.

    >>> p = plan("Intercessor Squad:5", "Intercessor Squad:5, Gretchin:10")
    >>> p.method, p.optimal, len(p.volleys), p.points >= p.naive_points
    ('exhaustive', True, 1, True)
    """
    lib = library or load_library()
    a = mine if isinstance(mine, Side) else read_side(mine, lib, name="my list", rules=rules,
                                                      strict=strict)
    b = enemy if isinstance(enemy, Side) else read_side(enemy, lib, name="enemy list",
                                                        rules=rules, strict=strict)
    return solve(a, b, conditions, forbidden=forbidden, destroy=destroy, objective=objective)


def solve(mine: Side, enemy: Side, conditions: Conditions | None = None, *,
          forbidden: Iterable[tuple[str, str]] = (), destroy: Iterable[str] = (),
          objective: Objective = "points", exhaustive_limit: int = EXHAUSTIVE_LIMIT) -> Plan:
    """The shooting plan of ``mine`` against ``enemy`` (the module text). ``forbidden``:
    (my unit, enemy unit) pairs that cannot shoot (out of range, not visible);
    ``destroy``: enemy units whose destruction is the objective; otherwise ``objective``
    "points" (expected points destroyed) or "threat" (the enemy's expected points
    destroyed next turn removed: ``threats``, shared evenly by each unit's models)."""
    conditions = (conditions or Conditions()).for_sides(mine, enemy)
    conditions.check(mine.units, mine.rules)
    p = _Problem(mine, enemy, conditions, forbidden, destroy, objective)
    if p.named:
        what = "P(destroyed) of " + ", ".join(enemy.units[j].label for j in sorted(p.named))
    elif p.threat:
        what = "the enemy's expected points destroyed next turn, removed"
    else:
        what = "expected points destroyed"
    notes: list[str] = []
    if not p.shooters:
        return Plan(what, (), 0.0, 0.0, (), 0.0, 0.0, "nothing to assign", True, 0,
                    None, 0, p.idle, warnings=(*mine.warnings, *enemy.warnings))
    naive = p.naive()
    size = p.size()
    bound: float | None = None
    method: Method
    if size <= exhaustive_limit:
        best, method, optimal = p.exhaustive(), "exhaustive", True
    else:
        start, bound = _milp(p)
        if p.value(naive) > p.value(start):
            start = naive
        best, method, optimal = _local_search(p, start), "integer programme + local search", False
        if bound < p.value(best)[0] - 1e-9:
            notes.append("the exact value exceeds the bound: a leader's models took the "
                         "wounds in another order than the bound assumes")
    if any(len(s) > MAX_ORDERS for s in p.groups(best).values()):
        notes.append(f"at a target shot by more than {MAX_ORDERS} units, they fire in the "
                     "order of what each does alone, the most first (not every order is "
                     "tried)")
    value, naive_value = p.value(best), p.value(naive)
    return Plan(what, p.describe(best), value[1], value[0], p.describe(naive),
                naive_value[1], naive_value[0], method, optimal, size, bound,
                p.volleys.steps, p.idle, tuple(notes),
                warnings=(*mine.warnings, *enemy.warnings))
