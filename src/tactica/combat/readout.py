"""The exact engine's last stage: the result document read off the target's final states
and the attacker's totals.

The final distribution over the target's states (``allocation``) gives the damage dealt,
the models destroyed, the chance the unit is destroyed and the unsaved attacks; the
weapon lines' totals (``dice_stages``, summed over the Command Re-roll branches) give the
attacks, hits and wounds and the per-weapon summaries; the hazard rolls (24.15 / 06.03)
the mortal wounds the attacker suffers.

>>> import numpy as np
>>> antidiagonal(np.array([[0.25, 0.25], [0.5, 0.0]])).tolist()   # P(n + m = k)
[0.25, 0.75, 0.0]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..dice import FloatArray
from ..rules.base import RuleSet
from .allocation import StateSpace
from .command_reroll import sum_pmfs, weapon_marginal
from .effects import NamedEffects
from .profile import ResolvedWeapon
from .result import Distribution, NamedDistribution, Result, StageExplanation, WeaponSummary

__all__ = ["AttackerSide", "Branches", "ReadOut", "antidiagonal", "assemble", "conv_all",
           "hazard", "read_out", "summaries"]

#: The outcomes as a sum of branches, each a product of per-weapon (hits, (n, m)) sub-pmfs.
Branches = list[list[tuple[FloatArray, FloatArray]]]


def antidiagonal(nm: FloatArray) -> FloatArray:
    """The pmf of n + m for a joint pmf over (n, m)."""
    rows, cols = nm.shape
    if rows == 1 or cols == 1:  # one line of cells: the sums are the cells (+ 0.0, as
        out1: FloatArray = nm.ravel() + 0.0  # the sums from 0 below)
        return out1
    index = np.add.outer(np.arange(rows), np.arange(cols)).ravel()
    out: FloatArray = np.bincount(index, weights=nm.ravel(),
                                  minlength=rows + cols - 1).astype(np.float64)
    return out


def _mean(p: FloatArray) -> float:
    return float(np.dot(np.arange(len(p)), p))


def conv_all(pmfs: list[FloatArray]) -> FloatArray:
    """The pmf of the sum of independent variables."""
    if len(pmfs) == 1:  # convolved with [1.0]: each entry times 1.0, a copy
        return pmfs[0] * 1.0
    out = np.array([1.0])
    for p in pmfs:
        out = np.convolve(out, p)
    return out


def summaries(weapons: tuple[ResolvedWeapon, ...], branches: Branches) -> list[WeaponSummary]:
    """Per weapon line: the expected attacks, hits, wounds and critical wounds."""
    out = []
    for wi, w in enumerate(weapons):
        w_hits = weapon_marginal(branches, wi, 0)
        w_nm = weapon_marginal(branches, wi, 1)
        crit = float(np.dot(w_nm.sum(axis=0), np.arange(w_nm.shape[1])))
        out.append(WeaponSummary(weapon=w.name, attacks=_mean(w.attacks_pmf),
                                 hits=_mean(w_hits), wounds=_mean(antidiagonal(w_nm)),
                                 critical_wounds=crit))
    return out


@dataclass(frozen=True)
class ReadOut:
    damage: FloatArray
    killed: FloatArray
    p_dead: float
    unsaved: FloatArray
    p_character: float  # P(a CHARACTER model is destroyed)


def read_out(space: StateSpace, final: FloatArray, keywords: tuple[str, ...]) -> ReadOut:
    """The result's distributions off the final states (wounds and models left): each
    bin sums its states' probabilities in state order (``np.bincount``)."""
    by_state = final.sum(axis=1)
    groups = space.groups
    w = [g.W for g in groups]
    wounds, models = [], []
    for s in space.states:  # a few to a few hundred states: plain loops beat numpy here
        wl = ml = 0
        for gi in range(len(groups)):
            k = s[2 * gi]
            if k:
                wl += s[2 * gi + 1] + (k - 1) * w[gi]
                ml += k
        wounds.append(wl)
        models.append(ml)
    start_wounds = space.wounds_left(space.initial)
    start_models = space.models_left(space.initial)
    damage = np.bincount(start_wounds - np.array(wounds, dtype=np.int64), weights=by_state,
                         minlength=start_wounds + 1).astype(np.float64)
    killed = np.bincount(start_models - np.array(models, dtype=np.int64), weights=by_state,
                         minlength=start_models + 1).astype(np.float64)
    # CHARACTER models: those marked so, or every model of a CHARACTER unit (a lone one)
    chars = [gi for gi, g in enumerate(groups) if g.character] or (
        list(range(len(groups))) if "CHARACTER" in keywords else [])
    p_char = 0.0
    if chars:
        p_char = float(sum(p for p, s in zip(by_state.tolist(), space.states, strict=True)
                           if any(s[2 * gi] < groups[gi].count for gi in chars)))
    return ReadOut(damage, killed, float(killed[start_models]), final.sum(axis=0), p_char)


def hazard(weapons: tuple[ResolvedWeapon, ...], rules: RuleSet, keywords: tuple[str, ...],
           stages: list[StageExplanation]) -> FloatArray:
    """24.15 Hazardous / 06.03 hazard rolls (10th Hazardous): one roll per Hazardous
    weapon carried that attacked, mortal wounds to the attacker on a failure."""
    mw_each = rules.hazard_mortal_wounds(keywords)
    p_fail = rules.hazard_fails_on / 6
    haz = np.array([1.0])
    n_haz = sum(w.count for w in weapons if w.hazardous)
    for _ in range(n_haz):
        step = np.zeros(mw_each + 1)
        step[0], step[mw_each] = 1 - p_fail, p_fail
        haz = np.convolve(haz, step)
    if n_haz:
        stages.append(StageExplanation(
            weapon="Hazardous", stage="hazard",
            detail=f"{n_haz} hazard roll(s), each fails on 1-{rules.hazard_fails_on}: "
                   f"{mw_each} mortal wound(s) to the attacker"))
    return haz


@dataclass(frozen=True)
class AttackerSide:
    """The attacker's side of a finished calculation: the weapon lines, their totals as
    branches, the stage explanations, notes and what the numbers leave out."""

    weapons: tuple[ResolvedWeapon, ...]
    branches: Branches
    stages: list[StageExplanation]
    notes: list[str]
    not_calculated: list[str]
    named: NamedEffects
    attacker_keywords: tuple[str, ...]


def assemble(rules: RuleSet, side: AttackerSide, out: ReadOut) -> Result:
    """The result document of one exact calculation."""
    weapons, branches, named = side.weapons, side.branches, side.named
    hits_total = sum_pmfs([conv_all([h for h, _ in br]) for br in branches])
    wounds_total = sum_pmfs([conv_all([antidiagonal(n) for _, n in br]) for br in branches])
    stages = list(side.stages)
    haz = hazard(weapons, rules, side.attacker_keywords, stages)
    return Result(
        rules=rules.name,
        attacks=Distribution.from_array(conv_all([w.attacks_pmf for w in weapons])),
        hits=Distribution.from_array(hits_total),
        wounds=Distribution.from_array(wounds_total),
        unsaved=Distribution.from_array(out.unsaved),
        damage=Distribution.from_array(out.damage),
        models_destroyed=Distribution.from_array(out.killed, length=len(out.killed)),
        p_unit_destroyed=out.p_dead,
        attacker_mortal_wounds=Distribution.from_array(haz),
        weapons=tuple(summaries(weapons, branches)),
        stages=tuple(stages),
        notes=tuple(dict.fromkeys(side.notes + list(named.notes))),
        not_calculated=tuple(side.not_calculated),
        effects_applied=named.applied,
        cp_spent=named.cp,
        other_mortal_wounds=tuple(
            NamedDistribution(label=label, distribution=Distribution.from_array(pmf))
            for label, pmf in named.side_distributions(out.p_character)
        ),
    )
