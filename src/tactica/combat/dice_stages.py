"""Exact per-die outcomes of the hit and wound rolls, and their totals over many dice.

One attack die becomes a small joint distribution over (hits, wounds to save, critical
wounds that bypass saves); totals over a random number of attack dice are compound
distributions. Nothing here depends on the target's state, so the engine computes these
once per weapon.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt

from ..dice import FloatArray
from .profile import RerollPolicy, ResolvedWeapon

__all__ = ["DieOutcome", "compound", "conv2", "die_outcome", "roll_outcomes", "trim",
           "weighs_values"]

# outcome indices of one hit or wound roll
FAIL, SUCCESS, CRITICAL = 0, 1, 2


def roll_outcomes(
    classify: list[int], policy: RerollPolicy, values: tuple[float, float, float]
) -> tuple[FloatArray, tuple[bool, ...] | None]:
    """Probabilities of FAIL/SUCCESS/CRITICAL for one D6 whose face ``f`` (1..6) has outcome
    ``classify[f - 1]``, re-rolled at most once under ``policy`` (Re-rolls: before
    modifiers; "unmodified" means after re-rolls). ``any`` re-rolls every face whose
    outcome is worth less than a fresh roll (``values`` per outcome); the second element
    says which faces (1..6) are re-rolled (None without a policy).

    >>> p, _ = roll_outcomes([0, 0, 1, 1, 1, 2], "ones", (0, 1, 2))
    >>> [round(x * 36) for x in p]   # fail: 1/6 (a 2) + 1/6*2/6; crit: 1/6 + 1/36
    [8, 21, 7]
    """
    fresh = [0.0, 0.0, 0.0]  # Python floats: the same sums as on an array, faster
    for o in classify:
        fresh[o] += 1 / 6
    if policy is None:
        return np.array(fresh), None
    if policy == "ones":
        reroll = [f == 1 for f in range(1, 7)]
    elif policy == "failed":
        reroll = [o == FAIL for o in classify]
    else:
        ev = float(np.dot(np.array(fresh), values))
        reroll = [values[o] < ev - 1e-12 for o in classify]
    out = [0.0, 0.0, 0.0]
    for face, o in enumerate(classify):
        if reroll[face]:
            for i in range(3):
                out[i] += fresh[i] / 6
        else:
            out[o] += 1 / 6
    return np.array(out), tuple(reroll)


def _faces(reroll: tuple[bool, ...]) -> str:
    return ",".join(str(f + 1) for f in range(6) if reroll[f]) or "none"


def _classes(critical: int, modifier: int, needed: int) -> list[int]:
    """The outcome of each D6 face: an unmodified 1 fails; an unmodified roll at or above
    ``critical`` is critical (always succeeds); otherwise roll + modifier >= needed."""
    return [FAIL if f == 1 else CRITICAL if f >= critical
            else SUCCESS if f + modifier >= needed else FAIL for f in range(1, 7)]


def hit_classes(w: ResolvedWeapon) -> list[int]:
    """Hit Roll: the critical-hit threshold, the capped modifier and the skill. Snap
    shooting (15.09): only an unmodified 6 hits, irrespective of BS and modifiers (a 6
    is critical; Firepoint Commander lets 5+ hit)."""
    if w.snap_shooting:
        return [CRITICAL if f == 6 else SUCCESS if f >= w.snap_hit_on else FAIL
                for f in range(1, 7)]
    # 10.07 indirect shooting: an unmodified 1..hit_fails_on fails, critical or not
    return [FAIL if f <= w.hit_fails_on else c
            for f, c in zip(range(1, 7), _classes(w.critical_hit, w.hit_modifier, w.skill),
                            strict=True)]


def wound_classes(w: ResolvedWeapon) -> list[int]:
    """Wound Roll: the critical-wound threshold (6, Anti X Y+, effects), the capped
    modifier and the table's need."""
    return _classes(w.critical_wound, w.wound_modifier, w.wound_needed)


@dataclass(frozen=True)
class _Parts:
    """What one attack die's joint outcome is built from: the hit roll's outcome
    probabilities, the Sustained Hits extra hits' pmf, and one hit's (n, m) outcome
    rolling to wound, for a normal and for a critical hit (each also without a failed
    wound die, a sub-pmf)."""

    hp: FloatArray
    sus: FloatArray
    single: FloatArray
    single_ok: FloatArray
    crit_self: FloatArray
    crit_self_ok: FloatArray

    def build(self, ok_wound: bool, miss: float) -> FloatArray:
        """``joint[h, n, m]``; ``ok_wound``: without a failed wound die; ``miss``: the
        weight of a failed hit die (0 for the sub-pmf without one)."""
        one, crit_one = ((self.single_ok, self.crit_self_ok) if ok_wound
                         else (self.single, self.crit_self))
        hp, sus = self.hp, self.sus
        max_h = len(sus)  # 1 + max extra
        joint = np.zeros((max_h + 1, max_h + 1, max_h + 1))
        joint[0, 0, 0] += miss
        joint[1, :2, :2] += hp[SUCCESS] * one
        if hp[CRITICAL]:
            acc = crit_one
            for x, px in enumerate(sus):
                if x:
                    acc = conv2(acc, one)
                if px:
                    joint[1 + x, : acc.shape[0], : acc.shape[1]] += hp[CRITICAL] * px * acc
        return joint

    def wounds(self) -> FloatArray:
        """``trim(build(False, hp[FAIL]).sum(axis=0))`` bit for bit, on Python floats: per h
        the layer of ``build`` (a hit's outcome, plus a critical hit's with x extra hits
        at h = 1 + x), the layers added in order of h (what numpy's sum over the first
        axis does, cell by cell); the few non-zero cells alone (adding 0 changes no sum)."""
        fail, success, critical = self.hp.tolist()
        one, crit_one = self.single.tolist(), self.crit_self.tolist()
        size = len(self.sus) + 1
        out = [[0.0] * size for _ in range(size)]
        out[0][0] = fail
        layers: list[list[list[float]]] = [[[success * v for v in row] for row in one]]
        if critical:
            acc = crit_one
            for x, px in enumerate(self.sus.tolist()):
                if x:
                    acc = _conv2_lists(acc, one)
                if not px:
                    continue
                weight = critical * px
                if x:
                    layers.append([[weight * v for v in row] for row in acc])
                else:  # h = 1: a hit's outcome, then a critical hit's added to it
                    layers[0] = [[a + weight * v for a, v in zip(ra, rv, strict=True)]
                                 for ra, rv in zip(layers[0], acc, strict=True)]
        for layer in layers:
            for i, row in enumerate(layer):
                dst = out[i]
                for j, v in enumerate(row):
                    dst[j] += v
        # ``trim``: up to the last non-zero row and column (at least one of each)
        rows = max((i for i, row in enumerate(out) if any(row)), default=0) + 1
        cols = max((j for row in out for j, v in enumerate(row) if v), default=0) + 1
        return np.array([row[:cols] for row in out[:rows]], dtype=np.float64)


def _conv2_lists(a: list[list[float]], b: list[list[float]]) -> list[list[float]]:
    """``conv2`` on nested lists, bit for bit (``b``'s cells in C order, each adding its
    product with ``a`` to the shifted block)."""
    rows, cols = len(a), len(a[0])
    out = [[0.0] * (cols + len(b[0]) - 1) for _ in range(rows + len(b) - 1)]
    for i, brow in enumerate(b):
        for j, p in enumerate(brow):
            if p:
                for r, arow in enumerate(a):
                    dst = out[i + r]
                    for c, v in enumerate(arow):
                        dst[j + c] += p * v
    return out


@dataclass(frozen=True)
class DieOutcome:
    """One attack die: ``joint[h, n, m]`` = P(h hits, n wounds that go to saves, m
    Devastating-Wounds critical wounds). ``lethal_taken`` is the attacker's choice.
    The marginals and the sub-pmfs for a single-die re-roll are computed when first
    asked for (most calculations need only some of them)."""

    parts: _Parts
    lethal_taken: bool
    notes: tuple[str, ...]
    #: the outcome of one fresh wound die as (n, m): for a single-die re-roll (15.02)
    fresh_wound: FloatArray
    #: the faces (1..6) re-rolled on the hit and wound rolls (None: no re-roll)
    hit_reroll_faces: tuple[bool, ...] | None = None
    wound_reroll_faces: tuple[bool, ...] | None = None

    @cached_property
    def joint(self) -> FloatArray:
        return self.parts.build(False, float(self.parts.hp[FAIL]))

    @cached_property
    def no_failed_hit(self) -> FloatArray:
        """``joint`` without a failed hit die (a sub-pmf)."""
        return self.parts.build(False, 0.0)

    @cached_property
    def no_failed_wound(self) -> FloatArray:
        """``joint`` without a failed wound die (a sub-pmf)."""
        return self.parts.build(True, float(self.parts.hp[FAIL]))

    @cached_property
    def hits(self) -> FloatArray:
        """The marginal of ``joint`` over h, from the hit roll alone (a miss, a hit, a
        critical hit with its Sustained Hits extra hits): the same for either Lethal Hits
        choice, bit for bit, so their totals are shared (``exact``). Python floats, the
        same products and sums as on arrays."""
        fail, success, critical = self.parts.hp.tolist()
        out = [fail, success] + [0.0] * (len(self.parts.sus) - 1)
        for x, px in enumerate(self.parts.sus.tolist()):
            out[1 + x] += critical * px
        return np.array(out, dtype=np.float64)

    @cached_property
    def to_save(self) -> FloatArray:
        """Joint pmf over (n, m) (``joint`` summed over h), trimmed to its non-zero
        extent: ``_Parts.wounds`` (without building ``joint``)."""
        return self.parts.wounds()


def trim(a: FloatArray) -> FloatArray:
    """``a`` without trailing all-zero rows and columns (at least one of each).

    >>> trim(np.array([[0.5, 0.0], [0.5, 0.0], [0.0, 0.0]])).shape
    (2, 1)
    """
    where = a.nonzero()
    if not where[0].size:
        return a[(slice(0, 1),) * a.ndim]
    return a[tuple(slice(0, int(i.max()) + 1) for i in where)]


def conv2(a: FloatArray, b: FloatArray) -> FloatArray:
    """The pmf of the sum of two independent 2-D variables."""
    out = np.zeros((a.shape[0] + b.shape[0] - 1, a.shape[1] + b.shape[1] - 1))
    for (i, j), p in np.ndenumerate(b):
        if p:
            out[i : i + a.shape[0], j : j + a.shape[1]] += p * a
    return out


def weighs_values(w: ResolvedWeapon, lethal: bool | None = None) -> bool:
    """Whether ``die_outcome(w, e_normal, e_mortal, lethal)`` reads the values of the
    outcomes: only for the attacker's choices by value, an open 11th-edition Lethal Hits
    choice it makes itself (24.23) and re-rolls of ``any`` (hit or wound, reference facts
    §4.5). Otherwise its outcome is the same for any values."""
    open_lethal = (w.lethal_hits and not w.torrent and not w.lethal_mandatory
                   and lethal is None)
    return open_lethal or w.wound_reroll == "any" or (w.hit_reroll == "any" and not w.torrent)


def die_outcome(w: ResolvedWeapon, e_normal: float, e_mortal: float,
                lethal: bool | None = None) -> DieOutcome:
    """The exact outcome of one attack die of ``w``.

    ``lethal`` forces the 11th-edition Lethal Hits choice (the exact engine decides it
    over the whole attack when it matters, see ``exact.lethal_choices``); otherwise
    ``e_normal`` / ``e_mortal`` are the expected damage of a wound that goes to saves and
    of a Devastating-Wounds critical, used only for the attacker's choices (11th-edition
    Lethal Hits 24.23, re-rolls of ``any``), as reference facts §4.5 and the 11th bullet
    on Lethal Hits require.
    """
    notes: list[str] = []
    crit_value = e_mortal if w.devastating else e_normal
    wp, wound_faces = roll_outcomes(wound_classes(w), w.wound_reroll,
                                    (0.0, e_normal, crit_value))
    if w.wound_reroll == "any" and wound_faces is not None:
        notes.append(f"{w.name}: wound re-rolls fish for better results on faces "
                     f"{_faces(wound_faces)}")
    # one hit rolling to wound -> (n, m)
    fail, success, critical = wp.tolist()
    wound, mortal = (success, critical) if w.devastating else (success + critical, 0.0)
    single = np.array([[fail, mortal], [wound, 0.0]])
    # the same die, its failure excluded (a sub-pmf)
    single_ok = np.array([[0.0, mortal], [wound, 0.0]])
    roll_value = success * e_normal + critical * crit_value

    lethal_taken = False
    if w.lethal_hits and not w.torrent:
        if w.lethal_mandatory:
            lethal_taken = True
        elif lethal is not None:  # decided by the engine over the whole attack
            lethal_taken = lethal
        else:
            lethal_taken = e_normal >= roll_value - 1e-12
            notes.append(
                f"{w.name}: Lethal Hits "
                + ("taken (an automatic wound is worth at least a wound roll)"
                   if lethal_taken else "declined: rolling to wound for critical wounds "
                   "(Devastating Wounds) gives more expected damage")
            )
    crit_self = np.array([[0.0, 0.0], [1.0, 0.0]]) if lethal_taken else single
    crit_self_ok = np.array([[0.0, 0.0], [1.0, 0.0]]) if lethal_taken else single_ok

    sus = w.sustained.pmf() if w.sustained is not None else np.array([1.0])
    hit_faces: tuple[bool, ...] | None = None
    if w.torrent:
        hp = np.array([0.0, 1.0, 0.0])  # 01.05.01: automatic hits are never critical
    else:
        values = (0.0, 0.0, 0.0)  # read by a re-roll of ``any`` alone
        if w.hit_reroll == "any":
            mean_sus = float(np.dot(np.arange(len(sus)), sus))
            v_crit = (e_normal if lethal_taken else roll_value) + mean_sus * roll_value
            values = (0.0, roll_value, v_crit)
        hp, hit_faces = roll_outcomes(hit_classes(w), w.hit_reroll, values)
        if w.hit_reroll == "any" and hit_faces is not None:
            notes.append(f"{w.name}: hit re-rolls fish for criticals on faces "
                         f"{_faces(hit_faces)}")

    parts = _Parts(hp, sus, single, single_ok, crit_self, crit_self_ok)
    return DieOutcome(parts=parts, lethal_taken=lethal_taken, notes=tuple(notes),
                      fresh_wound=single, hit_reroll_faces=hit_faces,
                      wound_reroll_faces=wound_faces)


#: Below this many attack dice the totals are compounded die by die (exact sums of
#: products); from it on, by powers in the frequency domain (``_compound_fft``).
FFT_FROM_DICE = 6
#: FFT round-off floor: totals below it are round-off around an exact 0 and are set to 0
#: (the mass moved is at most cells x this, under 1e-11 for the largest totals the
#: engine accepts; the sum is then checked and renormalised).
_FFT_FLOOR = 1e-15


def compound(count_pmf: FloatArray, per_die: FloatArray) -> FloatArray:
    """Distribution of the sum of N i.i.d. copies of ``per_die`` (1-D or 2-D pmf, or a
    sub-pmf) with N distributed as ``count_pmf``: die by die for a few dice, by powers of
    its Fourier transform for more (exact to float rounding); a fixed number of dice of
    two outcomes by the binomial formula (``_binomial``), many dice of one outcome for
    certain (a Torrent weapon's hits) as the count's own distribution (``_certain``).

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
        return _compound_fft(count_pmf, per_die) if exact is None else exact
    return _compound_direct(count_pmf, per_die)


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
    total[total < _FFT_FLOOR] = 0.0
    # the exact mass by Horner's scheme in Python floats (numpy's ``polyval``, term for
    # term, without its array set-up)
    one = float(per_die.sum())
    mass = counts[-1] + one * 0
    for c in reversed(counts[:-1]):
        mass = c + mass * one
    got = float(total.sum())
    if mass > 0.0:
        if abs(got - mass) > 1e-9:
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


@lru_cache(maxsize=256)
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
    """``np.fft.rfftn(a, s=shape)`` over every axis, as numpy computes it (a real
    transform of the last axis, then complex ones of the others, last to first) without
    its argument handling (half the time of a small transform)."""
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
