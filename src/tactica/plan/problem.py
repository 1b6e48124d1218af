"""The assignment problem behind a plan: my units that can attack, the enemy units each
may attack, what a volley is worth for the objective, and the two ways of solving it
(every assignment, or the proved search of ``tactica.plan.proof``).

Objectives, as one number per volley (``Problem.worth``): the expected points destroyed;
the enemy's threat removed (each enemy unit's threat, ``threats``, shared evenly by its
models, times the models destroyed); or, with named units to destroy, P(destroyed) of
the named units first: ``DESTROY_WEIGHT`` times it plus the points, so the points only
break ties in the chance (differences in P(destroyed) below 1/``DESTROY_WEIGHT`` of a
point of it can be outweighed).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable

from ..combat.contract.scenario import Scenario
from ..rules import get_ruleset
from .army import PHASES, Armed, Phase, Side
from .bounds import PairBound, TargetBound
from .cells import Conditions, compute_cell
from .proof import Instance
from .volley import Outcome, Volleys

__all__ = ["DESTROY_WEIGHT", "Assignment", "Objective", "Problem", "threats"]

#: With units to destroy, one unit of P(destroyed) is worth this many points.
DESTROY_WEIGHT = 1e6

#: An assignment: the target index of each attacker (``None``: it does not attack).
Assignment = tuple[int | None, ...]
Objective = str  # "points" or "threat"


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


def _fingerprint(scenario: Scenario | str) -> str:
    if isinstance(scenario, str):
        return scenario
    return scenario.model_copy(update={"attacker": scenario.attacker.model_copy(
        update={"name": ""})}).model_dump_json()


class Problem:
    """My units that can attack in ``phase`` (``attackers``: their indices in ``mine``),
    the targets each may attack (``allowed``), and the reasons the others do not
    (``idle``)."""

    def __init__(self, mine: Side, enemy: Side, conditions: Conditions,
                 forbidden: Iterable[tuple[str, str]], destroy: Iterable[str],
                 objective: Objective = "points", phase: Phase = "shooting") -> None:
        self.volleys = Volleys(mine, enemy, conditions, phase)
        self.mine, self.enemy, self.phase = mine, enemy, phase
        self.named = {enemy.units.index(enemy.unit(n, "destroy")) for n in destroy}
        self.threat = objective == "threat" and not self.named
        if self.threat:
            self.threats = threats(mine, enemy)
            for j, (unit, t) in enumerate(zip(enemy.units, self.threats, strict=True)):
                models = sum(n for n, _ in unit.entry_points)
                self.volleys.threat[j] = t / models if models else 0.0
        banned = {(mine.units.index(mine.unit(a, "forbid")),
                   enemy.units.index(enemy.unit(t, "forbid"))) for a, t in forbidden}
        self.idle: dict[str, str] = {}
        self.shooters: list[int] = []
        self.allowed: list[list[int]] = []
        for i, unit in enumerate(mine.units):
            armed = unit.attack.get(phase)
            if not isinstance(armed, Armed):
                self.idle[unit.label] = armed or f"cannot attack in the {phase} phase"
                continue
            can = [j for j in range(len(enemy.units)) if (i, j) not in banned
                   and not isinstance(self.volleys.scenario(i, j), str)]
            if phase == "shooting":
                ok = [j for j in can if _reaches(self.volleys.scenario(i, j))]
                why = "no target within range"
            else:
                ok = [j for j in can if self.volleys.charge(i, j) > 0]
                why = "no target within charge range"
            if not ok:
                self.idle[unit.label] = why if can else "no target allowed"
                continue
            self.shooters.append(i)
            self.allowed.append(ok)

    # --- values -------------------------------------------------------------------------
    def primary(self, o: Outcome, j: int) -> float:
        """The objective's own number of a volley (P(destroyed) of a named unit, the
        threat removed, or the points)."""
        if self.named:
            return o.p_destroyed if j in self.named else 0.0
        return o.threat if self.threat else o.points

    def worth(self, o: Outcome, j: int) -> float:
        """What the search maximises (the module text)."""
        if self.named:
            return DESTROY_WEIGHT * self.primary(o, j) + o.points
        return self.primary(o, j)

    def groups(self, a: Assignment) -> dict[int, frozenset[int]]:
        """The attackers (indices in ``mine``) at each target of ``a``."""
        out: dict[int, set[int]] = {}
        for k, j in enumerate(a):
            if j is not None:
                out.setdefault(j, set()).add(self.shooters[k])
        return {j: frozenset(s) for j, s in out.items()}

    def best(self, j: int, units: frozenset[int]) -> tuple[tuple[int, ...], Outcome]:
        """The volley of ``units`` (indices in ``mine``) at ``j``: its order and outcome."""
        return self.volleys.best(j, units, self.worth)

    def value(self, a: Assignment) -> float:
        return sum(self.worth(self.best(j, s)[1], j) for j, s in self.groups(a).items())

    def totals(self, a: Assignment) -> tuple[float, float]:
        """The objective's number and the expected points destroyed of ``a``."""
        primary = points = 0.0
        for j, s in self.groups(a).items():
            o = self.best(j, s)[1]
            primary += self.primary(o, j)
            points += o.points
        return primary, points

    def alone(self, k: int, j: int) -> float:
        """What attacker ``k`` is worth at ``j`` on its own."""
        return self.worth(self.volleys.outcome(j, (self.shooters[k],)), j)

    def naive(self) -> Assignment:
        """Each attacker at the target it does best against alone."""
        return tuple(max(ok, key=lambda j, k=k: self.alone(k, j))  # type: ignore[misc]
                     for k, ok in enumerate(self.allowed))

    def size(self) -> int:
        return math.prod(len(ok) for ok in self.allowed)

    def exhaustive(self) -> Assignment:
        return max(itertools.product(*self.allowed), key=self.value)

    # --- the proved search ------------------------------------------------------------
    def instance(self) -> Instance:
        """The search's input (``tactica.plan.proof``): each target's bound and each
        attacker's distribution there (``tactica.plan.bounds``)."""
        targets = {j: self._target_bound(j) for ok in self.allowed for j in ok}
        pairs = {}
        for k, ok in enumerate(self.allowed):
            i = self.shooters[k]
            for j in ok:
                scenario = self.volleys.scenario(i, j)
                assert not isinstance(scenario, str)
                pairs[(k, j)] = PairBound.of(targets[j], scenario, self.volleys.state(j, (i,)),
                                             self.volleys.charge(i, j))

        def evaluate(j: int, units: frozenset[int]) -> float:
            return self.worth(self.best(j, frozenset(self.shooters[k] for k in units))[1], j)

        return Instance(tuple(tuple(ok) for ok in self.allowed), targets, pairs, evaluate,
                        self._kinds())

    def _kinds(self) -> tuple[int, ...]:
        """Each attacker's kind: attackers whose scenario at every target they may attack
        is the same but for the unit's name (and the same chance to get there) are one
        kind."""
        keys: dict[object, int] = {}
        out = []
        for k, ok in enumerate(self.allowed):
            i = self.shooters[k]
            key = tuple((j, self.volleys.charge(i, j), _fingerprint(self.volleys.scenario(i, j)))
                        for j in ok)
            out.append(keys.setdefault(key, len(keys)))
        return tuple(out)

    def _target_bound(self, j: int) -> TargetBound:
        unit, target = self.enemy.units[j], self.volleys.target(j)
        per_model: list[tuple[float, bool]] = []
        for (n, ppm), g in zip(unit.entry_points, target.models, strict=True):
            worth = self.volleys.threat.get(j, 0.0) if self.threat else ppm
            per_model += [(worth, g.character)] * n
        last = DESTROY_WEIGHT if j in self.named else 0.0
        return TargetBound.of(target, per_model, last)
