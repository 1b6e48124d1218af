"""A single small ``tactica.calculate`` call beside icepool's, call by call (issue 40).

The five everyday cases of ``benchmarks/cases.py`` (every case but the stress case), each
timed as ``benchmarks/run.py`` times them (``run.interleaved_medians``): every round calls
tactica ``BLOCK`` times in a row, then icepool ``BLOCK`` times, so each tool's first call
of a round follows the other tool's calls ("call by call": the CPU's caches and branch
predictors hold the other tool's work) and its later calls follow its own ("in a row").
The ratio is icepool's median time over tactica's: above 1, tactica is faster.

What is timed, and why it is honest:

* tactica: ``tactica.calculate(document)``, the scenario as a dict (validated in the
  call), the full result document (every stage's distribution, allocation to models,
  models destroyed). The same document is computed in every call, so before each call,
  untimed, every cache of computed numbers tactica keeps between calls is cleared
  (``run.clear_tactica_caches``: the dice pmfs, loss tables, packet matrices, binomial
  rows, transforms, names); the memos kept under an object's identity miss by
  construction (each call validates a new document). So every timed call computes its
  result from the document, as the first call of a process after the imports does.
* icepool: building the attack's dice and the total damage distribution
  (``peers.prepare_icepool``), with icepool's own caches as icepool keeps them.
* the floor: what every answer under the rules must do before any odds are computed,
  timed alone in rounds of its own beside icepool, call by call as above: the document
  read and validated (``calculator.prepare``) and the rules resolved against the target
  (``engine._prepare``: the named effects, each weapon line's stage records and dice,
  the target's groups), its value caches cleared before each call as tactica's. Its
  share of the goal's budget (icepool's call-by-call time over 1.5, from the same
  rounds) is what is left for the odds and the result document: above 100%, no engine
  and no document, however fast, would meet the goal.
* the clock: the CPU time of the thread (``time.thread_time``, ``--clock cpu``, the
  default: on a machine shared with other jobs, wall time counts their time slices too)
  or wall time (``--clock wall``, as ``run.py``).

    python benchmarks/bench_single_call.py [--runs N] [--clock cpu|wall] [--no-write]

``--write`` (the default) puts the table into ``benchmarks/README.md`` between
``<!-- single:start -->`` and ``<!-- single:end -->``. Times are reported, never asserted.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable

from cases import CASES, describe
from peers import PEERS, Prepared, prepare_icepool
from readme import write_section
from run import BLOCK, Job, clear_tactica_caches, interleaved_medians

import tactica.calculator as calculator
import tactica.combat.exact.engine as engine
from tactica import calculate

#: The ratio the issue asks for on every case, call by call.
GOAL = 1.5
CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.thread_time, "wall": time.perf_counter}


Found = list[tuple[str, dict[str, float], dict[str, float]]]


def floor(doc: dict[str, object]) -> None:
    """The document validated and the rules resolved, no odds computed (see above)."""
    scenario, _, _ = calculator.prepare(doc)
    engine._prepare(scenario)


def measure(runs: int, clock: str) -> Found:
    """Per everyday case: (key, call-by-call medians, in-a-row medians) in seconds; the
    floor's rounds under the keys ``floor`` and ``floor icepool``."""
    out = []
    for case in CASES:
        if case.key == "stress":
            continue
        print(f"{case.key} ...", file=sys.stderr, flush=True)
        doc = {**case.document, "method": "exact"}
        prepared = prepare_icepool(describe(case))
        assert isinstance(prepared, Prepared), prepared  # icepool expresses all five
        jobs = {"tactica": Job(lambda doc=doc: calculate(doc), clear_tactica_caches),
                "icepool": Job(prepared.compute)}
        medians = interleaved_medians(jobs, runs, BLOCK, CLOCKS[clock])
        alone = interleaved_medians(
            {"floor": Job(lambda doc=doc: floor(doc), clear_tactica_caches),
             "floor icepool": Job(prepared.compute)}, runs, BLOCK, CLOCKS[clock])
        out.append((case.key, medians.after_other | alone.after_other,
                    medians.in_row | alone.in_row))
    return out


def floor_table(found: Found) -> list[str]:
    """The floor beside the goal's budget, call by call."""
    lines = ["| case | validation and rules alone, call by call (ms) | icepool, call by call "
             f"(ms) | budget: icepool / {GOAL} (ms) | floor's share of the budget |",
             "|---|---:|---:|---:|---:|"]
    for key, after, _ in found:
        budget = after["floor icepool"] / GOAL
        lines.append(f"| {key} | {after['floor'] * 1e3:.3f} | "
                     f"{after['floor icepool'] * 1e3:.3f} | {budget * 1e3:.3f} | "
                     f"**{after['floor'] / budget:.0%}** |")
    return lines


def table(found: Found) -> list[str]:
    lines = ["| case | tactica, call by call (ms) | icepool, call by call (ms) | "
             "icepool / tactica, call by call | tactica, in a row (ms) | "
             "icepool, in a row (ms) | icepool / tactica, in a row |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for key, after, in_row in found:
        lines.append(
            f"| {key} | {after['tactica'] * 1e3:.3f} | {after['icepool'] * 1e3:.3f} | "
            f"**{after['icepool'] / after['tactica']:.2f}x** | {in_row['tactica'] * 1e3:.3f} | "
            f"{in_row['icepool'] * 1e3:.3f} | {in_row['icepool'] / in_row['tactica']:.2f}x |")
    return lines


def markdown(found: Found, runs: int, clock: str) -> str:
    icepool = next(p for p in PEERS if p.package == "icepool")
    worst = min(after["icepool"] / after["tactica"] for _, after, _ in found)
    what = "the thread's CPU time" if clock == "cpu" else "wall time"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return "\n".join([
        f"`python benchmarks/bench_single_call.py --runs {runs} --clock {clock}`: "
        f"{runs} rounds of {BLOCK} tactica calls then {BLOCK} {icepool.label} calls, "
        f"{what}, medians; Python {platform.python_version()} ({platform.machine()}, "
        f"{os.cpu_count()} cpu, load average {load:.1f} at the end). Every tactica call "
        "computes its document from scratch (its value caches cleared before it, "
        "untimed: see the script's text).",
        "",
        *table(found),
        "",
        f"Lowest call-by-call ratio: {worst:.2f}x (goal: {GOAL}x on every case).",
        "",
        "The floor (validation and the rules alone, no odds, no result document; rounds "
        "of its own beside icepool):",
        "",
        *floor_table(found),
    ])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=31, help="rounds (default 31)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    parser.add_argument("--no-write", action="store_true", help="do not update README.md")
    args = parser.parse_args(argv)
    runs = max(1, args.runs)
    found = measure(runs, args.clock)
    text = markdown(found, runs, args.clock)
    print(text)
    if not args.no_write:
        write_section("single", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
