"""Each weapon line for an attacker choice: one attack die (``dice_stages``) with the
values its choices weigh, the packets that reach the target, and the expected damage of
a Lethal Hits choice (24.23) from those alone, for the exact engine's search
(``exact._lethal_search``) and the Monte Carlo twin's choices.

>>> from tactica.combat.contract.scenario import Scenario
>>> from tactica.combat.exact.engine import _prepare
>>> p = _prepare(Scenario.model_validate({
...   "attacker": {"weapons": [{"name": "g", "count": 2, "A": "1", "skill": 2, "S": 8,
...                             "AP": -6, "D": "3", "abilities": ["Lethal Hits"]}]},
...   "target": {"models": [{"count": 1, "T": 4, "Sv": 7, "W": 4}]}}))
>>> round(search_mean(p.groups, p.rules, p.effects, p.named, p.weapons, (True,)), 4)
3.2901

By hand: an attack wounds with p = 1/6 (a critical hit, Lethal Hits) + 4/6 * 5/6 = 13/18,
no save; one wound deals 3, two deal 4 (the model's W): 3 * 2p(1 - p) + 4 p^2 =
(390 + 676) / 324 = 3.2901.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tactica.dice import FloatArray
from tactica.rules.base import RuleSet

from ..contract.scenario import Effect
from .allocation import Group, Packet, StateSpace, loss_pmf
from .dice_stages import DieInputs, DieOutcome, roll_die, weighs_values
from .effects import NamedEffects
from .one_group import mean_damage
from .profile import ResolvedWeapon, save_chance
from .size import check_lines

__all__ = ["expected_values", "packets", "search_mean", "weapon_die"]


def expected_values(w: ResolvedWeapon, space: StateSpace,
                    rules: RuleSet) -> tuple[float, float]:
    """Expected damage of one wound that goes to saves, and of one Devastating-Wounds
    critical, against the group first in the allocation order (for attacker choices)."""
    g = space.current(space.initial)
    assert g is not None
    grp = space.groups[g]
    p_save = save_chance(grp, w, rules)

    def mean_loss(pmf: FloatArray, effect: int | None) -> float:
        fnp = min((f for f in (grp.fnp, effect) if f is not None), default=None)
        loss = loss_pmf(tuple(pmf.tolist()), grp.first_wounds, fnp)
        return float(np.dot(np.arange(len(loss)), loss))

    e_normal = (1 - p_save) * mean_loss(w.damage_pmf, w.fnp_effect)
    e_mortal = mean_loss(w.mortal_pmf, w.fnp_mortal)
    return e_normal, e_mortal


def weapon_die(w: ResolvedWeapon, wi: int, space: StateSpace, rules: RuleSet,
               lethal: tuple[bool | None, ...], memo: dict[Any, Any] | None = None
               ) -> DieOutcome:
    """One attack die of line ``wi`` for the attacker's Lethal Hits choice. The values of
    its outcomes (``expected_values``: a damage pmf through the first group's wounds) are
    worked out only where the die weighs them (``dice_stages.weighs_values``): most
    weapons make no choice and re-roll no die by its value. Such a die is a function of
    its record alone (``dice_stages.DieInputs``: the line's hit and wound numbers): with
    a batch ``memo`` it is made once for every line and target whose records are equal,
    cached under the record (read only: shared)."""
    choice = lethal[wi] if wi < len(lethal) else None
    if weighs_values(w, choice):
        return roll_die(DieInputs.of(w, choice, *expected_values(w, space, rules)))
    rec = DieInputs.plain(w, choice)  # the values are not read: not computed
    if memo is None:
        return roll_die(rec)
    dies: dict[DieInputs, DieOutcome] | None = memo.get(_DIES)
    if dies is None:
        dies = memo[_DIES] = {}
    die = dies.get(rec)
    if die is None:
        die = dies[rec] = roll_die(rec)
    return die


#: The run's table of attack dice in its memo (``DieInputs`` -> ``DieOutcome``).
_DIES = ("attack dice",)


def packets(weapons: tuple[ResolvedWeapon, ...], space: StateSpace,
            rules: RuleSet) -> tuple[list[Packet], list[Packet]]:
    """Per line the packets that reach the target: a normal attack, saved per group
    (05.04 Saving Throw), and a Devastating Wounds critical (24.10, no save)."""
    normal = [Packet(tuple(save_chance(g, w, rules) for g in space.groups),
                     tuple(w.damage_pmf.tolist()), w.fnp_effect, w.precision)
              for w in weapons]
    mortal = [Packet((0.0,) * len(space.groups), tuple(w.mortal_pmf.tolist()),
                     w.fnp_mortal, w.mortal_precision, mortal=w.mortal_afresh)
              for w in weapons]
    return normal, mortal


def search_mean(groups: tuple[Group, ...], rules: RuleSet, effects: tuple[Effect, ...],
                named: NamedEffects, weapons: tuple[ResolvedWeapon, ...],
                lethal: tuple[bool | None, ...]) -> float | None:
    """The expected damage of one Lethal Hits choice into the undamaged target without
    building the lines' (n, m) totals (``one_group.mean_damage``), the size model asked
    as for the full calculation; None where that does not apply (Command Re-roll, 15.02;
    mortal wounds before the attacks, 06.02; more than one group)."""
    if named.mortal_before or any(e.command_reroll or e.mortal_wounds is not None
                                  for e in effects):
        return None
    space = StateSpace(groups, rules)
    if len(space.groups) != 1:
        return None
    normal, mortal = packets(weapons, space, rules)
    dies = [weapon_die(w, wi, space, rules, lethal) for wi, w in enumerate(weapons)]
    check_lines(weapons, [d.to_save for d in dies], space, rules, mortal)
    return mean_damage(space, normal, mortal,
                       [(w.attacks_pmf, d.to_save) for w, d in zip(weapons, dies,
                                                                 strict=True)],
                       rules.devastating_wounds_per_line)
