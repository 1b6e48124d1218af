"""Turn benchmark: a realistic three-unit turn against one target, computed exactly.

Neophyte Hybrids (a seed page unit, 10 models) shoot at 10", a Goliath Rockgrinder (a
dataset unit) shoots, the Death Riders (a seed page unit) charge 7" and fight, and the
Intercessor Squad (10 models) fights back: ``tactica turn --step "Neophyte
Hybrids:shooting:10" --step "Goliath Rockgrinder:shooting" --step "Death Riders:charge@7"
--target "Intercessor Squad" --target-models 10 --distance 10 --fight-back``. The
document is built once (library loading is not timed); the exact evaluation is timed
under both rule sets.

Run ``python benchmarks/bench_turn.py`` (``--runs N``, ``--no-write``). It prints a
markdown table and writes it into ``benchmarks/README.md`` between the markers
``<!-- turn:start -->`` and ``<!-- turn:end -->``. Times are reported, never asserted.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from typing import Any

from readme import write_section

from tactica.cli.turn import sequence_document
from tactica.combat import calculate
from tactica.combat.contract.sequence import SequenceResult

STEPS = ["Neophyte Hybrids:shooting:10", "Goliath Rockgrinder:shooting",
         "Death Riders:charge@7"]


def turn_document(rules: str = "11th") -> dict[str, Any]:
    """The benchmark's sequence document."""
    return sequence_document(STEPS, "Intercessor Squad", 10, rules, distance=10,
                             fight_back=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    rows = []
    for rules in ("11th", "10th"):
        doc = turn_document(rules)
        result = calculate(doc)  # warm-up (imports, caches)
        assert isinstance(result, SequenceResult)
        times = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            calculate(doc)
            times.append(time.perf_counter() - t0)
        back = result.steps[-1].attacker_losses
        rows.append(f"| {rules} | {statistics.median(times) * 1000:.0f} | "
                    f"{min(times) * 1000:.0f} | {result.steps[2].p_charge:.3f} | "
                    f"{result.models_destroyed.mean:.2f} | {result.p_unit_destroyed:.3f} | "
                    f"{back.mean if back else 0:.2f} |")
    block = "\n".join([
        f"Machine: {platform.machine()}, Python {platform.python_version()}; "
        f"{args.runs} runs, exact evaluation only (the document is built beforehand).",
        "",
        "| rules | median ms | min ms | P(charge) | models destroyed | P(wiped) "
        "| Death Riders lost |",
        "|---|---|---|---|---|---|---|",
        *rows,
    ])
    print(block)
    if not args.no_write:
        write_section("turn", block, appended="## A turn of combat (`benchmarks/bench_turn.py`)"
                      "\n\n")


if __name__ == "__main__":
    main()
