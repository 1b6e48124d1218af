"""The attacker's side on its lean paths equals the plain array computations it replaced,
bit for bit: one die's wounds and hits on Python floats (``dice_stages``), the values of
the outcomes worked out only where a die weighs them (``weighs_values``), on the library
sample and on generated dice."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from itertools import product
from math import comb

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tactica.combat.contract.scenario import Effect, Scenario
from tactica.combat.exact import totals
from tactica.combat.exact.allocation import StateSpace, TooLargeError, build_groups
from tactica.combat.exact.attack_lines import expected_values, weapon_die
from tactica.combat.exact.dice_stages import (
    CRITICAL,
    FAIL,
    SUCCESS,
    DieInputs,
    DieOutcome,
    _Parts,
    roll_die,
    trim,
    weighs_values,
)
from tactica.combat.exact.engine import _prepare, calculate_exact
from tactica.combat.exact.totals import (
    _BINOMIAL_DICE,
    _FFT_FLOOR,
    FFT_FROM_DICE,
    _compound_direct,
    _compound_fft,
    _dft,
    _irfftn,
    _spectrum,
    compound,
)
from tactica.dice import MAX_DICE, MAX_VALUE, DiceExpr
from volume import sampled

from .library_sample import library_sample


def _array_hits(die: DieOutcome) -> np.ndarray:
    """The marginal over h as it was computed on arrays."""
    p = die.parts
    out = np.zeros(len(p.sus) + 1)
    out[0] = p.hp[FAIL]
    out[1] = p.hp[SUCCESS]
    out[1:] += p.hp[CRITICAL] * p.sus
    return out


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and a.tobytes() == b.tobytes()


#: What the library sample is also shot with: re-rolls of ``any`` (the values weighed),
#: granted Sustained Hits (extra hits), Lethal Hits and Devastating Wounds.
_EXTRAS: tuple[tuple[Effect, ...], ...] = (
    (),
    (Effect(reroll="hit", which="any"), Effect(reroll="wound", which="any")),
    (Effect(grant="Sustained Hits D3"), Effect(grant="Lethal Hits"),
     Effect(grant="Devastating Wounds")),
    (Effect(grant="Sustained Hits 2"), Effect(reroll="hit", which="ones")),
)


def _sample_scenarios() -> list[Scenario]:
    attackers, targets = library_sample(9)
    return [Scenario(rules=rules, phase=phase, attacker=a, target=t, effects=extra)
            for (phase, a), t, extra, rules in product(attackers[::3], targets[::3], _EXTRAS,
                                                       ("11th", "10th"))]


@pytest.mark.slow
def test_library_dice_on_python_floats_are_the_array_sums() -> None:
    seen = sustained = 0
    for s in _sample_scenarios():
        prep = _prepare(s)
        space = StateSpace(build_groups(prep.scenario.target))
        for wi, w in enumerate(prep.weapons):
            for lethal in ((), (True,) * (wi + 1), (False,) * (wi + 1)):
                die = weapon_die(w, wi, space, prep.rules, lethal)
                assert _same(die.to_save, trim(np.asarray(die.joint.sum(axis=0))))
                assert _same(die.hits, _array_hits(die))
                seen += 1
                sustained += len(die.parts.sus) > 1
    assert seen >= 300 and sustained >= 100


@pytest.mark.slow
def test_a_die_that_weighs_no_values_is_the_same_for_any_values() -> None:
    """Where ``weighs_values`` says no, the die is the one made with the real values
    (``expected_values``, as every die was made before), field for field, so its record
    (``DieInputs``) holds none; where it says yes, the values change some die in the
    sample."""
    kept = weighed = changed = 0
    for s in _sample_scenarios():
        prep = _prepare(s)
        space = StateSpace(build_groups(prep.scenario.target))
        for w in prep.weapons:
            for lethal in (None, True, False):
                e_normal, e_mortal = expected_values(w, space, prep.rules)
                # the values and the name put in the record by hand: ``DieInputs.of``
                # leaves them out of a die that weighs none, which is what is checked
                rec = DieInputs.of(w, lethal)._replace(name=w.name)
                real = roll_die(rec._replace(e_normal=e_normal, e_mortal=e_mortal))
                other = roll_die(rec._replace(e_normal=e_normal * 3 + 1, e_mortal=0.0))
                same = (_same(real.to_save, other.to_save) and _same(real.hits, other.hits)
                        and real.notes == other.notes
                        and real.lethal_taken == other.lethal_taken
                        and real.hit_reroll_faces == other.hit_reroll_faces
                        and real.wound_reroll_faces == other.wound_reroll_faces)
                if weighs_values(w, lethal):
                    weighed += 1
                    changed += not same
                else:
                    kept += 1
                    assert same, w.name
    assert kept >= 200 and weighed >= 100 and changed >= 10


_prob = st.floats(0.0, 1.0, allow_nan=False)


@given(st.lists(_prob, min_size=3, max_size=3), st.lists(_prob, min_size=1, max_size=5),
       st.lists(_prob, min_size=4, max_size=4), st.booleans())
def test_generated_wounds_are_the_joint_summed_over_hits(
        hp: list[float], sus: list[float], single: list[float], lethal: bool) -> None:
    """Any hit outcome, Sustained Hits pmf and wound outcome (not normalised: the sums
    are what is compared)."""
    one = np.array(single).reshape(2, 2)
    crit = np.array([[0.0, 0.0], [1.0, 0.0]]) if lethal else one
    parts = _Parts(np.array(hp), np.array(sus), one, one, crit, crit)
    assert _same(parts.wounds(), trim(parts.build(False, hp[0]).sum(axis=0)))


def test_dice_pmfs_are_the_weights_divided_on_arrays() -> None:
    """``DiceExpr.pmf`` divides on Python floats: the floats numpy's division gives."""
    for n, sides, plus in product(range(MAX_DICE + 1), (3, 6), (0, 1, 3, 7, MAX_VALUE)):
        expr = DiceExpr(n, sides, plus)
        by_array = np.array(expr.weights(), dtype=np.float64) / expr.total_weight
        assert _same(expr.pmf(), by_array), expr


def _direct_dft(n: int, size: int, half: bool) -> np.ndarray:
    """The DFT matrix by its formula on its own grid (as ``_dft`` made every one)."""
    k = np.arange(n // 2 + 1 if half else n)
    return np.exp((-2j * np.pi / n) * (np.outer(np.arange(size), k) % n))


def test_half_dft_matrices_are_the_formula_on_their_grid() -> None:
    for n, size in product(range(1, 400), (1, 2, 3, 4, 7, 12)):
        assert _same(_dft(n, size, True), _direct_dft(n, size, True)), (n, size)
        assert _same(_dft(n, size, False), _direct_dft(n, size, False)), (n, size)


@given(st.lists(st.floats(0.0, 1.0, allow_nan=False), min_size=1, max_size=12),
       st.integers(1, 60))
def test_a_one_column_die_transforms_as_a_2d_one(column: list[float], dice: int) -> None:
    """A die of (n, 0) outcomes only: its spectrum and the inverse transform on the
    column alone are the 2-D products and transforms, bit for bit."""
    per_die = np.array(column).reshape(-1, 1)
    shape = ((len(column) - 1) * dice + 1, 1)
    spectrum = _spectrum(per_die, shape)
    plain = _direct_dft(shape[0], len(column), False).T @ (
        per_die @ _direct_dft(1, 1, True))
    assert _same(spectrum, plain)
    inverse = np.fft.irfft(np.fft.ifft(plain, shape[0], axis=0), 1, axis=-1)
    assert _same(_irfftn(plain, shape), inverse)


@given(st.floats(0.0, 1.0, allow_nan=False), st.floats(0.0, 1.0, allow_nan=False),
       st.integers(2, _BINOMIAL_DICE), st.booleans())
def test_generated_fixed_dice_of_two_outcomes_are_the_exact_binomial(
        p: float, share: float, dice: int, column: bool) -> None:
    """The binomial formula against exact rational arithmetic (from as many dice as the
    transforms take, a cell is 0 where the exact value is below their floor), against
    die by die for fewer and the transforms for more (within their round-off, which for
    a certain die of 60 dice reaches 1e-14: the formula is the exact one); a sub-pmf die
    too: q + p <= 1."""
    q = (1.0 - p) * share
    per_die = np.array([[q], [p]]) if column else np.array([q, p])
    count = np.zeros(dice + 1)
    count[dice] = 1.0
    by_formula = compound(count, per_die).ravel().tolist()
    for k, got in enumerate(by_formula):
        exact = comb(dice, k) * Fraction(p) ** k * Fraction(q) ** (dice - k)
        floor = _FFT_FLOOR if dice >= FFT_FROM_DICE else 0.0
        if exact < floor * (1 - 1e-12):
            assert got == 0.0  # exact: a cell below the floor is set to 0.0
        elif exact > floor * (1 + 1e-12):
            assert got == pytest.approx(float(exact), rel=1e-12, abs=0.0)
    if dice < FFT_FROM_DICE:
        by_die = _compound_direct(count, per_die).ravel()
        assert np.abs(np.array(by_formula) - by_die).max() <= 1e-15
    elif (p + q) ** dice > 1e-9:  # a mass the transforms tell from their round-off
        by_transform = _compound_fft(count, per_die).ravel()
        assert np.abs(np.array(by_formula) - by_transform).max() <= 1e-12


def _assert_close(a: object, b: object, path: str = "result") -> None:
    """Equal documents, floats to 1e-12 (tuples of the same lengths)."""
    if isinstance(a, float) and isinstance(b, float):
        assert abs(a - b) <= 1e-12, path
    elif isinstance(a, dict) and isinstance(b, dict):
        assert a.keys() == b.keys(), path
        for k in a:
            _assert_close(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list | tuple) and isinstance(b, list | tuple):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _assert_close(x, y, f"{path}.{i}")
    else:
        assert a == b, path


@pytest.mark.slow
def test_library_results_with_exact_totals_are_the_transform_ones(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every result of the library sample with a line of fixed dice of two outcomes
    (Bolt rifles and the like) or of many dice of one outcome (Torrent hits): the same
    document as die by die and with the transforms, to 1e-12."""
    used: list[bool] = []

    def recording(name: str) -> Callable[..., np.ndarray | None]:
        exact = getattr(totals, name)

        def run(count: np.ndarray, per_die: np.ndarray, **kw: bool) -> np.ndarray | None:
            out = exact(count, per_die, **kw)
            used.append(out is not None)
            return out
        return run

    binomial, certain = recording("_binomial"), recording("_certain")
    seen = 0
    for s in _sample_scenarios()[::4]:
        used.clear()
        monkeypatch.setattr(totals, "_binomial", binomial)
        monkeypatch.setattr(totals, "_certain", certain)
        try:
            lean = calculate_exact(s).model_dump()
        except TooLargeError:
            continue
        if not any(used):
            continue
        monkeypatch.setattr(totals, "_binomial", lambda *_, **__: None)
        monkeypatch.setattr(totals, "_certain", lambda *_, **__: None)
        _assert_close(lean, calculate_exact(s).model_dump())
        seen += 1
    assert seen >= 50


@given(st.lists(st.floats(0.0, 1.0, allow_nan=False), min_size=FFT_FROM_DICE + 1,
                max_size=40),
       st.integers(0, 3), st.integers(0, 2), st.booleans())
def test_generated_certain_dice_total_their_count(weights: list[float], row: int, col: int,
                                                  flat: bool) -> None:
    """A die of one outcome for certain: the count's distribution at multiples of the
    cell, as exact as the count (the transforms within 1e-12); a die of nothing for
    certain is left to the transforms."""
    count = np.array(weights) / (sum(weights) or 1.0)
    shape = (row + 1,) if flat else (row + 1, col + 1)
    per_die = np.zeros(shape)
    per_die[(row,) if flat else (row, col)] = 1.0
    by_count = compound(count, per_die)
    for k, p in enumerate(count.tolist()):
        at = (k * row,) if flat else (k * row, k * col)
        if row or (not flat and col):
            assert by_count[at] == (p if p >= _FFT_FLOOR else 0.0)
    if count.sum() > 1e-9:
        assert np.abs(by_count - _compound_fft(count, per_die)).max() <= 1e-12


# --- the default run's samples (tests/volume.py): each property below runs a few
# dozen examples by default and its full count as its ``_at_volume`` twin (slow) ---
(test_generated_wounds_are_the_joint_summed_over_hits,
 test_generated_wounds_are_the_joint_summed_over_hits_at_volume) = sampled(
    test_generated_wounds_are_the_joint_summed_over_hits, 30)
(test_a_one_column_die_transforms_as_a_2d_one,
 test_a_one_column_die_transforms_as_a_2d_one_at_volume) = sampled(
    test_a_one_column_die_transforms_as_a_2d_one, 30)
(test_generated_fixed_dice_of_two_outcomes_are_the_exact_binomial,
 test_generated_fixed_dice_of_two_outcomes_are_the_exact_binomial_at_volume) = sampled(
    test_generated_fixed_dice_of_two_outcomes_are_the_exact_binomial, 30)
(test_generated_certain_dice_total_their_count,
 test_generated_certain_dice_total_their_count_at_volume) = sampled(
    test_generated_certain_dice_total_their_count, 30)
