"""Totals over many attack dice by powers (``totals.compound``): the Fourier path
(the probability generating function of the number of dice evaluated on the transform
of one die) against the die-by-die sums, and its mass check."""

from __future__ import annotations

import numpy as np
import pytest

from tactica.combat.exact.totals import (
    _MULTINOMIAL_DICE,
    FFT_FROM_DICE,
    _compound_direct,
    _compound_fft,
    _multinomial,
    compound,
)


@pytest.mark.parametrize("seed", range(40))
def test_powers_agree_with_die_by_die(seed: int) -> None:
    """Random 1-D and 2-D per-die pmfs (and sub-pmfs: mass 0.9), random counts of up to
    60 dice: the two methods agree to 1e-13 and have the same shape."""
    rng = np.random.default_rng(seed)
    shape = tuple(int(x) for x in rng.integers(1, 5, size=int(rng.integers(1, 3))))
    die = rng.random(shape)
    die[rng.random(shape) < 0.3] = 0.0
    die.flat[0] += 0.01
    die /= die.sum() * (1.0 if seed % 2 else 1 / 0.9)
    n = int(rng.integers(1, 60))
    count = rng.random(n + 1)
    count[rng.random(n + 1) < 0.5] = 0.0
    count[-1] = 0.1
    count /= count.sum()
    fast, slow = _compound_fft(count, die), _compound_direct(count, die)
    assert fast.shape == slow.shape
    assert np.abs(fast - slow).max() < 1e-13
    assert fast.sum() == pytest.approx(slow.sum(), abs=1e-12)
    assert (fast >= 0).all()


def test_forty_fair_coins_are_binomial() -> None:
    """40 dice of pmf (1/2, 1/2): Binomial(40, 1/2); the exact zeros beyond the support
    stay zeros and the centre is C(40, 20) / 2^40."""
    count = np.zeros(41)
    count[40] = 1.0
    total = compound(count, np.array([0.5, 0.5]))
    from math import comb

    assert len(total) == 41
    assert total[20] == pytest.approx(comb(40, 20) / 2**40, rel=1e-12)
    assert total.sum() == pytest.approx(1.0, abs=1e-15)


def test_few_dice_are_summed_die_by_die() -> None:
    """Below ``FFT_FROM_DICE`` dice the sums are exact sums of products: a Torrent-like
    die (always 1) gives exactly 0 everywhere but the count."""
    count = np.zeros(FFT_FROM_DICE)
    count[-1] = 1.0
    total = compound(count, np.array([0.0, 1.0]))
    assert total.tolist() == [0.0] * (FFT_FROM_DICE - 1) + [1.0]  # exact: see above


def test_the_dropped_tail_moves_no_distribution_by_more_than_its_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The chain skips each line's counts beyond a tail of at most ``NEGLIGIBLE_TAIL``
    (``chain.drop_negligible_tail``): a 30-attack Sustained Hits 2 / Devastating Wounds
    line into a leader-led target (pooled saves) and a second line, computed with and
    without the drop, differ by less than 1e-12 in total variation everywhere."""
    from tactica import calculate
    from tactica.combat.exact import chain

    scenario = {
        "attacker": {"weapons": [
            {"name": "gun", "count": 30, "A": "1", "skill": 3, "S": 6, "AP": -1, "D": "2",
             "abilities": ["Sustained Hits 2", "Devastating Wounds"]},
            {"name": "rifle", "count": 10, "A": "1", "skill": 3, "S": 4, "AP": 0, "D": "1"}]},
        "target": {"models": [
            {"name": "trooper", "count": 10, "T": 4, "Sv": 4, "W": 1},
            {"name": "leader", "count": 1, "T": 4, "Sv": 2, "W": 4, "character": True}]},
    }
    fast = calculate(scenario)
    monkeypatch.setattr(chain, "NEGLIGIBLE_TAIL", 0.0)
    full = calculate(scenario)
    for key in ("unsaved", "damage", "models_destroyed"):
        a, b = getattr(fast, key).pmf, getattr(full, key).pmf
        size = max(len(a), len(b))
        a = np.pad(np.array(a), (0, size - len(a)))
        b = np.pad(np.array(b), (0, size - len(b)))
        assert np.abs(a - b).sum() < 1e-12, key
    assert len(fast.unsaved.pmf) <= len(full.unsaved.pmf)


@pytest.mark.parametrize("seed", range(60))
def test_few_dice_on_python_floats_are_the_numpy_sums_bit_for_bit(seed: int) -> None:
    """``_compound_few`` (die by die on Python floats, for small totals) gives exactly
    the numpy slices' sums of ``_compound_direct``: random 1-D and 2-D dies (with zero
    faces), random counts of up to 5 dice (with zero weights)."""
    from tactica.combat.exact import totals

    rng = np.random.default_rng(seed)
    shape = tuple(int(x) for x in rng.integers(1, 4, size=int(rng.integers(1, 3))))
    die = rng.random(shape)
    die[rng.random(shape) < 0.3] = 0.0
    die /= max(die.sum(), 1e-9)
    n = int(rng.integers(1, 6))
    count = rng.random(n + 1)
    count[rng.random(n + 1) < 0.4] = 0.0
    count[-1] = 0.2
    count /= count.sum()
    few = totals._compound_few(count, die)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(totals, "_FEW_PRODUCTS", -1)  # the numpy slices
        plain = totals._compound_direct(count, die)
    assert few.shape == plain.shape and few.tobytes() == plain.tobytes()


@pytest.mark.parametrize("seed", range(30))
def test_the_tail_cut_is_the_cumulative_sums_cut(seed: int) -> None:
    """``drop_negligible_tail`` (tail masses summed on Python floats) cuts where the
    numpy formulation (reversed ``np.cumsum`` of the row and column sums) cuts: random
    joint pmfs whose last rows and columns carry masses around the 1e-15 bound."""
    from tactica.combat.exact.chain import NEGLIGIBLE_TAIL, drop_negligible_tail

    rng = np.random.default_rng(seed)
    nm = rng.random((int(rng.integers(1, 30)), int(rng.integers(1, 6))))
    nm /= nm.sum()
    tiny = rng.random(nm.shape) < 0.5
    nm[tiny] *= 10.0 ** -rng.integers(13, 18, size=int(tiny.sum()))
    rows = np.cumsum(nm.sum(axis=1)[::-1])[::-1]
    cols = np.cumsum(nm.sum(axis=0)[::-1])[::-1]
    r = max(1, int(np.count_nonzero(rows > NEGLIGIBLE_TAIL)))
    c = max(1, int(np.count_nonzero(cols > NEGLIGIBLE_TAIL)))
    assert drop_negligible_tail(nm).shape == (r, c)


@pytest.mark.parametrize("seed", range(40))
def test_few_dice_of_three_outcomes_are_multinomial(seed: int) -> None:
    """``_multinomial`` (a few dice of nothing / a wound / a critical, 1-D (2,) or 2-D
    up to (2, 2) without the corner) against die by die: random dies and sub-pmfs
    (mass 0.9), random counts of up to ``_MULTINOMIAL_DICE`` dice: the same shape, to
    1e-15, no negative entry; ``compound`` takes it from ``FFT_FROM_DICE`` dice on."""
    rng = np.random.default_rng(100 + seed)
    shape = [(2,), (2, 1), (1, 2), (2, 2)][seed % 4]
    die = rng.random(shape)
    if shape == (2, 2):
        die[1, 1] = 0.0
    die /= die.sum() * (1.0 if seed % 3 else 1 / 0.9)
    n = int(rng.integers(1, _MULTINOMIAL_DICE + 1))
    count = rng.random(n + 1)
    count[rng.random(n + 1) < 0.4] = 0.0
    count[-1] = 0.2
    count /= count.sum()
    got, want = _multinomial(count, die), _compound_direct(count, die)
    assert got is not None and got.shape == want.shape
    assert np.abs(got - want).max() < 1e-15 and (got >= 0).all()
    if n >= FFT_FROM_DICE:
        assert np.array_equal(compound(count, die), got)


def test_multinomial_only_where_it_applies() -> None:
    """A die with both a wound and a critical at once, a larger die, more dice than
    ``_MULTINOMIAL_DICE`` or no outcome but nothing: not this form."""
    count = np.full(7, 1 / 7)
    assert _multinomial(count, np.array([[0.5, 0.2], [0.2, 0.1]])) is None
    assert _multinomial(count, np.array([0.5, 0.3, 0.2])) is None
    assert _multinomial(np.full(_MULTINOMIAL_DICE + 2, 0.1), np.array([0.5, 0.5])) is None
    assert _multinomial(count, np.array([1.0, 0.0])) is None
