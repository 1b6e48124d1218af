"""Totals over many attack dice: the compound distribution of N i.i.d. copies of one
die's (1-D or 2-D) pmf, N itself random (the attacks characteristic, 05.01), exact to
float rounding. A few dice are compounded die by die, more by powers of the die's
Fourier transform; a fixed number of dice of two outcomes by the binomial formula and
a few dice of at most three outcomes (nothing, one of the first kind, one of the
second: a wound or a Devastating Wounds critical) by the multinomial one.

>>> [round(x * 8) for x in compound(np.array([0, 0, 0, 1.0]), np.array([0.5, 0.5]))]
[1, 3, 3, 1]
"""

from __future__ import annotations

from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt

from tactica.cache_registry import lasting_cache
from tactica.dice import FloatArray

__all__ = ["FFT_FROM_DICE", "compound"]


#: Below this many attack dice the totals are compounded die by die (exact sums of
#: products); from it on, by powers in the frequency domain (``_compound_fft``).
FFT_FROM_DICE = 6
#: FFT round-off floor: totals below it are round-off around an exact 0 and are set to 0
#: (the mass moved is at most cells x this, under 1e-11 for the largest totals the
#: engine accepts; the sum is then checked and renormalised).
_FFT_FLOOR = 1e-15
#: A mass below this is 0 (near the smallest normal float: its totals would underflow).
_TINY = 1e-290


def compound(count_pmf: FloatArray, per_die: FloatArray) -> FloatArray:
    """Distribution of the sum of N i.i.d. copies of ``per_die`` (1-D or 2-D pmf, or a
    sub-pmf) with N distributed as ``count_pmf``: die by die for a few dice, by powers of
    its Fourier transform for more (exact to float rounding); a fixed number of dice of
    two outcomes by the binomial formula (``_binomial``), many dice of one outcome for
    certain (a Torrent weapon's hits) as the count's own distribution (``_certain``), a
    few dice of three outcomes by the multinomial one (``_multinomial``).

    >>> [round(x * 8) for x in compound(np.array([0, 0, 0, 1.0]), np.array([0.5, 0.5]))]
    [1, 3, 3, 1]
    """
    many = len(count_pmf) - 1 >= FFT_FROM_DICE
    if not many and len(count_pmf) == 2 and count_pmf[0] == 0.0 and count_pmf[1] == 1.0:
        return per_die + 0.0  # one die for certain (a copy; what die by die gives)
    exact = _binomial(count_pmf, per_die, floor=many)
    if exact is not None:
        return exact
    if many:
        exact = _certain(count_pmf, per_die)
        if exact is None:
            exact = _multinomial(count_pmf, per_die)
        return _compound_fft(count_pmf, per_die) if exact is None else exact
    return _compound_direct(count_pmf, per_die)


#: Up to this many dice ``_multinomial`` applies: beyond, its Python terms (about n^2)
#: cost more than the transforms (12 dice: the same, 28 us).
_MULTINOMIAL_DICE = 10


def _multinomial(count_pmf: FloatArray, per_die: FloatArray) -> FloatArray | None:
    """``compound`` of a few dice (random in number, at most ``_MULTINOMIAL_DICE``) of at
    most three outcomes: nothing (q), one of the first kind (a: ``per_die[1]`` or
    ``[1, 0]``, a wound to save) or one of the second (b: ``[0, 1]``, a Devastating
    Wounds critical), by the multinomial formula in two steps on Python floats: s dice
    of either kind among N, ``P(s) = sum_k P(N = k) C(k, s) p^s q^(k - s)`` with p = a +
    b, then ``P(n, m) = P(n + m) C(n + m, m) (a / p)^n (b / p)^m`` (also for a sub-pmf,
    q + p < 1). Exact to float rounding (the transforms' round-off is some 1e-16 here);
    a total below their floor is 0, as there. None where it does not apply.

    >>> out = _multinomial(np.array([0.0, 0.5, 0.5]), np.array([[0.5, 0.25], [0.25, 0.0]]))
    >>> out.tolist()  # by hand: one die (1/2, 1/4, 1/4) or two, each half the time
    [[0.375, 0.25, 0.03125], [0.25, 0.0625, 0.0], [0.03125, 0.0, 0.0]]
    """
    if per_die.ndim == 1 and per_die.shape == (2,):
        (q, a), b, rows, cols = per_die.tolist(), 0.0, 2, 1
    elif per_die.ndim == 2 and per_die.shape[0] <= 2 and per_die.shape[1] <= 2:
        rows, cols = per_die.shape
        cells = per_die.tolist()
        if rows == cols == 2 and cells[1][1]:
            return None
        q, a, b = cells[0][0], cells[1][0] if rows == 2 else 0.0, cells[0][1] if cols == 2 else 0.0
    else:
        return None
    counts = count_pmf.tolist()
    top, p = len(counts) - 1, a + b
    if not p or top > _MULTINOMIAL_DICE:
        return None
    p_pow, q_pow = [p**i for i in range(top + 1)], [q**i for i in range(top + 1)]
    either = [sum(c * comb(k, s) * q_pow[k - s] for k, c in enumerate(counts[s:], start=s)
                  if c) * p_pow[s] for s in range(top + 1)]
    out = np.zeros(((rows - 1) * top + 1, (cols - 1) * top + 1))
    a_pow, b_pow = [(a / p) ** i for i in range(top + 1)], [(b / p) ** i for i in range(top + 1)]
    for s, v in enumerate(either):
        for m in range(s + 1) if cols == 2 else (0,):
            n = s - m
            if n < out.shape[0] and v:
                x = v * comb(s, m) * a_pow[n] * b_pow[m]
                out[n, m] = 0.0 if x < _FFT_FLOOR else x
    return out.ravel() if per_die.ndim == 1 else out


#: Up to this many dice ``_binomial`` applies: beyond, its Python terms cost more than
#: the transforms (about 100 dice), and its coefficients and powers stay far from float
#: overflow and underflow.
_BINOMIAL_DICE = 64


def _binomial(count_pmf: FloatArray, per_die: FloatArray,
              floor: bool = True) -> FloatArray | None:
    """``compound`` of exactly n dice (``count_pmf`` certain at its last entry, 2 <= n <=
    ``_BINOMIAL_DICE``) each failing with q and succeeding with p (a 1-D die of two
    entries, or a 2-D one of one column: no criticals apart, as most wound totals):
    ``P(k) = C(n, k) p^k q^(n-k)`` (Python's ``math.comb`` and ``pow``: a few
    microseconds where die by die takes several and the transforms 10-20; numpy has no
    binomial pmf and scipy's call costs more than the transforms). Exact to float
    rounding, as die by die (within 1e-16) and the transforms (whose round-off reaches
    1e-14 for 60 dice); with ``floor`` (in place of the transforms) a total below their
    floor is 0, as there. None where it does not apply."""
    counts = count_pmf.tolist()
    n = len(counts) - 1
    if (per_die.shape not in ((2,), (2, 1)) or counts[n] != 1.0 or any(counts[:n])
            or not 2 <= n <= _BINOMIAL_DICE):
        return None
    q, p = per_die.ravel().tolist()
    out = [comb(n, k) * p**k * q ** (n - k) for k in range(n + 1)]
    if floor:
        out = [0.0 if v < _FFT_FLOOR else v for v in out]
    return np.array(out, dtype=np.float64).reshape((n + 1, *per_die.shape[1:]))


def _certain(count_pmf: FloatArray, per_die: FloatArray) -> FloatArray | None:
    """``compound`` of a die with one outcome for certain (probability 1 at one cell, as
    a Torrent weapon's hit die: one hit): k dice total k times that cell, with the
    probability of k dice (below ``_compound_fft``'s floor: 0, as there). None where
    the die has more outcomes, or its one outcome is nothing (every total 0)."""
    where = np.flatnonzero(per_die)
    if len(where) != 1 or per_die.flat[where[0]] != 1.0 or not where[0]:
        return None
    cell = np.unravel_index(int(where[0]), per_die.shape)
    shape = tuple((d - 1) * (len(count_pmf) - 1) + 1 for d in per_die.shape)
    out = np.zeros(shape)
    for k, p in enumerate(count_pmf.tolist()):
        if p >= _FFT_FLOOR:
            out[tuple(k * int(i) for i in cell)] = p
    return out


def _compound_fft(count_pmf: FloatArray, per_die: FloatArray) -> FloatArray:
    """``compound`` by the probability generating function of N evaluated on the Fourier
    transform of one die: ``F(total) = sum_k P(N = k) F(die)^k`` (Horner, elementwise,
    the power of the fewest dice factored out: ``_power``),
    on a grid large enough that the sum never wraps around. Negative and sub-floor
    round-off is set to 0, then the mass is checked against the exact total mass
    ``sum_k P(N = k) m^k`` (m the mass of one die: 1, or less for a sub-pmf) and scaled
    to it."""
    counts = count_pmf.tolist()
    nmax = len(counts) - 1
    shape = tuple((d - 1) * nmax + 1 for d in per_die.shape)
    spectrum = _spectrum(per_die, shape)
    # the fewest dice N can be, ``low``: F(die)^low factored out, by repeated squaring
    # (a fixed number of dice, the common case, is that power alone)
    low = next((k for k, c in enumerate(counts) if c), 0)
    acc = np.full_like(spectrum, counts[nmax])
    for k in range(nmax - 1, low - 1, -1):  # in place; a zero term is not added
        acc *= spectrum
        if counts[k]:
            acc += counts[k]
    if low:
        acc *= _power(spectrum, low)
    total: FloatArray = _irfftn(acc, shape)
    # the exact mass by Horner's scheme in Python floats (numpy's ``polyval``, term for
    # term, without its array set-up)
    one = float(per_die.sum())
    mass = counts[-1] + one * 0
    for c in reversed(counts[:-1]):
        mass = c + mass * one
    # the transforms' round-off is relative to the largest term, at most the mass: a
    # sub-pmf of tiny mass (a die that rarely does anything, 40 of them) keeps its
    # totals instead of losing them all below an absolute floor
    total[total < _FFT_FLOOR * min(mass, 1.0)] = 0.0
    got = float(total.sum())
    if mass < _TINY or got <= 0.0:  # below what floats hold apart from 0: nothing
        total[...] = 0.0
        return total
    if abs(got - mass) > 1e-9 * max(mass, 1.0):
        raise ArithmeticError(f"compound: totals sum to {got!r}, expected {mass!r}")
    total *= mass / got
    return total


def _spectrum(per_die: FloatArray, shape: tuple[int, ...]) -> npt.NDArray[np.complex128]:
    """``np.fft.rfftn(per_die, s=shape)`` for a 1-D or 2-D die: the discrete Fourier
    transform of the few non-padded cells as products with the DFT matrices
    (``_dft``), a few microseconds instead of a transform of the whole padded grid."""
    if per_die.ndim == 1:
        out: npt.NDArray[np.complex128] = per_die @ _dft(shape[0], per_die.shape[0], True)
        return out
    if per_die.ndim == 2:
        # one column (no criticals apart): its transform is the column itself (a
        # product with [[1]], the same numbers)
        cols = (per_die.astype(np.complex128) if shape[1] == 1
                else per_die @ _dft(shape[1], per_die.shape[1], True))
        out = _dft(shape[0], per_die.shape[0], False).T @ cols
        return out
    out = _rfftn(per_die, shape)
    return out


@lasting_cache(maxsize=256)
def _dft(n: int, size: int, half: bool) -> npt.NDArray[np.complex128]:
    """``out[j, k] = exp(-2 pi i j k / n)`` for j < ``size`` and the frequencies k of a
    transform of length ``n`` (``half``: the ``n // 2 + 1`` of a real one); the angle
    taken modulo a full turn first (exact integers); the half one is the first columns
    of the full one (the same numbers: a one-column die's 2-D totals and its hits' 1-D
    ones share it). Read-only, kept between calls (``benchmarks/run.py`` clears it)."""
    if half:
        part: npt.NDArray[np.complex128] = np.ascontiguousarray(
            _dft(n, size, False)[:, : n // 2 + 1])
        part.flags.writeable = False
        return part
    k = np.arange(n)
    out: npt.NDArray[np.complex128] = np.exp((-2j * np.pi / n) * (np.outer(np.arange(size), k) % n))
    out.flags.writeable = False
    return out


def _power(spectrum: npt.NDArray[np.complex128], k: int) -> npt.NDArray[np.complex128]:
    """``spectrum ** k`` elementwise for ``k >= 1``, by repeated squaring (about
    ``2 log2 k`` products instead of ``k``; the rounding grows with their number)."""
    out: npt.NDArray[np.complex128] | None = None
    base = spectrum.copy()
    while True:
        if k & 1:
            out = base.copy() if out is None else np.multiply(out, base, out=out)
        k >>= 1
        if not k:
            assert out is not None
            return out
        np.multiply(base, base, out=base)


def _rfftn(a: FloatArray, shape: tuple[int, ...]) -> Any:
    """``np.fft.rfftn(a, s=shape)`` over every axis, as numpy 2 computes it (a real
    transform of the last axis, then complex ones of the others, last to first) without
    its argument handling (half the time of a small transform). numpy 1.26 takes the
    complex axes first to last: with three axes or more, the same sums in another order
    (equal within round-off, not bit for bit)."""
    out = np.fft.rfft(a, shape[-1], axis=-1)
    for ax in range(a.ndim - 2, -1, -1):
        out = np.fft.fft(out, shape[ax], axis=ax)
    return out


def _irfftn(a: Any, shape: tuple[int, ...]) -> FloatArray:
    """``np.fft.irfftn(a, s=shape)`` over every axis, as numpy computes it (``_rfftn``
    undone: complex inverse transforms first to last, then the real one of the last)."""
    for ax in range(a.ndim - 1):
        a = np.fft.ifft(a, shape[ax], axis=ax)
    if shape[-1] == 1 and a.ndim > 1:  # a real transform of length 1: the real part
        real: FloatArray = a.real.copy()
        return real
    out: FloatArray = np.fft.irfft(a, shape[-1], axis=-1)
    return out


#: Up to this many products die by die, the sums are made on Python floats
#: (``_compound_few``): a few microseconds instead of numpy's per-slice overhead.
_FEW_PRODUCTS = 2500


def _compound_direct(count_pmf: FloatArray, per_die: FloatArray) -> FloatArray:
    """``compound`` die by die: the totals of k dice, one more die at a time."""
    nmax = len(count_pmf) - 1
    if per_die.ndim <= 2 and per_die.size ** 2 * nmax * nmax <= _FEW_PRODUCTS:
        return _compound_few(count_pmf, per_die)
    step = tuple(s - 1 for s in per_die.shape)
    shape = tuple(d * nmax + 1 for d in step)
    total = np.zeros(shape)
    cur = np.zeros(shape)
    cur[(0,) * per_die.ndim] = 1.0
    where = per_die.nonzero()  # C order, as ``np.ndenumerate``
    support = list(zip(zip(*(a.tolist() for a in where), strict=True),
                       per_die[where].tolist(), strict=True))
    for k in range(nmax + 1):
        if count_pmf[k]:
            total += count_pmf[k] * cur
        if k == nmax:
            break
        # only the region reachable with k dice is non-zero: work on it alone
        ext = tuple(d * k + 1 for d in step)
        src = cur[tuple(slice(0, e) for e in ext)]
        nxt = np.zeros(shape)
        for idx, p in support:
            dst = tuple(slice(i, i + e) for i, e in zip(idx, ext, strict=True))
            nxt[dst] += p * src
        cur = nxt
    return total


def _compound_few(count_pmf: FloatArray, per_die: FloatArray) -> FloatArray:
    """``_compound_direct`` on Python floats, bit for bit: the same products added to
    each cell in the same order (the die's faces in C order, one die at a time; the
    k-dice totals weighted by P(N = k) added last), on flat lists."""
    nmax = len(count_pmf) - 1
    r, c = per_die.shape if per_die.ndim == 2 else (per_die.shape[0], 1)
    rows, cols = (r - 1) * nmax + 1, (c - 1) * nmax + 1
    support = [((x // c) * cols + x % c, p)
               for x, p in enumerate(per_die.ravel().tolist()) if p]
    total = [0.0] * (rows * cols)
    cur = [0.0] * (rows * cols)
    cur[0] = 1.0
    for k, weight in enumerate(count_pmf.tolist()):
        if weight:
            for x, v in enumerate(cur):
                total[x] += weight * v
        if k == nmax:
            break
        # the region reachable with k dice: rows and columns 0 .. (r-1)k, (c-1)k
        ext_r, ext_c = (r - 1) * k + 1, (c - 1) * k + 1
        nxt = [0.0] * (rows * cols)
        for off, p in support:
            for a in range(ext_r):
                base = a * cols
                for b in range(ext_c):
                    nxt[base + b + off] += p * cur[base + b]
        cur = nxt
    return np.array(total, dtype=np.float64).reshape(
        (rows, cols) if per_die.ndim == 2 else (rows,))
