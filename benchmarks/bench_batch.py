"""Benchmark: the gauntlet with the batch API. Every unit of the bundled library (seed
pages and the 40kdc-data dataset, each rules version), in both phases with the weapons
``tactica calc`` picks by default, at its smallest size, against the ten target presets:
``tactica.calculate_many(scenario, targets=presets)`` once per unit and phase, exact.

CPU time (``time.process_time``) for the whole sweep, one run (the machine is shared);
refused matchups (``TooLargeError``) are counted, not retried. ``--single`` times the
same sweep with one ``tactica.calculate`` call per matchup, for the comparison.

Run ``python benchmarks/bench_batch.py`` (``--no-write``, ``--single``): prints a
markdown block and writes it into ``benchmarks/README.md`` between ``<!-- batch:start
-->`` and ``<!-- batch:end -->``. Times are reported, never asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import platform
import sys
import time
from collections import Counter

from gauntlet import attackers, default_library, targets
from readme import write_section

from tactica import calculate, calculate_many
from tactica.combat.allocation import TooLargeError
from tactica.combat.scenario import Scenario, ScenarioError


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
    slowest: list[tuple[float, str]] = []
    start = time.process_time()
    for m in units:
        base = Scenario(attacker=m.attacker, target=presets[0][1], phase=m.phase,
                        rules=m.rules)
        t0 = time.process_time()
        results = calculate_many(base, targets=[t for _, t in presets])
        spent = time.process_time() - t0
        slowest.append((spent, f"{m.unit} ({m.rules}, {m.phase})"))
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
                    calculate(Scenario(attacker=m.attacker, target=t, phase=m.phase,
                                       rules=m.rules))
        single = time.process_time() - t0
    slowest.sort(reverse=True)
    matchups = sum(kinds.values())
    lines = [
        f"Run {time.strftime('%Y-%m-%d')} on {platform.machine()}, Python "
        f"{platform.python_version()}; `python benchmarks/bench_batch.py"
        f"{' --single' if single is not None else ''}`. One run, CPU time, on a shared "
        "machine.",
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
        *(f"| {name} | {t:.3f} |" for t, name in slowest[:8]),
    ]
    block = "\n".join(lines)
    print(block)
    if not args.no_write:
        write_section("batch", block, appended="## The gauntlet with the batch API "
                      "(`benchmarks/bench_batch.py`)\n\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
