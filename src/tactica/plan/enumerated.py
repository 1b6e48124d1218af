"""Every set of units at one target, valued once: the subproblem of the plan's proof
(``tactica.plan.pricing``) by enumeration instead of a search.

A set's bound (``tactica.plan.bounds``; against one model, its exact value: the model's
worth times P(D_1 + ... + D_n >= W), each unit's damage capped at W) does not depend on
the prices: so with at most ``MAX_UNITS`` units that may attack the target, every
subset's margins are built once (a unit at a time: the subsets without it, then with
it), every subset's bound computed at once (the comonotone expectation of
``TargetBound.phi``, over each subset's own breakpoints), and each pricing is a product
of the subsets' membership matrix with the prices. A set evaluated exactly counts its
exact value instead.

>>> from tactica.combat.contract.scenario import Target
>>> tb = TargetBound.of(Target.model_validate({"models": [{"T": 10, "Sv": 3, "W": 2}]}),
...                     [(100.0, False)])
>>> half = PairBound((np.array([0.5, 0.5, 0.0]),), (0.5,), False)
>>> table = Enumerated(tb, [0, 1], {0: half, 1: half})
>>> [round(float(v), 6) for v in table.values]   # {}, {0}, {1}, {0, 1}: both must wound
[0.0, 0.0, 0.0, 25.0]
>>> table.best({0: 10.0, 1: 20.0}, frozenset(), frozenset({0, 1}))[0]   # 25 - 30 < 0
0.0
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..dice import FloatArray
from .bounds import PairBound, TargetBound

__all__ = ["MAX_UNITS", "Enumerated"]

#: Enumerate the sets of at most this many units (2^16 sets); a search beyond.
MAX_UNITS = 16


class Enumerated:
    """The bound of every subset of ``units`` at the target of ``tb`` (subset i holds the
    units whose bits are set in i, bit k for ``units[k]``); ``exact`` replaces it."""

    def __init__(self, tb: TargetBound, units: list[int], pairs: Mapping[int, PairBound]
                 ) -> None:
        margins = []
        for c, cap in enumerate(tb.caps):
            pmf = np.zeros((1, cap + 1))
            pmf[0, 0] = 1.0
            for u in units:
                pmf = np.concatenate([pmf, _add(pmf, pairs[u].pmfs[c], cap)])
            margins.append(pmf)
        self.units = units
        masks = np.arange(len(margins[0]))
        self.members = ((masks[:, None] >> np.arange(len(units))) & 1).astype(float)
        self.masks = masks
        if tb.single:
            self.bounds: FloatArray = tb.slope * margins[0][:, -1]
        else:
            precise = self.members @ np.array([float(pairs[u].precision) for u in units]) > 0
            self.bounds = _comonotone(tb, margins, precise)
        self.values: FloatArray = self.bounds.copy()

    def mask(self, units: frozenset[int]) -> int:
        return sum(1 << k for k, u in enumerate(self.units) if u in units)

    def exact(self, units: frozenset[int], value: float) -> None:
        """The set ``units`` was evaluated exactly: its value from now on."""
        i = self.mask(units)
        self.values[i] = min(self.values[i], value)

    def best(self, prices: Mapping[int, float], must: frozenset[int],
             allowed: frozenset[int], keep: float = np.inf, most: int = 0
             ) -> tuple[float, list[tuple[float, frozenset[int]]]]:
        """The most a set (holding ``must``, within ``allowed``; no set at all, worth 0,
        when ``must`` is empty) is worth less its units' prices, and up to ``most`` sets
        worth more than ``keep``, best first."""
        pi = np.array([prices.get(u, 0.0) for u in self.units])
        rc = self.values - self.members @ pi
        need, room = self.mask(must), self.mask(allowed)
        valid = ((self.masks & ~room) == 0) & ((self.masks & need) == need)
        valid[0] = valid[0] and not must
        rc = np.where(valid, rc, -np.inf)
        top = float(rc.max()) if valid.any() else -np.inf
        if not must:
            top = max(top, 0.0)
        found = []
        if most:
            idx = np.flatnonzero(rc > keep)
            idx = idx[idx > 0]
            for i in idx[np.argsort(-rc[idx])][:most]:
                found.append((float(rc[i]), frozenset(u for k, u in enumerate(self.units)
                                                      if (int(i) >> k) & 1)))
        return top, found


def _comonotone(tb: TargetBound, margins: list[np.ndarray], precise: np.ndarray,
                chunk: int = 4096) -> FloatArray:
    """``TargetBound.value`` of every row of ``margins`` (row i: subset i's margins), in
    chunks of rows: each row's breakpoints are its margins' CDF values, sorted."""
    out = np.zeros(len(precise))
    for start in range(0, len(precise), chunk):
        cdfs = [np.cumsum(m[start:start + chunk], axis=1) for m in margins]
        rows = len(cdfs[0])
        cuts = np.sort(np.concatenate([*cdfs, np.zeros((rows, 1)), np.ones((rows, 1))],
                                      axis=1), axis=1)
        cuts = np.clip(cuts, 0.0, 1.0)
        mids, widths = (cuts[:, :-1] + cuts[:, 1:]) / 2, np.diff(cuts, axis=1)
        q = [np.minimum((c[:, :, None] < mids[:, None, :]).sum(axis=1), c.shape[1] - 1)
             for c in cdfs]
        part = precise[start:start + chunk]
        value = (widths * tb.phi(q, False)).sum(axis=1)
        if part.any():
            value = np.where(part, (widths * tb.phi(q, True)).sum(axis=1), value)
        out[start:start + chunk] = value
    return out


def _add(pmf: np.ndarray, p: FloatArray, w: int) -> np.ndarray:
    """Each row's distribution (over 0..w, w meaning w or more) plus an independent one
    ``p``, capped at w."""
    out: np.ndarray = pmf * p[0]
    for d in range(1, w + 1):
        if p[d] == 0.0:
            continue
        out[:, d:w] += pmf[:, :w - d] * p[d]
        out[:, w] += pmf[:, w - d:].sum(axis=1) * p[d]
    return out
