"""The plan's search, with a proof: column generation over volleys and branch and bound,
the optimum certified by a Lagrangian bound.

A plan gives each target at most one *volley* (a set of my units firing at it; its value
the exact one, ``tactica.plan.volley``) and each unit at most one volley. Relax "at most
one volley per unit" with a price pi_k >= 0 per unit: for any prices,

    OPT <= L(pi) = sum_k pi_k + sum_j max(0, max over sets S at j of [F_j(S) - pi(S)])

(each plan's value is at most its volleys' F_j(S) - pi(S) plus the prices of its units,
at most sum_k pi_k). The inner maximum is taken over **every** set of units at the target
by an exact search (``tactica.plan.pricing``) on the exact values of the sets evaluated
and an upper bound of the others (``tactica.plan.bounds``), so L(pi) is a true upper
bound whatever the prices; the best plan found is a true lower bound (its volleys are
evaluated exactly). "Optimal" is said only when they meet.

The prices come from the linear programme over the volleys evaluated so far (its duals;
``scipy.optimize.linprog``, HiGHS): each set whose bound beats its price is evaluated and
joins the programme (column generation), until none does: L(pi) then equals the
programme's optimum. The best plan from the volleys evaluated comes from the integer
programme over them (``scipy.optimize.milp``) and a local search (one unit moved, two
exchanged, every value exact). While L exceeds it, the search branches on a unit and a
target the programme splits (a unit of that kind fires at it: any of its copies would
do; or none does) and repeats in each branch, the highest bound first; a branch whose
bound is not above the best plan is closed.
Stopped at its limits, the search reports the best plan and the largest bound left open:
their difference is the certified gap.

Prices, programmes and bounds are floats: "optimal" means proved to within
``TOLERANCE`` (relative).
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .bounds import PairBound, TargetBound, capped
from .enumerated import MAX_UNITS, Enumerated
from .pricing import Members, price

__all__ = ["TOLERANCE", "Found", "Instance", "search"]

#: A plan is proved optimal when the bound exceeds its value by at most this share.
TOLERANCE = 1e-6
#: The search stops after this many branches ...
NODE_LIMIT = 60
#: ... or this many sets evaluated by the engine (each a few of its attacks) ...
EVALUATION_LIMIT = 1_200
#: ... or this many sets visited by the subproblems' searches (then the bound it
#: reports stands, with the gap to the best plan found).
SEARCH_LIMIT = 400_000
_SEARCH_FLOOR = 2_000  # a subproblem's search may visit this many sets at least
_ROUNDS = 80  # column generation rounds in one branch
_PER_TARGET = 16  # sets evaluated per target in one pricing ...
_EARLY, _NEAR = 2, 0.05  # ... but this many while the bound is this far above
_NEAR_COLUMNS = 0.01  # the integer programme takes the volleys this near the bound
_ENOUGH = 4  # new volleys that end a round of pricing early (its prices will change)
_TRIES = 50  # batches of sets evaluated at one target in one round


@dataclass(frozen=True)
class Instance:
    """The search's input: ``allowed[k]`` the targets unit k may fire at; per target
    its bound data, per (unit, target) the unit's; ``evaluate(j, S)`` the exact value
    of the units S firing at target j (memoised by the caller); ``kinds[k]``: units of
    one kind attack every target alike (two copies of a unit), so sets that differ only
    by copies are worth the same."""

    allowed: tuple[tuple[int, ...], ...]
    targets: Mapping[int, TargetBound]
    pairs: Mapping[tuple[int, int], PairBound]
    evaluate: Callable[[int, Members], float]
    kinds: tuple[int, ...] = ()

    def kind(self, k: int) -> int:
        return self.kinds[k] if self.kinds else k


@dataclass
class Found:
    """The search's answer: the plan (the target of each unit, ``None``: it does not
    fire), its value, the certified upper bound on every plan's, whether it is proved
    optimal, and the work done."""

    assignment: tuple[int | None, ...]
    value: float
    bound: float
    proved: bool
    nodes: int = 0
    evaluated: int = 0
    searched: int = 0  # sets visited by the subproblems' searches
    violated: list[tuple[int, Members]] = field(default_factory=list)


@dataclass(frozen=True)
class _Branch:
    forced: tuple[tuple[int, int], ...] = ()  # (unit, target): the unit fires there
    banned: frozenset[tuple[int, int]] = frozenset()

    def units_at(self, inst: Instance, j: int) -> tuple[list[int], Members]:
        force = dict(self.forced)
        units = [k for k, ok in enumerate(inst.allowed) if j in ok
                 and (k, j) not in self.banned and force.get(k, j) == j]
        return units, frozenset(k for k, t in self.forced if t == j)


class _Search:
    def __init__(self, inst: Instance, start: list[tuple[int, Members]]) -> None:
        self.inst = inst
        self.exact: dict[int, dict[Members, float]] = {j: {} for j in inst.targets}
        self.alike: dict[tuple[int, tuple[int, ...]], float] = {}  # by kinds
        self.cache: dict[int, dict[Members, float]] = {j: {} for j in inst.targets}
        self.tables: dict[int, Enumerated | None] = {}
        #: per branch: its least bound L and the prices that gave it
        self.duals: dict[_Branch, tuple[float, dict[int, float], dict[int, float]]] = {}
        self.evaluated = 0
        self.searched = 0
        self.violated: list[tuple[int, Members]] = []
        for k, ok in enumerate(inst.allowed):
            for j in ok:
                self.value(j, frozenset({k}))
        for j, s in start:
            self.value(j, s)
        self.best: tuple[float, tuple[int | None, ...]] = (0.0, (None,) * len(inst.allowed))

    def value(self, j: int, s: Members) -> float:
        """The exact value of the units ``s`` at target ``j``: for one model, the
        convolution of ``tactica.plan.bounds`` (exact there, unless a unit's Lethal Hits
        is a choice), else the volley evaluated; checked against its bound."""
        if s not in self.exact[j]:
            tb, pairs = self.inst.targets[j], [self.inst.pairs[(k, j)] for k in s]
            b = self.set_bound(j, s)
            alike = (j, tuple(sorted(self.inst.kind(k) for k in s)))
            if tb.single and not any(p.open_lethal for p in pairs):
                v = b
            elif alike in self.alike:
                v = self.alike[alike]
            else:
                v = self.alike[alike] = self.inst.evaluate(j, s)
                self.evaluated += 1
            if v > b + 1e-7 * max(1.0, abs(b)):
                self.violated.append((j, s))
            self.exact[j][s] = v
            table = self.tables.get(j)
            if table is not None:
                table.exact(s, v)
        return self.exact[j][s]

    def table(self, j: int) -> Enumerated | None:
        """Every set's value at target ``j``, when it is a lone model (exact values, from
        the convolution) and its units are few (``enumerated``)."""
        if j not in self.tables:
            units = [k for k, ok in enumerate(self.inst.allowed) if j in ok]
            pairs = {k: self.inst.pairs[(k, j)] for k in units}
            table = None
            if len(units) <= MAX_UNITS and self.inst.targets[j].single:
                table = Enumerated(self.inst.targets[j], units, pairs)
                for s, v in self.exact[j].items():
                    table.exact(s, v)
            self.tables[j] = table
        return self.tables[j]

    def spent(self) -> bool:
        """Whether the search has used up what it may do (``EVALUATION_LIMIT``,
        ``SEARCH_LIMIT``)."""
        return self.evaluated >= EVALUATION_LIMIT or self.searched >= SEARCH_LIMIT

    def columns(self, br: _Branch) -> list[tuple[int, Members, float]]:
        out = []
        for j, sets in self.exact.items():
            units, must = br.units_at(self.inst, j)
            allowed = set(units)
            out += [(j, s, v) for s, v in sets.items() if s <= allowed and must <= s]
        return out

    # --- the linear and integer programmes -------------------------------------------
    def _rows(self, br: _Branch, cols: list[tuple[int, Members, float]]
              ) -> tuple[Any, np.ndarray, list[int], list[int]]:
        """The programme's rows (a sparse matrix): one per unit, one per target."""
        from scipy.sparse import csr_matrix

        units = sorted({k for _, s, _ in cols for k in s})
        targets = sorted({j for j, _, _ in cols})
        at = {k: r for r, k in enumerate(units)}
        tat = {j: len(units) + t for t, j in enumerate(targets)}
        rows, where = [], []
        for c, (j, s, _) in enumerate(cols):
            rows += [at[k] for k in s]
            rows.append(tat[j])
            where += [c] * (len(s) + 1)
        a = csr_matrix((np.ones(len(rows)), (rows, where)),
                       shape=(len(units) + len(targets), len(cols)))
        forced = {k for k, _ in br.forced}
        lower = np.array([1.0 if k in forced else 0.0 for k in units] + [0.0] * len(targets))
        return a, lower, units, targets

    def relaxation(self, br: _Branch) -> tuple[float, dict[int, float], dict[int, float],
                                               dict[tuple[int, int], float]] | None:
        """The linear programme over the branch's volleys: its optimum, prices per unit
        and per target, and how much of each unit it puts at each target."""
        from scipy.optimize import linprog

        cols = self.columns(br)
        a, lower, units, targets = self._rows(br, cols)
        v = np.array([c[2] for c in cols])
        eq = lower > 0
        res = linprog(-v, A_ub=a[~eq], b_ub=np.ones(int((~eq).sum())),
                      A_eq=a[eq] if eq.any() else None,
                      b_eq=np.ones(int(eq.sum())) if eq.any() else None,
                      bounds=(0, None), method="highs")
        if res.status != 0:
            return None
        duals = np.zeros(len(lower))
        duals[~eq] = -res.ineqlin.marginals
        if eq.any():
            duals[eq] = -res.eqlin.marginals
        pi = {k: float(duals[r]) if eq[r] else max(0.0, float(duals[r]))
              for r, k in enumerate(units)}
        mu = {j: max(0.0, float(duals[len(units) + t])) for t, j in enumerate(targets)}
        share: dict[tuple[int, int], float] = {}
        for (j, s, _), x in zip(cols, res.x, strict=True):
            for k in s:
                share[(k, j)] = share.get((k, j), 0.0) + float(x)
        return -float(res.fun), pi, mu, share

    def integer(self, br: _Branch) -> None:
        """A better plan from the volleys evaluated (the integer programme). With the
        branch's prices known (``duals``: the least bound L and its prices), only the
        volleys whose value less their prices is at least the best plan's less L can be
        in a better plan (its volleys' shortfalls add up to at most L less its value);
        the programme takes those, at most ``_NEAR_COLUMNS`` of L short (a heuristic:
        the proof does not rest on it)."""
        from scipy.optimize import Bounds, LinearConstraint, milp

        cols = self.columns(br)
        if br in self.duals:
            top, pi, mu = self.duals[br]
            floor = max(self.best[0] - top, -_NEAR_COLUMNS * abs(top)) \
                - TOLERANCE * max(1.0, abs(top))
            cols = [(j, s, v) for j, s, v in cols
                    if v - sum(pi.get(k, 0.0) for k in s) - mu.get(j, 0.0) >= floor]
        if not cols:
            return
        a, lower, _, _ = self._rows(br, cols)
        v = np.array([c[2] for c in cols])
        res = milp(-v, constraints=LinearConstraint(a, lower, np.ones(len(lower))),
                   integrality=np.ones(len(cols)), bounds=Bounds(0, 1))
        if res.x is None:
            return
        chosen: list[int | None] = [None] * len(self.inst.allowed)
        value = 0.0
        for (j, s, val), x in zip(cols, res.x, strict=True):
            if x > 0.5:
                value += val
                for k in s:
                    chosen[k] = j
        if value > self.best[0]:
            self.best = (value, tuple(chosen))

    def integral(self, share: Mapping[tuple[int, int], float]) -> None:
        """A programme's answer that is a plan (each unit wholly at one target or
        none): the best plan if better."""
        chosen: list[int | None] = [None] * len(self.inst.allowed)
        for (k, j), x in share.items():
            if x > 0.5:
                chosen[k] = j
        value = self.plan_value(chosen)
        if value > self.best[0]:
            self.best = (value, tuple(chosen))

    def improve(self, share: Mapping[tuple[int, int], float] | None) -> None:
        """A better plan near the programme's answer (``share``): its volleys taken
        whole, most first, while they use units not taken yet; then, while the value
        grows, a unit moved to another target (or to none) or two units exchanged,
        every value exact."""
        chosen = list(self.best[1])
        if share is not None:
            start: list[int | None] = [None] * len(self.inst.allowed)
            for (k, j), x in sorted(share.items(), key=lambda t: -t[1]):
                if x > 0.5 - 1e-9 and start[k] is None:
                    start[k] = j
            if self.plan_value(start) > self.plan_value(chosen):
                chosen = start
        value = self.plan_value(chosen)
        improved = True
        while improved:
            improved = False
            for cand in self.neighbours(chosen):
                if self.plan_value(cand, bound=True) <= value + 1e-9:
                    continue  # its bound says it cannot be better: not evaluated
                v = self.plan_value(cand)
                if v > value + 1e-9:
                    chosen, value, improved = cand, v, True
                    break
        if value > self.best[0]:
            self.best = (value, tuple(chosen))

    def plan_value(self, chosen: list[int | None], bound: bool = False) -> float:
        """A plan's value (``bound``: its upper bound, volleys not evaluated counted at
        their bounds)."""
        groups: dict[int, set[int]] = {}
        for k, j in enumerate(chosen):
            if j is not None:
                groups.setdefault(j, set()).add(k)
        if bound:
            return sum(self.exact[j].get(frozenset(g), self.set_bound(j, frozenset(g)))
                       for j, g in groups.items())
        return sum(self.value(j, frozenset(g)) for j, g in groups.items())

    def set_bound(self, j: int, s: Members) -> float:
        """The bound of the units ``s`` at ``j`` (``tactica.plan.bounds``), kept."""
        table = self.tables.get(j)
        if table is not None:
            return float(table.bounds[table.mask(s)])
        found = self.cache[j].get(s)
        if found is None:
            tb, pairs = self.inst.targets[j], [self.inst.pairs[(k, j)] for k in s]
            pmfs = [np.eye(c + 1)[0] for c in tb.caps]
            for p in pairs:
                pmfs = [capped(a, b) for a, b in zip(pmfs, p.pmfs, strict=True)]
            found = self.cache[j][s] = tb.value(pmfs, any(p.precision for p in pairs))
        return found

    def neighbours(self, chosen: list[int | None]) -> list[list[int | None]]:
        """Plans one move or one exchange away, the cheap ones (one model targets,
        values without the engine) first."""
        out = []
        for k, ok in enumerate(self.inst.allowed):
            for j in (*ok, None):
                if j != chosen[k]:
                    out.append([*chosen[:k], j, *chosen[k + 1:]])
        for k1, k2 in itertools.combinations(range(len(chosen)), 2):
            j1, j2 = chosen[k1], chosen[k2]
            if j1 != j2 and (j2 is None or j2 in self.inst.allowed[k1]) and \
                    (j1 is None or j1 in self.inst.allowed[k2]):
                cand = list(chosen)
                cand[k1], cand[k2] = j2, j1
                out.append(cand)
        return out

    # --- pricing ------------------------------------------------------------------------
    def price_target(self, br: _Branch, j: int, pi: Mapping[int, float], keep: float,
                     batch: int = _PER_TARGET) -> tuple[float, bool, bool]:
        """The most any set at ``j`` is worth less its prices (an upper bound: its sets'
        exact values where known, their bounds otherwise), after evaluating up to a few
        batches of the sets whose bound beats ``keep``; whether one evaluated does (a new
        column); whether none is left to evaluate."""
        units, must = br.units_at(self.inst, j)
        if not units:
            return 0.0, False, True
        pairs = {k: self.inst.pairs[(k, j)] for k in units}
        prices = {k: pi.get(k, 0.0) for k in units}
        table = self.table(j)
        for _ in range(_TRIES):
            if table is not None:  # every set valued once (exact for a lone model)
                self.searched += 1
                top, found = table.best(prices, must, frozenset(units), keep, batch)
                todo = [s for _, s in found if s not in self.exact[j]]
            else:
                pr = price(self.inst.targets[j], units, pairs, prices, self.exact[j],
                           must=must, keep=keep, cache=self.cache[j], kinds=self.inst.kind,
                           limit=max(_SEARCH_FLOOR, SEARCH_LIMIT - self.searched))
                self.searched += pr.nodes
                top = pr.best
                todo = [s for _, s, exact in pr.found if not exact][:batch]
            if not todo or self.spent():
                return top, False, not todo
            new = [s for s in todo if self.value(j, s) - sum(prices[k] for k in s) > keep]
            if new:
                return top, True, False
        return top, False, False

    def bound(self, br: _Branch) -> tuple[float, dict[tuple[int, int], float] | None]:
        """Column generation in one branch: its bound (the least L(pi) met; it stops
        once that is not above the best plan) and the last programme's split of units
        over targets."""
        best_bound = np.inf
        share = None
        targets = list(self.inst.targets)
        first = 0
        for _ in range(_ROUNDS):
            relaxed = self.relaxation(br)
            if relaxed is None:
                return -np.inf, None
            z, pi, mu, share = relaxed
            # new volleys must beat their prices by this much: then L exceeds z by at
            # most the targets' count of it, within the tolerance of a proof
            tol = TOLERANCE * max(1.0, abs(z)) / (2 * len(targets) + 1)
            total = sum(pi.values())
            grew, pending = 0, False
            # few sets a round while the prices are far from the end (the bound far
            # above the programme's value: most sets worth a look then are not later)
            batch = _PER_TARGET if best_bound - z <= _NEAR * max(1.0, abs(z)) else _EARLY
            # the targets from where the last round stopped: a round that finds enough
            # new volleys stops early (its prices are about to change), without a bound
            for n, j in enumerate(targets[first:] + targets[:first]):
                best, new, done = self.price_target(br, j, pi, mu.get(j, 0.0) + tol, batch)
                total += best
                grew += new
                pending = pending or not done
                if grew >= _ENOUGH and n < len(targets) - 1:
                    first = (first + n + 1) % len(targets)
                    total = np.inf
                    break
            if total < best_bound:
                best_bound = total
                self.duals[br] = (total, pi, mu)
            if not (grew or pending) or self.spent() or \
                    best_bound <= self.best[0] + TOLERANCE * max(1.0, abs(self.best[0])):
                break
        return float(best_bound), share

    def children(self, br: _Branch, k: int, j: int) -> tuple[_Branch, _Branch]:
        """The two branches of ``br`` on unit ``k`` and target ``j``: a unit of k's kind
        at j (the first copy not placed yet: any of them would do, they are alike), or
        none of those copies at j."""
        placed = {u for u, _ in br.forced}
        copies = [u for u in range(len(self.inst.allowed))
                  if self.inst.kind(u) == self.inst.kind(k) and u not in placed
                  and j in self.inst.allowed[u] and (u, j) not in br.banned]
        first = min(copies, default=k)
        return (_Branch((*br.forced, (first, j)), br.banned),
                _Branch(br.forced, br.banned | {(u, j) for u in copies}))


def _split(share: Mapping[tuple[int, int], float]) -> tuple[int, int] | None:
    """The (unit, target) the programme splits most evenly, if any."""
    fractional = [(abs(x - 0.5), kj) for kj, x in share.items() if 1e-6 < x < 1 - 1e-6]
    return min(fractional)[1] if fractional else None


def search(inst: Instance, start: list[tuple[int, Members]], *, gap: float = 0.0) -> Found:
    """The best plan and its proof (the module text). ``start``: volleys of a plan
    known (evaluated first: the search starts from at least that plan's value);
    ``gap``: stop once the bound is within this share of the best plan (0: prove it
    optimal, within the limits)."""
    s = _Search(inst, start)
    root = _Branch()
    s.improve(None)
    heap: list[tuple[float, int, _Branch]] = [(-np.inf, 0, root)]
    counter = itertools.count(1)
    nodes = 0
    open_bound = -np.inf
    while heap:
        neg, _, br = heapq.heappop(heap)
        inherited = -neg
        tol = TOLERANCE * max(1.0, abs(s.best[0]))
        if inherited <= s.best[0] + tol:
            continue
        close = inherited <= s.best[0] * (1.0 + gap) + tol  # the highest bound open
        if close or nodes >= NODE_LIMIT or s.spent():
            open_bound = max(open_bound, inherited, *(-n for n, _, _ in heap))
            break
        nodes += 1
        b, share = s.bound(br)
        b = min(b, inherited)
        if nodes == 1:
            s.improve(share)
            s.integer(br)
        if b <= s.best[0] + TOLERANCE * max(1.0, abs(s.best[0])) or share is None:
            continue
        kj = _split(share)
        if kj is None:  # the programme's answer is a plan: the best of the branch
            s.integral(share)
            if b > s.best[0] + TOLERANCE * max(1.0, abs(s.best[0])):
                open_bound = max(open_bound, b)  # the generation stopped at a limit
            continue
        for child in s.children(br, *kj):
            heapq.heappush(heap, (-b, next(counter), child))
    if open_bound > s.best[0] + TOLERANCE * max(1.0, abs(s.best[0])):
        s.integer(root)  # not proved: a last look for a better plan among the volleys
    value, chosen = s.best
    bound = max(value, open_bound)
    proved = bound <= value + TOLERANCE * max(1.0, abs(value)) and not s.violated
    return Found(chosen, value, float(bound), proved, nodes, s.evaluated, s.searched,
                 s.violated)
