"""Army against army benchmark: the matchup matrix of two real 2,000-point lists (both
phases, both sides), and the shooting plan of every ordered pair of three real lists,
side by side with the heuristic it replaced, CPU time.

The lists are the official app's exports in ``tests/fixtures/rosters/gw-app-11e``: the
Aeldari (``official_9``, 13 units once leaders are attached), the Chaos Knights
(``official_10``, 14 units) and the Orks (``official_16``, 12 units). The sides are read
beforehand (list parsing, pricing and the library are not timed); each run computes the
whole matrix, or the whole plan, from nothing (no cache kept between runs). Targets: the
matrix in at most 2 s; the plan proved optimal, or within a certified gap of 1%, in at
most 5 s.

The plan is timed three ways: the **heuristic** of commit ``HEURISTIC`` (an integer
programme on a linear estimate, then a local search over each unit's 4 best targets; no
proof: its "bound" was not one), loaded from git (``git show HEURISTIC:src/tactica/plan/
solver.py``) into a module of the package beside today's code, which it runs on (the
same volley evaluator, fielding and engine); today's **branch and price** proving the
plan optimal (``solve``); and the same stopping once its certified gap is at most 1%
(``solve(..., gap=0.01)``). Each pair is warmed up first (one untimed call of each
solver: the process-wide caches of fielding and effects), then each run reads the sides
afresh, untimed.

Run ``python benchmarks/bench_plan.py`` (``--runs N``, ``--no-write``). It prints a
markdown table and writes it into ``benchmarks/README.md`` between the markers
``<!-- plan:start -->`` and ``<!-- plan:end -->``. Times are reported, never asserted.
"""

from __future__ import annotations

import importlib.util
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from readme import table_command, write_section

from tactica.library import load_library
from tactica.plan import matchup_sides, read_side, solve
from tactica.plan.army import Side

ROOT = Path(__file__).resolve().parents[1]
LISTS = ROOT / "tests" / "fixtures" / "rosters" / "gw-app-11e"
AELDARI, CHAOS_KNIGHTS, ORKS = "official_9.txt", "official_10.txt", "official_16.txt"
NAMES = {AELDARI: "Aeldari", CHAOS_KNIGHTS: "Chaos Knights", ORKS: "Orks"}
#: The last commit with the heuristic plan (integer programme + local search).
HEURISTIC = "158f0ff"


def _cpu(work: Callable[[], Any], runs: int) -> tuple[list[float], Any]:
    times, out = [], None
    for _ in range(runs):
        t0 = time.process_time()
        out = work()
        times.append(time.process_time() - t0)
    return times, out


def _sides(mine: str, enemy: str) -> tuple[Side, Side]:
    lib = load_library()
    return read_side(LISTS / mine, lib), read_side(LISTS / enemy, lib)


def heuristic() -> ModuleType:
    """The solver of commit ``HEURISTIC`` as the module ``tactica.plan._heuristic``
    (its relative imports find today's army, cells and volley modules)."""
    source = subprocess.run(["git", "show", f"{HEURISTIC}:src/tactica/plan/solver.py"],
                            cwd=ROOT, check=True, capture_output=True, text=True).stdout
    name = "tactica.plan._heuristic"
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "tactica.plan"
    sys.modules[name] = module
    exec(compile(source, f"{HEURISTIC}:src/tactica/plan/solver.py", "exec"), module.__dict__)
    return module


def _matrix_rows(runs: int) -> list[str]:
    rows = []
    for mine, enemy in ((AELDARI, ORKS), (ORKS, CHAOS_KNIGHTS)):
        a, b = _sides(mine, enemy)
        matchup_sides(a, b)  # warm-up: imports and the library's caches
        times, m = _cpu(lambda a=a, b=b: matchup_sides(a, b), runs)
        cells = sum(1 for _ in m.cells())
        rows.append(f"| matrix, {NAMES[mine]} v {NAMES[enemy]} ({len(a.units)} x "
                    f"{len(b.units)} units, both phases, both sides: {cells} cells) | "
                    f"{statistics.median(times):.2f} | {min(times):.2f} | 2 | |")
    return rows


def _fresh(work: Callable[[Side, Side], Any], mine: str, enemy: str, runs: int
           ) -> tuple[list[float], Any]:
    """``work`` timed on sides read afresh before each run, untimed (a side keeps its
    units' fielding against each target between calls)."""
    times, out = [], None
    for _ in range(runs):
        a, b = _sides(mine, enemy)
        t0 = time.process_time()
        out = work(a, b)
        times.append(time.process_time() - t0)
    return times, out


def _plan_rows(runs: int) -> list[str]:
    old = heuristic()
    rows = []
    for mine, enemy in ((AELDARI, ORKS), (CHAOS_KNIGHTS, ORKS), (ORKS, CHAOS_KNIGHTS),
                        (AELDARI, CHAOS_KNIGHTS), (ORKS, AELDARI), (CHAOS_KNIGHTS, AELDARI)):
        label = f"{NAMES[mine]} v {NAMES[enemy]}"
        for work in (old.solve, solve):  # warm-up: the engine's and the fielding's caches
            work(*_sides(mine, enemy))
        t_old, p_old = _fresh(old.solve, mine, enemy, runs)
        t_new, p_new = _fresh(solve, mine, enemy, runs)
        t_gap, p_gap = _fresh(lambda a, b: solve(a, b, gap=0.01), mine, enemy, runs)
        a, b = _sides(mine, enemy)
        size = f"{len(a.units)} x {len(b.units)}"
        rows.append(f"| {label} ({size}) | heuristic ({HEURISTIC}) | "
                    f"{statistics.median(t_old):.2f} | {min(t_old):.2f} | "
                    f"{p_old.points:.1f} | its \"bound\" {p_old.bound:.1f} (not one) |")
        rows.append(f"| | branch and price | {statistics.median(t_new):.2f} | "
                    f"{min(t_new):.2f} | {p_new.points:.1f} | {_proof(p_new)} |")
        rows.append(f"| | branch and price, gap 1% | {statistics.median(t_gap):.2f} | "
                    f"{min(t_gap):.2f} | {p_gap.points:.1f} | {_proof(p_gap)} |")
    return rows


def _proof(p: Any) -> str:
    if p.optimal:
        return (f"**optimal** (bound = value; {p.branches} branches, "
                f"{p.volleys_evaluated} volleys evaluated)")
    return (f"bound {p.bound:.1f}, gap {p.gap:.1f} ({p.gap / p.score:.2%}); "
            f"{p.branches} branches, {p.volleys_evaluated} volleys evaluated")


def table(runs: int) -> str:
    return "\n".join([
        f"Machine: {platform.machine()}, Python {platform.python_version()}; CPU seconds "
        f"(process time), {runs} runs, the sides read beforehand; "
        "`python benchmarks/bench_plan.py`.",
        "",
        "| what | median s | min s | target s | answer |",
        "|---|---:|---:|---:|---|",
        *_matrix_rows(runs),
        "",
        "The shooting plan of each ordered pair (my units x their units), every unit "
        "of the first list that shoots; points destroyed (expected):",
        "",
        "| lists | method | median s | min s | points | proof |",
        "|---|---|---:|---:|---:|---|",
        *_plan_rows(runs),
    ])


def _write(text: str) -> None:
    write_section("plan", text, appended="## Army against army (`benchmarks/bench_plan.py`)"
                  "\n\n")


if __name__ == "__main__":
    raise SystemExit(table_command(__doc__ or "", table, _write, 3, "runs of each"))
