"""Points destroyed: the target's points per model, weighed by the chance each model is
destroyed.

For a target whose model entries cost ``ppm_j`` points per model, the expected points
destroyed are the sum over its models of ``ppm x P(model destroyed)``; summed entry by
entry that is ``sum_j ppm_j x E[models of entry j destroyed]`` (linearity of
expectation). The exact engine gives the distribution of the target's states (models
alive per allocation part and the wounds left); ``tactica.combat.turn.exact.alive_per_entry``
reads each state's models alive per entry, in the order models are removed (the wounded
model first, then the models in the order listed; CHARACTER models last unless a
Precision attack picked them).

>>> from tactica.combat.contract.scenario import ModelGroup
>>> from tactica.combat.exact.allocation import StateSpace, build_groups
>>> from tactica.combat.contract.scenario import Target
>>> import numpy as np
>>> t = Target(models=(ModelGroup(name="Guard", count=2, T=3, Sv=5, W=1),
...                    ModelGroup(name="Captain", count=1, T=4, Sv=3, W=4, character=True)))
>>> space = StateSpace(build_groups(t))
>>> # half the time one Guard is dead, half the time both Guards and the Captain:
>>> # 0.5 x 5 + 0.5 x (5 + 5 + 60) = 37.5
>>> states = {(1, 1, 1, 4, -1, -1): np.array([0.5]), (0, 1, 0, 4, -1, -1): np.array([0.5])}
>>> points_destroyed(t.models, ((2, 5.0), (1, 60.0)), states)
37.5
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..combat.contract.scenario import ModelGroup
from ..combat.exact.allocation import State
from ..combat.turn.exact import alive_per_entry
from ..dice import FloatArray

__all__ = ["entry_losses", "points_destroyed"]


def entry_losses(entries: tuple[ModelGroup, ...],
                 states: Mapping[State, FloatArray]) -> list[float]:
    """E[models destroyed] of each entry, over ``states`` (state -> pmf row; the rows'
    sums are the states' probabilities)."""
    lost = [0.0] * len(entries)
    for s, row in states.items():
        p = float(np.sum(row))
        if not p:
            continue
        for j, alive in enumerate(alive_per_entry(entries, s)):
            lost[j] += p * (entries[j].count - alive)
    return lost


def points_destroyed(entries: tuple[ModelGroup, ...], entry_points: tuple[tuple[int, float], ...],
                     states: Mapping[State, FloatArray]) -> float:
    """The expected points destroyed (see the module text)."""
    return sum(ppm * lost for (_, ppm), lost in
               zip(entry_points, entry_losses(entries, states), strict=True))
