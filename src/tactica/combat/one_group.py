"""The target's chain when every attack faces one allocation group of one part: a fast
path of ``chain.run_chain`` with the same semantics as ``StateSpace.packet_edges``.

With one group of ``K`` identical models of ``W`` wounds (one W/Sv/invulnerable save and
one Feel No Pain: every preset and most real units; a lone CHARACTER model too) the
target's state is ``h``, the wounds left in the unit (0: destroyed). The wounded model
takes damage first (Save Rolls: "Allocation Order"; 05.04.01 and 06.02 pick the same
model: there is no other group), so it has ``t(h) = ((h - 1) mod W) + 1`` wounds left and
an attack that loses ``l`` wounds (``allocation.loss_pmf``, damage beyond the wounds left
is lost) moves ``h`` to ``h - l``. Precision (24.28) and the allocation order declared per
weapon (05.03) change nothing here: the one group is always the one attacked.

* **Saves folded into the counts.** Each attack is saved on its own with the same
  probability (05.04; with one group the 11th-edition pooled saves give the same
  distribution, ``chain``'s docstring), a saved attack changes nothing and a destroyed
  unit takes nothing, so ``n`` wounds to save act as ``f ~ Binomial(n, P(fail))`` failed
  saves: the line's (n, m) pmf becomes an (f, m) pmf (``thin``) and the chain steps only
  on failed saves and Devastating Wounds criticals (24.10).
* **Unsaved without stepping it.** The unsaved count (attacks that failed their save and
  Devastating Wounds criticals, counted when they reach a living model: ``Packet.counts``)
  of a living unit is the count before the line plus the packets so far; a destroyed
  unit keeps the count of the packet that destroyed it (its first passage). So a line is
  a few whole-array products (``line_step``): the living states after ``f`` failed saves
  for every ``f`` at once (powers by doubling), shifted by ``f`` and weighted by the
  pmf; the mass destroyed by packet ``j`` (the kill row times the states after ``j - 1``),
  weighted by P(at least ``j`` packets); then the same for the criticals. When a
  critical does what a failed save does (11th: its mortal wounds equal the weapon's D,
  24.10, nothing halved or reduced) only the total count f + m matters.
* **The expected damage alone** (``mean_damage``, for the attacker's Lethal Hits choice,
  24.23): the same line steps without the unsaved counts, on one-dimensional totals
  (one die's wounds thinned to failed saves, then f + m per die, compounded).

Worked example (by hand): 3 failed saves of D2 into 2 models of W3 (h = 6). The first
takes 2 from the first model (h = 4: one wound left on it), the second destroys it (the
excess is lost: h = 3), the third takes 2 from the last (h = 1): 5 damage, 1 model
destroyed, 3 unsaved, for certain. With each of two wounds saved on 4+ (f ~ Bin(2, 1/2)):
h = 6, 4, 3 with probabilities 1/4, 1/2, 1/4 (``tests/combat/test_one_group.py``).

Tails: the negligible tail of the (n, m) pmf is dropped as in the general path, then
that of the (f, m) pmf (``chain.drop_negligible_tail`` twice: every distribution of the
result moves by at most 4e-15 per line and branch in total variation). Under 10th the
Devastating Wounds criticals wait until the whole unit has attacked (reference facts
§5.5): their count is carried with the states through the later lines (``held_back``)
when every line's criticals are the same packet (the blocks of ``chain.run_chain`` then
act as one: with one group the order declared per weapon changes nothing). Criticals of
different packets take the general path, as do several groups or parts, an attack with
``Packet.counts`` off, targets of more than ``MAX_WOUNDS`` wounds and lines whose arrays
would hold more than ``MAX_CELLS`` numbers (the general path's size guard then decides).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache, lru_cache
from math import comb
from typing import Any

import numpy as np

from ..dice import FloatArray
from .allocation import Group, Packet, State, StateSpace
from .chain import drop_negligible_tail
from .dice_stages import compound

__all__ = ["MAX_CELLS", "MAX_WOUNDS", "PacketMatrix", "general_chain", "held_back",
           "line_step", "loss_table", "mean_damage", "one_group_chain", "packet_matrix", "thin"]

#: Above this many wounds in the unit the general path (and its size guard) is used.
MAX_WOUNDS = 400
#: ... and above this many numbers in one line's arrays (states x counts x unsaved).
MAX_CELLS = 20_000_000

_ENABLED: ContextVar[bool] = ContextVar("one_group_enabled", default=True)

#: Per Command Re-roll branch, per weapon line: (hits pmf, (n, m) pmf).
Branches = Sequence[Sequence[tuple[FloatArray, FloatArray]]]


@contextmanager
def general_chain() -> Iterator[None]:
    """Within the block the engine takes the general path (for comparisons)."""
    token = _ENABLED.set(False)
    try:
        yield
    finally:
        _ENABLED.reset(token)


@dataclass(frozen=True)
class PacketMatrix:
    """One packet that reaches the unit (its save already failed): ``full[h', h]`` =
    P(h -> h'), ``alive`` the block between living states (h >= 1), ``kill[h - 1]`` =
    P(the packet destroys the unit from h)."""

    full: FloatArray
    alive: FloatArray
    kill: FloatArray


@lru_cache(maxsize=512)
def packet_matrix(damage: tuple[float, ...], fnp: int | None, W: int, top: int) -> PacketMatrix:
    """The packet's matrix over h = 0..top for models of ``W`` wounds: from h the wounded
    model (t(h) wounds left) loses l wounds with ``loss_pmf(damage, t(h), fnp)``.

    >>> m = packet_matrix((0.0, 0.0, 1.0), None, 3, 6).full   # D2 into 2 x W3
    >>> [int(np.argmax(m[:, h])) for h in (6, 4, 3, 1)]
    [4, 3, 1, 0]
    """
    loss = loss_table(damage, fnp, W)
    h = np.arange(1, top + 1)
    t_of = (h - 1) % W + 1
    lost = np.arange(W + 1)
    ok = lost[None, :] <= t_of[:, None]
    full = np.zeros((top + 1, top + 1))
    full[(h[:, None] - lost[None, :])[ok], np.broadcast_to(h[:, None], ok.shape)[ok]] = (
        loss[t_of - 1][ok])
    full[0, 0] = 1.0
    full.flags.writeable = False  # kept between calls (lru_cache): shared, never written
    return PacketMatrix(full, full[1:, 1:], full[0, 1:])


def loss_table(damage: tuple[float, ...], fnp: int | None, W: int) -> FloatArray:
    """``loss_pmf(damage, t, fnp)`` for t = 1..W at once: ``out[t - 1, l]`` = P(the model
    with t wounds left loses l), damage beyond t lost (each wound that would be lost is
    rolled for Feel No Pain, reference facts §4.7).

    >>> [round(float(x), 4) for x in loss_table((0.0, 0.0, 1.0), 5, 2)[0]]  # D2, 1 left
    [0.1111, 0.8889, 0.0]
    """
    q = 0.0 if fnp is None else (7 - fnp) / 6  # P(a wound is ignored)
    d_max = len(damage) - 1
    d = np.arange(d_max + 1)
    # kept[d, l] = C(d, l) (1 - q)^l q^(d - l): l of d wounds not ignored
    kept = _pascal(d_max) * (1 - q) ** d[None, :] * q ** np.maximum(d[:, None] - d[None, :], 0)
    lost = np.asarray(damage) @ kept  # P(l wounds lost), not capped
    at_least = np.cumsum(lost[::-1])[::-1]
    t = np.arange(1, W + 1)[:, None]
    l_ = np.arange(W + 1)[None, :]
    padded = np.concatenate((lost, np.zeros(max(0, W + 1 - len(lost)))))[: W + 1]
    tail = np.concatenate((at_least, np.zeros(max(0, W + 1 - len(at_least)))))[: W + 1]
    out: FloatArray = np.where(l_ < t, padded[None, :], 0.0) + np.where(l_ == t, tail, 0.0)
    return out


@cache
def _pascal(n: int) -> FloatArray:
    """``out[i, j]`` = C(i, j) for i, j <= n (0 above the diagonal); read-only."""
    out = np.array([[comb(i, j) for j in range(n + 1)] for i in range(n + 1)],
                   dtype=np.float64)
    out.flags.writeable = False
    return out


def thin(nm: FloatArray, p_fail: float) -> FloatArray:
    """The (f, m) pmf of failed saves and criticals from the (n, m) pmf of wounds to save
    and criticals, each wound failing its save with ``p_fail`` on its own:
    ``out[f, m] = sum_n nm[n, m] C(n, f) p^f (1 - p)^(n - f)``.

    >>> [round(float(x), 6) for x in thin(np.array([[0.0], [0.0], [1.0]]), 0.5)[:, 0]]
    [0.25, 0.5, 0.25]
    """
    rows = nm.shape[0]
    if p_fail >= 1.0:
        return nm
    if p_fail <= 0.0 or rows == 1:
        total: FloatArray = nm.sum(axis=0, keepdims=True)
        return total
    b = _binomial_rows(-(-rows // 16) * 16, p_fail)  # rows n < rows of a larger table
    out: FloatArray = b[:rows, :rows].T @ nm
    return out


@lru_cache(maxsize=64)
def _binomial_rows(rows: int, p_fail: float) -> FloatArray:
    """``b[n, f]`` = C(n, f) p^f (1 - p)^(n - f) for n, f < rows (from log factorials);
    read-only (kept between calls)."""
    n = np.arange(rows)
    log_fact = np.concatenate(([0.0], np.cumsum(np.log(np.arange(1, rows)))))
    k = n[:, None] - n[None, :]  # n - f
    valid = k >= 0
    kk = np.where(valid, k, 0)
    log_b = (log_fact[:, None] - log_fact[None, :] - log_fact[kk]
             + n[None, :] * np.log(p_fail) + kk * np.log1p(-p_fail))
    b: FloatArray = np.where(valid, np.exp(log_b), 0.0)
    b.flags.writeable = False
    return b


def _skew(z: FloatArray, start: int, track: bool) -> FloatArray:
    """``out[i, ..., i + start + u] = z[i, ..., u]``: row i shifted by i + start along the
    last (unsaved) axis; without ``track`` (one unsaved column) nothing moves."""
    if not track:
        return z
    n, width = z.shape[0], z.shape[-1]
    out = np.zeros((*z.shape[:-1], width + n - 1 + start))
    # the view ``as_strided`` would make of out[..., start:], built directly (a fifth
    # of its time): row i steps one row and one column further
    view: FloatArray = np.ndarray(z.shape, np.float64, out, start * out.itemsize,
                                  (out.strides[0] + out.strides[-1], *out.strides[1:]))
    view[...] = z
    return out


def _apply(m: FloatArray, x: FloatArray) -> FloatArray:
    """``m @ x[k]`` for every k of a stack ``x[k, h, u]``."""
    out: FloatArray = np.matmul(m, x)
    return out


def _powers_applied(m: FloatArray, x: FloatArray, n: int) -> FloatArray:
    """``out[j] = m^j x`` for j = 0..n, by doubling (one product per power of two)."""
    out = x[None]
    step = m
    while out.shape[0] <= n:
        out = np.concatenate((out, _apply(step, out)))
        if out.shape[0] <= n:
            step = step @ step
    return out[: n + 1]


def _row_powers(row: FloatArray, m: FloatArray, n: int) -> FloatArray:
    """``out[j] = row m^j`` for j = 0..n-1, by doubling."""
    out = row[None]
    step = m
    while out.shape[0] < n:
        out = np.concatenate((out, out @ step))
        if out.shape[0] < n:
            step = step @ step
    return out[:n]


def _powers_sum(m: FloatArray, terms: FloatArray, track: bool) -> FloatArray:
    """``sum_k z^k m^k terms[k]``, z the shift by one unsaved column (Estrin's scheme:
    pairs ``terms[2k] + z m terms[2k + 1]``, then the same with ``(z m)^2``)."""
    step, shift = m, 1
    while terms.shape[0] > 1:
        if terms.shape[0] % 2:
            terms = np.concatenate((terms, np.zeros((1, *terms.shape[1:]))))
        even, moved = terms[0::2], _apply(step, terms[1::2])
        if track:
            out = np.zeros((*even.shape[:2], even.shape[2] + shift))
            out[..., : even.shape[2]] = even
            out[..., shift:] += moved
            terms = out
        else:
            terms = even + moved
        step, shift = step @ step, 2 * shift
    first: FloatArray = terms[0]
    return first


def line_step(x: FloatArray, nmf: FloatArray, fail: PacketMatrix, mortal: PacketMatrix | None,
              track: bool) -> FloatArray:
    """One weapon line from ``x[h, u]`` (h = 0 the destroyed unit; u the unsaved count):
    ``f`` failed saves then ``m`` Devastating Wounds criticals with pmf ``nmf[f, m]``
    (a sub-pmf in a Command Re-roll branch)."""
    after, killed = _normal_stage(x[1:], nmf, fail, track)
    dead = [nmf.sum() * x[0], killed]
    if nmf.shape[1] > 1 and mortal is not None:
        out_alive, killed_m = _mortal_stage(after, mortal, track)
        dead.append(killed_m)
    else:
        out_alive = after.sum(axis=0)
    out = np.zeros((x.shape[0], out_alive.shape[1]))
    out[1:] = out_alive
    for d in dead:
        out[0, : len(d)] += d
    return out


def _normal_stage(alive: FloatArray, nmf: FloatArray, fail: PacketMatrix,
                  track: bool) -> tuple[FloatArray, FloatArray]:
    """The failed saves of one line from the living states ``alive[h - 1, u]``: the
    living states after them for each count m of criticals (``after[m]``, u shifted by
    the failed saves), and the mass they destroy (by its unsaved count)."""
    f_max, m_max = nmf.shape[0] - 1, nmf.shape[1] - 1
    v = _powers_applied(fail.alive, alive, f_max)  # living states after f failed saves
    if track and v.shape[-1] == 1:  # one unsaved column: f failed saves land at u = f
        after = nmf.T[:, None, :] * v[:, :, 0].T[None, :, :]
    else:
        sv = _skew(v, 0, track)
        after = (nmf.T @ sv.reshape(f_max + 1, -1)).reshape(m_max + 1, *sv.shape[1:])
    if not f_max:
        return after, np.zeros(1)
    at_least = np.cumsum(nmf.sum(axis=1)[::-1])[::-1]  # P(F >= j)
    killed = np.matmul(fail.kill, v[:f_max]) * at_least[1:, None]  # by packet j
    return after, _skew(killed, 1, track).sum(axis=0)


def _mortal_stage(after: FloatArray, mortal: PacketMatrix,
                  track: bool) -> tuple[FloatArray, FloatArray]:
    """``after[m]`` (living states with m criticals to come) after the criticals: the
    living states, and the mass they destroy (by its unsaved count)."""
    m_max = after.shape[0] - 1
    out_alive = _powers_sum(mortal.alive, after, track)
    rest = after.copy()  # rest[i]: at least i criticals
    for i in range(m_max - 1, 0, -1):
        rest[i] += rest[i + 1]
    kill_rows = _row_powers(mortal.kill, mortal.alive, m_max)  # after i - 1 criticals
    killed = np.einsum("ih,ihu->iu", kill_rows, rest[1:])
    return out_alive, _skew(killed, 1, track).sum(axis=0)


def held_back(x: FloatArray, lines: Sequence[tuple[FloatArray, PacketMatrix]],
              mortal: PacketMatrix | None, track: bool) -> FloatArray:
    """10th (reference facts §5.5): every line's failed saves, then the criticals of all
    of them (``mortal``: one packet for every line with criticals), their count carried
    with the states until then."""
    pending: dict[int, FloatArray] = {0: x[1:]}  # living states by criticals to come
    dead = x[0]
    for nmf, fail in lines:
        dead = nmf.sum() * dead
        new: dict[int, FloatArray] = {}
        for held, alive in pending.items():
            after, killed = _normal_stage(alive, nmf, fail, track)
            dead = _padded_sum(dead, killed)
            for m in range(after.shape[0]):
                k = held + m
                new[k] = after[m] if k not in new else _padded_sum(new[k], after[m])
        pending = new
    width = max(a.shape[-1] for a in pending.values())
    stack = np.zeros((max(pending) + 1, x.shape[0] - 1, width))
    for k, alive in pending.items():
        stack[k, :, : alive.shape[-1]] = alive
    if stack.shape[0] > 1 and mortal is not None:
        out_alive, killed_m = _mortal_stage(stack, mortal, track)
        dead = _padded_sum(dead, killed_m)
    else:
        out_alive = stack.sum(axis=0)
    out = np.zeros((x.shape[0], max(out_alive.shape[1], len(dead))))
    out[1:, : out_alive.shape[1]] = out_alive
    out[0, : len(dead)] = dead
    return out


def _padded_sum(a: FloatArray, b: FloatArray) -> FloatArray:
    """``a + b`` along the last (unsaved) axis, the shorter padded with zeros."""
    if a.shape[-1] < b.shape[-1]:
        a, b = b, a
    out = a.copy()
    out[..., : b.shape[-1]] += b
    return out


# --- the dispatch from the engine ----------------------------------------------------


def _state(h: int, group: Group) -> State:
    if h == 0:
        return (0, 0, -1, -1)
    k = (h + group.W - 1) // group.W
    return (k, h - (k - 1) * group.W, -1, -1)


def _wounds(s: State, group: Group) -> int | None:
    """h of a state of the one group, None if it is not one."""
    if len(s) != 4:
        return None
    k, t = s[0], s[1]
    if k == 0 and t == 0:
        return 0
    if 1 <= k <= group.count and 1 <= t <= group.W:
        return (k - 1) * group.W + t
    return None


def _has_dw(nm: FloatArray) -> bool:
    return nm.shape[1] > 1 and bool(nm[:, 1:].any())


def _fnp(group: Group, packet: Packet) -> int | None:
    return min((f for f in (group.fnp, packet.fnp) if f is not None), default=None)


def _cells(branches: Branches, top: int, width0: int, track: bool) -> int:
    """The most numbers one line's arrays hold (an upper bound: the (n, m) shapes before
    thinning): the states after each count of failed saves, shifted along the unsaved
    axis, and after each count of criticals."""
    worst = 0
    for br in branches:
        width = width0
        for _, nm in br:
            rows, cols = nm.shape
            grown = width + rows + cols - 2 if track else width
            worst = max(worst, (rows * (width + rows) + cols * grown) * (top + 1))
            width = grown
    return worst


def _same_packet(a: Packet, b: Packet, group: Group) -> bool:
    """A failed save and a critical do the same to the one group (11th: the criticals'
    mortal wounds equal the weapon's D, 24.10, when nothing halves or reduces it)."""
    return a.damage == b.damage and _fnp(group, a) == _fnp(group, b)


def _total_counts(nmf: FloatArray) -> FloatArray:
    """The (f + m) pmf of a joint (f, m) pmf, as one column: when a failed save and a
    critical are the same packet only their total count matters (the order of the same
    operator changes nothing, and each is counted when it reaches a living model)."""
    rows, cols = nmf.shape
    index = np.add.outer(np.arange(rows), np.arange(cols)).ravel()
    total = np.bincount(index, weights=nmf.ravel(), minlength=rows + cols - 1)
    out: FloatArray = total.astype(np.float64)[:, None]
    return out


def one_group_chain(space: StateSpace, normal: Sequence[Packet], mortal: Sequence[Packet],
                    branches: Branches, per_line: bool, before: Sequence[FloatArray],
                    fnp_effect: int | None, track: bool, memo: dict[Any, Any],
                    initial: dict[State, FloatArray] | None = None,
                    ) -> tuple[StateSpace, FloatArray] | None:
    """The target's states after every line, as ``chain.run_chain`` (summed over the
    branches), over a ``StateSpace`` of the one group's states — or None when the fast
    path does not apply (see the module docstring); ``before``: pmfs of mortal wounds
    before the attacks (06.02, one at a time, not counted as unsaved)."""
    if not _ENABLED.get() or len(space.groups) != 1 or not normal:
        return None
    group = space.groups[0]
    if not per_line and len({(p.damage, _fnp(group, p)) for p, nm in zip(
            mortal, zip(*branches, strict=True), strict=True)
            if any(_has_dw(n) for _, n in nm)}) > 1:
        return None  # 10th: criticals of different packets held back (general path)
    if any(not p.counts for p in [*normal, *mortal]) or any(p.save[0] for p in mortal):
        return None
    start = _start(space, initial, track)
    if start is None or _cells(branches, len(start) - 1, start.shape[1], track) > MAX_CELLS:
        return None
    top = len(start) - 1

    def op(pk: Packet) -> PacketMatrix:
        return packet_matrix(pk.damage, _fnp(group, pk), group.W, top)

    x0 = start
    if before:  # one mortal wound at a time, not counted as unsaved
        mw = op(Packet((0.0,), (0.0, 1.0), fnp_effect, False, counts=False, mortal=True)).full
        for pmf in before:
            acc = np.zeros_like(x0)
            for j in range(len(pmf) - 1, -1, -1):
                acc = mw @ acc + pmf[j] * x0
            x0 = acc
    fails = [op(p) for p in normal]
    mortals = [op(p) for p in mortal]
    thinned: dict[int, FloatArray] = {}
    for br in branches:
        for wi, (_, nm) in enumerate(br):
            if id(nm) not in thinned:
                thinned[id(nm)] = drop_negligible_tail(
                    thin(drop_negligible_tail(nm), 1.0 - normal[wi].save[0]))

    def step(x: FloatArray, wi: int, nm: FloatArray) -> FloatArray:
        """Line ``wi`` with its criticals after its failed saves (24.10)."""
        nmf = thinned[id(nm)]
        mortal_op: PacketMatrix | None = mortals[wi] if _has_dw(nmf) else None
        if mortal_op is not None and _same_packet(normal[wi], mortal[wi], group):
            nmf, mortal_op = _total_counts(nmf), None
        return line_step(x, nmf, fails[wi], mortal_op, track)

    if per_line or all(len(br) == 1 for br in branches):  # (or a unit's only line)
        final = _shared_branches(x0, branches, step)
    else:
        final = np.zeros((top + 1, 1))
        for br in branches:
            lines = [(thinned[id(nm)], fails[wi]) for wi, (_, nm) in enumerate(br)]
            dw = [wi for wi, (nmf, _) in enumerate(lines) if _has_dw(nmf)]
            final = _padded_sum(final, held_back(x0, lines, mortals[dw[0]] if dw else None,
                                                 track))
    return _into_space(space.groups, top, final, memo)


def mean_damage(space: StateSpace, normal: Sequence[Packet], mortal: Sequence[Packet],
                lines: Sequence[tuple[FloatArray, FloatArray]], per_line: bool) -> float | None:
    """The expected damage of the lines in order into the undamaged target, for the
    attacker's choices (24.23 Lethal Hits, ``exact``), by one-dimensional totals: per
    line ``(attacks pmf, one die's (n, m) pmf)``. With one group every wound is saved on
    its own, so one die's wounds are thinned to failed saves first (``thin``: the same
    binomial as of the totals) and, as a critical does what a failed save does
    (``_same_packet``), only its count of packets f + m matters (``_total_counts``):
    the totals of that over the dice are one-dimensional, a fraction of the (n, m)
    totals' work. The same chain (``line_step``) as ``one_group_chain``, the unsaved
    counts not kept; equal to its mean to float rounding and the negligible tails
    (``drop_negligible_tail``, under 1e-13 here). None where the fast path does not
    apply or a line's criticals are not its failed saves' packet."""
    if not _ENABLED.get() or len(space.groups) != 1 or not normal:
        return None
    group = space.groups[0]
    if not per_line and len(lines) > 1:
        return None
    if any(not p.counts for p in [*normal, *mortal]) or any(p.save[0] for p in mortal):
        return None
    start = _start(space, None, False)
    if start is None:
        return None
    top = len(start) - 1
    x = start
    for (attacks, die), fail, crit in zip(lines, normal, mortal, strict=True):
        if _has_dw(die) and not _same_packet(fail, crit, group):
            return None
        per_die = _total_counts(thin(die, 1.0 - fail.save[0]))[:, 0]
        counts = drop_negligible_tail(compound(attacks, per_die)[:, None])
        if counts.shape[0] * (counts.shape[0] + top) > MAX_CELLS:
            return None
        op = packet_matrix(fail.damage, _fnp(group, fail), group.W, top)
        x = line_step(x, counts, op, None, False)
    h0 = _wounds(space.initial, group)
    assert h0 is not None
    return float(np.dot(h0 - np.arange(top + 1), x[:, 0]))


#: One line stepped: (states, line index, the line's (n, m) pmf) -> states.
Step = Callable[[FloatArray, int, FloatArray], FloatArray]


def _shared_branches(x0: FloatArray, branches: Branches, step: Step) -> FloatArray:
    """The sum over the branches of their lines stepped in turn, without repeating work:
    branches with the same lines so far share one state; states whose remaining lines
    are the same are added up (every step is linear). With Command Re-roll on every line
    (15.02: a branch per line it is used on) that is at most three steps per line instead
    of one per branch and line."""
    n_lines = len(branches[0])
    # (states, branches, shared): shared, each branch is in these states; else their sum
    nodes: list[tuple[FloatArray, list[int], bool]] = [(x0, list(range(len(branches))), True)]
    for wi in range(n_lines):
        stepped: list[tuple[FloatArray, list[int], bool]] = []
        for x, members, shared in nodes:
            by_pmf: dict[int, list[int]] = {}
            for b in members:
                by_pmf.setdefault(id(branches[b][wi][1]), []).append(b)
            for group in by_pmf.values():
                y = step(x, wi, branches[group[0]][wi][1])
                stepped.append((y, group, shared))
        nodes = []
        summed: dict[tuple[int, ...], int] = {}  # the remaining lines -> node
        for y, members, shared in stepped:
            if shared and len(members) > 1:
                nodes.append((y, members, True))
                continue
            rest = tuple(id(nm) for _, nm in branches[members[0]][wi + 1:])
            if rest in summed:
                at = summed[rest]
                nodes[at] = (_padded_sum(nodes[at][0], y), nodes[at][1] + members, False)
            else:
                summed[rest] = len(nodes)
                nodes.append((y, members, False))
    final = np.zeros((x0.shape[0], 1))
    for x, members, shared in nodes:
        final = _padded_sum(final, x * (len(members) if shared else 1))
    return final


def _start(space: StateSpace, initial: dict[State, FloatArray] | None,
           track: bool) -> FloatArray | None:
    """The starting distribution ``x[h, u]`` over the one group's states (undamaged, or
    ``initial``), or None for a state that is not one of them or too many wounds."""
    group = space.groups[0]
    starts = initial or {space.initial: np.ones(1)}
    hs = [_wounds(s, group) for s in starts]
    first = _wounds(space.initial, group)
    if first is None or any(h is None for h in hs):
        return None
    top = max(first, *(h for h in hs if h is not None))
    if top > MAX_WOUNDS:
        return None
    x0 = np.zeros((top + 1, max(len(p) for p in starts.values()) if track else 1))
    for h, pmf in zip(hs, starts.values(), strict=True):
        assert h is not None
        x0[h, : len(pmf) if track else 1] += pmf if track else pmf.sum()
    return x0


def _into_space(groups: tuple[Group, ...], top: int, final: FloatArray,
                memo: dict[Any, Any]) -> tuple[StateSpace, FloatArray]:
    """The final array over a ``StateSpace`` holding the one group's states h = top..0."""
    key = ("one_group", "space", groups, top)
    if key not in memo:
        space = StateSpace(groups)
        rows = np.array([space.add(_state(h, groups[0])) for h in range(top + 1)])
        memo[key] = (space, rows)
    space, rows = memo[key]
    out = np.zeros((len(space.states), final.shape[1]))
    out[rows] = final
    return space, out
