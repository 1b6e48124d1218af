"""15.02 Command Re-roll of one hit or wound die, exactly: the attack as a sum of
branches, each a product of per-weapon sub-pmfs.

The stratagem is used just after a roll is made, to re-roll it: here one failed hit or
wound die, once per attack. A weapon line's totals are split by "no failed die"
(kept as is) and "a failed die, one of them rolled again"; the attacker uses the re-roll
on the first line (in the order the rolls are made) where it gains at least what waiting
for the later lines is expected to gain (``command_policy``). The branches are: used on
line i (no failed die on the earlier lines it would have been used on), or never used.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from tactica.dice import FloatArray
from tactica.rules.base import RuleSet

from .dice_stages import DieOutcome, conv2, trim
from .profile import ResolvedWeapon
from .totals import compound

__all__ = [
    "Split",
    "branch_masses",
    "command_branches",
    "command_policy",
    "command_split",
    "padded",
    "sum_pmfs",
    "value_of",
    "weapon_marginal",
]


def _conv_nd(a: FloatArray, b: FloatArray) -> FloatArray:
    return np.convolve(a, b) if a.ndim == 1 else conv2(a, b)


@dataclass(frozen=True)
class Split:
    """One weapon line under Command Re-roll (15.02): its totals split by "no failed die"
    (sub-pmfs ``ok_*``) and "a failed die, one of them rolled again" (``fail_*``); ``gain``
    is what re-rolling one failed die of it is worth (a fresh die; a failure is worth 0),
    ``p_fail`` the chance it has a failed die."""

    ok_hits: FloatArray
    ok_nm: FloatArray
    fail_hits: FloatArray
    fail_nm: FloatArray
    gain: float
    p_fail: float


def command_split(
    w: ResolvedWeapon, die: DieOutcome, hits: FloatArray, nm: FloatArray, command: str,
    rules: RuleSet, e_normal: float, e_mortal: float,
) -> Split | None:
    """The split of ``w`` for one re-rolled ``command`` ("hit"/"wound") die, or None when
    the weapon's own re-rolls already cover that roll (a die is re-rolled at most once)."""
    policy = w.hit_reroll if command == "hit" else w.wound_reroll
    if policy is not None or (command == "hit" and w.snap_shooting
                              and not rules.snap_shooting_hit_rerolls):
        return None
    ok = die.no_failed_hit if command == "hit" else die.no_failed_wound
    assert ok is not None and die.fresh_wound is not None
    ok_hits = compound(w.attacks_pmf, trim(ok.sum(axis=(1, 2))))
    ok_nm = compound(w.attacks_pmf, trim(ok.sum(axis=0)))
    if command == "hit":  # the failed die (no hit) is rolled again: a fresh attack die
        fresh_h, fresh_nm = die.hits, die.to_save
        fail_hits = trim(_conv_nd(padded(hits, ok_hits, -1.0), fresh_h))
    else:  # a failed wound die: a fresh wound roll, the hits unchanged
        fresh_nm = die.fresh_wound
        fail_hits = padded(hits, ok_hits, -1.0)
    fail_nm = trim(_conv_nd(padded(nm, ok_nm, -1.0), fresh_nm))
    return Split(ok_hits, ok_nm, fail_hits, fail_nm,
                  gain=value_of(fresh_nm, e_normal, e_mortal),
                  p_fail=max(0.0, 1.0 - float(ok_nm.sum())))


def padded(a: FloatArray, b: FloatArray, sign: float = 1.0) -> FloatArray:
    """``a + sign * b`` for pmfs of different lengths (zero-padded)."""
    shape = tuple(max(x, y) for x, y in zip(a.shape, b.shape, strict=True))
    out = np.zeros(shape)
    out[tuple(slice(0, n) for n in a.shape)] += a
    out[tuple(slice(0, n) for n in b.shape)] += sign * b
    return out


def command_policy(splits: dict[int, Split], n_weapons: int) -> set[int]:
    """The weapon lines on whose first failed die the attacker uses Command Re-roll: the
    rolls come weapon by weapon, and the stratagem is used "just after" a roll, so the
    best choice is found backwards: use it on line i (if it has a failed die) when that
    gains at least the expected gain of waiting for the later lines."""
    use: set[int] = set()
    wait = 0.0
    for wi in range(n_weapons - 1, -1, -1):
        sp = splits.get(wi)
        if sp is None or sp.gain <= 0.0 or sp.p_fail <= 1e-15:
            continue
        if sp.gain >= wait:
            use.add(wi)
            wait = sp.p_fail * sp.gain + (1 - sp.p_fail) * wait
    return use


def command_branches(
    splits: dict[int, Split], use: set[int], hits_all: list[FloatArray],
    nm_all: list[FloatArray],
) -> list[list[tuple[FloatArray, FloatArray]]]:
    """The attack as a sum of branches (products of per-weapon sub-pmfs): Command Re-roll
    used on line i (no failed die on the earlier lines it would have been used on), or
    never used."""
    n = len(hits_all)
    branches = []
    for i in [*sorted(use), None]:
        branch = []
        for wi in range(n):
            sp = splits.get(wi)
            if i is not None and wi == i:
                assert sp is not None
                branch.append((sp.fail_hits, sp.fail_nm))
            elif wi in use and (i is None or wi < i):
                assert sp is not None
                branch.append((sp.ok_hits, sp.ok_nm))
            else:
                branch.append((hits_all[wi], nm_all[wi]))
        branches.append(branch)
    return branches


def branch_masses(branches: list[list[tuple[FloatArray, FloatArray]]]) -> list[list[float]]:
    """Each branch's per-weapon masses: the sums of their (n, m) sub-pmfs (none for a
    line alone in its branch: no other line weighs it)."""
    return [[float(np.add.reduce(nm, axis=None)) for _, nm in br] if len(br) > 1 else []
            for br in branches]


def weapon_marginal(branches: list[list[tuple[FloatArray, FloatArray]]], wi: int,
                    masses: list[list[float]] | None = None) -> tuple[FloatArray, FloatArray]:
    """One weapon line's distributions (hits; (n, m)) over all branches, the other lines'
    masses as weights (``branch_masses`` when known). A weight of exactly 1.0 (one line
    in one branch) keeps the branch's own arrays (each entry times 1.0 is itself): the
    caller must not change them."""
    if len(branches[0]) == 1 and len(branches) == 1:  # the line alone: weighs 1.0
        return branches[0][wi]
    masses = branch_masses(branches) if masses is None else masses
    out: tuple[FloatArray, FloatArray] | None = None
    for br, mass in zip(branches, masses, strict=True):
        weight = 1.0
        for wj, m in enumerate(mass):  # the other lines' masses, in order
            if wj != wi:
                weight *= m
        hits, nm = br[wi] if weight == 1.0 else (weight * br[wi][0], weight * br[wi][1])
        out = (hits, nm) if out is None else (padded(out[0], hits), padded(out[1], nm))
    assert out is not None
    return out


def sum_pmfs(pmfs: list[FloatArray]) -> FloatArray:
    return functools.reduce(padded, pmfs)


def value_of(nm: FloatArray, e_normal: float, e_mortal: float) -> float:
    n = float(np.dot(nm.sum(axis=1), np.arange(nm.shape[0])))
    m = float(np.dot(nm.sum(axis=0), np.arange(nm.shape[1])))
    return n * e_normal + m * e_mortal
