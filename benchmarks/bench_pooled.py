"""Benchmark: what 11th-edition pooled saves (05.04) and Devastating Wounds per weapon
line (24.10) cost the exact engine.

For each case the full exact result is timed twice in one process, side by side: with
the 11th rule set as it is (pooled saves, mortal wounds after each line) and with those
two knobs switched off (each attack saved on its own, mortal wounds after the whole unit:
the engine before reference facts §6). CPU time (``time.process_time``), median of
``--runs`` calls after one warm-up call: the machine is shared, wall time is noisy.

Cases:

* ``stress``: the engine benchmark's stress case (one allocation group: every group needs
  the same save, so pooling changes nothing and the engine keeps the plain chain);
* ``primus``: 12 shots BS3+ S4 AP-2 D1 into 5 Neophyte Hybrids led by a Primus (the
  issue's example);
* ``stress-led``: the stress gun into 10 Intercessors (T4 Sv3+ W2) led by a Captain in
  Terminator armour (Sv2+ 4++ W6): a leader whose save differs against AP-1.

Run ``python benchmarks/bench_pooled.py`` (``--runs N``, ``--no-write``): prints a
markdown table and writes it into ``benchmarks/README.md`` between ``<!-- pooled:start
-->`` and ``<!-- pooled:end -->``. Times are reported, never asserted.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from bench_engine import stress_scenario
from readme import table_command, write_section

from tactica import calculate
from tactica.combat import Result
from tactica.combat.exact.allocation import TooLargeError
from tactica.rules.eleventh import Eleventh


def _primus() -> dict[str, Any]:
    return {
        "attacker": {"name": "12 shots", "weapons": [{
            "name": "autogun", "count": 12, "range": 24, "A": "1", "skill": 3, "S": 4,
            "AP": -2, "D": "1"}]},
        "target": {"name": "Neophyte Hybrids led by a Primus", "models": [
            {"name": "Neophyte Hybrid", "count": 5, "T": 3, "Sv": 5, "W": 1},
            {"name": "Primus", "count": 1, "T": 3, "Sv": 5, "invuln": 5, "W": 4,
             "character": True}]},
    }


def _stress_led() -> dict[str, Any]:
    s = stress_scenario("11th")
    s["target"] = {"name": "10 Intercessors led by a Captain", "models": [
        {"name": "Intercessor", "count": 10, "T": 4, "Sv": 3, "W": 2},
        {"name": "Captain", "count": 1, "T": 4, "Sv": 2, "invuln": 4, "W": 6,
         "character": True}]}
    return s


CASES: dict[str, Callable[[], dict[str, Any]]] = {
    "stress": lambda: stress_scenario("11th"),
    "primus": _primus,
    "stress-led": _stress_led,
}


@contextmanager
def rules_before_section_6() -> Iterator[None]:
    """The 11th rule set with saves one at a time and mortal wounds after the unit."""
    saved = Eleventh.pooled_saves, Eleventh.devastating_wounds_per_line
    Eleventh.pooled_saves, Eleventh.devastating_wounds_per_line = False, False
    try:
        yield
    finally:
        Eleventh.pooled_saves, Eleventh.devastating_wounds_per_line = saved


def cpu_median(fn: Callable[[], Result], runs: int) -> tuple[float, Result]:
    """Median CPU time of ``runs`` calls (after one warm-up call), and the last result."""
    value = fn()
    times = []
    for _ in range(runs):
        t0 = time.process_time()
        value = fn()
        times.append(time.process_time() - t0)
    return statistics.median(times), value


def table(runs: int) -> str:
    rows = []
    for name, build in CASES.items():
        scenario = build()
        with rules_before_section_6():
            t_old, old = cpu_median(lambda s=scenario: calculate(s), runs)  # type: ignore[misc]
        before = (f"| {name} | {t_old * 1000:.1f} |", f"{old.damage.mean:.3f} / "
                  f"{100 * old.p_unit_destroyed:.2f}% |")
        try:
            t_new, new = cpu_median(lambda s=scenario: calculate(s), runs)  # type: ignore[misc]
        except TooLargeError as exc:
            rows.append(f"{before[0]} refused: {exc} | | {before[1]} |")
            continue
        rows.append(f"{before[0]} {t_new * 1000:.1f} | {t_new / t_old:.2f} | {before[1]} "
                    f"{new.damage.mean:.3f} / {100 * new.p_unit_destroyed:.2f}% |")
    head = [
        "## Pooled saves (`benchmarks/bench_pooled.py`)",
        "",
        "11th rule set, full exact result, CPU-time median of "
        f"{runs} runs after one warm-up call. *one at a time*: saves one attack at a time "
        "and Devastating Wounds after the whole unit (the engine before reference facts "
        "§6); *pooled*: 05.04 sorted save dice and 24.10 mortal wounds after each line.",
        "",
        "| case | one at a time (ms) | pooled (ms) | cost | damage / wiped, one at a "
        "time | damage / wiped, pooled |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    return "\n".join(head + rows)


def main(argv: list[str] | None = None) -> int:
    return table_command(__doc__ or "", table, lambda text: write_section("pooled", text), 9,
                         "timed runs per cell", argv)


if __name__ == "__main__":
    sys.exit(main())
