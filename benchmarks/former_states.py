"""The exact engine's former target states, the "before" of ``bench_precision.py`` and
the reference ``tests/combat/test_reach.py`` checks the engine against.

Before ``tactica.combat.exact.reach`` every operator of the target's chain was closed over
every state, whatever the order of the weapon lines (``full_closure``), and a Precision
weapon's start mapping wrote its Precision group into the state (``LabelledSpace``,
the former ``StateSpace`` transitions): with Precision into an attached unit, the
product of the CHARACTER's and the bodyguard's damage, and each CHARACTER state twice.
Use both (``mock.patch`` of ``tactica.combat.exact.reach`` and ``.StateSpace``) to run
the former engine.
"""

from __future__ import annotations

from collections.abc import Iterable

from tactica.combat.exact.allocation import Operator, Packet, State, StateSpace, loss_pmf
from tactica.combat.exact.reach import ChainPlan

__all__ = ["LabelledSpace", "full_closure"]


class LabelledSpace(StateSpace):
    """The former transitions: a Precision weapon's start mapping writes its Precision
    group into the state (``s[-2]``), every packet reads the group from there."""

    def current(self, s: State, mortal: bool = False, precision: bool = False) -> int | None:
        if not mortal:
            if s[-2] >= 0:
                return s[-2]
            if s[-1] >= 0 and self._alive(s, s[-1]):
                return self._within(s, s[-1])
        return self._by_tier(s)

    def precision_start(self, s: State) -> State:  # type: ignore[override]
        p = self._by_tier(s, characters_only=True)
        return (*s[:-2], -1 if p is None else p, -1)

    @staticmethod
    def reset(s: State) -> State:
        return (*s[:-2], -1, -1)

    @staticmethod
    def precision_end(s: State) -> State:
        return (*s[:-2], -1, s[-1])

    def packet_edges(self, s: State, pk: Packet) -> list[tuple[State, float, bool]]:
        g = self.current(s, pk.mortal)
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
            if s[-2] == g and not ns[2 * g]:
                ns[-2] = -1
            if not pk.mortal and s[-2] < 0:
                ns[-1] = grp.alloc if self._alive(t_ns, grp.alloc) else -1
            elif ns[-1] >= 0 and not self._alive(t_ns, ns[-1]):
                ns[-1] = -1
            if ns[-1] >= 0 and ns[-2] < 0 and self._best_alloc(t_ns) == ns[-1]:
                ns[-1] = -1
            out.append((tuple(ns), (1 - p_save) * p, True))
        return out


def full_closure(space: StateSpace, plan: ChainPlan, start: Iterable[int],
                 maps: Iterable[str], budget: object = None,
                 ) -> tuple[dict[Packet, Operator], dict[str, Operator]]:
    """``reach``'s reference, the engine's former state set: every packet of ``plan``
    and every mapping built over a set closed under all of them, from every state (the
    ``start`` states are already in ``space``; no ``budget`` watches it)."""
    del start, budget
    packets = list(dict.fromkeys([
        *([plan.before] if plan.before is not None else []),
        *(pk for line in plan.lines for pk in line.saves),
        *(line.mortal for line in plan.lines if line.mortal is not None)]))
    ops = [space.operator(p) for p in packets]
    mp = {m: space.mapping(m) for m in maps}
    while any(op.done < len(space.states) for op in [*ops, *mp.values()]):
        ops = [space.operator(p, op) for p, op in zip(packets, ops, strict=True)]
        mp = {m: space.mapping(m, op) for m, op in mp.items()}
    return dict(zip(packets, ops, strict=True)), mp
