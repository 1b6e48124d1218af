"""One target's subproblem of the plan's proof: the set of units S that maximises
B(S) - the units' prices over S, where B(S) is the volley's exact value when it was
evaluated and its bound otherwise (``tactica.plan.bounds``: never below the exact
value), found by a depth-first search over the subsets that prunes a branch only when an
upper bound on every set below it shows none can beat the best found.

Below the node of the set P, with the units R still to decide, a set P + Y (Y within R)
is worth at most

* B(P + R) less the prices of P: the bounds grow with the units (each margin's
  convolution shifts up; phi grows), and prices are not negative;
* a bound linear in the units of Y, less their prices where positive: for several
  models, B is at most E[c(min(N, K))] with c the K most expensive models' worth, which
  one more model destroyed raises by at most the dearest model (``TargetBound.slope``),
  so y adds at most that times E[K_y]; for one model of W wounds, given D_P = d < W,
  P(D_Y >= t) <= E[min(D_Y, t)] / t <= sum over y of E[min(D_y, t)] / t with
  t = W - d (Markov's inequality on the truncated sum; the units independent), so y
  adds at most the model's worth times E over d of E[min(D_y, W - d)] / (W - d). A unit
  whose price is at least the model's worth times P(it does any damage) never adds to
  a set more than it costs, and is left out.

Copies of one unit (``kinds``) are worth the same in any set, so of the sets that
differ only by which copies they hold, the one holding the cheapest copies is worth the
most: the search takes a copy only if it took every cheaper one. Likewise against one
model, whose value grows with each unit's damage in distribution (a convolution, then
P(at least W)): a unit whose damage is at least another's in distribution, at no higher
price, is taken before that other (``_dominated``).

The search is exact: its answer is the maximum over every set (``Priced.best``), or, if
it stopped at its node limit, an upper bound on it (``Priced.complete`` false).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from ..dice import FloatArray
from .bounds import PairBound, TargetBound, capped

__all__ = ["Members", "Priced", "price"]

Members = frozenset[int]
Margins = list[FloatArray]


@dataclass
class Priced:
    """The subproblem's answer: ``best``, the most B(S) - prices(S) can be (0 for no
    set, when allowed); ``found``: sets of value above the threshold asked, best first,
    each (value, set, exact); ``nodes``: sets visited; ``complete``: searched to the
    end (else ``best`` is an upper bound from the branches left)."""

    best: float
    found: list[tuple[float, Members, bool]] = field(default_factory=list)
    nodes: int = 0
    complete: bool = True


def _add(a: Margins, b: tuple[FloatArray, ...] | Margins) -> Margins:
    return [capped(x, y) for x, y in zip(a, b, strict=True)]


@dataclass
class _Search:
    tb: TargetBound
    cand: list[int]
    pairs: list[PairBound]
    prices: list[float]
    suffix: list[Margins]
    suffix_precise: list[bool]
    suffix_sets: list[Members]
    exact: Mapping[Members, float]
    cache: dict[Members, float]
    keep: float
    limit: int
    out: Priced
    kinds: list[int] = field(default_factory=list)
    before: list[int] = field(default_factory=list)  # ``_dominated``
    top: float = 0.0
    unexplored: float = -np.inf
    shares: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))  # one model
    costs: np.ndarray = field(default_factory=lambda: np.zeros(0))
    gains: list[float] = field(default_factory=list)  # several models: per suffix

    def linear(self, first: FloatArray, i: int, paid: float) -> float:
        """The linear bound of the module text below a node (``first``: its first
        margin)."""
        tb = self.tb
        if not tb.single:
            return float(np.dot(tb.by_count, first)) - paid + self.gains[i]
        w = tb.caps[0]
        adds = tb.slope * (self.shares[i:] @ first[w - 1::-1])
        extra = float(np.maximum(0.0, adds - self.costs[i:]).sum())
        return float(tb.slope * first[-1]) + extra - paid

    def bound(self, members: Members, margins: Callable[[], Margins], precise: bool
              ) -> float:
        """B of a set (the bounds module), kept per set."""
        found = self.cache.get(members)
        if found is None:
            found = self.cache[members] = self.tb.value(margins(), precise)
        return found

    def run(self, i: int, first: FloatArray, margins: Callable[[], Margins], paid: float,
            precise: bool, members: Members) -> None:
        """The node of ``members`` (``first``: its first margin; ``margins()``: all of
        them, made when needed), the candidates from ``i`` on still to decide."""
        out = self.out
        out.nodes += 1
        if members:
            exact = members in self.exact
            v = self.exact[members] if exact else self.bound(members, margins, precise)
            rc = v - paid
            self.top = max(self.top, rc)
            if rc > self.keep:
                out.found.append((rc, members, exact))
        if i == len(self.cand):
            return
        ub = self.linear(first, i, paid)
        if ub > self.top:
            every = members | self.suffix_sets[i]
            whole = self.bound(every, lambda: _add(margins(), self.suffix[i]),
                               precise or self.suffix_precise[i])
            ub = min(ub, whole - paid)
        if ub <= self.top:
            return
        if out.nodes >= self.limit:
            self.unexplored = max(self.unexplored, ub)
            out.complete = False
            return
        for k in range(i, len(self.cand)):
            if self.before[k] >= i:
                continue  # a unit passed over does as much at no higher price (module text)
            pb = self.pairs[k]
            child = capped(first, pb.pmfs[0])
            self.run(k + 1, child, _lazy(child, margins, pb), paid + self.prices[k],
                     precise or pb.precision, members | {self.cand[k]})


def _lazy(first: FloatArray, margins: Callable[[], Margins], pb: PairBound
          ) -> Callable[[], Margins]:
    """The margins of a node (its first, ``first``, made already) made from its
    parent's when first asked for."""
    made: list[Margins] = []

    def get() -> Margins:
        if not made:
            parent = margins()
            made.append([first, *(capped(x, y) for x, y in zip(parent[1:], pb.pmfs[1:],
                                                               strict=True))])
        return made[0]

    return get


def _dominated(tb: TargetBound, pairs: list[PairBound], kinds: list[int],
               prices: list[float]) -> list[int]:
    """Per candidate, the last one before it that does all it does at no higher price:
    a copy of it (``kinds``) or, for one model, a unit whose damage is at least as
    large in distribution (its margin's CDF nowhere above); -1 if none. A set holding
    the candidate but not that one is worth no more than with the two exchanged."""
    cdfs = [np.cumsum(p.pmfs[0]) for p in pairs]
    out = []
    for k in range(len(pairs)):
        found = -1
        for m in range(k - 1, -1, -1):
            if prices[m] > prices[k] + 1e-12:
                continue
            if kinds[m] == kinds[k] or (tb.single and bool(np.all(cdfs[m] <= cdfs[k] + 1e-12))):
                found = m
                break
        out.append(found)
    return out


def price(tb: TargetBound, units: list[int], pairs: Mapping[int, PairBound],
          prices: Mapping[int, float], exact: Mapping[Members, float], *,
          must: Members = frozenset(), keep: float = 0.0, limit: int = 200_000,
          cache: dict[Members, float] | None = None,
          kinds: Callable[[int], int] | None = None) -> Priced:
    """The subproblem (the module text) over the sets of ``units`` holding ``must`` (no
    set at all is allowed too, worth 0, when ``must`` is empty); ``exact``: the values
    of the sets evaluated; ``keep``: the sets worth more than this are returned in
    ``found``; ``cache``: the bounds of sets met before (filled in); ``kinds``: the kind
    of each unit (copies of one unit: only the cheapest copies are tried)."""
    free = [u for u in units if u not in must]
    if tb.single:  # units that cannot pay for themselves (the module text)
        free = [u for u in free if prices[u] < tb.slope * (1.0 - pairs[u].pmfs[0][0])]
    kind = kinds or (lambda u: u)
    scale = tb.slope / tb.caps[0] if tb.single else tb.slope
    free.sort(key=lambda u: (scale * pairs[u].mean - prices[u], -prices[u]), reverse=True)
    empty = [np.eye(c + 1)[0] for c in tb.caps]
    suffix = [empty] * (len(free) + 1)
    precise_after = [False] * (len(free) + 1)
    sets: list[Members] = [frozenset()] * (len(free) + 1)
    for k in range(len(free) - 1, -1, -1):
        sets[k] = sets[k + 1] | {free[k]}
        suffix[k] = _add(suffix[k + 1], pairs[free[k]].pmfs)
        precise_after[k] = precise_after[k + 1] or pairs[free[k]].precision
    base, paid, precise = empty, 0.0, False
    for u in must:
        base = _add(base, pairs[u].pmfs)
        paid += prices[u]
        precise = precise or pairs[u].precision
    out = Priced(best=0.0 if not must else -np.inf)
    search = _Search(tb, free, [pairs[u] for u in free], [prices[u] for u in free], suffix,
                     precise_after, sets, exact,
                     {} if cache is None else cache, keep, limit, out,
                     top=0.0 if not must else -np.inf)
    search.kinds = [kind(u) for u in free]
    search.before = _dominated(tb, [pairs[u] for u in free], search.kinds,
                               [prices[u] for u in free])
    search.costs = np.array([prices[u] for u in free])
    if tb.single and free:
        w = tb.caps[0]
        t = np.arange(1, w + 1)
        search.shares = np.array([[float(np.dot(np.minimum(np.arange(w + 1), x),
                                                 pairs[u].pmfs[0])) / x for x in t]
                                  for u in free])
    gains = np.maximum(0.0, tb.slope * np.array([pairs[u].mean for u in free])
                       - search.costs)
    search.gains = [float(x) for x in np.concatenate([np.cumsum(gains[::-1])[::-1], [0.0]])]
    search.run(0, base[0], lambda: base, paid, precise, frozenset(must))
    out.best = max(search.top, search.unexplored)
    out.found.sort(key=lambda t: t[0], reverse=True)
    return out
