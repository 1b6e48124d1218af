"""A matchup's headline figures (expected damage, expected models destroyed, P(unit
destroyed)) without the result document, for tables of many matchups
(``batch.figures_each``, ``tactica.meta``).

In a batch the figures are kept under everything the calculation reads once the weapon
lines are resolved (``figures_key``): each line's numbers (``profile.ResolvedWeapon``,
but its name and texts, and its Strength and Toughness, which only the wound roll
read), the target's allocation groups, the effects that act outside the lines (Command
Re-roll, 15.02; mortal wounds before the attacks, 06.02; Feel No Pain) and the rules
version. Two attackers whose lines roll alike against a target (a Bolt rifle on two
datasheets, an Anti-X weapon against a target without X, an S5 and an S6 weapon into
T4) share one calculation: the same arithmetic on the same numbers, so the same floats
as apart.

>>> from tactica.combat.contract.scenario import Scenario
>>> s = Scenario.model_validate({
...   "attacker": {"weapons": [{"name": "Bolt rifle", "count": 10, "A": "1", "skill": 3,
...                             "S": 4, "AP": -1, "D": "1"}]},
...   "target": {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}})
>>> renamed = s.model_copy(update={"attacker": s.attacker.model_copy(update={
...     "weapons": [s.attacker.weapons[0].model_copy(update={"name": "Auto bolt rifle"})]})})
>>> memo = {}
>>> figures_exact(s, memo) == figures_exact(renamed, memo) == figures_exact(renamed)
True
>>> sum(1 for k in memo if k[0] == "figures")  # one calculation for both names
1
"""

from __future__ import annotations

from typing import Any

from ..contract.result import distribution_mean
from ..contract.scenario import Scenario
from .engine import _lethal_search, _prepare, _Prepared, _states
from .one_group import _ENABLED
from .readout import read_out
from .threads import one_blas_thread

__all__ = ["figures_exact", "figures_key"]

def figures_key(prep: _Prepared, memo: dict[Any, Any] | None = None) -> tuple[Any, ...]:
    """Everything ``figures_exact`` reads of a prepared scenario once its lines are
    resolved (see the module docstring; the target's keywords only decide which models
    are CHARACTERs, ``readout``, which none of the three figures reads). With a batch's
    ``memo``, each line's part is made once per resolved line (``ResolvedWeapon.numbers``,
    cached on the line: the memo shares the lines, ``profile.resolve_weapon``)."""
    lines = tuple(w.numbers for w in prep.weapons)
    return ("figures", prep.scenario.rules, _ENABLED.get(), lines, prep.plain_groups,
            tuple((e.command_reroll, e.mortal_wounds, e.fnp, e.fnp_mortal)
                  for e in prep.effects),
            tuple((pmf.shape, pmf.tobytes()) for _, pmf in prep.named.mortal_before))


@one_blas_thread
def figures_exact(scenario: Scenario, memo: dict[Any, Any] | None = None
                  ) -> tuple[float, float, float]:
    """``calculate_exact``'s damage mean, models-destroyed mean and P(unit destroyed),
    the same floats, without the result document (``readout.assemble``); with a batch's
    ``memo``, kept there under ``figures_key``."""
    memo = {} if memo is None else memo
    prep = _prepare(scenario, memo)
    key = figures_key(prep, memo)
    got: tuple[float, float, float] | None = memo.get(key)
    if got is None:
        choice, found = _lethal_search(scenario, memo=memo, prep=prep)
        done = found if found is not None else _states(prep, choice, True, memo, None)
        out = read_out(done.space, done.final, prep.scenario.target.keywords)
        got = memo[key] = (distribution_mean(out.damage),
                           distribution_mean(out.killed, length=len(out.killed)), out.p_dead)
    return got
