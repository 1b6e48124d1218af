"""The line steps of the one-group chain (``one_group``) over the wounds left ``h``:
one weapon line's failed saves then its Devastating Wounds criticals (24.10, ``line_step``),
or under 10th every line's failed saves, then the criticals held back (reference facts
§5.5, ``held_back``); the unsaved counts carried along (see ``one_group``'s docstring:
"Unsaved without stepping it").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tactica.dice import FloatArray

__all__ = ["PacketMatrix", "held_back", "line_step", "padded_sum"]

#: ``x.sum(axis)`` without numpy's Python wrapper around the same reduction (the same
#: floats): the chain sums small arrays some hundred thousand times in a table.
_total = np.add.reduce


@dataclass(frozen=True)
class PacketMatrix:
    """One packet that reaches the unit (its save already failed): ``full[h', h]`` =
    P(h -> h'), ``alive`` the block between living states (h >= 1), ``kill[h - 1]`` =
    P(the packet destroys the unit from h)."""

    full: FloatArray
    alive: FloatArray
    kill: FloatArray
    #: what it was made of (``one_group.packet_matrix``'s arguments): its value as a key
    made_of: tuple[Any, ...]


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
    """``out[j] = m^j x`` for j = 0..n, by doubling (one product per power of two, written
    in place)."""
    out = np.empty((n + 1, *x.shape))
    out[0] = x
    done, step = 1, m
    while done <= n:
        k = min(done, n + 1 - done)
        np.matmul(step, out[:k], out=out[done:done + k])
        done += k
        if done <= n:
            step = step @ step
    return out


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
              track: bool, memo: dict[Any, Any] | None = None) -> FloatArray:
    """One weapon line from ``x[h, u]`` (h = 0 the destroyed unit; u the unsaved count):
    ``f`` failed saves then ``m`` Devastating Wounds criticals with pmf ``nmf[f, m]``
    (a sub-pmf in a Command Re-roll branch). ``memo``: a batch's (``_one_column_step``)."""
    if track and x.shape[1] == 1 and nmf.shape[1] == 1:
        return _one_column_step(x, nmf[:, 0], fail, memo)
    after, killed = _normal_stage(x[1:], nmf, fail, track)
    dead = [_total(nmf, None) * x[0], killed]
    if nmf.shape[1] > 1 and mortal is not None:
        out_alive, killed_m = _mortal_stage(after, mortal, track)
        dead.append(killed_m)
    else:
        out_alive = after[0] if after.shape[0] == 1 else _total(after, 0)
    out = np.zeros((x.shape[0], out_alive.shape[1]))
    out[1:] = out_alive
    for d in dead:
        out[0, : len(d)] += d
    return out


def _one_column_step(x: FloatArray, pmf: FloatArray, fail: PacketMatrix,
                     memo: dict[Any, Any] | None = None) -> FloatArray:
    """``line_step`` from one unsaved column (a unit's first line: nothing unsaved yet)
    without criticals, written straight into the result: after ``f`` failed saves the
    living states ``fail.alive^f x`` land at u = f, weighted by ``pmf[f]``; the mass
    destroyed by packet j at u = j, weighted by P(F >= j) (fewer numpy calls than the
    general form for the same numbers). The living states after each count are the same
    for every line of that packet and count into the same states (a unit's first line:
    the undamaged target): kept in a batch's ``memo``."""
    f_max = pmf.shape[0] - 1
    v = _living_after(fail, x[1:], f_max, memo)  # (f, h - 1)
    out = np.empty((x.shape[0], f_max + 1))
    np.multiply(v.T, pmf, out=out[1:])
    out[0, 0] = _total(pmf, None) * x[0, 0]
    if f_max:
        at_least = pmf[::-1].cumsum()[::-1]  # P(F >= j)
        np.multiply(v[:f_max] @ fail.kill, at_least[1:], out=out[0, 1:])
    return out


#: The most numbers ``_living_after`` keeps in a batch's memo per entry.
_KEPT_CELLS = 4096


def _living_after(fail: PacketMatrix, alive: FloatArray, f_max: int,
                  memo: dict[Any, Any] | None) -> FloatArray:
    """``fail.alive^f alive`` for f = 0..f_max (``alive`` one column), as rows; cached in
    ``memo`` by what the packet's matrix was made of and the states' numbers, for the
    most counts asked so far: fewer are its first rows (``_powers_applied`` makes each power
    by the same products whatever the count, bit for bit). A large one is made each
    time (at most ``_KEPT_CELLS`` numbers are kept per entry: a long batch's memo stays
    small)."""
    if memo is None or (f_max + 1) * alive.shape[0] > _KEPT_CELLS:
        return _powers_applied(fail.alive, alive, f_max)[:, :, 0]

    def made() -> FloatArray:
        v = _powers_applied(fail.alive, alive, f_max)[:, :, 0]
        v.flags.writeable = False
        return v

    key = ("one_group", "living", fail.made_of, alive.shape, alive.tobytes())
    rows: FloatArray | None = memo.get(key)
    if rows is None or rows.shape[0] <= f_max:
        rows = memo[key] = made()
    return rows[:f_max + 1]


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
    at_least = _total(nmf, 1)[::-1].cumsum()[::-1]  # P(F >= j)
    killed = np.matmul(fail.kill, v[:f_max]) * at_least[1:, None]  # by packet j
    if track and v.shape[-1] == 1:  # destroyed by packet j: u = j
        return after, np.concatenate(((0.0,), killed[:, 0]))
    return after, _total(_skew(killed, 1, track), 0)


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
    return out_alive, _total(_skew(killed, 1, track), 0)


def held_back(x: FloatArray, lines: Sequence[tuple[FloatArray, PacketMatrix]],
              mortal: PacketMatrix | None, track: bool) -> FloatArray:
    """10th (reference facts §5.5): every line's failed saves, then the criticals of all
    of them (``mortal``: one packet for every line with criticals), their count carried
    with the states until then."""
    pending: dict[int, FloatArray] = {0: x[1:]}  # living states by criticals to come
    dead = x[0]
    for nmf, fail in lines:
        dead = _total(nmf, None) * dead
        new: dict[int, FloatArray] = {}
        for held, alive in pending.items():
            after, killed = _normal_stage(alive, nmf, fail, track)
            dead = padded_sum(dead, killed)
            for m in range(after.shape[0]):
                k = held + m
                new[k] = after[m] if k not in new else padded_sum(new[k], after[m])
        pending = new
    width = max(a.shape[-1] for a in pending.values())
    stack = np.zeros((max(pending) + 1, x.shape[0] - 1, width))
    for k, alive in pending.items():
        stack[k, :, : alive.shape[-1]] = alive
    if stack.shape[0] > 1 and mortal is not None:
        out_alive, killed_m = _mortal_stage(stack, mortal, track)
        dead = padded_sum(dead, killed_m)
    else:
        out_alive = _total(stack, 0)
    out = np.zeros((x.shape[0], max(out_alive.shape[1], len(dead))))
    out[1:, : out_alive.shape[1]] = out_alive
    out[0, : len(dead)] = dead
    return out


def padded_sum(a: FloatArray, b: FloatArray) -> FloatArray:
    """``a + b`` along the last (unsaved) axis, the shorter padded with zeros."""
    if a.shape[-1] < b.shape[-1]:
        a, b = b, a
    out = a.copy()
    out[..., : b.shape[-1]] += b
    return out
