"""A volley: several of my units shooting one enemy unit in order, exactly (or, in the
fight phase, charging it and fighting it in order).

The target's exact state distribution (models alive per allocation part, wounds left on
the wounded model, and the unsaved attacks so far) is carried from one unit's attack to
the next (``tactica.combat.exact.engine.calculate_exact_from``, as the sequence engine's shooting
steps do: ``docs/sequence.md``), so a unit firing at a target already half destroyed finds
fewer models to kill, and its surplus damage is lost (overkill); a model left wounded is
finished first; its Blast and Cleave dice count the models alive when it shoots
(``combat.exact.select_targets``). Each unit's attack is the scenario of its matrix cell
(``tactica.plan.cells.pair_scenario``).

In the fight phase each unit first charges (``charge``: P(the charge roll reaches),
``tactica.combat.turn.charge``; 1 without a distance: the unit is in combat already) and
fights only if it reaches: its step leaves the target's state as it was with the chance
it fails and moves it as its fight does with the chance it reaches (the exact mixture,
as the sequence engine's charge steps split their worlds). Charging units fight first,
in the order the volley gives (11.04, 12.04: the attacker picks which of its charging
units fights next).

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
from ..combat.exact.engine import Initial
from ..combat.exact.states import final_states_from
from ..combat.turn.charge import charge_probability
from ..combat.turn.exact import alive_per_entry
from ..rules.turn import get_turn_rules
from .army import Armed, Phase, Side
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
    (by index), in the shooting phase (or the fight after charges), memoised."""

    def __init__(self, mine: Side, enemy: Side, conditions: Conditions,
                 phase: Phase = "shooting") -> None:
        self.mine, self.enemy, self.conditions = mine, enemy, conditions
        self.phase: Phase = phase
        self._scenarios: dict[tuple[int, int], Scenario | str] = {}
        self._states: dict[tuple[int, tuple[int, ...]], Initial] = {}
        self._outcomes: dict[tuple[int, tuple[int, ...]], Outcome] = {}
        self._best: dict[tuple[int, frozenset[int]], tuple[tuple[int, ...], Outcome]] = {}
        self._kept: dict[tuple[int, int], dict[str, Any]] = {}  # the engine's, per pair
        self.steps = 0  # attacks computed (for the report)
        #: unit index -> the threat each of its models carries (``Outcome.threat`` is
        #: that times the models destroyed)
        self.threat: dict[int, float] = {}

    def scenario(self, i: int, j: int) -> Scenario | str:
        """Unit ``i``'s shooting at unit ``j``, or why it cannot."""
        key = (i, j)
        if key not in self._scenarios:
            unit, enemy, phase = self.mine.units[i], self.enemy.units[j], self.phase
            armed, target = unit.attack.get(phase), enemy.target.get(phase)
            if not isinstance(armed, Armed):
                self._scenarios[key] = armed or f"cannot attack in the {phase} phase"
            elif not isinstance(target, Target):
                self._scenarios[key] = target or "cannot be attacked"
            else:
                armed = unit.armed(phase, target,  # picked against this target
                                   self.conditions.between(unit.label, enemy.label)
                                   if phase == "shooting" else None)
                self._scenarios[key] = armed if isinstance(armed, str) else pair_scenario(
                    armed, target, phase, self.mine.rules, self.conditions,
                    unit.label, enemy.label, enemy.pending.get(phase, ()))[0]
        return self._scenarios[key]

    def charge(self, i: int, j: int) -> float:
        """P(unit ``i`` attacks unit ``j``): 1 when shooting; in the fight phase the
        chance its charge roll (2D6 with the unit's modifier and re-roll, the rule set's
        ``rules.turn``) reaches the distance between them, 1 without a distance."""
        if self.phase == "shooting":
            return 1.0
        label, foe = self.mine.units[i].label, self.enemy.units[j].label
        distance = self.conditions.between(label, foe)
        if distance is None:
            return 1.0
        modifier, reroll = self.conditions.charge_roll(label)
        return charge_probability(distance, modifier, reroll,
                                  get_turn_rules(self.mine.rules))

    def target(self, j: int) -> Target:
        target = self.enemy.units[j].target.get(self.phase)
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
                raise ScenarioError(f"{self.mine.units[order[-1]].label} cannot attack "
                                    f"{self.enemy.units[j].label}: {scenario}")
            p = self.charge(order[-1], j)
            kept = self._kept.setdefault((order[-1], j), {})
            state = final_states_from(scenario, before, kept) if p > 0 else before
            self.steps += 1
            if p < 1:
                state = _mix(before, state, p)
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


def _mix(before: Initial, after: Initial, p: float) -> Initial:
    """``after`` with chance ``p``, ``before`` otherwise (each state's row of unsaved
    attacks mixed alike, padded to the longer)."""
    out: Initial = {}
    for weight, part in ((1.0 - p, before), (p, after)):
        for s, row in part.items():
            old = out.get(s, np.zeros(1))
            new = np.zeros(max(len(old), len(row)))
            new[:len(old)] += old
            new[:len(row)] += weight * row
            out[s] = new
    return out
