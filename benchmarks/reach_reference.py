"""The exploration of the target's states as it was written before ``combat.transitions``
(kept as the reference the faster form must equal: every state, its order and every
operator entry; ``tests/combat/test_transitions.py``, ``bench_explore.py``).

``reference_reach`` is ``reach.reach`` with its former builder: each (state, packet)
asks ``StateSpace.packet_edges`` (the allocation order found afresh for every successor)
and adds the successors one by one.
"""

from __future__ import annotations

from collections.abc import Iterable

from tactica.combat.exact.allocation import Operator, Packet, StateSpace
from tactica.combat.exact.reach import Budget, Builder, ChainPlan, explore

__all__ = ["reference_reach"]


class _FormerBuilder(Builder):
    """The builder as it was: the packet's operator and rows looked up for every state,
    the successors from ``packet_edges``."""

    def _packet_rows(self, pk: Packet, i: int) -> tuple[int, ...]:
        op = self.ops.setdefault(pk, Operator([], []))
        succ = self._succ.setdefault(id(op), {})
        if i not in succ:
            nxt = []
            for ns, p, unsaved in self.space.packet_edges(self.space.states[i], pk):
                j = self.space.add(ns)
                (op.b if unsaved and pk.counts else op.a).append((i, j, p))
                nxt.append(j)
            succ[i] = tuple(nxt)
            self.edges += len(nxt)
            self._watch()
        return succ[i]

    def close(self, packets: Iterable[Packet], states: set[int]) -> set[int]:
        pks = tuple(packets)
        seen = set(states)
        todo = list(states)
        while todo:
            i = todo.pop()
            for pk in pks:
                for j in self._packet_rows(pk, i):
                    if j not in seen:
                        seen.add(j)
                        todo.append(j)
        return seen

    def map(self, fn: str, states: set[int]) -> set[int]:
        op, rows, f = self._mapping(fn)
        out = set()
        for i in states:
            if i not in rows:
                j = self.space.add(f(self.space.states[i]))
                op.a.append((i, j, 1.0))
                rows[i] = (j,)
                self.edges += 1
                self._watch()
            out.add(rows[i][0])
        return out


def reference_reach(space: StateSpace, plan: ChainPlan, start: Iterable[int],
                    maps: Iterable[str], budget: Budget | None = None,
                    ) -> tuple[dict[Packet, Operator], dict[str, Operator]]:
    """``reach.reach`` with the former builder."""
    return explore(_FormerBuilder(space, budget), plan, start, maps)
