"""Engine benchmark: the exact engine on a stress case, against icepool for scale.

The stress case: 40 attacks BS3+ S6 AP-1 D6 with Sustained Hits 2, Lethal Hits and
Devastating Wounds into 10 models T5 Sv3+ W3 with Feel No Pain 5+. The engine computes
the full exact result (every stage, allocation, models destroyed) under both rule sets.

If ``icepool`` is importable (the optional ``bench`` extra), the script also times how
long icepool takes to compute ONLY the distribution of the total damage of the same 40
attacks, without allocation (damage is not lost between models, so its mean is higher):
one die per attack (hit roll → Sustained Hits / Lethal Hits → wound roll → save → D6
damage → Feel No Pain per wound point), then the sum of 40 of them.

A second table times the six benchmark cases (``cases.py``) with the one-group fast path
of the target's chain (``tactica.combat.exact.one_group``) and with the general chain
(``general_chain()``), interleaved, caches cleared before every call as ``run.py`` does.

Run ``python benchmarks/bench_engine.py`` (``--runs N``, ``--no-write``). It prints a
markdown table and writes it into ``benchmarks/README.md`` between the markers
``<!-- engine:start -->`` and ``<!-- engine:end -->``. Times are reported, never
asserted. ``stress_scenario`` / ``run_engine`` / ``icepool_total_damage`` can be imported
(e.g. by a pytest-benchmark test).
"""

from __future__ import annotations

import platform
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

from cases import CASES
from readme import README, table_command, write_section
from run import clear_tactica_caches

from tactica import calculate
from tactica.combat import Result
from tactica.combat.exact.one_group import general_chain

ATTACKS = 40


def stress_scenario(rules: str = "11th") -> dict[str, Any]:
    """The stress case as a scenario document."""
    return {
        "rules": rules,
        "phase": "shooting",
        "attacker": {"name": "stress", "weapons": [{
            "name": "stress gun", "count": ATTACKS, "range": 24, "A": "1", "skill": 3,
            "S": 6, "AP": -1, "D": "D6",
            "abilities": ["Sustained Hits 2", "Lethal Hits", "Devastating Wounds"],
        }]},
        "target": {"name": "10 x T5 Sv3+ W3 FNP5+", "models": [
            {"name": "model", "count": 10, "T": 5, "Sv": 3, "W": 3, "fnp": 5}]},
    }


def run_engine(rules: str = "11th") -> Result:
    """The full exact result of the stress case."""
    return calculate(stress_scenario(rules))


def run_general(rules: str = "11th") -> Result:
    """The same through the general chain (the one-group fast path off)."""
    with general_chain():
        return calculate(stress_scenario(rules))


def icepool_total_damage() -> Any:
    """The icepool Die of the total damage of the 40 attacks, no allocation.

    Per attack: BS3+ (1-2 miss, 3-5 hit, 6 critical hit); a critical hit wounds
    automatically (Lethal Hits, taken: the engine takes it here too) and scores 2 more
    hits (Sustained Hits 2); each other hit rolls to wound, S6 vs T5 on 3+, a 6 being a
    critical wound = D6 mortal wounds (Devastating Wounds, no save); a normal wound is
    saved on 4+ (Sv3+ AP-1); the D6 damage loses each point to Feel No Pain 5+ (1/3).
    """
    import icepool

    point = icepool.Die({0: 1, 1: 2})  # a wound point survives FNP 5+ with 2/3
    damage = icepool.d6.map(lambda d: d @ point)  # D6 damage after FNP
    normal_wound = icepool.Die([icepool.Die({0: 1}), damage])  # save 4+: fails 1/2
    hit = icepool.Die([0, 0, normal_wound, normal_wound, normal_wound, damage])
    critical_hit = normal_wound + hit + hit
    attack = icepool.Die([0, 0, hit, hit, hit, critical_hit])
    return ATTACKS @ attack


#: E[one attack] = 3/6 · E[hit] + 1/6 · E[critical hit], with E[damage after FNP] = 7/3,
#: E[normal wound] = 7/6, E[hit] = 3/6 · 7/6 + 1/6 · 7/3 = 35/36,
#: E[critical hit] = 7/6 + 2 · 35/36 = 112/36: 217/216 per attack.
ICEPOOL_EXPECTED_MEAN = ATTACKS * Fraction(217, 216)


def median_time(fn: Callable[[], object], runs: int) -> tuple[float, object]:
    """Median CPU time of ``runs`` calls (after one warm-up call), and the last value (CPU
    time: the machine is shared, wall time depends on the other processes)."""
    value = fn()
    times = []
    for _ in range(runs):
        t0 = time.process_time()
        value = fn()
        times.append(time.process_time() - t0)
    return statistics.median(times), value


def have_icepool() -> bool:
    try:
        import icepool  # noqa: F401
    except ImportError:
        return False
    return True


def table(runs: int) -> str:
    rows: list[str] = []
    engine_times: dict[str, float] = {}
    for rules in ("11th", "10th"):
        t, value = median_time(partial(run_engine, rules), runs)
        assert isinstance(value, Result)
        engine_times[rules] = t
        rows.append(
            f"| tactica exact engine, full result ({rules}) | {t * 1000:.1f} | "
            f"{value.damage.mean:.4f} | {value.models_destroyed.mean:.4f} | |"
        )
    t, value = median_time(partial(run_general, "11th"), runs)
    assert isinstance(value, Result)
    rows.append(
        f"| tactica exact engine, full result (11th), general chain | {t * 1000:.1f} | "
        f"{value.damage.mean:.4f} | {value.models_destroyed.mean:.4f} | "
        f"general / fast path: {t / engine_times['11th']:.2f} |"
    )
    if have_icepool():
        import icepool

        t, die = median_time(icepool_total_damage, runs)
        mean = Fraction(die.mean())  # type: ignore[attr-defined]
        if mean != ICEPOOL_EXPECTED_MEAN:
            raise SystemExit(f"icepool die mean {mean} != {ICEPOOL_EXPECTED_MEAN}")
        ratios = ", ".join(f"{t / engine_times[r]:.2f} ({r})" for r in ("11th", "10th"))
        rows.append(
            f"| icepool {icepool.__version__}, damage distribution only (no allocation) "
            f"| {t * 1000:.1f} | {float(mean):.4f} | n/a | icepool / engine: {ratios} |"
        )
    else:
        rows.append("| icepool: not installed (`pip install icepool==2.1.3`) | | | | |")
    head = [
        f"Stress case: {ATTACKS} attacks BS3+ S6 AP-1 D6, Sustained Hits 2, Lethal Hits, "
        "Devastating Wounds into 10 models T5 Sv3+ W3, Feel No Pain 5+.",
        "",
        f"CPU-time median of {runs} runs, after one warm-up call, on Python "
        f"{platform.python_version()} ({platform.machine()}); "
        "`python benchmarks/bench_engine.py`.",
        "",
        "| what | median (ms) | mean damage | mean models destroyed | ratio |",
        "|---|---:|---:|---:|---|",
    ]
    foot = [
        "",
        "The icepool row computes only the total damage of the 40 attacks, as if damage "
        "carried from model to model (no allocation), hence its higher mean; the engine "
        "computes every stage, allocation and models destroyed exactly. Under 11th the "
        "engine also decides the optional Lethal Hits (24.23) by the expected damage of "
        "the whole attack both ways (reference facts §4: taking it in full, declining it "
        "by its expected damage alone), hence the longer 11th time. The general-chain "
        "row is "
        "the same result with the one-group fast path of the target's chain turned off "
        "(`tactica.combat.exact.one_group.general_chain`).",
    ]
    return "\n".join(head + rows + foot + ["", *cases_table(runs)])


def cases_table(runs: int) -> list[str]:
    """The six benchmark cases, fast path against general chain, CPU medians (ms), the
    two timed in turn in every round, caches cleared before every call."""
    times: dict[tuple[str, str], list[float]] = {}
    for case in CASES:
        doc = {**case.document, "method": "exact"}
        calculate(doc)
        for _ in range(runs):
            for mode in ("fast", "general"):
                clear_tactica_caches()
                t0 = time.process_time()
                if mode == "fast":
                    calculate(doc)
                else:
                    with general_chain():
                        calculate(doc)
                times.setdefault((case.key, mode), []).append(time.process_time() - t0)
    out = ["The six benchmark cases (`benchmarks/cases.py`), full exact result, CPU-time "
           f"median of {runs} rounds (caches cleared before every call):", "",
           "| case | one-group fast path (ms) | general chain (ms) | general / fast |",
           "|---|---:|---:|---:|"]
    for case in CASES:
        fast = statistics.median(times[(case.key, "fast")]) * 1000
        general = statistics.median(times[(case.key, "general")]) * 1000
        out.append(f"| {case.key} | {fast:.2f} | {general:.2f} | {general / fast:.2f} |")
    return out


def write_readme(text: str, path: Path = README) -> None:
    """Put ``text`` in the engine section of the benchmarks README."""
    write_section("engine", text, path, appended="## Engine\n\n")


def main(argv: list[str] | None = None) -> int:
    return table_command(__doc__ or "", table, write_readme, 15, "timed runs per row", argv)


if __name__ == "__main__":
    sys.exit(main())
