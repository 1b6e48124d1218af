"""Benchmark: the exploration of the target's states (``tactica.combat.exact.reach`` with
``tactica.combat.exact.transitions``) against the form it replaced (``reach_reference.py``:
``StateSpace.packet_edges`` asked afresh for every state and packet), side by side.

For each case the full exact call runs with either exploration (the rest of the engine
the same), each timed call after ``run.clear_tactica_caches``, the two forms in turn:
CPU time (``time.process_time``), median of ``--runs`` calls after one warm-up call,
of the whole call and of its explorations (every ``exact.reach`` in it). Cases: the size
benchmark's target whose states pass the prediction (refused by the state limit after
exploring 20,000 states; the general chain as ``bench_size.py`` runs it), the
Precision benchmark's cases (``bench_precision.py``) and library units with their
leaders attacking library units with theirs (shooting, 11th; unit references,
``tactica.units``). Before and after find the same states, in the same order, and the
same operators (``tests/combat/test_transitions.py``); equal mean damage shows it here.

Run ``python benchmarks/bench_explore.py`` (``--runs N``, ``--no-write``): prints a
markdown table and writes it into ``benchmarks/README.md`` between ``<!-- explore:start
-->`` and ``<!-- explore:end -->``. Times are reported, never asserted.
"""

from __future__ import annotations

import contextlib
import gc
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import bench_precision
import bench_size
from reach_reference import reference_reach
from readme import table_command, write_section
from run import clear_tactica_caches

from tactica.combat.contract.scenario import Scenario
from tactica.combat.exact import engine as exact
from tactica.combat.exact.allocation import TooLargeError
from tactica.combat.exact.one_group import general_chain
from tactica.library import load_library
from tactica.units import ScenarioDocument, resolve

#: (attacker, its leaders, target, its leaders): library units as fielded by default.
MATCHUPS: list[tuple[str, tuple[str, ...], str, tuple[str, ...]]] = [
    ("Legionaries", ("Sorcerer",), "Intercessor Squad", ("Captain", "Lieutenant")),
    ("Necron Warriors", ("Overlord",), "Boyz", ("Painboy",)),
    ("Kasrkin", ("Cadian Castellan",), "Battle Sisters Squad", ("Palatine",)),
    ("Tyranid Warriors with Ranged Bio-weapons", ("Winged Tyranid Prime",),
     "Guardian Defenders", ("Eldrad Ulthran",)),
    ("Chaos Terminator Squad", ("Sorcerer in Terminator Armour",), "Lychguard",
     ("Overlord",)),
]


def _matchup(attacker: str, leaders: tuple[str, ...], target: str,
             led_by: tuple[str, ...]) -> Callable[[], Scenario]:
    def build() -> Scenario:
        scenario, _, _ = resolve(ScenarioDocument.model_validate({
            "attacker": {"unit": attacker, "led_by": list(leaders)},
            "target": {"unit": target, "led_by": list(led_by)}}), load_library())
        return scenario
    return build


def _refused_case() -> Callable[[], Scenario]:
    doc = next(d for name, d in bench_size.CASES if "past the prediction" in name)
    return lambda: Scenario.model_validate(doc)


def cases() -> dict[str, tuple[Callable[[], Scenario], bool]]:
    """name -> (scenario, with the general chain as ``bench_size`` runs it)."""
    out: dict[str, tuple[Callable[[], Scenario], bool]] = {
        "refused past the prediction: 90 W4 led by 10 Captains, 9 Precision lines "
        "and bolters": (_refused_case(), True)}
    for name, build in bench_precision.CASES.items():
        out[f"Precision: {name}"] = (build, False)
    for attacker, leaders, target, led_by in MATCHUPS:
        out[f"{attacker} + {', '.join(leaders)} into {target} + {', '.join(led_by)}"] = (
            _matchup(attacker, leaders, target, led_by), False)
    return out


class _Timed:
    """``exact.reach`` replaced by ``fn`` (the exploration to time): its CPU time summed,
    and apart the time of the budget watching it (the size model's checks, ``size``)."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn
        self.seconds = 0.0
        self.budget = 0.0

    def __call__(self, space: Any, plan: Any, start: Any, maps: Any,
                 budget: Callable[..., None] | None = None) -> Any:
        def watched(*args: Any) -> None:
            t0 = time.process_time()
            try:
                assert budget is not None
                budget(*args)
            finally:
                self.budget += time.process_time() - t0

        t0 = time.process_time()
        try:
            return self.fn(space, plan, start, maps, None if budget is None else watched)
        finally:
            self.seconds += time.process_time() - t0


def _call(scenario: Scenario, explore: Callable[..., Any], general: bool
          ) -> tuple[float, float, str]:
    """One cold call: (CPU seconds, of which exploring without the size model's checks,
    mean damage or "refused")."""
    clear_tactica_caches()
    timed = _Timed(explore)
    real = exact.reach
    exact.reach = timed  # type: ignore[assignment]
    try:
        with general_chain() if general else contextlib.nullcontext():
            t0 = time.process_time()
            try:
                outcome = f"{exact.calculate_exact(scenario).damage.mean:.4f}"
            except TooLargeError:
                outcome = "refused"
            took = time.process_time() - t0
    finally:
        exact.reach = real  # type: ignore[assignment]
    return took, timed.seconds - timed.budget, outcome


def _row(name: str, scenario: Scenario, general: bool, runs: int) -> str:
    forms = {"before": reference_reach, "after": exact.reach}
    times: dict[str, list[tuple[float, float]]] = {k: [] for k in forms}
    outcome = {}
    for key, fn in forms.items():  # warm-up
        outcome[key] = _call(scenario, fn, general)[2]
    for _ in range(runs):
        for key, fn in forms.items():
            took, exploring, _ = _call(scenario, fn, general)
            times[key].append((took, exploring))
    med = {k: (statistics.median(t for t, _ in v) * 1e3,
               statistics.median(e for _, e in v) * 1e3) for k, v in times.items()}
    (b_call, b_exp), (a_call, a_exp) = med["before"], med["after"]
    return (f"| {name} | {outcome['after']} | {b_call:.1f} | {a_call:.1f} | {b_exp:.1f} | "
            f"{a_exp:.1f} | {b_exp / a_exp if a_exp else float('nan'):.1f}x |")


def table(runs: int) -> str:
    gc.collect()
    gc.freeze()
    rows = [_row(name, build(), general, runs) for name, (build, general) in cases().items()]
    return "\n".join([
        "## Exploring the target's states (`benchmarks/bench_explore.py`)",
        "",
        f"CPU-time medians of {runs} cold calls (ms) after one warm-up, the exploration "
        "of the target's states as it was (*before*: `StateSpace.packet_edges` asked "
        "afresh for every state and packet) and as it is (*after*: "
        "`tactica.combat.exact.transitions`), side by side in one process: the whole exact "
        "call and its explorations (`reach`, without the size model's checks that "
        "watch it, `size.check_explored`, the same in both). Both find the same states in the same "
        "order and the same operators (mean damage equal; `refused`: the state limit "
        "stops the exploration).",
        "",
        "| case | mean damage | call before | call after | exploring before | "
        "exploring after | faster |",
        "|---|---:|---:|---:|---:|---:|---:|",
        *rows,
    ])


def main(argv: list[str] | None = None) -> int:
    return table_command(__doc__ or "", table, lambda text: write_section(
        "explore", text, appended=""), 5, "timed runs per cell", argv)


if __name__ == "__main__":
    sys.exit(main())
