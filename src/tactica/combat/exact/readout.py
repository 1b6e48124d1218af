"""The exact engine's last stage: the result document read off the target's final states
and the attacker's totals.

The final distribution over the target's states (``allocation``) gives the damage dealt,
the models destroyed, the chance the unit is destroyed and the unsaved attacks; the
weapon lines' totals (``dice_stages``, summed over the Command Re-roll branches) give the
attacks, hits and wounds and the per-weapon summaries; the hazard rolls (24.15 / 06.03)
the mortal wounds the attacker suffers. The document's fields are made here as plain
values and validated once, as one document (pydantic validates the nested models with
it, faster than one at a time); every float is the one the earlier model-by-model
formulation made (``tests/combat/test_result_document.py``).

>>> import numpy as np
>>> antidiagonal(np.array([[0.25, 0.25], [0.5, 0.0]])).tolist()   # P(n + m = k)
[0.25, 0.75, 0.0]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from tactica.dice import FloatArray
from tactica.rules.base import RuleSet

from ..contract.result import Result, StageFields, distribution_fields, pmf_mean
from .allocation import State, StateSpace
from .command_reroll import branch_masses, sum_pmfs, weapon_marginal
from .effects import NamedEffects
from .profile import ResolvedWeapon

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


def conv_all(pmfs: list[FloatArray]) -> FloatArray:
    """The pmf of the sum of independent variables, convolved in turn from the first
    (one pmf is itself, not copied; numpy's convolution adds each sum to 0.0, so it
    gives what it gives when started from [1.0], signed zeros in the first included)."""
    out = pmfs[0]
    for p in pmfs[1:]:
        out = np.convolve(out, p)
    return out


class _Means:
    """The means of one document's pmfs (``pmf_mean``), each array's made once (with one
    weapon line in one branch its totals are the document's distributions)."""

    def __init__(self) -> None:
        self._seen: dict[int, tuple[FloatArray, float]] = {}  # the array kept: its id

    def of(self, p: FloatArray) -> float:
        if len(p) <= 3:  # no dot product to keep (``short_mean``)
            return pmf_mean(p)
        known = self._seen.get(id(p))
        if known is None:
            known = self._seen[id(p)] = (p, pmf_mean(p))
        return known[1]


def summaries(weapons: tuple[ResolvedWeapon, ...], branches: Branches,
              wounds: list[FloatArray] | None = None,
              mean: Callable[[FloatArray], float] = pmf_mean) -> list[dict[str, Any]]:
    """Per weapon line: the expected attacks, hits, wounds and critical wounds (a
    ``WeaponSummary``'s fields). ``wounds``: each line's pmf of wounds (``antidiagonal``
    of its (n, m)) in the only branch, when already made."""
    out = []
    masses = branch_masses(branches) if len(weapons) > 1 else None  # one line weighs 1.0
    for wi, w in enumerate(weapons):
        w_hits, w_nm = weapon_marginal(branches, wi, masses)
        # the same array as the branch's own: its wounds as they were made
        anti = (wounds[wi] if wounds is not None and w_nm is branches[0][wi][1]
                else antidiagonal(w_nm))
        out.append({"weapon": w.name, "attacks": mean(w.attacks_pmf), "hits": mean(w_hits),
                    "wounds": mean(anti),
                    "critical_wounds": pmf_mean(np.add.reduce(w_nm, axis=0))
                    if w_nm.shape[1] > 1 else 0.0})  # no critical: 0 times the line's mass
    return out


class ReadOut(NamedTuple):
    """The target's side of a result, read off its final states."""

    damage: FloatArray
    killed: FloatArray
    p_dead: float
    unsaved: FloatArray
    p_character: float  # P(a CHARACTER model is destroyed)


def read_out(space: StateSpace, final: FloatArray, keywords: tuple[str, ...]) -> ReadOut:
    """The result's distributions off the final states (wounds and models left): each
    bin sums its states' probabilities in state order (as ``np.bincount`` does)."""
    by_state = np.add.reduce(final, axis=1)
    unsaved = np.add.reduce(final, axis=0)
    groups = space.groups
    if len(groups) == 1:
        return _one_group(space, by_state, unsaved,
                          groups[0].character or "CHARACTER" in keywords)
    # CHARACTER models: those marked so, or every model of a CHARACTER unit (a lone one)
    chars = [gi for gi, g in enumerate(groups) if g.character] or (
        list(range(len(groups))) if "CHARACTER" in keywords else [])
    damage, killed, p_char = _by_states(space, by_state, chars)
    return ReadOut(damage, killed, float(killed[-1]), unsaved, p_char)


class _Bins(NamedTuple):
    """Where each state of a one-group space counts (``_one_group_bins``): its damage
    h0 - h and models destroyed K - k, the states with a model destroyed, and the first
    state above the start (``None``: none)."""

    damage: npt.NDArray[np.intp]
    killed: npt.NDArray[np.intp]
    h0: int
    k0: int
    hurt: npt.NDArray[np.bool_]
    above: tuple[int, ...] | None


def _one_group_bins(space: StateSpace) -> _Bins:
    """A state (k, t, ...) of the one group (K models of W wounds) has h = (k - 1) W + t
    wounds left (0 when k = 0) and k models; the damage is h0 - h, the models destroyed
    K - k (kept per space: the same for every distribution over it)."""
    def made() -> _Bins:
        w, count = space.groups[0].W, space.groups[0].count
        k0, t0 = space.initial[0], space.initial[1]
        h0 = (k0 - 1) * w + t0 if k0 else 0
        damage, killed, hurt = [], [], []
        above = None
        for s in space.states:
            k = s[0]
            h = (k - 1) * w + s[1] if k else 0
            if h > h0 and above is None:
                above = s
            damage.append(h0 - h)
            killed.append(k0 - k)
            hurt.append(k < count)
        return _Bins(np.array(damage, dtype=np.intp), np.array(killed, dtype=np.intp), h0,
                     k0, np.array(hurt, dtype=np.bool_), above)

    kept = space.derived.get("bins")  # with the space (a batch keeps its spaces)
    if kept is None or kept[0] != len(space.states):
        kept = space.derived["bins"] = (len(space.states), made())
    bins: _Bins = kept[1]
    return bins


def _one_group(space: StateSpace, by_state: FloatArray, unsaved: FloatArray,
               character: bool) -> ReadOut:
    """``read_out`` of a space of one group (``_one_group_bins``). Each bin sums its
    states in state order, from 0.0, one addition per state: the bin counts of
    ``_by_states`` (``np.bincount``), with the same bins; P(a CHARACTER model is
    destroyed) adds its states one by one in the same order."""
    bins = _one_group_bins(space)
    if bins.above is not None:  # more wounds left than at the start (refused there too)
        raise ValueError(f"a state above the target's start: {bins.above}")
    # weighed bin counts are float64 already (``copy=False``: not copied)
    damage = np.bincount(bins.damage, weights=by_state, minlength=bins.h0 + 1).astype(
        np.float64, copy=False)
    killed = np.bincount(bins.killed, weights=by_state, minlength=bins.k0 + 1).astype(
        np.float64, copy=False)
    p_char = 0.0
    if character:
        for p in by_state[bins.hurt].tolist():
            p_char += p
    return ReadOut(damage, killed, float(killed[bins.k0]), unsaved, p_char)


def _by_states(space: StateSpace, by_state: FloatArray, chars: list[int]
               ) -> tuple[FloatArray, FloatArray, float]:
    """``read_out`` of any space: the wounds and models left per state, then their bin
    counts weighed by the states' probabilities."""
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
    # P(a CHARACTER model is destroyed): its states added one by one in state order, as
    # ``_one_group`` adds them (not ``sum()``: from Python 3.12 it adds floats with a
    # compensation, another float than the plain additions)
    p_char = 0.0
    if chars:
        for p, s in zip(by_state.tolist(), space.states, strict=True):
            if any(s[2 * gi] < groups[gi].count for gi in chars):
                p_char += p
    return damage, killed, p_char


#: No mortal wounds for certain (read only: shared by every document without a hazard roll).
_NONE = np.ones(1)
_NONE.flags.writeable = False


def hazard(weapons: tuple[ResolvedWeapon, ...], rules: RuleSet, keywords: tuple[str, ...],
           stages: list[StageFields]) -> FloatArray:
    """24.15 Hazardous / 06.03 hazard rolls (10th Hazardous): one roll per Hazardous
    weapon carried that attacked, mortal wounds to the attacker on a failure."""
    n_haz = sum(w.count for w in weapons if w.hazardous)
    if not n_haz:
        return _NONE
    haz = np.array([1.0])
    mw_each = rules.hazard_mortal_wounds(keywords)
    p_fail = rules.hazard_fails_on / 6
    for _ in range(n_haz):
        step = np.zeros(mw_each + 1)
        step[0], step[mw_each] = 1 - p_fail, p_fail
        haz = np.convolve(haz, step)
    stages.append({"weapon": "Hazardous", "stage": "hazard",
                   "detail": f"{n_haz} hazard roll(s), each fails on 1-{rules.hazard_fails_on}: "
                             f"{mw_each} mortal wound(s) to the attacker"})
    return haz


class AttackerSide(NamedTuple):
    """The attacker's side of a finished calculation: the weapon lines, their totals as
    branches, the stage explanations, notes and what the numbers leave out."""

    weapons: tuple[ResolvedWeapon, ...]
    branches: Branches
    stages: list[StageFields]
    notes: list[str]
    not_calculated: list[str]
    named: NamedEffects
    attacker_keywords: tuple[str, ...]
    first_notes: tuple[str, ...] = ()  # before the others, as they are


def assemble(rules: RuleSet, side: AttackerSide, out: ReadOut) -> Result:
    """The result document of one exact calculation: its fields made here, validated as
    one document (``Result.model_validate``: the nested models with it, at once)."""
    weapons, branches, named = side.weapons, side.branches, side.named
    wounds = [[antidiagonal(n) for _, n in br] for br in branches]
    hits_total = sum_pmfs([conv_all([h for h, _ in br]) for br in branches])
    wounds_total = sum_pmfs([conv_all(ws) for ws in wounds])
    stages = list(side.stages)
    haz = hazard(weapons, rules, side.attacker_keywords, stages)
    # one line in one branch: its totals are the document's, their means made once
    mean = _Means().of if len(branches) == 1 and len(weapons) == 1 else pmf_mean
    return Result.model_validate({
        "rules": rules.name,
        "attacks": distribution_fields(conv_all([w.attacks_pmf for w in weapons]), mean=mean),
        "hits": distribution_fields(hits_total, mean=mean),
        "wounds": distribution_fields(wounds_total, mean=mean),
        "unsaved": distribution_fields(out.unsaved),
        "damage": distribution_fields(out.damage),
        "models_destroyed": distribution_fields(out.killed, length=len(out.killed)),
        "p_unit_destroyed": out.p_dead,
        "attacker_mortal_wounds": distribution_fields(haz),
        "weapons": tuple(summaries(weapons, branches,
                                   wounds[0] if len(branches) == 1 else None, mean)),
        "stages": tuple(stages),
        "notes": side.first_notes + tuple(dict.fromkeys(side.notes + list(named.notes))),
        "not_calculated": tuple(side.not_calculated),
        "effects_applied": named.applied,
        "cp_spent": named.cp,
        "other_mortal_wounds": tuple(
            {"label": label, "distribution": distribution_fields(pmf)}
            for label, pmf in named.side_distributions(out.p_character)),
    })


def collect_states(space: StateSpace, final: FloatArray,
                   states_out: dict[State, FloatArray]) -> None:
    """The final states (``final``, one row per state of ``space``) added into
    ``states_out`` under their canonical states: a Precision mark means nothing after."""
    by_state = final.sum(axis=1)
    for i, s in enumerate(space.states):
        if by_state[i]:
            c = space.canonical(s)
            states_out[c] = states_out[c] + final[i] if c in states_out else final[i]
