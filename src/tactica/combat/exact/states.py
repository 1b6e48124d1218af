"""The exact engine for a caller that reads only the target's final states, and the facts
about an attack's lines that a caller bounding it needs (``tactica.plan``'s volleys and
bounds): the same calculation as ``engine.calculate_exact_from``, without its result
document.

>>> from tactica.combat.contract.scenario import Scenario
>>> from tactica.combat.exact.engine import calculate_exact_from
>>> s = Scenario.model_validate({
...   "attacker": {"weapons": [{"name": "Bolt rifle", "count": 10, "A": "1", "skill": 3,
...                             "S": 4, "AP": -1, "D": "1"}]},
...   "target": {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}})
>>> from tactica.combat.exact.allocation import StateSpace, build_groups
>>> start = {StateSpace(build_groups(s.target)).initial: np.ones(1)}
>>> a, b = calculate_exact_from(s, start)[1], final_states_from(s, start)
>>> sorted(a) == sorted(b) and all(abs(a[k].sum() - b[k].sum()) < 1e-12 for k in a)
True
>>> attack_flags(s)
AttackFlags(open_lethal=False, precision=False, line_damage=(1,), command_reroll=False)
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..contract.scenario import Scenario
from .allocation import StateSpace
from .engine import (
    Initial,
    _lethal_search,
    _open_lethal,
    _prepare,
    _Prepared,
    _states,
    resolve_weapons,
)
from .readout import collect_states
from .select_targets import counts_models, mixed_states, parts
from .threads import one_blas_thread

__all__ = ["AttackFlags", "attack_flags", "final_states_from"]


class AttackFlags(NamedTuple):
    """What a caller bounding an attack needs to know of its lines, resolved (effects
    included): an open Lethal Hits choice (``_open_lethal``: decided from the state the
    attack starts in), a Precision line (24.28), the most damage one attack (or one
    Devastating Wounds critical) of each line can do, and a Command Re-roll (15.02: one
    die of all the lines, so the lines' dice are not independent)."""

    open_lethal: bool
    precision: bool
    line_damage: tuple[int, ...]
    command_reroll: bool

    @property
    def max_damage(self) -> int:
        return max(self.line_damage, default=0)


def attack_flags(scenario: Scenario) -> AttackFlags:
    """``AttackFlags`` of ``scenario``'s weapon lines."""
    prep = _prepare(scenario)
    most = tuple(max(int(np.flatnonzero(pmf).max(initial=0))
                     for pmf in (w.damage_pmf, w.mortal_pmf)) for w in prep.weapons)
    return AttackFlags(bool(_open_lethal(prep.weapons)),
                       any(w.precision for w in prep.weapons), most,
                       any(e.command_reroll for e in prep.effects))


@one_blas_thread
def final_states_from(scenario: Scenario, initial: Initial,
                      kept: dict[str, Any] | None = None) -> Initial:
    """``calculate_exact_from``'s final states alone: the same calculation without the
    result document, nor the unsaved counts (each state's row sums to its probability;
    a caller that reads only the states, ``tactica.plan``'s volleys). ``kept``: kept
    between calls for one scenario by the caller (its preparation: the effects and the
    weapon lines resolved)."""
    kept = {} if kept is None else kept
    if "prepared" not in kept:
        kept["prepared"] = _prepare(scenario)
    prep: _Prepared = kept["prepared"]
    memo: dict[Any, Any] = {}

    def computed(models: int | None, start: Initial) -> Initial:
        part = prep if models is None else prep._replace(weapons=resolve_weapons(
            prep.scenario, prep.rules, prep.effects, memo, models))
        choice, found = _lethal_search(scenario, initial=start, memo=memo, prep=part)
        done = found if found is not None else _states(part, choice, False, memo, start)
        out: Initial = {}
        collect_states(done.space, done.final, out)
        return out

    if not counts_models(prep.scenario, prep.rules, prep.effects):
        return computed(None, initial)
    full = prep.scenario.target.model_count
    space = StateSpace(prep.groups, prep.rules)
    return mixed_states([(part.weight, computed(None if part.models == full else part.models,
                                                 part.initial))
                         for part in parts(space, initial, prep.rules)])
