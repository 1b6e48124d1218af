"""The exact engine's fast per-call paths give bit for bit what the plain formulations
give: the result's distributions (``Distribution.from_array``), the read-out of the final
states (``readout.read_out``, all states at once), one attack die's sub-pmfs computed on
demand (``DieOutcome``), one certain die compounded (``compound``), a fixed number of
attack dice placed without convolutions (``stages.attacks.power``), and the BLAS limit
entered once for nested calls. The plain formulations are written out here, as the
engine had them, and compared on real library units into every target preset."""

from __future__ import annotations

import contextlib
from functools import cache

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from threadpoolctl import threadpool_info

from tactica.combat.contract.result import Distribution
from tactica.combat.contract.scenario import Scenario
from tactica.combat.exact.allocation import Packet, StateSpace, build_groups
from tactica.combat.exact.dice_stages import (
    DieOutcome,
    conv2,
    die_outcome,
)
from tactica.combat.exact.engine import _prepare, _weapon_totals
from tactica.combat.exact.reach import ChainPlan, LinePlan, reach
from tactica.combat.exact.readout import read_out
from tactica.combat.exact.stages.attacks import power
from tactica.combat.exact.threads import one_blas_thread
from tactica.combat.exact.totals import (
    _compound_direct,
    compound,
)
from tactica.library import load_library
from tactica.units import UnitError, UnitRef, resolve_attacker
from volume import sampled


def _plain_distribution(pmf: np.ndarray, length: int | None = None) -> Distribution:
    p = np.asarray(pmf, dtype=np.float64)
    if length is not None:
        p = np.concatenate([p, np.zeros(max(0, length - len(p)))])[:length]
    else:
        nz = np.nonzero(p > 0.0)[0]
        p = p[: nz[-1] + 1] if len(nz) else np.array([1.0])
    mean = float(np.dot(np.arange(len(p)), p))
    return Distribution(mean=mean, pmf=tuple(float(x) for x in p))


pmfs = st.lists(st.floats(0.0, 1.0) | st.just(0.0), min_size=1, max_size=30)


@given(pmfs, st.none() | st.integers(0, 40))
def test_distribution_from_array_is_the_plain_formulation(values: list[float],
                                                          length: int | None) -> None:
    fast = Distribution.from_array(np.array(values), length=length)
    plain = _plain_distribution(np.array(values), length=length)
    assert fast == plain and fast.model_dump_json() == plain.model_dump_json()
    assert all(type(x) is float for x in fast.pmf) and type(fast.mean) is float


def _plain_read_out(space: StateSpace, final: np.ndarray, keywords: tuple[str, ...]
                    ) -> tuple[np.ndarray, np.ndarray, float, float]:
    start_wounds = space.wounds_left(space.initial)
    start_models = space.models_left(space.initial)
    by_state = final.sum(axis=1)
    damage = np.zeros(start_wounds + 1)
    killed = np.zeros(start_models + 1)
    p_dead = 0.0
    for i, s in enumerate(space.states):
        p = by_state[i]
        if not p:
            continue
        damage[start_wounds - space.wounds_left(s)] += p
        left = space.models_left(s)
        killed[start_models - left] += p
        if left == 0:
            p_dead += p
    chars = [gi for gi, g in enumerate(space.groups) if g.character] or (
        list(range(len(space.groups))) if "CHARACTER" in keywords else [])
    p_char = float(sum(by_state[i] for i, s in enumerate(space.states)
                       if any(s[2 * gi] < space.groups[gi].count for gi in chars)))
    return damage, killed, float(p_dead), p_char


@cache
def _scenarios() -> list[Scenario]:
    """Every 60th library datasheet shooting into every target preset, and a character
    unit attached (a leader with bodyguards) as a target."""
    lib = load_library()
    targets = [p.to_target() for p in lib.presets()]
    out = []
    for sheet in lib.datasheets()[::60]:
        with contextlib.suppress(UnitError):
            attacker, _ = resolve_attacker(UnitRef(unit=sheet.name), lib, sheet.rules,
                                           "shooting")
            out += [Scenario(attacker=attacker, target=t) for t in targets]
    return out


def test_read_out_is_the_state_by_state_sum() -> None:
    rng = np.random.default_rng(1)
    seen = 0
    for s in _scenarios()[::7]:
        space = StateSpace(build_groups(s.target))
        # every state the first weapon's attacks reach, with random probabilities
        reach(space, ChainPlan(None, (LinePlan(False, (_packet(s, space),), None),), True),
              [0], [])
        assert len(space.states) > 1
        final = rng.random((len(space.states), 4))
        final[rng.random(len(space.states)) < 0.3] = 0.0
        final /= final.sum()
        for keywords in (s.target.keywords, ("CHARACTER",)):
            got = read_out(space, final, keywords)
            damage, killed, p_dead, p_char = _plain_read_out(space, final, keywords)
            assert got.damage.tobytes() == damage.tobytes()
            assert got.killed.tobytes() == killed.tobytes()
            assert (got.p_dead, got.p_character) == (p_dead, p_char)
        seen += 1
    assert seen >= 10


def _packet(s: Scenario, space: StateSpace) -> Packet:
    w = _prepare(s).weapons[0]
    return Packet((0.5,) * len(space.groups), tuple(w.damage_pmf.tolist()), None, False)


def _plain_joint(die: DieOutcome, miss: float, ok_wound: bool) -> np.ndarray:
    """``DieOutcome``'s joint as it was built (all three, eagerly)."""
    p = die.parts
    one, crit_one = (p.single_ok, p.crit_self_ok) if ok_wound else (p.single, p.crit_self)
    max_h = len(p.sus)
    joint = np.zeros((max_h + 1, max_h + 1, max_h + 1))
    joint[0, 0, 0] += miss
    joint[1, :2, :2] += p.hp[1] * one
    if p.hp[2]:
        acc = crit_one
        for x, px in enumerate(p.sus):
            if px:
                joint[1 + x, : acc.shape[0], : acc.shape[1]] += p.hp[2] * px * acc
            acc = conv2(acc, one)
    return joint


def test_die_outcomes_on_demand_are_the_eager_ones() -> None:
    seen = 0
    for s in _scenarios()[::3]:
        prep = _prepare(s)
        for w in prep.weapons:
            die = die_outcome(w, 1.0, 2.0)
            fail = float(die.parts.hp[0])
            assert die.joint.tobytes() == _plain_joint(die, fail, False).tobytes()
            assert die.no_failed_hit.tobytes() == _plain_joint(die, 0.0, False).tobytes()
            assert die.no_failed_wound.tobytes() == _plain_joint(die, fail, True).tobytes()
            # the sub-pmfs: without the failed hit die, the joint less P(miss)
            assert die.no_failed_hit.sum() == pytest.approx(1.0 - fail, abs=1e-12)
            assert die.joint.sum() == pytest.approx(1.0, abs=1e-12)
            seen += 1
    assert seen >= 30


@given(st.lists(st.floats(0.0, 1.0), min_size=1, max_size=6),
       st.lists(st.floats(0.0, 1.0), min_size=1, max_size=4))
def test_one_certain_die_compounds_to_itself(rows: list[float], cols: list[float]) -> None:
    per_die = np.outer(rows, cols)
    total = per_die.sum()
    if total > 0:
        per_die /= total
    one = np.array([0.0, 1.0])
    assert compound(one, per_die).tobytes() == _compound_direct(one, per_die).tobytes()


def test_library_totals_equal_die_by_die_for_one_certain_die() -> None:
    """Real single-model weapons (one attack die): the shortcut is die by die."""
    seen = 0
    for s in _scenarios():
        prep = _prepare(s)
        space = StateSpace(build_groups(prep.scenario.target))
        for wi, w in enumerate(prep.weapons):
            # exact: picks the certain single die, parsed from "1" (no sum made)
            if w.attacks_pmf.tolist() != [0.0, 1.0]:
                continue
            t = _weapon_totals(w, wi, prep.scenario, space, prep.rules, (), {})
            assert t.nm.tobytes() == _compound_direct(w.attacks_pmf, t.die.to_save).tobytes()
            seen += 1
    assert seen >= 5


@given(st.integers(0, 12), st.integers(1, 8), st.integers(0, 30))
def test_a_fixed_attack_count_is_what_the_convolutions_give(at: int, size: int,
                                                             copies: int) -> None:
    pmf = np.zeros(max(size, at + 1))
    pmf[at] = 1.0
    plain = np.array([1.0])
    for _ in range(copies):
        plain = np.convolve(plain, pmf)
    assert power(pmf, copies).tobytes() == plain.tobytes()


def _blas_threads() -> list[int]:
    return [d["num_threads"] for d in threadpool_info() if d["user_api"] == "blas"]


def test_nested_calls_keep_one_blas_limit_and_restore_it() -> None:
    before = _blas_threads()
    inner_seen: list[list[int]] = []

    @one_blas_thread
    def inner() -> None:
        inner_seen.append(_blas_threads())

    @one_blas_thread
    def outer() -> None:
        inner()
        inner_seen.append(_blas_threads())

    outer()
    assert inner_seen and all(set(t) <= {1} for t in inner_seen)
    assert _blas_threads() == before


arrays_2d = st.tuples(st.integers(1, 4), st.integers(1, 4)).flatmap(
    lambda shape: st.lists(st.floats(0.0, 1.0) | st.just(0.0), min_size=shape[0] * shape[1],
                           max_size=shape[0] * shape[1]).map(
        lambda v: np.array(v).reshape(shape)))


@given(arrays_2d)
def test_antidiagonal_and_one_convolution_are_the_plain_sums(nm: np.ndarray) -> None:
    """``antidiagonal`` of one row or column and ``conv_all`` of one pmf (the shortcuts)
    are bit for bit the bin counts and the convolution with [1.0]."""
    from tactica.combat.exact.readout import antidiagonal, conv_all

    rows, cols = nm.shape
    index = np.add.outer(np.arange(rows), np.arange(cols)).ravel()
    plain = np.bincount(index, weights=nm.ravel(), minlength=rows + cols - 1)
    assert antidiagonal(nm).tobytes() == plain.astype(np.float64).tobytes()
    p = nm.ravel()
    assert conv_all([p]).tobytes() == np.convolve(np.array([1.0]), p).tobytes()


@pytest.mark.parametrize("shape", [(3,), (2,), (2, 1), (1, 3), (3, 4), (2, 3, 2)])
def test_transforms_are_numpys_bit_for_bit(shape: tuple[int, ...]) -> None:
    """``totals._rfftn``/``_irfftn`` (numpy's n-dimensional transforms without their
    argument handling) give exactly what ``np.fft.rfftn``/``irfftn`` give. Bit for bit up
    to two axes (at most one complex transform after the real one); with three or more,
    numpy 1.26's ``rfftn`` takes the complex axes first to last where numpy 2 (and
    ``_rfftn``) take them last to first: the same sums in another order, so within
    1e-12."""
    from tactica.combat.exact.totals import _irfftn, _rfftn

    die = np.random.default_rng(len(shape) * 7 + shape[0]).random(shape)
    size = tuple((d - 1) * 9 + 1 for d in shape)
    axes = tuple(range(len(shape)))
    spectrum = np.fft.rfftn(die, s=size, axes=axes)
    if len(shape) <= 2:
        assert _rfftn(die, size).tobytes() == spectrum.tobytes()
    else:
        assert np.abs(_rfftn(die, size) - spectrum).max() <= 1e-12
    assert _irfftn(spectrum, size).tobytes() == np.fft.irfftn(spectrum, s=size,
                                                              axes=axes).tobytes()


# --- the default run's samples (tests/volume.py): each property below runs a few
# dozen examples by default and its full count as its ``_at_volume`` twin (slow) ---
(test_distribution_from_array_is_the_plain_formulation,
 test_distribution_from_array_is_the_plain_formulation_at_volume) = sampled(
    test_distribution_from_array_is_the_plain_formulation, 30)
(test_one_certain_die_compounds_to_itself,
 test_one_certain_die_compounds_to_itself_at_volume) = sampled(
    test_one_certain_die_compounds_to_itself, 30)
(test_a_fixed_attack_count_is_what_the_convolutions_give,
 test_a_fixed_attack_count_is_what_the_convolutions_give_at_volume) = sampled(
    test_a_fixed_attack_count_is_what_the_convolutions_give, 30)
(test_antidiagonal_and_one_convolution_are_the_plain_sums,
 test_antidiagonal_and_one_convolution_are_the_plain_sums_at_volume) = sampled(
    test_antidiagonal_and_one_convolution_are_the_plain_sums, 30)
