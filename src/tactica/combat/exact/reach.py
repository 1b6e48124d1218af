"""The target states the chain reaches, found in the order the chain runs (``chain``).

Every operator of the target's chain (a packet: one attack or mortal wound; a mapping:
the allocation order a weapon declares, 05.03) needs its rows only for the states that
can hold probability when the chain applies it. Closing the state set under *every*
operator from *every* state instead finds states no order of the weapon lines reaches.
With Precision (24.28: "until those attacks are resolved, or until that CHARACTER group
is destroyed (whichever happens first), that CHARACTER group is the current allocation
group") a Precision weapon's attacks damage the CHARACTER while its bodyguard is
unharmed, yet the closure also lets that weapon's packet hit the bodyguard of a wounded
CHARACTER: the product of the CHARACTER's damage and the bodyguard's, for every
CHARACTER (``benchmarks/bench_precision.py``: 273 states instead of 27 for one Precision
weapon into ten models led by one CHARACTER, 1,891 instead of 76 for three CHARACTER
models leading twenty of 3 wounds).

``ChainPlan`` is the chain as a program over *sets* of states: per weapon line, its
start mapping (``precision_start`` or ``reset``), its save packets (each attack saved on
its own, or the classes of pooled save dice: any number of each, in any order, is a
superset of what the line does), its ``precision_end``, its Devastating Wounds packet
after the line (11th, 24.10) or after the whole unit (10th, reference facts §5.5).
``reach`` runs it once: each operator gets rows for the states it can meet (its
*domain*) and nothing else, so the states found are the ones some chain reaches. A
state outside an operator's domain never holds probability when that operator is
applied, so the distributions are the ones of the full closure (to float rounding; the
generated-scenario tests check 1e-12).

A ``Budget`` watches the exploration: called with the operators and the number of
transitions found so far each time these have grown by a quarter, it raises
(the size model's ``TooLargeError``) as soon as what is found already implies work over
the limits, so an oversize target is refused after exploring a part of its states. It
only reads: an exploration it does not stop finds the states of one without it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .allocation import Operator, Packet, State, StateSpace
from .transitions import Rows, Table, Transitions

__all__ = ["Budget", "Builder", "ChainPlan", "LinePlan", "explore", "reach"]

#: Called with the packets' operators and the transitions found so far; raises to stop.
Budget = Callable[[dict[Packet, Operator], int], None]
#: The budget is first asked at this many transitions, then each time they grow by a
#: quarter (the last line's operator may find its rows among states already found).
_FIRST_ASK = 256
_GROWTH = 1.25


@dataclass(frozen=True)
class LinePlan:
    """One weapon line as the set-level program sees it: its Precision (24.28), the
    packets its saves may apply (normal, and the classes of pooled save dice), and its
    Devastating Wounds packet (None without critical wounds to resolve)."""

    precision: bool
    saves: tuple[Packet, ...]
    mortal: Packet | None


@dataclass(frozen=True)
class ChainPlan:
    """The whole chain: mortal wounds before the attacks (06.02), the lines in order,
    and whether Devastating Wounds resolve after each line (11th) or after the unit."""

    before: Packet | None
    lines: tuple[LinePlan, ...]
    per_line: bool


class Builder:
    """Operators with rows on their domains, grown as the program runs."""

    def __init__(self, space: StateSpace, budget: Budget | None = None) -> None:
        self.space = space
        self.ops: dict[Packet, Operator] = {}
        self.maps: dict[str, Operator] = {}
        self._succ: dict[int, dict[int, tuple[int, ...]]] = {}  # id(op) -> state -> next
        self._budget = budget
        self.edges = 0  # transitions found
        self._ask_at = _FIRST_ASK
        self._moves = Transitions(space)

    def _watch(self) -> None:
        """Ask the budget once the transitions found have grown enough since it was last
        asked."""
        if self._budget is not None and self.edges >= self._ask_at:
            self._ask_at = int(self.edges * _GROWTH) + 1
            self._budget(self.ops, self.edges)

    def _packet_table(self, pk: Packet) -> tuple[dict[int, tuple[int, ...]], Table, Rows,
                                                  Rows]:
        """The packet's rows found so far (state -> next states), its per-packet work and
        its operator's parts (unsaved counted or kept): looked up once per ``close``."""
        op = self.ops.setdefault(pk, Operator([], []))
        return (self._succ.setdefault(id(op), {}), self._moves.table(pk), op.a,
                op.b if pk.counts else op.a)

    def _new_rows(self, succ: dict[int, tuple[int, ...]], table: Table, kept: Rows,
                  moved: Rows, i: int) -> tuple[int, ...]:
        """State ``i``'s rows of the packet (``Transitions.packet_rows``), recorded."""
        succ[i] = got = self._moves.packet_rows(i, table, kept, moved)
        self.edges += len(got)
        self._watch()
        return got

    def close(self, packets: Iterable[Packet], states: set[int]) -> set[int]:
        """``states`` and every state any number of ``packets`` lead to (rows built)."""
        # (the operators made when the first state is met, as they were one by one)
        tables = [self._packet_table(pk) for pk in packets] if states else []
        seen = set(states)
        todo = list(states)
        while todo:
            i = todo.pop()
            for succ, table, kept, moved in tables:
                nxt = succ.get(i)
                if nxt is None:
                    nxt = self._new_rows(succ, table, kept, moved, i)
                for j in nxt:
                    if j not in seen:
                        seen.add(j)
                        todo.append(j)
        return seen

    def _mapping(self, fn: str) -> tuple[Operator, dict[int, tuple[int, ...]],
                                         Callable[[State], State]]:
        """The mapping ``fn``'s operator, its rows found so far and the state function."""
        op = self.maps.setdefault(fn, Operator([], []))
        f = {"precision_start": self.space.precision_start, "reset": self.space.reset,
             "precision_end": self.space.precision_end}[fn]
        return op, self._succ.setdefault(id(op), {}), f

    def map(self, fn: str, states: set[int]) -> set[int]:
        """The images of ``states`` under the mapping ``fn`` (rows built)."""
        op, rows, f = self._mapping(fn)
        out = set()
        mapped, found = self._moves.mapped, self.space.states
        for i in states:
            got = rows.get(i)
            if got is None:
                got = rows[i] = (mapped(i, f(found[i])),)
                op.a.append((i, got[0], 1.0))
                self.edges += 1
                self._watch()
            out.add(got[0])
        return out


def reach(space: StateSpace, plan: ChainPlan, start: Iterable[int], maps: Iterable[str],
          budget: Budget | None = None) -> tuple[dict[Packet, Operator], dict[str, Operator]]:
    """Run ``plan`` over sets of states from the states ``start`` (indices in ``space``):
    every packet and mapping the chain uses, with rows for the states it meets. ``maps``
    names the mappings to return (empty operators for those the plan never meets);
    ``budget`` may stop the exploration (see the module docstring)."""
    return explore(Builder(space, budget), plan, start, maps)


def explore(b: Builder, plan: ChainPlan, start: Iterable[int], maps: Iterable[str],
            ) -> tuple[dict[Packet, Operator], dict[str, Operator]]:
    """``reach`` with the builder ``b`` (its space and budget)."""
    cur = set(start)
    if plan.before is not None:
        cur = b.close([plan.before], cur)
    for line in plan.lines:
        cur = b.map("precision_start" if line.precision else "reset", cur)
        cur = b.close(line.saves, cur)
        if line.precision:
            cur = b.map("precision_end", cur)
        if line.mortal is not None and plan.per_line:
            cur = b.close([line.mortal], cur)
    if not plan.per_line:
        for line in plan.lines:  # held back until the whole unit has attacked (10th)
            pk = line.mortal
            if pk is None:
                continue
            if not pk.mortal:  # allocated like attacks: the order declared afresh
                cur = b.map("precision_start" if pk.precision else "reset", cur)
            cur = b.close([pk], cur)
            if pk.precision:
                cur = b.map("precision_end", cur)
    for m in maps:
        b.maps.setdefault(m, Operator([], []))
    return b.ops, b.maps

