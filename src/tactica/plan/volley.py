"""A volley: several of my units shooting one enemy unit in order, exactly.

The target's exact state distribution (models alive per allocation part, wounds left on
the wounded model, and the unsaved attacks so far) is carried from one unit's attack to
the next (``tactica.combat.exact.engine.calculate_exact_from``, as the sequence engine's shooting
steps do: ``docs/sequence.md``), so a unit firing at a target already half destroyed finds
fewer models to kill, and its surplus damage is lost (overkill); a model left wounded is
finished first; its Blast and Cleave dice count the models alive when it shoots
(``combat.exact.select_targets``). Each unit's attack is the scenario of its matrix cell
(``tactica.plan.cells.pair_scenario``).

Prefixes are shared: the state after firing units (a, b) at a target is kept, so the
orders (a, b, c) and (a, b, d) compute (a, b) once.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..combat.contract.scenario import Scenario, ScenarioError, Target
from ..combat.exact.allocation import StateSpace, build_groups
from ..combat.exact.engine import Initial, calculate_exact_from
from ..combat.turn.exact import alive_per_entry
from .army import Armed, Side
from .cells import Conditions, fresh, pair_scenario
from .points import points_destroyed

__all__ = ["MAX_ORDERS", "Outcome", "Volleys"]

#: Every firing order of a volley of at most this many units is tried; a larger volley
#: fires its units in the order of what each does alone, the most first (the heavy guns
#: first, the rest to finish what they leave).
MAX_ORDERS = 2


@dataclass(frozen=True)
class Outcome:
    """What a volley does to its target: expected points destroyed, expected models
    destroyed and P(the unit is destroyed)."""

    points: float
    models: float
    p_destroyed: float
    damage: float
    threat: float = 0.0  # the target's threat removed (``Volleys.threat``)

    @staticmethod
    def of(target: Target, entry_points: tuple[tuple[int, float], ...],
           state: Initial) -> Outcome:
        models = p_dead = damage = 0.0
        total = sum(g.count for g in target.models)
        space = StateSpace(build_groups(target))
        wounds = space.wounds_left(space.initial)
        for s, row in state.items():
            p = float(np.sum(row))
            left = sum(alive_per_entry(target.models, s))
            models += p * (total - left)
            p_dead += p if left == 0 else 0.0
            damage += p * (wounds - space.wounds_left(s))
        return Outcome(points_destroyed(target.models, entry_points, state), models, p_dead,
                       damage)


ZERO = Outcome(0.0, 0.0, 0.0, 0.0)


class Volleys:
    """The exact outcomes of volleys of ``mine``'s units (by index) at ``enemy``'s units
    (by index), in the shooting phase, memoised."""

    def __init__(self, mine: Side, enemy: Side, conditions: Conditions) -> None:
        self.mine, self.enemy, self.conditions = mine, enemy, conditions
        self._scenarios: dict[tuple[int, int], Scenario | str] = {}
        self._states: dict[tuple[int, tuple[int, ...]], Initial] = {}
        self._outcomes: dict[tuple[int, tuple[int, ...]], Outcome] = {}
        self._best: dict[tuple[int, frozenset[int]], tuple[tuple[int, ...], Outcome]] = {}
        self.steps = 0  # attacks computed (for the report)
        #: unit index -> the threat each of its models carries (``Outcome.threat`` is
        #: that times the models destroyed)
        self.threat: dict[int, float] = {}

    def scenario(self, i: int, j: int) -> Scenario | str:
        """Unit ``i``'s shooting at unit ``j``, or why it cannot."""
        key = (i, j)
        if key not in self._scenarios:
            unit, enemy = self.mine.units[i], self.enemy.units[j]
            armed, target = unit.attack.get("shooting"), enemy.target.get("shooting")
            if not isinstance(armed, Armed):
                self._scenarios[key] = armed or "cannot shoot"
            elif not isinstance(target, Target):
                self._scenarios[key] = target or "cannot be shot"
            else:
                armed = unit.armed("shooting", target,  # picked against this target
                                   self.conditions.between(unit.label, enemy.label))
                self._scenarios[key] = armed if isinstance(armed, str) else pair_scenario(
                    armed, target, "shooting", self.mine.rules, self.conditions,
                    unit.label, enemy.label, enemy.pending.get("shooting", ()))[0]
        return self._scenarios[key]

    def target(self, j: int) -> Target:
        target = self.enemy.units[j].target.get("shooting")
        assert isinstance(target, Target)
        return target

    def state(self, j: int, order: tuple[int, ...]) -> Initial:
        """The target's state distribution after ``order`` fired at it."""
        key = (j, order)
        if key in self._states:
            return self._states[key]
        if not order:
            state = fresh(self.target(j))
        else:
            before = self.state(j, order[:-1])
            scenario = self.scenario(order[-1], j)
            if isinstance(scenario, str):
                raise ScenarioError(f"{self.mine.units[order[-1]].label} cannot shoot "
                                    f"{self.enemy.units[j].label}: {scenario}")
            _, state = calculate_exact_from(scenario, before)
            self.steps += 1
        self._states[key] = state
        return state

    def outcome(self, j: int, order: tuple[int, ...]) -> Outcome:
        """The outcome of the volley ``order`` at unit ``j``."""
        key = (j, order)
        if key not in self._outcomes:
            o = (ZERO if not order else Outcome.of(
                self.target(j), self.enemy.units[j].entry_points, self.state(j, order)))
            self._outcomes[key] = replace(o, threat=self.threat.get(j, 0.0) * o.models)
        return self._outcomes[key]

    def best(self, j: int, shooters: frozenset[int], score: Any
             ) -> tuple[tuple[int, ...], Outcome]:
        """The firing order of ``shooters`` at ``j`` with the highest ``score`` (a
        function of an ``Outcome`` and ``j``) of every order, up to ``MAX_ORDERS`` units;
        a larger volley in the order of their ``score`` alone (see ``MAX_ORDERS``)."""
        key = (j, shooters)
        if key in self._best:
            return self._best[key]
        if not shooters:
            found: tuple[tuple[int, ...], Outcome] = ((), ZERO)
        elif len(shooters) <= MAX_ORDERS:
            found = max(((o, self.outcome(j, o)) for o in itertools.permutations(
                sorted(shooters))), key=lambda t: score(t[1], j))
        else:
            order = tuple(sorted(shooters, key=lambda i: (score(self.outcome(j, (i,)), j),
                                                          -i), reverse=True))
            found = (order, self.outcome(j, order))
        self._best[key] = found
        return found
