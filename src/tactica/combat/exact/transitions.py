"""One packet's transitions from a target state, fast: exactly ``StateSpace.packet_edges``
(the rules it cites: 05.04.01 Current Allocation Group, Save Rolls "Allocation Order",
24.28 Precision, 06.02 Mortal Wounds, reference facts §4.7, §4.8, §5.1, §5.2), with the
successors as state indices (added to the space in the order ``packet_edges`` lists
them), for the exploration of the target's states (``reach``).

``packet_edges`` is the definition, written to be read: it asks the allocation order of
each successor afresh (every allocation group's tier, over the whole state) and finds
each successor by its tuple. Here a state's allocation order is found once (``_Order``,
shared by the states of the same tiers): a packet changes one model part, so a
successor's order is its state's with that part's allocation group alone re-read (and
remembered, ``_Order.after``); the successors a packet's damage makes of a part with
``t`` wounds left (``loss_pmf``, Feel No Pain included) are found once per packet,
part, ``t`` and whether more than one model is left; each state has an integer code
(mixed radix over its entries), so a successor is found by adding the change of one
part to its state's code, and its tuple is built only when it is new. The
probabilities are the same floating-point products. ``tests/combat/test_transitions.py``
checks every state, its order and every operator row against the exploration before
(``benchmarks/reach_reference.py``); ``benchmarks/bench_explore.py`` times both.
"""

from __future__ import annotations

from dataclasses import dataclass

from .allocation import ENDED, Packet, State, StateSpace, loss_pmf

__all__ = ["Rows", "Table", "Transitions"]

#: The tier of an allocation group with no model left (after every living tier, 0-3).
_DEAD = 4


class _Order:
    """An allocation order: each allocation group's tier (``RuleSet.allocation_tier``:
    0 wounded, 1 unharmed non-CHARACTER; 2 wounded, 3 unharmed CHARACTER; ``_DEAD``),
    the first group of the lowest tier (-1: none left, ``StateSpace._best_alloc``) and
    the first CHARACTER group of the lowest (-1: none); ``after[8 * a + x]``: the order
    once group ``a``'s tier is x."""

    __slots__ = ("after", "best", "best_character", "tiers")

    def __init__(self, tiers: tuple[int, ...], characters: list[int]) -> None:
        self.tiers = tiers
        low = min(tiers)
        self.best = -1 if low == _DEAD else tiers.index(low)
        self.best_character, low = -1, _DEAD
        for a in characters:
            if tiers[a] < low:
                self.best_character, low = a, tiers[a]
        self.after: dict[int, _Order] = {}


#: A packet's successors of one model part with (k, t): (k' - k, t', probability, the
#: change of the state's code, the tier of the part's group after; -1: read it off).
_Losses = tuple[tuple[int, int, float, int, int], ...]


#: An operator's rows: (state, next state, probability).
Rows = list[tuple[int, int, float]]


@dataclass(frozen=True, slots=True)
class Table:
    """One packet's work for every state: the packet, and its successors of each model
    part by (part, t, k > 1), found as they are met."""

    packet: Packet
    losses: dict[tuple[int, int, bool], _Losses]


class Transitions:
    """``packet_rows``: ``StateSpace.packet_edges`` of a state given by its index, with
    the successors' indices; states found are added to ``space``. Each state has a code
    (an integer in mixed radix: each part's k and t, the Precision mark, the current
    group), so a successor is found by adding the packet's change to its state's code."""

    def __init__(self, space: StateSpace) -> None:
        self.space = space
        groups = space.groups
        allocs = list(space.parts)
        if allocs != list(range(len(allocs))):  # ``build_groups`` numbers them in order
            raise ValueError("allocation groups must be numbered in the order listed")
        # each allocation group's tier unharmed and wounded (the rule set's order)
        table = space.rules.allocation_tiers()
        chars = [groups[space.parts[a][0]].character for a in allocs]
        self._tiers = [table[c] for c in chars]
        self._characters = [a for a in allocs if chars[a]]
        self._single = [len(space.parts[a]) == 1 for a in allocs]
        # code = (sum of k * (W + 1) + t, each part in its place) * marks * currents
        #        + (mark + 2) * currents + current + 1
        self._currents = len(allocs) + 1
        self._marks = len(groups) + 2
        place, self._place = self._marks * self._currents, []
        for g in groups:
            self._place.append(place)
            place *= (g.count + 1) * (g.W + 1)
        self._orders: dict[tuple[int, ...], _Order] = {}
        self._code: list[int] = []  # per state (index)
        self._order: list[_Order] = []
        self._by_code: dict[int, int] = {}
        self._tables: dict[Packet, Table] = {}

    def table(self, pk: Packet) -> Table:
        """The per-packet part of the work (look it up once per packet, not per state)."""
        t = self._tables.get(pk)
        if t is None:
            t = self._tables[pk] = Table(pk, {})
        return t

    # --- states and their allocation order ----------------------------------------------
    def _tier(self, s: State, alloc: int) -> int:
        """``alloc``'s tier in ``s`` (``StateSpace._best_alloc_uncached``)."""
        alive = wounded = False
        for gi in self.space.parts[alloc]:
            if s[2 * gi]:
                alive = True
                wounded = wounded or s[2 * gi + 1] < self.space.groups[gi].W
        return _DEAD if not alive else self._tiers[alloc][wounded]

    def _order_of(self, tiers: tuple[int, ...]) -> _Order:
        got = self._orders.get(tiers)
        if got is None:
            got = self._orders[tiers] = _Order(tiers, self._characters)
        return got

    def _after(self, order: _Order, alloc: int, tier: int) -> _Order:
        """``order`` once ``alloc``'s tier is ``tier``."""
        got = order.after.get(alloc * 8 + tier)
        if got is None:
            t = order.tiers
            got = order.after[alloc * 8 + tier] = self._order_of((*t[:alloc], tier,
                                                                  *t[alloc + 1 :]))
        return got

    def _sync(self) -> None:
        """Codes and orders of the states added to the space by others (start states,
        the mappings of ``reach``)."""
        states = self.space.states
        for i in range(len(self._code), len(states)):
            s = states[i]
            code = (s[-2] + 2) * self._currents + s[-1] + 1
            for g, place in enumerate(self._place):
                code += (s[2 * g] * (self.space.groups[g].W + 1) + s[2 * g + 1]) * place
            self._code.append(code)
            self._by_code[code] = i
            self._order.append(self._order_of(tuple(self._tier(s, a)
                                                    for a in range(len(self._tiers)))))

    def _within(self, s: State, alloc: int) -> int:
        """The part of living ``alloc`` that takes the attack (``StateSpace._within``)."""
        parts = self.space.parts[alloc]
        if self._single[alloc]:
            return parts[0]
        living = [gi for gi in parts if s[2 * gi]]
        wounded = [gi for gi in living if s[2 * gi + 1] < self.space.groups[gi].W]
        return (wounded or living)[0]

    def _target(self, s: State, order: _Order, pk: Packet) -> tuple[int, bool]:
        """The part the packet goes to (-1: none left) and whether by Precision
        (``precision_group``, else ``current``)."""
        if pk.precision and not pk.mortal and s[-2] != ENDED and order.best_character >= 0:
            return self._within(s, order.best_character), True
        if not pk.mortal and s[-1] >= 0 and order.tiers[s[-1]] != _DEAD:
            return self._within(s, s[-1]), False
        return (-1 if order.best < 0 else self._within(s, order.best)), False

    def _losses(self, table: Table, g: int, k: int, t: int) -> _Losses:
        """Part ``g`` with ``k`` models, ``t`` wounds left on the first, after the packet
        fails its save: (models lost, t', probability, code change, tier) in the order
        of the wounds lost (``loss_pmf``; ``StateSpace.packet_edges``); the same for
        every ``k`` above 1."""
        key = (g, t, k > 1)
        got = table.losses.get(key)
        if got is None:
            pk, grp = table.packet, self.space.groups[g]
            p_save = pk.save[g]
            fnp = min((f for f in (grp.fnp, pk.fnp) if f is not None), default=None)
            single, tiers = self._single[grp.alloc], self._tiers[grp.alloc]
            out = []
            for lost, p in enumerate(loss_pmf(pk.damage, t, fnp)):
                if not p:
                    continue
                dk, t2 = (0, t - lost) if lost < t else (-1, grp.W if k > 1 else 0)
                tier = (_DEAD if not k + dk else tiers[t2 < grp.W]
                        ) if single else -1
                change = (dk * (grp.W + 1) + t2 - t) * self._place[g]
                out.append((dk, t2, (1 - p_save) * p, change, tier))
            got = table.losses[key] = tuple(out)
        return got

    # --- transitions --------------------------------------------------------------------
    def packet_rows(self, i: int, table: Table, kept: Rows, moved: Rows) -> tuple[int, ...]:
        """``packet_edges(states[i], pk)`` as rows (i, j, probability) of the successors'
        indices j (added if new, in that order): into ``moved`` those counted unsaved,
        into ``kept`` the others; returns the j's."""
        if len(self._code) < len(self.space.states):
            self._sync()
        s = self.space.states[i]
        order = self._order[i]
        pk = table.packet
        g, precise = self._target(s, order, pk)
        if g < 0:
            kept.append((i, i, 1.0))
            return (i,)
        nxt = []
        p_save = pk.save[g]
        if p_save:
            kept.append((i, i, p_save))
            nxt.append(i)
        alloc = self.space.groups[g].alloc
        attack = not precise and not pk.mortal
        mark0, cur0 = s[-2], s[-1]
        currents = self._currents
        body = self._code[i] - (mark0 + 2) * currents - cur0 - 1
        by_code = self._by_code
        k0 = s[2 * g]
        for dk, t, p, change, tier in self._losses(table, g, k0, s[2 * g + 1]):
            k = k0 + dk
            if tier < 0:  # a group of several parts: read it off the successor
                tier = self._tier((*s[: 2 * g], k, t, *s[2 * g + 2 :]), alloc)
            new = order.after.get(alloc * 8 + tier) or self._after(order, alloc, tier)
            mark, cur = mark0, cur0
            if mark == ENDED or (precise and not k):
                # the Precision group is destroyed: marked while the mark matters
                c = new.best_character
                mark = ENDED if c >= 0 and new.best != c else -1
            if attack:  # the current allocation group stays until all its models die
                cur = alloc if tier != _DEAD else -1
            elif not precise and cur >= 0 and new.tiers[cur] == _DEAD:
                cur = -1
            if cur >= 0 and new.best == cur:
                cur = -1  # canonical: the order alone picks that group anyway
            code = body + change + (mark + 2) * currents + cur + 1
            j = by_code.get(code)
            if j is None:
                j = self._add((*s[: 2 * g], k, t, *s[2 * g + 2 : -2], mark, cur), code, new)
            moved.append((i, j, p))
            nxt.append(j)
        return tuple(nxt)

    def mapped(self, i: int, ns: State) -> int:
        """The index of ``ns``, state ``i`` with another Precision mark or current group
        (a mapping of ``reach``, 05.03), added if new."""
        if len(self._code) < len(self.space.states):
            self._sync()
        s = self.space.states[i]
        if ns[:-2] != s[:-2]:  # not a change of the marks alone
            return self.space.add(ns)
        code = (self._code[i] + (ns[-2] - s[-2]) * self._currents + ns[-1] - s[-1])
        j = self._by_code.get(code)
        return self._add(ns, code, self._order[i]) if j is None else j

    def _add(self, s: State, code: int, order: _Order) -> int:
        """A new state (``StateSpace.add``: refused past the limit) with its code."""
        j = self.space.add(s)
        self._code.append(code)
        self._order.append(order)
        self._by_code[code] = j
        return j
