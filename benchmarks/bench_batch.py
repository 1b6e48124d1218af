"""Benchmark: the gauntlet with the batch API. Every unit of the bundled library (seed
pages and the 40kdc-data dataset, each rules version), in both phases with the weapons
``tactica calc`` picks by default, at its smallest size, against the ten target presets:
``tactica.calculate_many(scenario, targets=presets)`` once per unit and phase, exact.

CPU time (``time.process_time``) for the whole sweep, one run (the machine is shared),
after one untimed warm-up batch (imports and lazily loaded tables); refused matchups
(``TooLargeError``) are counted, not retried. The slowest attackers' matchups are then
timed again one by one (single ``calculate`` calls) for the slowest matchups.
``--single`` times the same sweep with one ``tactica.calculate`` call per matchup, for
the comparison.

Run ``python benchmarks/bench_batch.py`` (``--no-write``, ``--single``): prints a
markdown block and writes it into ``benchmarks/README.md`` between ``<!-- batch:start
-->`` and ``<!-- batch:end -->``. Times are reported, never asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import platform
import statistics
import sys
import time
from collections import Counter

from gauntlet import Matchup, attackers, default_library, targets
from readme import write_section

from tactica import calculate, calculate_many
from tactica.combat.contract.scenario import Scenario, ScenarioError, Target
from tactica.combat.exact.allocation import TooLargeError


def _base(m: Matchup, target: Target) -> Scenario:
    return Scenario(attacker=m.attacker, target=target, phase=m.phase, rules=m.rules)


def _name(m: Matchup) -> str:
    return f"{m.unit} ({m.rules}, {m.phase})"


def _slowest_matchups(units: list[Matchup], presets: list[tuple[str, Target]],
                      top: int = 8) -> list[tuple[float, str, str]]:
    """The slowest single matchups of ``units``: each into each preset, one ``calculate``
    call timed three times (CPU time, the median)."""
    out = []
    for m in units:
        for name, target in presets:
            times = []
            for _ in range(3):
                t0 = time.process_time()
                with contextlib.suppress(ScenarioError):
                    calculate(_base(m, target))
                times.append(time.process_time() - t0)
            out.append((statistics.median(times), _name(m), name))
    return sorted(out, reverse=True)[:top]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--single", action="store_true",
                        help="also time one calculate call per matchup")
    args = parser.parse_args(argv)
    lib = default_library()
    presets = targets(lib)
    units = list(attackers(lib))
    kinds: Counter[str] = Counter()
    slowest: list[tuple[float, str, Matchup]] = []
    # one untimed warm-up batch: the imports and the library's lazy tables load once
    calculate_many(_base(units[0], presets[0][1]), targets=[t for _, t in presets])
    # the library's objects out of the collector's way: a full collection walking them
    # inside one attacker's batch made it the "slowest" (0.3-0.7 s once, not again)
    gc.collect()
    gc.freeze()
    start = time.process_time()
    for m in units:
        base = _base(m, presets[0][1])
        t0 = time.process_time()
        results = calculate_many(base, targets=[t for _, t in presets])
        spent = time.process_time() - t0
        slowest.append((spent, _name(m), m))
        for r in results:
            kinds["too large" if isinstance(r, TooLargeError)
                  else "refused" if isinstance(r, ScenarioError) else "computed"] += 1
    total = time.process_time() - start
    single = None
    if args.single:
        t0 = time.process_time()
        for m in units:
            for _, t in presets:
                with contextlib.suppress(ScenarioError):
                    calculate(_base(m, t))
        single = time.process_time() - t0
    slowest.sort(key=lambda x: x[0], reverse=True)
    matchups = sum(kinds.values())
    worst = _slowest_matchups([m for _, _, m in slowest[:8]], presets)
    lines = [
        f"Run {time.strftime('%Y-%m-%d')} on {platform.machine()}, Python "
        f"{platform.python_version()}; `python benchmarks/bench_batch.py"
        f"{' --single' if single is not None else ''}`. One run, CPU time, on a shared "
        f"machine (load average {os.getloadavg()[0]:.1f} at the end), after one untimed "
        "warm-up batch (the loaded library's objects then frozen out of the garbage "
        "collector's way, `gc.freeze`).",
        "",
        f"- {len(lib.datasheets())} datasheets, {len(units)} unit-and-phase attackers (units "
        "with no weapons of a phase left out of it) × {n} presets = {m:,} matchups".format(
            n=len(presets), m=matchups),
        f"- **{total:.1f} s** with `calculate_many` ({matchups / total:,.0f} matchups/s, "
        f"{len(units) / total:,.0f} unit-and-phase attackers/s, "
        f"{total / matchups * 1e3:.2f} ms a matchup)"
        + ("" if single is None else
           f"; {single:.1f} s with one `calculate` call per matchup"),
        f"- computed: {kinds['computed']:,}; refused as too large for the exact engine "
        f"(skipped): {kinds['too large']:,}; other refusals: {kinds['refused']:,}",
        "",
        "Slowest unit-and-phase attackers (the ten presets together):",
        "",
        "| attacker | s |",
        "|---|---:|",
        *(f"| {name} | {t:.3f} |" for t, name, _ in slowest[:8]),
        "",
        "Slowest matchups (those attackers' matchups timed again one `calculate` call "
        "each, median of three):",
        "",
        "| attacker | target | ms |",
        "|---|---|---:|",
        *(f"| {name} | {target} | {t * 1e3:.1f} |" for t, name, target in worst),
    ]
    block = "\n".join(lines)
    print(block)
    if not args.no_write:
        write_section("batch", block, appended="## The gauntlet with the batch API "
                      "(`benchmarks/bench_batch.py`)\n\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
