"""The target as a small Markov state: allocation groups, models left, wounds on the
wounded model — and exact transitions for one attack ("packet") at a time.

Allocation (reference facts §4.8, §5.1, §5.2; Save Rolls "Create Groups" / "Allocation
Order"; 05.04.01 Current Allocation Group; 24.28 Precision; 06.02 Mortal Wounds):

* each CHARACTER model is its own group; other models are grouped by identical W, Sv and
  invulnerable save. A group is held in parts of identical models (the same Feel No
  Pain) with at most one wounded model each; within a group a wounded model goes first,
  then the models in the order listed (see ``build_groups``);
* the current group is the first living one in the rule set's order
  (``RuleSet.allocation_tier``): non-CHARACTER groups holding a wounded model, other
  non-CHARACTER groups (in the order given), CHARACTER groups holding a wounded model,
  other CHARACTER groups. Within a group the wounded model
  takes damage first. The current group stays current until all its models are
  destroyed, even when its wounded model dies and it no longer "holds a wounded model";
* while a Precision weapon resolves, the first living CHARACTER group (wounded first)
  is current until it is destroyed: the packets of a Precision weapon read it off the
  state (``precision_group``), the state only marks (``ENDED``) that the weapon's
  Precision group was destroyed while other CHARACTER models live;
* the mortal-wound order of 06.02 (wounded non-CHARACTER model, non-CHARACTER, wounded
  CHARACTER, CHARACTER) is the same order without Precision.

A state is a tuple ``(k0, t0, k1, t1, ..., precision_mark, current_group)``: models
alive ``k`` and the wounds left ``t`` on the group's first (possibly wounded) model;
``precision_mark`` is ``ENDED`` once the Precision group of the weapon resolving is
destroyed, ``-1`` otherwise (a Precision weapon's attacks into the same damage are the
same state as any other's: no copy of the CHARACTER's damage per label);
``current_group`` is the group attacks go to until it is destroyed (05.04.01), ``-1``
when the next attack picks by the order above (each weapon declares its order afresh:
reference facts §5.1).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import comb
from typing import Any, NamedTuple

import numpy as np

from tactica.dice import FloatArray

from ...rules import RuleSet, get_ruleset
from ..contract.scenario import ScenarioError, Target

__all__ = ["ENDED", "Group", "Packet", "State", "StateSpace", "TooLargeError", "build_groups",
           "loss_pmf", "too_many_states"]

State = tuple[int, ...]

#: The state's Precision mark: the Precision group of the weapon resolving was destroyed
#: (the weapon's other attacks follow the order of 05.03, 24.28).
ENDED = -2
#: Above this many target states the exact engine refuses (use Monte Carlo).
MAX_STATES = 20_000
_DENSE_LIMIT = 700
#: An operator's product is taken over its domain and image alone when their block is at
#: most this share of the whole (states x states).
_RESTRICT = 0.5


class TooLargeError(ScenarioError):
    """The scenario's target has too many distinct states for the exact engine."""


@dataclass(frozen=True, slots=True)
class Group:
    """An allocation group of identical models."""

    name: str
    count: int
    W: int
    Sv: int
    invuln: int | None
    fnp: int | None
    character: bool
    first_wounds: int  # wounds left on the first model at the start
    alloc: int = -1  # the allocation group this part belongs to (parts share one when a
    # group holds several wounded models: one wounded model per part)


def build_groups(target: Target) -> tuple[Group, ...]:
    """Allocation groups in the order the entries are listed (reference facts §5.1).

    >>> from tactica.combat.contract.scenario import Target
    >>> t = Target.model_validate({"models": [
    ...     {"name": "Sgt", "count": 1, "T": 4, "Sv": 3, "W": 2},
    ...     {"name": "Marine", "count": 4, "T": 4, "Sv": 3, "W": 2, "wounds_lost": 1},
    ...     {"name": "Captain", "count": 1, "T": 4, "Sv": 3, "W": 5, "character": True}]})
    >>> [(g.name, g.count, g.first_wounds, g.character) for g in build_groups(t)]
    [('Sgt+Marine', 5, 1, False), ('Captain', 1, 5, True)]
    """
    groups: list[Group] = []
    allocs = 0
    for entry in target.models:
        left = entry.W - entry.wounds_lost
        if entry.character:
            for i in range(entry.count):
                groups.append(
                    Group(entry.name, 1, entry.W, entry.Sv, entry.invuln, entry.fnp, True,
                          left if i == 0 else entry.W, allocs)
                )
                allocs += 1
            continue
        # one allocation group per W, Sv and InSv (Save Rolls: "Create Groups"); its
        # parts also share Feel No Pain and hold at most one wounded model each
        key = (entry.W, entry.Sv, entry.invuln)
        same = [i for i, g in enumerate(groups)
                if not g.character and (g.W, g.Sv, g.invuln) == key]
        for i in same:
            g = groups[i]
            if g.fnp != entry.fnp or (g.first_wounds < g.W and left < entry.W):
                continue
            groups[i] = Group(f"{g.name}+{entry.name}", g.count + entry.count, g.W, g.Sv,
                              g.invuln, g.fnp, False, min(g.first_wounds, left), g.alloc)
            break
        else:
            alloc = groups[same[0]].alloc if same else allocs
            allocs += 0 if same else 1
            groups.append(Group(entry.name, entry.count, entry.W, entry.Sv, entry.invuln,
                                entry.fnp, False, left, alloc))
    return tuple(groups)


@cache
def loss_pmf(damage: tuple[float, ...], left: int, fnp: int | None) -> tuple[float, ...]:
    """P(the model loses l wounds), l = 0..left, from one attack whose damage has pmf
    ``damage``: Feel No Pain is rolled for each wound that would be lost (reference facts
    §4.7), damage beyond the wounds left is lost.

    >>> [round(x, 4) for x in loss_pmf((0.0, 0.0, 1.0), 1, 5)]   # D2 vs 1 wound, FNP 5+
    [0.1111, 0.8889]
    """
    out = [0.0] * (left + 1)
    if fnp is None:  # every wound is lost
        for d, pd in enumerate(damage):
            out[min(d, left)] += pd
        return tuple(out)
    q = (7 - fnp) / 6  # P(a wound is ignored)
    for d, pd in enumerate(damage):
        if not pd:
            continue
        for lost in range(d + 1):
            p = comb(d, lost) * (1 - q) ** lost * q ** (d - lost)
            out[min(lost, left)] += pd * p
    return tuple(out)


class Packet(NamedTuple):
    """One attack (or one Devastating-Wounds critical) reaching the target.

    ``save[g]`` is P(saved) against group ``g`` (0 for mortal wounds); ``damage`` is the
    pmf of the damage it inflicts; ``fnp`` an effect's Feel No Pain; ``precision``: the
    Precision group stays current. A ``NamedTuple`` (made for every line of every
    calculation, and hashed in the batch memo's keys: both in C).
    """

    save: tuple[float, ...]
    damage: tuple[float, ...]
    fnp: int | None
    precision: bool
    counts: bool = True  # counted as an unsaved attack when it reaches a living model
    mortal: bool = False  # 06.02 model selection (afresh per wound) instead of allocation


def too_many_states() -> TooLargeError:
    """The refusal of a target with more than ``MAX_STATES`` damage states."""
    return TooLargeError(f"target.models: the target has more than {MAX_STATES} damage "
                         "states; use method monte-carlo")


class StateSpace:
    """The reachable target states and exact transition operators over them."""

    def __init__(self, groups: tuple[Group, ...], rules: RuleSet | None = None) -> None:
        self.groups = groups
        #: the rule set whose allocation order (``RuleSet.allocation_tier``) the states
        #: follow (the default rule set's when not given: the order is the same in both)
        self.rules = rules if rules is not None else get_ruleset()
        self._tiers = self.rules.allocation_tiers()
        init: list[int] = []
        for g in groups:
            init += [g.count, g.first_wounds]
        # (..., precision group, current group); -1 = none
        self.initial: State = (*init, -1, -1)
        self.states: list[State] = [self.initial]
        self.index: dict[State, int] = {self.initial: 0}
        self._best_cache: dict[tuple[State, bool], int | None] = {}
        # the parts of each allocation group, in the order listed
        self.parts: dict[int, list[int]] = {}
        for gi, g in enumerate(groups):
            self.parts.setdefault(g.alloc, []).append(gi)
        #: what a reader derives from the states, kept with them (the read-out's bins)
        self.derived: dict[str, Any] = {}

    # --- the order of allocation --------------------------------------------------------
    def _alive(self, s: State, alloc: int) -> bool:
        return any(s[2 * gi] for gi in self.parts[alloc])

    def _within(self, s: State, alloc: int) -> int | None:
        """In an allocation group, a wounded model first, then the models in the order
        listed (Save Rolls: "Allocation Order"; reference facts §5.1)."""
        living = [gi for gi in self.parts[alloc] if s[2 * gi]]
        if len(living) < 2:
            return living[0] if living else None
        return living[self.rules.model_order(
            [s[2 * gi + 1] < self.groups[gi].W for gi in living])[0]]

    def _best_alloc(self, s: State, characters_only: bool = False) -> int | None:
        key = (s, characters_only)
        if key not in self._best_cache:
            self._best_cache[key] = self._best_alloc_uncached(s, characters_only)
        return self._best_cache[key]

    def _best_alloc_uncached(self, s: State, characters_only: bool) -> int | None:
        best: tuple[int, int] | None = None
        for alloc, parts in self.parts.items():
            g = self.groups[parts[0]]
            if (characters_only and not g.character) or not self._alive(s, alloc):
                continue
            wounded = any(s[2 * gi] and s[2 * gi + 1] < self.groups[gi].W for gi in parts)
            tier = self._tiers[g.character][wounded]  # 05.03 (``allocation_tier``)
            if best is None or tier < best[0]:
                best = (tier, alloc)
        return None if best is None else best[1]

    def _by_tier(self, s: State, characters_only: bool = False) -> int | None:
        alloc = self._best_alloc(s, characters_only)
        return None if alloc is None else self._within(s, alloc)

    def precision_group(self, s: State, pk: Packet) -> int | None:
        """The CHARACTER group a Precision attack (24.28) goes to, None when the order
        of 05.03 decides: the first living CHARACTER group (wounded first), unless the
        weapon's Precision group was destroyed (``ENDED``). The group the weapon started
        with stays the first of them until it is destroyed: only it takes damage, and
        damage can only make it wounded. Mortal wounds picked afresh (06.02) ignore it."""
        if not pk.precision or pk.mortal or s[-2] == ENDED:
            return None
        return self._by_tier(s, characters_only=True)

    def current(self, s: State, mortal: bool = False, precision: bool = False) -> int | None:
        """The group (part) the next attack is allocated to, or None if all are destroyed.

        Attacks: with ``precision`` the Precision group (``precision_group``), else the
        current allocation group (05.04.01: it stays current until all its models are
        destroyed), else the first group in allocation order. Mortal wounds
        (``mortal``): 06.02 selects afresh for each one."""
        if not mortal:
            if precision and s[-2] != ENDED:
                p = self._by_tier(s, characters_only=True)
                if p is not None:
                    return p
            if s[-1] >= 0 and self._alive(s, s[-1]):
                return self._within(s, s[-1])
        return self._by_tier(s)

    @staticmethod
    def precision_start(s: State) -> State:
        """05.03: a Precision weapon declares the allocation order afresh; the mark of an
        earlier Precision weapon is cleared (its group is read off the state,
        ``precision_group``)."""
        return (*s[:-2], -1, -1)

    @staticmethod
    def reset(s: State) -> State:
        """05.03: a weapon declares the allocation order afresh. A Precision mark changes
        nothing outside a Precision weapon and stays (clearing it would copy each state
        it marks); the next Precision weapon clears it."""
        return (*s[:-2], s[-2], -1)

    @staticmethod
    def precision_end(s: State) -> State:
        """A Precision weapon has resolved: nothing to change (see ``reset``)."""
        return s

    @staticmethod
    def canonical(s: State) -> State:
        """``s`` without its Precision mark (the same state outside a Precision weapon)."""
        return (*s[:-2], -1, s[-1])

    def _mark_matters(self, s: State) -> bool:
        """Whether ``ENDED`` changes where a Precision attack goes: a CHARACTER group and
        another group live (otherwise the order of 05.03 picks the CHARACTER anyway)."""
        c = self._best_alloc(s, characters_only=True)
        return c is not None and self._best_alloc(s) != c

    # --- read-outs ----------------------------------------------------------------------
    def wounds_left(self, s: State) -> int:
        total = 0
        for gi, g in enumerate(self.groups):
            k, t = s[2 * gi], s[2 * gi + 1]
            if k:
                total += t + (k - 1) * g.W
        return total

    def models_left(self, s: State) -> int:
        return sum(s[2 * gi] for gi in range(len(self.groups)))

    # --- transitions --------------------------------------------------------------------
    def add(self, s: State) -> int:
        """The index of state ``s``, added if new (a sequence starts from earlier states)."""
        return self._id(s)

    def _id(self, s: State) -> int:
        i = self.index.get(s)
        if i is None:
            if len(self.states) >= MAX_STATES:
                raise too_many_states()
            i = len(self.states)
            self.states.append(s)
            self.index[s] = i
        return i

    def packet_edges(self, s: State, pk: Packet) -> list[tuple[State, float, bool]]:
        """Successors of ``s`` under one packet: (state, probability, counted unsaved)."""
        precise = self.precision_group(s, pk)
        g = precise if precise is not None else self.current(s, pk.mortal)
        if g is None:
            return [(s, 1.0, False)]
        grp = self.groups[g]
        out: list[tuple[State, float, bool]] = []
        p_save = pk.save[g]
        if p_save:
            out.append((s, p_save, False))
        k, t = s[2 * g], s[2 * g + 1]
        fnp = min((f for f in (grp.fnp, pk.fnp) if f is not None), default=None)
        for lost, p in enumerate(loss_pmf(pk.damage, t, fnp)):
            if not p:
                continue
            ns = list(s)
            if lost < t:
                ns[2 * g + 1] = t - lost
            else:
                ns[2 * g] = k - 1
                ns[2 * g + 1] = grp.W if k > 1 else 0
            t_ns = tuple(ns)
            if ns[-2] == ENDED or (precise is not None and not ns[2 * g]):
                # the Precision group is destroyed: marked while the mark matters
                ns[-2] = ENDED if self._mark_matters(t_ns) else -1
            if precise is None and not pk.mortal:
                # the current allocation group stays until all its models are destroyed
                ns[-1] = grp.alloc if self._alive(t_ns, grp.alloc) else -1
            elif precise is None and ns[-1] >= 0 and not self._alive(t_ns, ns[-1]):
                ns[-1] = -1
            if ns[-1] >= 0 and self._best_alloc(t_ns) == ns[-1]:
                ns[-1] = -1  # canonical: the order alone picks that group anyway
            out.append((tuple(ns), (1 - p_save) * p, True))
        return out

    def operator(self, pk: Packet, op: Operator | None = None) -> Operator:
        """The exact linear operator of one packet over all states (closed under it);
        with ``op``, extend that operator to the states found since it was built."""
        op = op if op is not None else Operator([], [])
        i = op.done
        while i < len(self.states):  # states may be discovered while we go
            for ns, p, unsaved in self.packet_edges(self.states[i], pk):
                (op.b if unsaved and pk.counts else op.a).append((i, self._id(ns), p))
            i += 1
        op.done = i
        return op

    def mapping(self, fn: str, op: Operator | None = None) -> Operator:
        """A deterministic re-labelling: ``precision_start`` / ``reset`` (a weapon's
        allocation order declared afresh) or ``precision_end``."""
        f = {"precision_start": self.precision_start, "reset": self.reset,
             "precision_end": self.precision_end}[fn]
        op = op if op is not None else Operator([], [])
        i = op.done
        while i < len(self.states):
            op.a.append((i, self._id(f(self.states[i])), 1.0))
            i += 1
        op.done = i
        return op


class Operator:
    """``apply(P)`` for P of shape (states, unsaved): the part ``a`` keeps the unsaved
    count, the part ``b`` adds one. An operator built along the chain (``reach``) has
    rows for some states only (its domain) and leads to some (its image): the product
    is taken over those alone, a dense block when both are small, sparse otherwise."""

    def __init__(self, a: list[tuple[int, int, float]], b: list[tuple[int, int, float]]):
        self.a = a
        self.b = b
        self.done = 0  # states 0..done-1 have their rows
        self._n = -1
        self._identity = False
        self._dense: FloatArray | None = None
        self._dom: np.ndarray | None = None  # None: every state
        self._img: np.ndarray | None = None
        self._touched: tuple[int, frozenset[int]] | None = None
        self._local: dict[bytes, Operator] = {}
        # the rows read so far into the domain and image sets (``block``)
        self._read = (0, 0)
        self._sets: tuple[set[int], set[int]] = (set(), set())

    def _prepare(self, n: int) -> None:
        if self._n == n:
            return
        self._n = n
        # a mapping that moves no state (``precision_end``) on the states it meets
        self._identity = bool(self.a) and not self.b and all(
            i == j and p == 1.0 for i, j, p in self.a)
        dom = sorted({i for i, _, _ in self.a} | {i for i, _, _ in self.b})
        img = sorted({j for _, j, _ in self.a} | {j for _, j, _ in self.b})
        if len(dom) * len(img) > _RESTRICT * n * n:  # gathering would cost more
            dom = img = list(range(n))
        if max(len(dom), len(img)) <= _DENSE_LIMIT:
            col = {s: c for c, s in enumerate(dom)}
            row = {s: r for r, s in enumerate(img)}
            m = len(img)
            both = np.zeros((2 * m, len(dom)))  # rows 0..m-1: unsaved unchanged; m..: +1
            for i, j, p in self.a:
                both[row[j], col[i]] += p
            for i, j, p in self.b:
                both[m + row[j], col[i]] += p
            self._dense = both
            self._dom = None if len(dom) == n else np.array(dom, dtype=np.intp)
            self._img = None if len(img) == n else np.array(img, dtype=np.intp)
        else:
            self._dense = None
            self._sa = _coo(self.a, n)
            self._sb = _coo(self.b, n)

    def block(self) -> int:
        """The states this operator has rows for times the states it leads to (its block:
        ``size``), kept up as rows are added (the rows are only ever appended: each call
        reads the new ones alone)."""
        dom, img = self._sets
        na, nb = self._read
        for rows, start in ((self.a, na), (self.b, nb)):
            for k in range(start, len(rows)):
                i, j, _ = rows[k]
                dom.add(i)
                img.add(j)
        self._read = (len(self.a), len(self.b))
        return len(dom) * len(img)

    def touched(self) -> frozenset[int]:
        """The states this operator has rows for or leads to."""
        if self._touched is None or self._touched[0] != len(self.a) + len(self.b):
            found = frozenset(i for i, _, _ in self.a) | {j for _, j, _ in self.a}
            found |= {i for i, _, _ in self.b} | {j for _, j, _ in self.b}
            self._touched = (len(self.a) + len(self.b), found)
        return self._touched[1]

    def local(self, states: np.ndarray) -> Operator:
        """This operator over ``states`` alone, renumbered by their positions (every
        state it touches must be among them)."""
        key = states.tobytes()
        if key not in self._local:
            pos = {int(st): k for k, st in enumerate(states)}
            self._local[key] = Operator([(pos[i], pos[j], p) for i, j, p in self.a],
                                        [(pos[i], pos[j], p) for i, j, p in self.b])
        return self._local[key]

    def _parts(self, x: FloatArray) -> tuple[FloatArray, FloatArray]:
        """For ``x`` of shape (states, ...): the part that keeps the unsaved count and
        the part that adds one, for the states of the image (``_img``; all if None)."""
        flat = x.reshape(x.shape[0], -1)
        if self._dense is None:
            kept = _sparse_apply(self._sa, flat)
            moved = _sparse_apply(self._sb, flat) if self.b else np.zeros_like(flat)
        else:
            y = self._dense @ (flat if self._dom is None else flat[self._dom])
            m = y.shape[0] // 2
            kept, moved = y[:m], y[m:]
        return kept.reshape(-1, *x.shape[1:]), moved.reshape(-1, *x.shape[1:])

    def _combine(self, x: FloatArray, out: FloatArray | None = None,
                 cols: int | None = None) -> FloatArray:
        """``x`` after the packet (the unsaved count is the last axis), into ``out`` (a
        zeroed array of ``x``'s shape) when given; ``cols``: only the first ``cols``
        unsaved columns of ``x`` can be non-zero."""
        width = x.shape[-1]
        cols = width if cols is None or not self.b else min(cols, width)
        kept, moved = self._parts(x if cols == width else x[..., :cols])
        img = self._img if self._dense is not None else None
        if img is None and out is None and cols == width:
            res = kept
        else:
            res = np.zeros_like(x) if out is None else out
            res[(slice(None) if img is None else img), ..., :cols] = kept
        if self.b:
            rows = slice(None) if img is None else img
            if width == 1:  # unsaved not tracked (a search for a choice)
                res[rows] += moved
            else:
                shift = min(cols, width - 1)
                res[rows, ..., 1 : shift + 1] += moved[..., :shift]
        return res

    def apply(self, x: FloatArray, cols: int | None = None,
              out: FloatArray | None = None) -> FloatArray:
        """One packet. ``cols``: only the first ``cols`` unsaved columns of ``x`` can be
        non-zero (the caller knows the bound); ``out``: a zeroed array to write into."""
        self._prepare(x.shape[0])
        if self._identity:
            if out is None:
                return x.copy()
            out[...] = x
            return out
        return self._combine(x, out, cols)

    def apply_nd(self, x: FloatArray) -> FloatArray:
        """One packet for ``x`` of shape (states, ..., unsaved): the middle axes are
        independent columns (the unsaved count is the last axis)."""
        self._prepare(x.shape[0])
        if self._identity:
            return x.copy()
        return self._combine(x)


def _coo(rows: list[tuple[int, int, float]], n: int) -> Any:
    """The rows ``(from, to, p)`` as an n x n sparse matrix (``to`` its row, repeated
    entries summed): scipy's compressed rows multiply a block of columns some 20 times
    faster than ``np.add.at`` scattering them (``benchmarks/bench_size.py``)."""
    from scipy.sparse import csr_array  # only the sparse products need it

    if not rows:
        return None
    src, dst, p = zip(*rows, strict=True)
    return csr_array((np.array(p, dtype=np.float64), (np.array(dst), np.array(src))),
                     shape=(n, n))


def _sparse_apply(matrix: Any, x: FloatArray) -> FloatArray:
    if matrix is None:
        return np.zeros_like(x)
    return np.asarray(matrix @ x)
