"""Smoke test of the benchmark cases (``benchmarks/cases.py``): every case is a valid
scenario with a neutral description, and tactica's numbers for the two headline cases
are the hand-computed ones. No timing is asserted here."""

from __future__ import annotations

import importlib.util
import sys
from typing import Any

import pytest

from combat.benchmark_module import BENCHMARKS, load_benchmark
from tactica import calculate
from tactica.combat.contract.scenario import Scenario

cases = load_benchmark("cases")
BY_KEY = {case.key: case for case in cases.CASES}


def test_the_six_cases() -> None:
    assert list(BY_KEY) == ["stress", "bolt-rifles", "lascannon", "neophytes", "primus",
                            "webber"]


@pytest.mark.parametrize("key", list(BY_KEY))
def test_case_validates_and_describes(key: str) -> None:
    case = BY_KEY[key]
    scenario = case.scenario()
    assert isinstance(scenario, Scenario)
    mc = case.scenario("monte-carlo")
    assert (mc.method, mc.trials, mc.seed) == ("monte-carlo", 100_000, 1)
    spec = cases.describe(case)
    assert len(spec.weapons) == len(scenario.attacker.weapons)
    assert spec.target.models == scenario.target.model_count
    assert all(not w.other for w in spec.weapons)  # every ability has a neutral field


def test_descriptions_follow_the_library() -> None:
    neophytes = cases.describe(BY_KEY["neophytes"])
    assert neophytes.half_range and neophytes.weapons[0].rapid_fire == "1"
    assert neophytes.weapons[0].attacks_per_model(True) == "2"
    assert neophytes.total_attacks_mean == 20
    primus = cases.describe(BY_KEY["primus"])
    assert primus.phase == "fight"
    claw = primus.weapons[1]
    assert claw.anti == ("INFANTRY", 2) and claw.extra_attacks
    webber = cases.describe(BY_KEY["webber"]).weapons[0]
    assert webber.torrent and webber.devastating_wounds and webber.skill is None
    assert (webber.attacks, webber.strength) == ("D6", 2)


def test_bolt_rifles_headline() -> None:
    # 10 shots: hit 2/3, wound 1/2 (S4 vs T4), save fails 1/2 (Sv3+ AP-1): K ~ Bin(10, 1/6)
    # unsaved wounds of 1 damage into W2 models, so E[floor(K / 2)] = 0.58767
    result = calculate(BY_KEY["bolt-rifles"].scenario())
    assert round(result.models_destroyed.mean, 4) == 0.5877
    assert result.damage.mean == pytest.approx(10 / 6)


def test_lascannon_headline() -> None:
    # 1/2 (BS4+) x 2/3 (S12 vs T10: 3+) x 5/6 (Sv3+ AP-3: 6+) x 4.5 (D6+1)
    scenario = BY_KEY["lascannon"].scenario()
    group = scenario.target.models[0]
    assert (group.T, group.Sv) == (10, 3)
    result = calculate(scenario)
    assert round(result.damage.mean, 4) == 1.25
    # exact: at most 7 damage against W11: the pmf is [1.0], its mean 0.0
    assert result.models_destroyed.mean == 0.0


#: Caches a timed call may find filled by an earlier one: what they hold does not depend
#: on the scenario.
KEPT_BETWEEN_CALLS = {
    "tactica.combat.exact.threads._blas": "the BLAS libraries numpy is linked with",
}


def _caches() -> dict[str, Any]:
    """Every functools cache of tactica's loaded modules, by dotted name."""
    return {f"{name}.{attr}": obj for name, module in list(sys.modules.items())
            if name.startswith("tactica") for attr, obj in vars(module).items()
            if getattr(obj, "__module__", None) == name
            and callable(getattr(obj, "cache_info", None))}


def test_the_benchmark_clears_every_cache_of_the_engine(monkeypatch: pytest.MonkeyPatch,
                                                        ) -> None:
    """``run.clear_tactica_caches`` leaves no work of one timed call to the next: every
    functools cache a call on the cases fills is empty after the clearing, but those of
    ``KEPT_BETWEEN_CALLS`` (a cache added to the engine and not to the clearing fails
    here)."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    run = importlib.import_module("run")
    documents = [{**case.document, "method": "exact"} for case in cases.CASES]
    run.clear_tactica_caches()
    misses = {key: c.cache_info().misses for key, c in _caches().items()}
    for document in documents:
        calculate(document)
    used = {key for key, c in _caches().items() if c.cache_info().misses > misses.get(key, 0)}
    assert "tactica.combat.exact.one_group.packet_matrix" in used  # the search sees the caches
    run.clear_tactica_caches()
    left = sorted(key for key in used - set(KEPT_BETWEEN_CALLS)
                  if _caches()[key].cache_info().currsize)
    assert left == []


def test_the_phases_of_a_call_add_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """``bench_call_phases``: each of a call's four phases runs in every case and takes
    part of the call's time, never more than the call, and the engine's functions are
    put back after the run (a phase renamed in the engine fails here, not in a benchmark
    run)."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    phases = importlib.import_module("bench_call_phases")
    before = {(label, name): getattr(module, name)
              for label, module, names in phases.PHASES for name in names}
    found = phases.measure(3)
    assert [key for key, _ in found] == [c.key for c in cases.CASES if c.key != "stress"]
    for _, medians in found:
        parts = [medians[label] for label, _, _ in phases.PHASES]
        assert all(p > 0 for p in parts)
        assert sum(parts) < medians["call"] * 1.01  # medians of parts: within 1%
    assert all(getattr(module, name) is before[label, name]
               for label, module, names in phases.PHASES for name in names)


def test_the_floor_resolves_the_rules_and_computes_no_odds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``bench_single_call.floor``: the document validated and every weapon line resolved
    against the target, and not one of the engine's odds computed (the floor is what an
    answer must do before any odds: were it to compute them, its share of the budget
    would say nothing); its table reads each case's share off the same rounds."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    single = importlib.import_module("bench_single_call")
    prepared: list[Any] = []
    real_prepare = single.engine._prepare

    def counted(*args: Any, **kwargs: Any) -> Any:
        prepared.append(real_prepare(*args, **kwargs))
        return prepared[-1]

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the floor computed odds")

    monkeypatch.setattr(single.engine, "_prepare", counted)
    for name in ("_states", "_lethal_search", "_finish"):
        monkeypatch.setattr(single.engine, name, refused)
    everyday = [c for c in cases.CASES if c.key != "stress"]
    for case in everyday:
        single.floor({**case.document, "method": "exact"})
    assert [len(p.weapons) for p in prepared] == [
        len(c.scenario().attacker.weapons) for c in everyday]
    rows = single.floor_table([("x", {"floor": 0.3e-3, "floor icepool": 0.6e-3}, {})])
    assert rows[-1].endswith("| **75%** |")  # 0.3 over 0.6 / 1.5
