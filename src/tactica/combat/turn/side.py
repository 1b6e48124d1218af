"""What a turn costs besides the target's losses: the target's Deadly Demise, unit by unit,
and the CP a charge's Command Re-roll is expected to spend (``docs/sequence.md``).

Deadly Demise X (24.08; ``reference_facts`` §6.9): each time a model of the target is
destroyed, a D6; on a 6 *each unit within 6"* suffers X mortal wounds. A unit of the turn
is within 6" of the target from the start when it fights without a charge step (it is in
combat already), shoots at 6" or less (``context.distance``) or charges from 6" or less;
a unit that charges from further away comes within 6" when its charge is made, and counts
only the models destroyed from then on. A unit that shoots from further away (or gives
no distance) is not within 6".

A charge's Command Re-roll (15.02) is spent only when the first roll falls short and a
re-roll can still reach; never when the unit has its own re-roll of charge rolls (a roll
is re-rolled once).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from tactica.dice import FloatArray
from tactica.rules.turn import TurnRules

from ..contract.result import Distribution, NamedDistribution
from ..contract.sequence import Sequence, Step
from ..exact.unit_rules import deadly_demise_pmf
from .charge import charge_probability

__all__ = ["charge_reroll_cp", "deadly_demise_by_unit", "near_target"]

Near = Literal["start", "charge"]


def near_target(seq: Sequence) -> dict[str, Near | None]:
    """Each unit of the turn (not the target): within 6" of the target from the start,
    from its charge on, or never.

    >>> s = Sequence.model_validate({"target": {"models": [{"T": 4, "Sv": 3, "W": 2}]},
    ...   "steps": [{"phase": "shooting", "context": {"distance": 20}, "attacker": {
    ...     "name": "Guns", "weapons": [{"A": "1", "skill": 4, "S": 4, "D": "1"}]}},
    ...   {"phase": "charge", "unit": "Riders", "distance": 9}]})
    >>> near_target(s)
    {'Guns': None, 'Riders': 'charge'}
    """
    charging = {st.label: st for st in seq.steps if st.phase == "charge"}
    out: dict[str, Near | None] = {}
    for st in seq.steps:
        if st.fights_back:
            continue
        unit = st.label
        start = out.get(unit) == "start"
        if st.phase == "shooting":
            d = st.context.distance
            start = start or (d is not None and d <= 6)
        elif st.phase == "charge":
            start = start or (st.distance is not None and st.distance <= 6)
        else:
            start = start or unit not in charging
        out[unit] = "start" if start else ("charge" if unit in charging else None)
    return out


def deadly_demise_by_unit(seq: Sequence, killed_near: Callable[[str, bool], FloatArray]
                          ) -> tuple[list[NamedDistribution], list[str]]:
    """The target's Deadly Demise X as the mortal wounds each unit suffers (its own roll
    of X on each 6), from ``killed_near(unit, from_start)``, the pmf of the target's
    models destroyed while the unit is within 6"; notes for the units never within 6"."""
    x = seq.target.deadly_demise
    if x is None:
        return [], []
    side, far = [], []
    for unit, near in near_target(seq).items():
        if near is None:
            far.append(unit)
            continue
        pmf = deadly_demise_pmf(killed_near(unit, near == "start"), x)
        when = "" if near == "start" else " once its charge is made"
        side.append(NamedDistribution(
            label=f"Deadly Demise {x} of {seq.target.name}: mortal wounds {unit} suffers "
                  f"(within 6\"{when}; a 6 for each model destroyed)",
            distribution=Distribution.from_array(pmf)))
    notes = [f"Deadly Demise {x} of {seq.target.name}: {', '.join(far)} "
             f"{'is' if len(far) == 1 else 'are'} taken to be more than 6\" away (give the "
             "shooting distance if not)"] if far else []
    return side, notes


def charge_reroll_cp(st: Step, cp: int, p_declared: float,
                     rules: TurnRules) -> tuple[float, str | None]:
    """The CP a charge's Command Re-roll is expected to spend (``cp`` times P(it is
    used)) and a note saying so.

    >>> from tactica.rules.turn import get_turn_rules
    >>> st = Step(phase="charge", unit="Riders", distance=9, command_reroll=True)
    >>> round(charge_reroll_cp(st, 1, 1.0, get_turn_rules())[0] * 36)   # 26 of 36 fall short
    26
    """
    if not st.command_reroll:
        return 0.0, None
    assert st.distance is not None
    p = charge_probability(st.distance, st.charge_modifier, False, rules)
    who = f"Command Re-roll on {st.label}'s charge"
    if st.reroll_charge:
        return 0.0, f"{who}: not used (the unit re-rolls its charge rolls already)"
    if p >= 1.0:
        return 0.0, f"{who}: not used (the charge cannot fail)"
    if p <= 0.0:
        return 0.0, f"{who}: not used (no roll reaches {st.distance:g}\")"
    used = p_declared * (1 - p)
    return cp * used, (f"{who}: {cp} CP only when the first roll falls short "
                       f"(P {used:.3f}); counted as expected CP")
