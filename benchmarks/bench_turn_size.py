"""Turn size benchmark: how long the exact turn takes to answer or to refuse as the units
the target fights back against grow (``tactica.combat.turn.exact``: the worlds are predicted
and refused above the limit before any work).

Each case: N units of ten models (W3, 4+ save) charge 7" into ten Intercessors (two
entries, Sergeant x1 + x9) that fight back against each of them first (Fights First);
then each charger fights with its survivors. Every fought unit multiplies the worlds by
its damage states. CPU time (``time.process_time``) per case, answered or refused, the
median of a few runs.

Run ``python benchmarks/bench_turn_size.py`` (``--runs N``, ``--no-write``). It prints
a markdown table and writes it into ``benchmarks/README.md`` between ``<!--
turn-size:start -->`` and ``<!-- turn-size:end -->``. Times are reported, never asserted.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from typing import Any

from readme import write_section

from tactica.combat.contract.sequence import Sequence
from tactica.combat.exact.allocation import TooLargeError
from tactica.combat.turn.exact import calculate_sequence

MARINES = [{"name": "Intercessor Sergeant", "count": 1, "T": 4, "Sv": 3, "W": 2},
           {"name": "Intercessor", "count": 9, "T": 4, "Sv": 3, "W": 2}]
KNIFE = {"name": "Close combat weapon", "count": 10, "range": "Melee", "A": "3", "skill": 3,
         "S": 4, "D": "1"}


def turn(units: int, models: int) -> dict[str, Any]:
    """``units`` chargers of ``models`` models each; the target fights each first."""
    steps: list[dict[str, Any]] = []
    for u in range(units):
        name = f"Unit {u + 1}"
        steps.append({"phase": "charge", "unit": name, "distance": 7})
    for u in range(units):
        name = f"Unit {u + 1}"
        steps.append({"phase": "fight", "attacker": {"name": name, "weapons": [
            {"name": "Blade", "count": models, "range": "Melee", "A": "2", "skill": 3,
             "S": 5, "AP": -1, "D": "1"}]},
            "models": [{"name": "Trooper", "count": models, "T": 5, "Sv": 4, "W": 3}]})
        steps.append({"phase": "fight", "fights_back": True, "fights_first": True,
                      "against": name, "attacker": {"name": "Intercessors",
                                                    "weapons": [KNIFE]}})
    return {"rules": "11th", "target": {"name": "Intercessors", "models": MARINES},
            "steps": steps}


CASES = [(1, 10), (1, 30), (2, 5), (2, 10), (2, 20), (3, 5), (3, 10), (4, 10)]


def timed(doc: dict[str, Any]) -> tuple[float, str]:
    seq = Sequence.model_validate(doc)
    t0 = time.process_time()
    try:
        r = calculate_sequence(seq)
        what = f"answered ({r.models_destroyed.mean:.2f} models destroyed)"
    except TooLargeError as exc:
        what = "refused: " + str(exc).split(";")[0].removeprefix("steps: ")
    return time.process_time() - t0, what


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    timed(turn(1, 5))  # warm-up (imports, caches)
    rows = []
    for units, models in CASES:
        runs = [timed(turn(units, models)) for _ in range(args.runs)]
        ms = statistics.median(t for t, _ in runs) * 1000
        rows.append(f"| {units} | {models} | {ms:.0f} | {runs[0][1]} |")
    block = "\n".join([
        f"Machine: {platform.machine()}, Python {platform.python_version()}; CPU time, "
        f"median of {args.runs} runs.",
        "",
        "| units fought | models each | CPU ms | outcome |",
        "|---|---|---|---|",
        *rows,
    ])
    print(block)
    if not args.no_write:
        write_section("turn-size", block,
                      appended="## The size of a turn (`benchmarks/bench_turn_size.py`)\n\n")


if __name__ == "__main__":
    main()
