"""The Monte Carlo target: one state per trial, all trials at once (``TrialTarget``),
and the packets that reach it (``Packets``).

The state is ``allocation.StateSpace``'s, one row per trial: models alive and wounds
left on each group's first model, the allocation order declared per weapon (05.03,
reference facts §5.1; Precision 24.28), the current group until it is destroyed
(05.04.01), pooled saves resolved lowest first (05.04, §6.2), Feel No Pain per wound
point (§4.7) and damage beyond a model's wounds lost.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tactica.dice import FloatArray

from ...rules import RuleSet
from ..exact.allocation import Group
from ..exact.profile import RerollPolicy
from .dice import Sampler

__all__ = ["NO_SAVE", "Packets", "TrialTarget"]

IntArray = npt.NDArray[np.int64]
Gen = np.random.Generator

NO_SAVE = 7  # a save threshold no D6 reaches


@dataclass(frozen=True)
class Packets:
    """Attacks (or Devastating-Wounds criticals) reaching the target: ``save[g]`` the D6
    needed against group ``g`` without re-rolls (7: no save), ``keep[g]`` the probability
    that a wound point is *not* ignored by Feel No Pain."""

    save: IntArray
    save_reroll: RerollPolicy
    damage: Sampler
    keep: FloatArray
    precision: bool



class TrialTarget:
    """Per trial and group: models alive ``k`` and wounds left ``t`` on the group's first
    (possibly wounded) model — the state of ``allocation.StateSpace``, one row per trial —
    plus the declared allocation order ``rank`` and the current group ``cur`` (-1 once
    the unit is destroyed)."""

    def __init__(self, groups: tuple[Group, ...], n: int, rules: RuleSet) -> None:
        self.n_groups = len(groups)
        self.W = np.array([g.W for g in groups], dtype=np.int64)
        self.character = np.array([g.character for g in groups], dtype=np.bool_)
        self.k = np.tile(np.array([g.count for g in groups], dtype=np.int64), (n, 1))
        self.t = np.tile(np.array([g.first_wounds for g in groups], dtype=np.int64), (n, 1))
        self._index = np.arange(len(groups), dtype=np.int64)
        # each group's tier unharmed and wounded, plain and under Precision (the rule
        # set's order, ``RuleSet.allocation_tier``), as [precision][wounded][group]
        self._tiers = np.array([[[t[int(c)][w] for c in self.character] for w in (0, 1)]
                                for t in (rules.allocation_tiers(False),
                                          rules.allocation_tiers(True))], dtype=np.int64)
        # allocation groups held in several parts (allocation.build_groups): parts of one
        # group share its place in the order; within it a wounded model goes first
        alloc = np.array([g.alloc for g in groups], dtype=np.int64)
        self._same = alloc[:, None] == alloc[None, :]
        self._alloc_first = np.array([int(np.flatnonzero(self._same[i])[0])
                                      for i in range(len(groups))], dtype=np.int64)
        self._parts = bool((self._alloc_first != self._index).any())
        self.rank = np.zeros((n, len(groups)), dtype=np.int64)
        self.cur = np.zeros(n, dtype=np.int64)
        self._all = np.arange(n, dtype=np.int64)
        self._big = 4 * self.n_groups

    def _order(self, rows: IntArray, precision: bool = False) -> IntArray:
        """The allocation order from the state (lower is earlier), by the rule set's tiers
        (``RuleSet.allocation_tier``: non-CHARACTER groups holding a wounded model, other
        non-CHARACTER groups, wounded CHARACTER groups, other CHARACTER groups; with
        ``precision`` the CHARACTER groups first); ties in the order given (§4.8,
        ``StateSpace.current``)."""
        tiers = self._tiers[int(precision)]
        if not self._parts:
            tier = np.where(self.t[rows] < self.W, tiers[1], tiers[0])
            out: IntArray = tier * self.n_groups + self._index
            return out
        wounded = (self.k[rows] > 0) & (self.t[rows] < self.W)
        group_wounded = (wounded.astype(np.int64) @ self._same.astype(np.int64)) > 0
        tier = np.where(group_wounded, tiers[1], tiers[0])
        out = tier * self.n_groups + self._alloc_first
        return out

    def _choose(self, rows: IntArray, dynamic: bool) -> IntArray:
        """The first living group of each trial in ``rows`` (-1: none)."""
        k = self.k[rows]
        if self.n_groups == 1:
            return np.where(k[:, 0] > 0, 0, -1)
        score = self._order(rows) if dynamic else self.rank[rows]
        score = np.where(k > 0, score, self._big)
        best: IntArray = score.argmin(axis=1)
        has = score.min(axis=1) < self._big
        if self._parts:  # within the allocation group: a wounded model first
            same = self._same[best] & (k > 0)
            wounded = self.t[rows] < self.W
            sub = np.where(same, np.where(wounded, 0, self.n_groups) + self._index, self._big)
            best = sub.argmin(axis=1)
        return np.where(has, best, -1)

    def declare(self, precision: bool) -> None:
        """§5.1: the allocation order is declared when a weapon's attacks start; with
        Precision (24.28, §5.2) the first living CHARACTER group (wounded first) goes to
        the front. The current group stays current until destroyed (05.04.01)."""
        rank = self._order(self._all)
        if precision and self.character.any():
            # the first living group in the rule set's Precision order, if a CHARACTER
            pick = np.where(self.k > 0, self._order(self._all, True), self._big)
            first = pick.argmin(axis=1)
            has = (pick.min(axis=1) < self._big) & self.character[first]
            rank[self._all[has], first[has]] = -1
        self.rank = rank
        self.cur = self._choose(self._all, False)

    def pooled_faces(self, rng: Gen, counts: IntArray, pk: Packets) -> IntArray:
        """05.04 (reference facts §6.2): each trial's save rolls made together, re-rolled
        before sorting (``failed``: against the group current while they are rolled) and
        sorted lowest first; row ``i`` holds ``counts[i]`` rolls, then 7s (never used)."""
        width = int(counts.max()) if len(counts) else 0
        faces = rng.integers(1, 7, size=(len(counts), width), dtype=np.int8)
        if pk.save_reroll is not None:
            need = pk.save[np.maximum(self.cur, 0)][:, None]
            again = faces == 1 if pk.save_reroll == "ones" else faces < need
            r = int(np.count_nonzero(again))
            if r:
                faces[again] = rng.integers(1, 7, size=r, dtype=np.int8)
        faces[np.arange(width)[None, :] >= counts[:, None]] = NO_SAVE
        faces.sort(axis=1)
        out: IntArray = faces.astype(np.int64)
        return out

    def apply(
        self, rng: Gen, counts: IntArray, pk: Packets, unsaved: IntArray, dynamic: bool,
        pooled: bool = False,
    ) -> None:
        """``counts[i]`` packets to trial ``i``, one packet index at a time. ``dynamic``:
        each packet picks its group afresh from the state (mortal wounds, 06.02).
        ``pooled``: the save rolls are made together and resolved lowest first (05.04);
        otherwise each packet's save is rolled when it is allocated."""
        if dynamic:
            self.cur = self._choose(self._all, True)
        sorted_faces = self.pooled_faces(rng, counts, pk) if pooled else None
        by_count = np.argsort(-counts, kind="stable")
        remaining = len(counts) - np.cumsum(np.bincount(counts))  # trials with > j packets
        for j in range(len(remaining) - 1):
            a = by_count[: remaining[j]]
            g = self.cur[a]
            live = g >= 0  # §5.4: a destroyed unit takes nothing more
            a, g = a[live], g[live]
            if not len(a):
                break
            need = pk.save[g]
            if sorted_faces is not None:
                through = sorted_faces[a, j] < need
                a, g = a[through], g[through]
            elif (need < NO_SAVE).any():
                faces = rng.integers(1, 7, size=len(a), dtype=np.int8)
                if pk.save_reroll is not None:
                    again = faces == 1 if pk.save_reroll == "ones" else faces < need
                    r = int(np.count_nonzero(again))
                    if r:
                        faces[again] = rng.integers(1, 7, size=r, dtype=np.int8)
                through = faces < need
                a, g = a[through], g[through]
            unsaved[a] += 1
            lost = pk.damage.draw(rng, len(a))
            keep = pk.keep[g]
            if (keep < 1.0).any():  # Feel No Pain: one D6 per wound point (§4.7)
                lost = rng.binomial(lost, keep).astype(np.int64)
            t = self.t[a, g]
            k = self.k[a, g]
            dead = lost >= t  # damage beyond the model's wounds is lost
            k_new = k - dead
            self.t[a, g] = np.where(dead, np.where(k_new > 0, self.W[g], 0), t - lost)
            self.k[a, g] = k_new
            moved = dead if (dynamic or self._parts) else dead & (k_new == 0)
            if moved.any():
                rows = a[moved]
                self.cur[rows] = self._choose(rows, dynamic)

    def wounds_left(self) -> IntArray:
        left: IntArray = np.where(self.k > 0, self.t + (self.k - 1) * self.W, 0).sum(axis=1)
        return left
