"""Army against army benchmark: the matchup matrix of two real 2,000-point lists (both
phases, both sides) and the shooting plan of 10 shooting units at 12 targets, CPU time.

The lists are the official app's exports in ``tests/fixtures/rosters/gw-app-11e``: the
Aeldari (13 units once leaders are attached) against the Orks (12 units), and the Orks
against the Chaos Knights (14 units). The sides are read beforehand (list parsing, pricing
and the library are not timed); each run computes the whole matrix, or the whole plan,
from nothing (no cache kept between runs). Targets: the matrix in at most 2 s, the plan in
at most 5 s.

Run ``python benchmarks/bench_plan.py`` (``--runs N``, ``--no-write``). It prints a
markdown table and writes it into ``benchmarks/README.md`` between the markers
``<!-- plan:start -->`` and ``<!-- plan:end -->``. Times are reported, never asserted.
"""

from __future__ import annotations

import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from readme import table_command, write_section

from tactica.library import load_library
from tactica.plan import matchup_sides, read_side, solve
from tactica.plan.army import Side

LISTS = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "rosters" / "gw-app-11e"
AELDARI, CHAOS_KNIGHTS, ORKS = "official_9.txt", "official_10.txt", "official_16.txt"


def _cpu(work: Callable[[], Any], runs: int) -> tuple[list[float], Any]:
    times, out = [], None
    for _ in range(runs):
        t0 = time.process_time()
        out = work()
        times.append(time.process_time() - t0)
    return times, out


def _sides(mine: str, enemy: str, shooters: int | None = None) -> tuple[Side, Side]:
    lib = load_library()
    a, b = read_side(LISTS / mine, lib), read_side(LISTS / enemy, lib)
    if shooters is not None:
        a.units = a.units[:shooters]
    return a, b


def table(runs: int) -> str:
    rows = []
    for mine, enemy, label in ((AELDARI, ORKS, "Aeldari v Orks"),
                               (ORKS, CHAOS_KNIGHTS, "Orks v Chaos Knights")):
        a, b = _sides(mine, enemy)
        matchup_sides(a, b)  # warm-up: imports and the library's caches
        times, m = _cpu(lambda a=a, b=b: matchup_sides(a, b), runs)
        cells = sum(1 for _ in m.cells())
        rows.append(f"| matrix, {label} ({len(a.units)} x {len(b.units)} units, both "
                    f"phases, both sides: {cells} cells) | {statistics.median(times):.2f} | "
                    f"{min(times):.2f} | 2 | |")
    for mine, enemy, shooters, label in ((AELDARI, ORKS, 10, "Aeldari v Orks"),
                                         (CHAOS_KNIGHTS, ORKS, None, "Chaos Knights v Orks")):
        a, b = _sides(mine, enemy, shooters=shooters)
        times, p = _cpu(lambda a=a, b=b: solve(a, b), runs)
        rows.append(f"| plan, {label} ({len(a.units)} shooting units x {len(b.units)} "
                    f"targets) | {statistics.median(times):.2f} | {min(times):.2f} | "
                    f"{5 if shooters == 10 else ''} | {p.method}: {p.points:.1f} points "
                    f"destroyed (naive plan {p.naive_points:.1f}); bound {p.bound:.1f}; "
                    f"{p.steps} attacks computed |")
    return "\n".join([
        f"Machine: {platform.machine()}, Python {platform.python_version()}; CPU seconds "
        f"(process time), {runs} runs, the sides read beforehand; "
        "`python benchmarks/bench_plan.py`.",
        "",
        "| what | median s | min s | target s | answer |",
        "|---|---:|---:|---:|---|",
        *rows,
    ])


def _write(text: str) -> None:
    write_section("plan", text, appended="## Army against army (`benchmarks/bench_plan.py`)"
                  "\n\n")


if __name__ == "__main__":
    raise SystemExit(table_command(__doc__ or "", table, _write, 3, "runs of each"))
