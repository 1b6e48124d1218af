"""The plan: each of my units assigned to one enemy unit (or to none), so as to maximise
the expected points destroyed (or the chance to destroy named enemy units, then the
points, or the enemy's threat removed), with several units at one target evaluated
exactly in their order (``tactica.plan.volley``: overkill counts, a wounded model is
finished first, Blast counts the models alive). In the shooting phase (the shooting
plan) or in the fight after charges (the charge plan, ``phase="fight"``: each unit's
fight weighed by the exact chance its charge reaches).

How the plan is found, and how close to the optimum it is proved to be:

* **exhaustive** when the assignments number at most ``EXHAUSTIVE_LIMIT``: every
  assignment is evaluated exactly; the plan is optimal (over assignments; the order at
  each target is the best of every order up to ``MAX_ORDERS`` units there);
* otherwise **branch and price** (``tactica.plan.proof``): column generation over the
  volleys with a Lagrangian bound that holds for every plan (each set of units at a
  target valued exactly or bounded from above, ``tactica.plan.bounds``), branch and
  bound on the units' targets. The plan is reported "optimal" only when the bound meets
  its value; else the bound and the certified gap (bound less value) are reported.

A unit the plan's value does not need (the best plan leaves it without a target, or its
attack adds nothing where the plan sends it) does not attack, and is said so ("no
target worth its shots"). The naive plan (each unit at its own best target, alone) is
evaluated exactly as well and shown beside the plan.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ..library import Library, load_library
from ..model.common import RulesVersion
from .army import Phase, Prices, Side, read_sides
from .cells import Conditions
from .problem import DESTROY_WEIGHT, Assignment, Problem, threats
from .proof import Found, search
from .volley import MAX_ORDERS, Outcome

__all__ = ["EXHAUSTIVE_LIMIT", "Assignment", "Plan", "Volley", "plan", "solve", "threats"]

#: At most this many assignments are all evaluated (the plan is then proven optimal).
EXHAUSTIVE_LIMIT = 5_000

Objective = Literal["points", "threat"]
Method = Literal["exhaustive", "branch and price", "nothing to assign"]


@dataclass(frozen=True)
class Volley:
    """One target of a plan: the units attacking it in order and the exact outcome;
    ``p_charge``: each unit's chance its charge reaches (the fight plan; 1 when
    shooting)."""

    target: str
    order: tuple[str, ...]
    outcome: Outcome
    p_charge: tuple[float, ...] = ()
    #: the outcome after each unit in ``order`` attacks (the last is ``outcome``): what
    #: each adds, for the plan drawn (``plot_plan``)
    after: tuple[Outcome, ...] = ()


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
    phase: Phase = "shooting"
    #: each side's points and where they came from ("my list: 1,995 pts, the list's
    #: printed points"; ``Side.points_source``)
    points_from: tuple[str, ...] = ()
    #: the proved search's work: branches opened, volleys evaluated exactly
    branches: int = 0
    volleys_evaluated: int = 0

    @property
    def gap(self) -> float | None:
        """The bound less the plan's score (``None`` without a bound): certified, the
        most any plan can do better."""
        return None if self.bound is None else max(0.0, self.bound - self.score)

    def to_json(self) -> dict[str, Any]:
        """The document ``tactica plan --json`` prints."""
        def volleys(vs: tuple[Volley, ...]) -> list[dict[str, Any]]:
            return [{"target": v.target, "order": list(v.order),
                     "p_charge": list(v.p_charge) if self.phase == "fight" else None,
                     "points_destroyed": v.outcome.points,
                     "models_destroyed": v.outcome.models,
                     "p_destroyed": v.outcome.p_destroyed, "damage": v.outcome.damage,
                     "threat_removed": v.outcome.threat,
                     "after_each": [{"unit": u, "points_destroyed": o.points,
                                     "p_destroyed": o.p_destroyed}
                                    for u, o in zip(v.order, v.after, strict=True)]}
                    for v in vs]
        return {"objective": self.objective, "phase": self.phase, "method": self.method,
                "optimal": self.optimal,
                "assignments": self.assignments, "bound": self.bound, "gap": self.gap,
                "attacks_computed": self.steps,
                "search": {"branches": self.branches,
                           "volleys_evaluated": self.volleys_evaluated},
                "plan": {"score": self.score, "points_destroyed": self.points,
                         "volleys": volleys(self.volleys)},
                "naive": {"score": self.naive_score, "points_destroyed": self.naive_points,
                          "volleys": volleys(self.naive_volleys)},
                "idle": self.idle, "notes": list(self.notes),
                "points_from": list(self.points_from),
                "warnings": list(self.warnings)}


def _search(p: Problem, naive: Assignment, gap: float = 0.0) -> tuple[Assignment, Found]:
    """The proved search (``tactica.plan.proof``), started from the naive plan; a unit
    it leaves without a target joins the target where it raises the plan most, if it
    raises it at all."""
    start = [(j, frozenset(k for k, t in enumerate(naive) if t == j))
             for j in set(naive) if j is not None]
    found = search(p.instance(), start, gap=gap)
    chosen = list(found.assignment)
    engine = p.value(found.assignment)
    if abs(engine - found.value) > 1e-7 * max(1.0, abs(engine)):  # one model's convolution
        found.violated.append((-1, frozenset()))
    for k, j0 in enumerate(chosen):
        if j0 is not None:
            continue
        base = p.value(tuple(chosen))
        options = [(p.value((*chosen[:k], j, *chosen[k + 1:])), j) for j in p.allowed[k]]
        v, j = max(options)
        if v > base + _NOTHING * max(1.0, abs(base)):
            chosen[k] = j
    return tuple(chosen), found


#: An attack adding at most this share of the plan's value adds nothing (float sums).
_NOTHING = 1e-12


def _unneeded(p: Problem, a: Assignment) -> Assignment:
    """``a`` with each unit whose attack adds nothing where it is sent (the volley as
    good without it) left without a target."""
    chosen = list(a)
    for k, j in enumerate(a):
        if j is None:
            continue
        base = p.value(tuple(chosen))
        without = p.value((*chosen[:k], None, *chosen[k + 1:]))
        if without >= base - _NOTHING * max(1.0, abs(base)):
            chosen[k] = None
    return tuple(chosen)


def plan(mine: str | Path | Side, enemy: str | Path | Side, *,
         conditions: Conditions | None = None, forbidden: Iterable[tuple[str, str]] = (),
         destroy: Iterable[str] = (), objective: Objective = "points",
         library: Library | None = None, rules: RulesVersion = "11th",
         strict: bool = False, phase: Phase = "shooting", gap: float = 0.0,
         files: bool = True, prices: Prices = "list") -> Plan:
    """The shooting plan of two armies, each a list file, a list's text or unit names
    (``tactica.plan.army.read_side``); see ``solve``.

    >>> p = plan("Intercessor Squad:5", "Intercessor Squad:5, Gretchin:10")
    >>> p.method, p.optimal, len(p.volleys), p.points >= p.naive_points
    ('exhaustive', True, 1, True)
    """
    a, b = read_sides(mine, enemy, library or load_library(), rules=rules, strict=strict,
                      files=files, prices=prices)
    return solve(a, b, conditions, forbidden=forbidden, destroy=destroy, objective=objective,
                 phase=phase, gap=gap)


def solve(mine: Side, enemy: Side, conditions: Conditions | None = None, *,
          forbidden: Iterable[tuple[str, str]] = (), destroy: Iterable[str] = (),
          objective: Objective = "points", exhaustive_limit: int = EXHAUSTIVE_LIMIT,
          phase: Phase = "shooting", gap: float = 0.0) -> Plan:
    """The plan of ``mine`` against ``enemy`` (the module text). ``forbidden``: (my
    unit, enemy unit) pairs that cannot attack (out of range, not visible);
    ``destroy``: enemy units whose destruction is the objective; otherwise ``objective``
    "points" (expected points destroyed) or "threat" (the enemy's expected points
    destroyed next turn removed: ``threats``, shared evenly by each unit's models);
    ``phase``: "shooting", or "fight" (the charge plan: ``tactica.plan.volley``);
    ``gap``: past the exhaustive limit, the search may stop once its certified gap is at
    most this share of the plan's value (0: it proves the plan optimal if it can within
    its limits, ``tactica.plan.proof``)."""
    conditions = (conditions or Conditions()).for_sides(mine, enemy)
    conditions.check(mine.units, mine.rules)
    p = Problem(mine, enemy, conditions, forbidden, destroy, objective, phase)
    if p.named:
        what = "P(destroyed) of " + ", ".join(enemy.units[j].label for j in sorted(p.named))
    elif p.threat:
        what = "the enemy's expected points destroyed next turn, removed"
    else:
        what = "expected points destroyed"
    if phase == "fight":
        what += " in the fight, each charge weighed by P(it reaches)"
    warnings = (*mine.warnings, *enemy.warnings)
    sources = tuple(f"{s.name}: {s.points} pts, {s.points_source}" for s in (mine, enemy))
    if not p.shooters:
        return Plan(what, (), 0.0, 0.0, (), 0.0, 0.0, "nothing to assign", True, 0,
                    None, 0, p.idle, warnings=warnings, phase=phase, points_from=sources)
    naive, size = p.naive(), p.size()
    notes: list[str] = []
    found: Found | None = None
    method: Method = "exhaustive"
    bound: float | None = None
    if size <= exhaustive_limit:
        best, optimal = p.exhaustive(), True
    else:
        best, found = _search(p, naive, gap)
        method = "branch and price"
        optimal = found.proved
        if found.violated:
            optimal = False
            notes.append("a volley's exact value exceeds its bound, or a lone model's "
                         "convolution differs from the engine's sequence (a rule the "
                         "bounds do not foresee): the plan is the best found, not proved "
                         "optimal")
    if any(len(s) > MAX_ORDERS for s in p.groups(best).values()):
        notes.append(f"at a target attacked by more than {MAX_ORDERS} units, they attack "
                     "in the order of what each does alone, the most first (not every "
                     "order is tried)")
    best = _unneeded(p, best)
    for k, j in enumerate(best):
        if j is None:
            p.idle[mine.units[p.shooters[k]].label] = (
                "no target worth its shots" if phase == "shooting" else
                "no target worth its charge") + " (its attack adds nothing to the plan)"
    (score, points), (naive_score, naive_points) = p.totals(best), p.totals(naive)
    if found is not None:  # the certified gap, in the objective's own unit
        scale = DESTROY_WEIGHT if p.named else 1.0
        bound = score + max(0.0, found.bound - found.value) / scale
    return Plan(what, _describe(p, best), points, score, _describe(p, naive), naive_points,
                naive_score, method, optimal, size, bound, p.volleys.steps, p.idle,
                tuple(notes), warnings=warnings, phase=phase, points_from=sources,
                branches=found.nodes if found else 0,
                volleys_evaluated=found.evaluated if found else 0)


def _describe(p: Problem, a: Assignment) -> tuple[Volley, ...]:
    out = []
    for j, s in sorted(p.groups(a).items()):
        order, o = p.best(j, s)
        out.append(Volley(p.enemy.units[j].label,
                          tuple(p.mine.units[i].label for i in order), o,
                          tuple(p.volleys.charge(i, j) for i in order),
                          tuple(p.volleys.outcome(j, order[:n])
                                for n in range(1, len(order) + 1))))
    return tuple(out)
