"""Throughput of the Monte Carlo simulator: attack dice resolved per second, one core.

An *attack die* is one die of the attack characteristic (the ``attacks`` count of the
result): its hit roll, the wound rolls it leads to (Sustained Hits included), saves,
damage, Feel No Pain and allocation are all part of the time measured. The target is
at least 5 million attack dice per second.

    python benchmarks/bench_montecarlo.py            # prints, updates README.md
    python benchmarks/bench_montecarlo.py --no-readme --trials 200000

The README line goes between ``<!-- mc:start -->`` and ``<!-- mc:end -->`` in
``benchmarks/README.md`` (created if missing); nothing else in that file is touched.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import time
from pathlib import Path
from typing import Any

import numpy as np

from tactica.combat.contract.scenario import Scenario
from tactica.combat.sampled.engine import simulate

README = Path(__file__).with_name("README.md")
START, END = "<!-- mc:start -->", "<!-- mc:end -->"
TARGET = 5_000_000
KEEP_ROWS = 10

SCENARIOS: dict[str, dict[str, Any]] = {
    # the scenario contract's example (shared/spec/scenario.md): 17 attack dice
    "neophytes": {
        "attacker": {"weapons": [
            {"name": "Hybrid firearm", "count": 8, "range": 24, "A": "1", "skill": 4,
             "S": 3, "AP": 0, "D": "1", "abilities": ["Rapid Fire 1"]},
            {"name": "Mining laser", "count": 1, "range": 24, "A": "1", "skill": 5,
             "S": 10, "AP": -3, "D": "D6+1", "abilities": ["Heavy"]}]},
        "target": {"models": [{"name": "Intercessor", "count": 5, "T": 4, "Sv": 3, "W": 2}]},
        "context": {"distance": 10, "remained_stationary": True},
        "effects": [{"hit": 1}, {"reroll": "wound", "which": "ones"}, {"critical_hit_on": 5}],
    },
    # a gunline into an attached unit: ~38 attack dice, Sustained Hits, Blast, Hazardous,
    # two allocation groups with a CHARACTER
    "gunline": {
        "attacker": {"weapons": [
            {"name": "Bolt rifle", "count": 10, "A": "2", "skill": 3, "S": 4, "AP": -1,
             "D": "1", "abilities": ["Rapid Fire 1", "Sustained Hits 1"]},
            {"name": "Plasma", "count": 2, "A": "D3", "skill": 3, "S": 8, "AP": -3, "D": "2",
             "abilities": ["Hazardous", "Blast"]}]},
        "target": {"models": [
            {"name": "Intercessor", "count": 10, "T": 4, "Sv": 3, "W": 2},
            {"name": "Captain", "count": 1, "T": 4, "Sv": 3, "invuln": 4, "W": 5,
             "character": True}]},
        "context": {"distance": 10},
    },
    # a melee horde with Devastating Wounds and Feel No Pain: ~90 attack dice
    "horde": {
        "phase": "fight",
        "attacker": {"weapons": [
            {"name": "Choppa", "count": 20, "range": "Melee", "A": "3", "skill": 3, "S": 4,
             "AP": -1, "D": "1", "abilities": ["Sustained Hits 1"]},
            {"name": "Claw", "count": 10, "range": "Melee", "A": "3", "skill": 4, "S": 5,
             "AP": -2, "D": "2", "abilities": ["Devastating Wounds"]}]},
        "target": {"models": [{"name": "Terminator", "count": 10, "T": 5, "Sv": 2,
                               "invuln": 4, "W": 3, "fnp": 6}]},
    },
}


def measure(name: str, trials: int, seed: int = 0) -> tuple[float, float, float]:
    """(attack dice per trial, seconds, attack dice per second) of one run."""
    scenario = Scenario.model_validate(
        {**SCENARIOS[name], "method": "monte-carlo", "trials": trials, "seed": seed})
    simulate(scenario.model_copy(update={"trials": 1_000}))  # warm up caches
    start = time.perf_counter()
    result = simulate(scenario)
    seconds = time.perf_counter() - start
    dice = result.attacks.mean * trials
    return result.attacks.mean, seconds, dice / seconds


def update_readme(row: str, header: str) -> None:
    """Append ``row`` to the Monte Carlo table between the markers (last rows kept)."""
    text = README.read_text(encoding="utf-8") if README.exists() else "# Benchmarks\n"
    if START not in text or END not in text:
        text = text.rstrip("\n") + f"\n\n{START}\n{END}\n"
    before, rest = text.split(START, 1)
    inside, after = rest.split(END, 1)
    rows = [line for line in inside.splitlines() if line.startswith("| 20")]
    rows = [*rows, row][-KEEP_ROWS:]
    section = "\n".join([
        "",
        "## Monte Carlo throughput (`benchmarks/bench_montecarlo.py`)",
        "",
        "Attack dice resolved per second on one core (hit, wound, save, damage, FNP and",
        f"allocation included); target {TARGET / 1e6:.0f} million/s. One row per run.",
        "",
        header,
        "|" + "---|" * (header.count("|") - 1),
        *rows,
        "",
    ])
    README.write_text(before + START + section + END + after, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--trials", type=int, default=1_000_000)
    parser.add_argument("--no-readme", action="store_true")
    args = parser.parse_args()
    rates = {}
    for name in SCENARIOS:
        per_trial, seconds, rate = measure(name, args.trials)
        rates[name] = rate
        print(f"{name:10s} {per_trial:6.1f} attack dice/trial x {args.trials} trials: "
              f"{seconds:6.2f} s, {rate / 1e6:6.1f} M attack dice/s")
    low = min(rates.values())
    print(f"slowest: {low / 1e6:.1f} M attack dice/s "
          f"({'meets' if low >= TARGET else 'BELOW'} the {TARGET / 1e6:.0f} M/s target)")
    if not args.no_readme:
        header = ("| date | machine | numpy | trials | "
                  + " | ".join(f"{n} (M dice/s)" for n in SCENARIOS) + " |")
        machine = f"{platform.processor() or platform.machine()}, {os.cpu_count()} cpu"
        row = (f"| {dt.date.today().isoformat()} | {machine} | {np.__version__} | "
               f"{args.trials:,} | " + " | ".join(f"{r / 1e6:.1f}" for r in rates.values())
               + " |")
        update_readme(row, header)
        print(f"updated {README}")


if __name__ == "__main__":
    main()
