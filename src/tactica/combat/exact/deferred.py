"""10th-edition Devastating Wounds held back until the whole unit has attacked
(reference facts §4.10, §5.5), in work linear in the number of weapon lines.

The target's final states are ``E[D_B(m_B) ... D_1(m_1) A_L(n_L) ... A_1(n_1)] x0``:
``A_i(n)`` the normal attacks of line ``i`` (its allocation order declared, 05.03, or the
Precision group made current, 24.28; ``n`` packets; Precision ended), ``D_b(m)`` the
``m`` held-back criticals of block ``b`` (the lines with the same mortal packet that
pick a model afresh merge into one block, as in ``chain.run_chain``), applied in the
order scored. ``(n_i, m_i)`` are correlated within a line and independent across lines.

The pairs ``(A_i, D_i)`` cross (``A_1 ... A_L`` then ``D_1 ... D_B``): the criticals wait
in a queue, not a stack, so the chain cannot be nested line by line (a nesting,
``E[D_1 ... D_L A_L ... A_1]``, would apply the last line's criticals first: another
distribution, e.g. 3 W3 models hit by D1 then D3 criticals). ``chain.run_chain``
carries the queue's counts as keys (one state vector per combination: a product of the
counts, exponential in the lines). Here the queue is carried by its effect instead: the
operator ``D_b ... D_1`` as a matrix over the target's states, next to the normal
attacks' states — a tensor ``W[c, d, j, u]`` = sum over outcomes of P x (normal-attack
state ``c``) x (held-back operator from state ``j`` to state ``d``), ``u`` the unsaved
count of both together (every packet adds 0 or 1 to it, so one axis holds the sum).
Line by line: ``W <- sum_{n,m} P_i(n, m) D_i(m)[on d] A_i(n)[on c] W``, one pass over the
line's ``n`` (the normal packets) and a Horner scheme over its ``m`` (the criticals).
At the end the junction is closed, ``x[d, u] = sum_c W[c, d, c, u]``: the held-back
wounds start from the state the normal attacks left. Work per line is
``(n + m) x states^4 x unsaved``, against ``n x keys x states^2 x unsaved`` for the keys,
so it is the method for few states and many lines (``size.chain_cost`` decides).
"""

from __future__ import annotations

import numpy as np

from tactica.dice import FloatArray

from .allocation import Operator
from .chain import LineOps

__all__ = ["BLOCK_FLOATS", "junction_block", "run_deferred"]


class _Dense:
    """An operator as one dense matrix ``[keep; add one]`` (2 x states, states) acting on
    one axis of the tensor (small targets only: the tensor has states^3 rows)."""

    def __init__(self, op: Operator, n: int) -> None:
        # a mapping that moves no state it meets is the identity (``Operator.apply``)
        self.identity = bool(op.a) and not op.b and all(
            i == j and p == 1.0 for i, j, p in op.a)
        both = np.zeros((2 * n, n))
        for i, j, p in op.a:
            both[j, i] += p
        for i, j, p in op.b:
            both[n + j, i] += p
        self.n = n
        self.moves = bool(op.b)
        self.both = both if self.moves else both[:n]

    def apply(self, w: FloatArray, axis: int, limit: int) -> FloatArray:
        """On axis 0 or 1 of ``w[c, d, j, u]``; the unsaved axis grows by one column
        (up to ``limit``) when the packet can count."""
        n, width = self.n, w.shape[-1]
        if self.identity:
            return w
        if axis == 0:
            y = (self.both @ w.reshape(n, -1)).reshape(-1, *w.shape[1:])
            kept, moved = y[:n], y[n:]
        else:
            y = np.matmul(self.both, w.reshape(n, n, -1)).reshape(n, -1, *w.shape[2:])
            kept, moved = y[:, :n], y[:, n:]
        if not self.moves:
            return np.ascontiguousarray(kept)
        if limit == 1:  # unsaved not tracked (a search for a choice)
            return np.ascontiguousarray(kept + moved)
        grow = min(width + 1, limit)
        out = np.zeros((*w.shape[:-1], grow))
        out[..., :width] = kept
        out[..., 1:] += moved[..., : grow - 1]
        return out


def _add(a: FloatArray | None, b: FloatArray) -> FloatArray:
    """``a + b``, padding the narrower unsaved axis with zeros."""
    if a is None:
        return b
    if a.shape[-1] < b.shape[-1]:
        a, b = b, a
    out = a.copy()
    out[..., : b.shape[-1]] += b
    return out


class _Ops:
    """The dense form of each operator the deferred chain uses, built once."""

    def __init__(self, n: int, limit: int) -> None:
        self.n, self.limit = n, limit
        self._of: dict[int, tuple[Operator, _Dense]] = {}

    def __call__(self, op: Operator, w: FloatArray, axis: int) -> FloatArray:
        if id(op) not in self._of:
            self._of[id(op)] = (op, _Dense(op, self.n))
        return self._of[id(op)][1].apply(w, axis, self.limit)


def _normal_by_m(line: LineOps, nm: FloatArray, w: FloatArray,
                 mp: dict[str, Operator], ops: _Ops) -> dict[int, FloatArray]:
    """For each count m of held-back criticals: sum over n of P(n, m) times ``w`` after
    line ``line``'s allocation order, n normal packets (each saved on its own) and the
    end of Precision, all on the normal-attack axis (0)."""
    w = ops(mp["precision_start" if line.precision else "reset"], w, 0)
    out: dict[int, FloatArray] = {}
    cur = w
    for n in range(nm.shape[0]):
        for m in np.flatnonzero(nm[n]):
            out[int(m)] = _add(out.get(int(m)), nm[n, m] * cur)
        if n + 1 < nm.shape[0]:
            cur = ops(line.normal, cur, 0)
    if line.precision:
        out = {m: ops(mp["precision_end"], t, 0) for m, t in out.items()}
    return out


def _held_back(line: LineOps, terms: dict[int, FloatArray], opens: bool,
               mp: dict[str, Operator], ops: _Ops) -> FloatArray:
    """``sum_m D(m) terms[m]`` on the held-back axis (1): a new block declares its
    allocation order first when its criticals are allocated like attacks."""
    op = line.mortal
    assert op is not None
    pk = line.mortal_packet
    if opens and not pk.mortal:
        start = mp["precision_start" if pk.precision else "reset"]
        terms = {m: ops(start, t, 1) for m, t in terms.items()}
    top = max(terms)
    acc = terms[top]
    for m in range(top - 1, -1, -1):
        acc = ops(op, acc, 1)
        if m in terms:
            acc = _add(acc, terms[m])
    return acc


#: Numbers held per block of junction states (``run_deferred``).
BLOCK_FLOATS = 4e6


def junction_block(n_states: int, width: int, m_max: int) -> int:
    """How many junction states ``run_deferred`` carries at once: the tensor and the
    Horner terms of a line (``m_max + 1`` of them) in ``BLOCK_FLOATS`` numbers."""
    per_state = (m_max + 3) * n_states * n_states * width
    return max(1, min(n_states, int(BLOCK_FLOATS // per_state)))


def run_deferred(lines: list[LineOps], nm_list: list[FloatArray], x0: FloatArray,
                 mp: dict[str, Operator]) -> FloatArray:
    """The target's states after every weapon line and then the held-back Devastating
    Wounds (10th, §5.5), equal to ``chain.run_chain(..., per_line=False)``. No operator
    acts on the junction axis ``j``: the junction states are carried a block at a time
    (``junction_block``), each block's share of the result summed."""
    n_states, width = x0.shape
    nz = np.flatnonzero(x0.any(axis=0))
    used = int(nz[-1]) + 1 if len(nz) else 1
    ops = _Ops(n_states, width)
    out = np.zeros_like(x0)
    size = junction_block(n_states, width, max(nm.shape[1] for nm in nm_list) - 1)
    for start in range(0, n_states, size):
        js = np.arange(start, min(n_states, start + size))
        w = np.zeros((n_states, n_states, len(js), used))
        w[:, js, np.arange(len(js)), :] = x0[:, None, :used]  # D starts as the identity
        w = _lines(lines, nm_list, w, mp, ops)
        # the junction closed: the held-back wounds start where the normal attacks ended
        out[:, : w.shape[-1]] += w[js, :, np.arange(len(js)), :].sum(axis=0)
    return out


def _lines(lines: list[LineOps], nm_list: list[FloatArray], w: FloatArray,
           mp: dict[str, Operator], ops: _Ops) -> FloatArray:
    """``w[c, d, j, u]`` after every line: normal attacks on ``c``, held-back criticals
    on ``d``, block by block."""
    block: LineOps | None = None  # the open block's line (its Precision ends it)
    for line, nm in zip(lines, nm_list, strict=True):
        has_dw = nm.shape[1] > 1 and bool(nm[:, 1:].any())
        by_m = _normal_by_m(line, nm, w, mp, ops)
        if not has_dw:
            w = by_m[0]
            continue
        merge = (block is not None and line.mortal_packet.mortal
                 and block.mortal_packet == line.mortal_packet)
        if not merge and block is not None:
            by_m = {m: _close_block(block, t, mp, ops) for m, t in by_m.items()}
        w = _held_back(line, by_m, not merge, mp, ops)
        block = line if not merge else block
    return w if block is None else _close_block(block, w, mp, ops)


def _close_block(block: LineOps, w: FloatArray, mp: dict[str, Operator],
                 ops: _Ops) -> FloatArray:
    """A block allocated with Precision ends it before the next block (``run_chain``'s
    order: each block's Horner, then ``precision_end``)."""
    if block.mortal_packet.precision:
        return ops(mp["precision_end"], w, 1)
    return w
