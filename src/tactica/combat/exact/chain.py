"""The target's chain: the distribution over target states pushed through the weapon
lines, in order — saves, damage and Devastating Wounds mortal wounds.

The state distribution is an array ``x[state, unsaved]`` (``allocation.StateSpace``
states; the number of attacks counted as unsaved so far). For each weapon line the
allocation order is declared (05.03; Precision 24.28), then the attacks that go to saves
are resolved (``after_normal`` for saves made one attack at a time, ``pooled_after_normal``
for the 11th-edition pooled saves of 05.04), then the Devastating Wounds mortal wounds of
that line (11th, 24.10) or, under the 10th rules, after all normal damage of the unit
(reference facts §4.10, §5.5), in the order scored.

Pooled saves (05.04, reference facts §6.2): the ``n`` save dice of one weapon line are
rolled together and resolved from the lowest to the highest, each against the current
allocation group at that moment. A die of face ``f`` is saved against group ``g`` iff
``f >= t_g`` (``t_g`` the D6 it needs, an unmodified 1 always fails), so the faces fall in
*classes* of faces that behave the same against every group (consecutive faces, the ones
that save against every group last, where they change nothing). The sorted dice are the
multinomial counts of the classes, resolved class by class: the count of class ``j``
among the ``r`` dice not yet resolved is ``Binomial(r, q_j)`` with ``q_j`` its probability
given that the die is of class ``j`` or higher. The chain carries ``r`` as an extra axis;
the ``k`` dice of one class are ``k`` applications of that class's (deterministic save)
operator, summed over ``k`` by a Horner scheme over all ``r`` at once. With one save
threshold for every group the order of the dice changes nothing, and the plain chain
(each die saved on its own with probability ``p``) gives the same distribution.

Save re-rolls come before sorting: ``ones`` re-rolls the 1s; ``failed`` (and ``any``)
re-rolls the dice that fail against the group current when the saves are rolled (the one
that takes the lowest die) — a decision of ours, the rules leave it to the defender.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from math import exp, lgamma, log

import numpy as np

from tactica.dice import FloatArray
from tactica.rules.base import RuleSet

from .allocation import Operator, Packet, StateSpace, TooLargeError
from .profile import RerollPolicy, ResolvedWeapon, save_needed

__all__ = [
    "STACK_LIMIT",
    "LineOps",
    "PooledSaves",
    "SaveClass",
    "after_normal",
    "binomial_coefficients",
    "class_chain",
    "class_packet",
    "drop_negligible_tail",
    "face_probabilities",
    "pooled_after_normal",
    "pooled_classes",
    "pooled_saves",
    "run_chain",
    "save_classes",
]

#: Stack the per-packet states in one array when it has at most this many numbers.
STACK_LIMIT = 8_000_000
#: A weapon line's counts (n wounds to save, m Devastating Wounds criticals) whose whole
#: tail beyond them has at most this much probability are not carried through the chain.
NEGLIGIBLE_TAIL = 1e-15


def drop_negligible_tail(nm: FloatArray, eps: float | None = None) -> FloatArray:
    """``nm`` without its trailing rows and columns whose joint tail mass is at most
    ``eps`` (default ``NEGLIGIBLE_TAIL``): the largest counts are possible but so unlikely
    that stepping the chain through them costs time for nothing. Every distribution of
    the result then moves by at most the dropped mass in total variation, at most
    2 eps per weapon line and branch (< 1e-12 for up to 500 of them).

    >>> drop_negligible_tail(np.array([[0.5, 0.0], [0.5 - 1e-16, 0.0], [1e-16, 0.0]])).shape
    (2, 1)
    """
    eps = NEGLIGIBLE_TAIL if eps is None else eps
    if nm.shape[1] == 1:  # one column: its numbers are the row sums
        r, c = _above(nm.ravel().tolist(), eps), 1
    elif nm.size <= 64:  # a few numbers: summed as Python floats (one numpy call)
        rows = nm.tolist()
        r = _above([sum(row) for row in rows], eps)
        c = _above([sum(col) for col in zip(*rows, strict=True)], eps)
    else:
        r = _above(nm.sum(axis=1).tolist(), eps)
        c = _above(nm.sum(axis=0).tolist(), eps)
    if r == nm.shape[0] and c == nm.shape[1]:
        return nm
    return nm[:r, :c]


def _above(sums: list[float], eps: float) -> int:
    """How many of the tail masses ``sum(sums[i:])`` (summed from the end, as
    ``np.cumsum`` of the reversed sums) are above ``eps``; at least 1. Python floats:
    a few entries, where numpy's per-call cost is all the cost."""
    tail, above = 0.0, 0
    for x in reversed(sums):
        tail += x
        above += tail > eps
    return max(1, above)


@dataclass(frozen=True)
class SaveClass:
    """Faces of the save D6 that are saved against the same groups: ``saved[g]`` for each
    group (part) ``g``, and the probability ``p`` of a die of this class."""

    p: float
    saved: tuple[bool, ...]


def face_probabilities(reroll: RerollPolicy, start_needed: int) -> tuple[float, ...]:
    """P(face) for faces 1..6 of one save die after its re-roll (re-rolls before sorting,
    05.04): ``ones`` re-rolls a 1; ``failed``/``any`` re-roll the faces that fail against
    ``start_needed`` (the group current when the saves are rolled).

    >>> [round(p * 36) for p in face_probabilities("failed", 5)]   # 1-4 re-rolled
    [4, 4, 4, 4, 10, 10]
    """
    again = [False] * 6
    if reroll == "ones":
        again[0] = True
    elif reroll is not None:
        again = [f == 1 or f < start_needed for f in range(1, 7)]
    share = sum(again) / 36
    return tuple((0.0 if a else 1 / 6) + share for a in again)


def save_classes(needed: tuple[int, ...], faces: tuple[float, ...]) -> tuple[SaveClass, ...]:
    """The classes of faces, lowest first, without the faces saved against every group
    (they change nothing): ``needed[g]`` is the D6 group ``g`` saves on (7: never).

    >>> [(round(c.p * 6), c.saved) for c in save_classes((7, 5), (1 / 6,) * 6)]
    [(4, (False, False)), (2, (False, True))]
    """
    out: list[SaveClass] = []
    for face, p in enumerate(faces, start=1):
        saved = tuple(face != 1 and face >= t for t in needed)
        if all(saved):
            continue
        if out and out[-1].saved == saved:
            out[-1] = SaveClass(out[-1].p + p, saved)
        else:
            out.append(SaveClass(p, saved))
    return tuple(out)


def binomial_coefficients(rows: int, p: float) -> FloatArray:
    """``c[t, k]`` = C(t, k) p^k for ``k <= t < rows`` (0 elsewhere): ``k`` of ``t`` dice
    in a class of probability ``p`` (the other ``t - k`` in the classes before it).

    >>> c = binomial_coefficients(3, 0.5)
    >>> [round(float(x), 12) for x in (c[2, 1], c[2, 2], c[1, 0])]
    [1.0, 0.25, 1.0]
    """
    c = np.zeros((rows, rows))
    for t in range(rows):
        for k in range(t + 1):
            if p <= 0.0:
                c[t, k] = 1.0 if k == 0 else 0.0
            else:
                c[t, k] = exp(lgamma(t + 1) - lgamma(k + 1) - lgamma(t - k + 1) + k * log(p))
    return c


def _class_step(v: FloatArray, p: float, op: Operator) -> FloatArray:
    """The dice of one more class: ``v[s, t, u]`` (the state after ``t`` dice of the
    classes so far, weighted by the product of their probabilities and the multinomial
    coefficient) to ``sum_k C(t', k) p^k op^k v[:, t' - k]`` for every ``t'``, by Horner
    over ``k`` for all ``t'`` at once."""
    rows = v.shape[1]
    coef = binomial_coefficients(rows, p)
    acc = np.zeros_like(v)
    for k in range(rows - 1, -1, -1):
        if k + 1 < rows and acc[:, k + 1:].any():  # rows t' > k already hold terms
            acc[:, k + 1:] = op.apply_nd(acc[:, k + 1:])
        acc[:, k:] += coef[k:, k][None, :, None] * v[:, : rows - k]
    return acc


@dataclass(frozen=True)
class PooledSaves:
    """The pooled saves of one weapon line: for each part of the states (by the save the
    group current at the roll needs: re-rolls depend on it; ``None``: all states), the
    chain of (conditional probability, operator) per class of faces, lowest first."""

    parts: tuple[tuple[FloatArray | None, tuple[tuple[float, Operator], ...]], ...]


def class_chain(classes: tuple[SaveClass, ...],
                ops: tuple[Operator, ...]) -> tuple[tuple[float, Operator], ...]:
    """The classes' probabilities with their operators, lowest first."""
    return tuple((c.p, op) for c, op in zip(classes, ops, strict=True))


def pooled_after_normal(pooled: PooledSaves, nm: FloatArray,
                        x: FloatArray) -> dict[int, FloatArray]:
    """For each count m of Devastating Wounds criticals: sum over n of P(n, m) times the
    states after the n save dice of the line, sorted and resolved lowest first (05.04).

    Given n, the class counts are multinomial: the states after the n dice are ``sum_t
    C(n, t) p_rest^(n - t) v[t]``, ``v[t]`` the states after ``t`` dice of the classes
    that change something (``_class_step``, class by class) and ``p_rest`` the probability
    of a face saved against every group (last in the order, it changes nothing)."""
    n_states, width = x.shape
    rows = nm.shape[0]
    out = np.zeros((nm.shape[1], n_states, width))
    for mask, full_chain in pooled.parts:
        xm = x if mask is None else x * mask[:, None]
        if not xm.any():
            continue
        keep, chain = _local_chain(full_chain, xm)
        if keep is not None:
            xm = xm[keep]
        v = np.zeros((len(xm), rows, width))
        v[:, 0] = xm
        rest = 1.0
        for p, op in chain:
            v = _class_step(v, p, op)
            rest -= p
        bc = binomial_coefficients(rows, max(0.0, rest))
        n_idx, t_idx = np.tril_indices(rows)
        to_n = np.zeros((rows, rows))  # [n, t] = C(n, t) rest^(n - t)
        to_n[n_idx, t_idx] = bc[n_idx, n_idx - t_idx]
        weights = nm.T @ to_n  # (m, t)
        if keep is None:
            out += np.tensordot(weights, v, axes=(1, 1))
        else:
            out[:, keep] += np.tensordot(weights, v, axes=(1, 1))
    return {m: out[m] for m in range(nm.shape[1]) if nm[:, m].any()}


def _local_chain(chain: tuple[tuple[float, Operator], ...], x: FloatArray) -> tuple[
        np.ndarray | None, tuple[tuple[float, Operator], ...]]:
    """The states one weapon line's save dice can reach from ``x`` (those its class
    operators touch, ``reach``) and the chain over them alone, when they are much fewer
    than all the target's states (e.g. a Precision line: its CHARACTER's damage)."""
    touched = frozenset(int(i) for i in np.flatnonzero(x.any(axis=1)))
    for _, op in chain:
        touched |= op.touched()
    if 4 * len(touched) > 3 * x.shape[0]:
        return None, chain
    keep = np.array(sorted(touched), dtype=np.intp)
    return keep, tuple((p, op.local(keep)) for p, op in chain)


def after_normal(op: Operator, nm: FloatArray, x: FloatArray,
                 stack: bool) -> dict[int, FloatArray]:
    """For each count m of Devastating Wounds criticals: sum over n of P(n, m) times the
    states after n normal packets from ``x`` (m = 0 only, without criticals), each
    attack saved on its own. Stacking the n states and one tensordot is faster;
    streaming them needs less memory."""
    wmax = nm.shape[0] - 1
    nz = np.flatnonzero(x.any(axis=0))
    u0 = int(nz[-1]) + 1 if len(nz) else 1  # unsaved columns in use so far
    if stack and (wmax + 1) * x.size <= STACK_LIMIT:
        seq = np.zeros((wmax + 1, *x.shape))
        seq[0] = x
        for n in range(wmax):
            op.apply(seq[n], cols=min(x.shape[1], u0 + n), out=seq[n + 1])
        r = np.tensordot(nm.T, seq, axes=(1, 0))  # (m, states, unsaved)
    else:
        r = np.zeros((nm.shape[1], *x.shape))
        cur = x
        for n in range(wmax + 1):
            for mi in np.nonzero(nm[n])[0]:
                r[mi] += nm[n, mi] * cur
            if n < wmax:
                cur = op.apply(cur, cols=min(x.shape[1], u0 + n))
    return {m: r[m] for m in range(nm.shape[1]) if nm[:, m].any()}


def start_masks(space: StateSpace, needed: tuple[int, ...],
                precision: bool = False) -> dict[int, FloatArray]:
    """For each save the group current when the saves are rolled needs: the states (as a
    0/1 row mask; states after the weapon's start mapping; ``precision``: the Precision
    group is the current one) in which that group is current. States of a destroyed unit
    go with the first."""
    groups = [space.current(s, precision=precision) for s in space.states]
    keys = sorted({needed[g] for g in groups if g is not None}) or [needed[0]]
    masks = {t: np.zeros(len(space.states)) for t in keys}
    for i, g in enumerate(groups):
        masks[keys[0] if g is None else needed[g]][i] = 1.0
    return masks


@dataclass(frozen=True)
class LineOps:
    """One weapon line as the target's chain sees it."""

    precision: bool
    normal: Operator
    pooled: PooledSaves | None
    mortal: Operator | None
    mortal_packet: Packet


def _horner(op: Operator, terms: dict[int, FloatArray], like: FloatArray) -> FloatArray:
    """``sum_m op^m terms[m]``: m Devastating Wounds criticals, one after another."""
    top = max(terms)
    acc = np.zeros_like(like)
    for m in range(top, -1, -1):
        if m < top:
            acc = op.apply(acc)
        if m in terms:
            acc = acc + terms[m]
    return acc


#: Upper bound on pending Devastating-Wounds count combinations (10th timing): a
#: backstop, the size model (``size.chain_cost``) refuses long before.
MAX_DW_KEYS = 1_000_000


def run_chain(lines: list[LineOps], nm_list: list[FloatArray], x0: FloatArray,
              mp: dict[str, Operator], per_line: bool) -> FloatArray:
    """The target's states after every weapon line, for per-line (n, m) pmfs.
    ``per_line``: Devastating Wounds after each line's normal damage (24.10); otherwise
    after the whole unit, weapon by weapon in the order scored (10th, §5.5), the counts
    carried as keys (a tuple of counts per block) until then."""
    pending: dict[tuple[int, ...], FloatArray] = {(): x0}
    blocks: list[int] = []  # the line whose mortal operator each deferred block uses
    for wi, line in enumerate(lines):
        nm = nm_list[wi]
        has_dw = nm.shape[1] > 1 and bool(nm[:, 1:].any())
        # deferred mortal wounds that pick a model afresh for each wound merge with the
        # previous line's block when they are the same packet
        merge = (not per_line and bool(blocks) and has_dw and line.mortal_packet.mortal
                 and lines[blocks[-1]].mortal_packet == line.mortal_packet)
        new: dict[tuple[int, ...], FloatArray] = {}
        for key, x in pending.items():
            x = mp["precision_start" if line.precision else "reset"].apply(x)
            if line.pooled is not None:
                by_m = pooled_after_normal(line.pooled, nm, x)
            else:
                by_m = after_normal(line.normal, nm, x, stack=has_dw)
            if line.precision:
                by_m = {m: mp["precision_end"].apply(rm) for m, rm in by_m.items()}
            if has_dw and per_line:
                assert line.mortal is not None
                by_m = {0: _horner(line.mortal, by_m, x0)}
            for m, rm in by_m.items():
                if not has_dw or per_line:
                    nk = key
                else:
                    nk = (*key[:-1], key[-1] + m) if merge else (*key, m)
                new[nk] = new[nk] + rm if nk in new else rm
        if has_dw and not per_line and not merge:
            blocks.append(wi)
        pending = new
        if len(pending) > MAX_DW_KEYS:
            raise TooLargeError(
                "attacker.weapons: too many Devastating Wounds weapons with different "
                "damage for the exact engine; use method monte-carlo")
    return _deferred_mortal(lines, blocks, pending, mp, x0)


def _deferred_mortal(lines: list[LineOps], blocks: list[int],
                     pending: dict[tuple[int, ...], FloatArray], mp: dict[str, Operator],
                     x0: FloatArray) -> FloatArray:
    """Devastating Wounds after all normal damage, block by block (Horner over the
    block's count, the first key of each pending entry)."""
    for wi in blocks:
        line = lines[wi]
        op = line.mortal
        assert op is not None
        pk = line.mortal_packet
        by_rest: dict[tuple[int, ...], dict[int, FloatArray]] = defaultdict(dict)
        for key, x in pending.items():
            t = x
            if not pk.mortal:  # allocated like attacks: the order declared afresh
                t = mp["precision_start" if pk.precision else "reset"].apply(t)
            by_rest[key[1:]][key[0]] = t
        new_p: dict[tuple[int, ...], FloatArray] = {}
        for rest, terms in by_rest.items():
            acc = _horner(op, terms, x0)
            new_p[rest] = mp["precision_end"].apply(acc) if pk.precision else acc
        pending = new_p
    # an empty branch (probability 0) leaves nothing pending
    return pending.get((), np.zeros_like(x0))


# --- a weapon line's pooled saves, decided -------------------------------------------


#: The save dice of one weapon line: the D6 each group (part) saves on, and per state
#: part (the save of the group current when the saves are rolled, None: all states) the
#: classes of faces, lowest first.
PooledPlan = tuple[tuple[int, ...], tuple[tuple[int | None, tuple[SaveClass, ...]], ...]]


def pooled_classes(w: ResolvedWeapon, space: StateSpace, rules: RuleSet) -> PooledPlan | None:
    """05.04 (reference facts §6.2): the classes of save faces of ``w``'s pooled saves, or
    None when the saves are made one at a time — the rule set says so, or every group
    needs the same roll, when the order of the dice changes nothing."""
    if not rules.pooled_saves:
        return None
    needed = tuple(save_needed(g, w, rules) for g in space.groups)
    if len(set(needed)) == 1:
        return None
    if w.save_reroll in ("failed", "any"):  # re-rolls depend on the group that is current
        starts: list[int | None] = [*sorted(set(needed))]
    else:
        starts = [None]
    return needed, tuple((t, save_classes(needed, face_probabilities(w.save_reroll, t or 7)))
                         for t in starts)


def class_packet(c: SaveClass, normal: Packet) -> Packet:
    """A class of save dice as a packet: saved or not against each group, for certain."""
    return normal._replace(save=tuple(1.0 if sv else 0.0 for sv in c.saved))


def pooled_saves(plan: PooledPlan | None, normal: Packet, space: StateSpace,
                  op_of: dict[Packet, Operator]) -> PooledSaves | None:
    if plan is None:
        return None
    needed, parts = plan
    masks = start_masks(space, needed, normal.precision) if parts[0][0] is not None else {}
    return PooledSaves(tuple(
        (masks.get(t) if t is not None else None,
         class_chain(classes, tuple(op_of[class_packet(c, normal)] for c in classes)))
        for t, classes in parts if t is None or t in masks))
