"""Benchmark: the meta table (``tactica meta``, ``tactica.meta``).

1. **Presets**: every library unit (each edition) x the ten presets x both phases, in
   this process: CPU time (``time.process_time``) of the whole table after the library is
   loaded and one untimed warm-up partition, split into building the matchups' scenarios
   (fielding the units, ``tactica.calculator.prepare``), the batch calls
   (``tactica.combat.batch.figures_each``, one per partition; per matchup: the median
   over the partitions of a batch's time / the rows it answers) and writing the Parquet
   files; and the matchups shared (computed once for several rows).
2. **Unit x unit**: every library unit against every library unit, both phases, 11th
   edition, no effects, on a Dask local cluster of 1 and then 2 worker processes (wall
   time, cluster start-up included and stated apart, and the workers' CPU time: their
   rusage once the cluster is closed): measured on every ``--stride``-th attacker unit
   (a stated fraction) and extrapolated to all attackers.
3. **Yardstick**: ``bench_batch.py``'s sweep on every 10th attacker, timed before and
   after the presets table in the same process, against its quiet-machine figure: on a
   shared machine the CPU time of the same work grows with the load.

Run ``python benchmarks/bench_meta.py`` (``--no-write``, ``--stride N``, ``--skip-units``,
``--skip-presets``):
prints a markdown block and writes it into ``benchmarks/README.md`` between
``<!-- meta:start -->`` and ``<!-- meta:end -->``. Times are reported, never asserted.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from readme import write_section

from tactica.combat import calculate_many
from tactica.combat.batch import figures_each
from tactica.library import Library, load_library
from tactica.meta import Selection, plan, run, select_units
from tactica.meta import compute as meta_compute
from tactica.meta.table import parquet_bytes
from tactica.units import scenario_against


class _Timed:
    """Wraps ``scenario_against`` (resolving a matchup's scenario, the target fielded
    already) and ``figures_each`` in ``tactica.meta.compute`` to time them."""

    def __init__(self) -> None:
        self.prepare = 0.0
        self.batches: list[tuple[float, int]] = []  # (CPU seconds, scenarios in the batch)

    def install(self) -> None:
        def timed_prepare(*a: object, **k: object) -> object:
            t0 = time.process_time()
            try:
                return scenario_against(*a, **k)  # type: ignore[arg-type]
            finally:
                self.prepare += time.process_time() - t0

        def timed_figures(scenarios: object, memo: object = None) -> object:
            t0 = time.process_time()
            out = figures_each(scenarios, memo)  # type: ignore[arg-type]
            self.batches.append((time.process_time() - t0, len(out)))
            return out

        meta_compute.scenario_against = timed_prepare  # type: ignore[assignment]
        meta_compute.figures_each = timed_figures  # type: ignore[assignment]


def presets(lib: Library) -> list[str]:
    units = select_units(lib)
    sel = Selection(attackers=units, targets=tuple(p.name for p in lib.presets()))
    parts = plan(sel, lib)
    meta_compute.compute_partition(sel, parts[0], lib)  # warm-up
    meta_compute.forget()  # the timed run starts with no work kept between partitions
    timer = _Timed()
    timer.install()
    gc.collect()
    gc.freeze()
    rows = 0
    write = 0.0
    start = time.process_time()
    for part in parts:
        got = meta_compute.compute_partition(sel, part, lib)
        t0 = time.process_time()
        parquet_bytes(got, sel, part)
        write += time.process_time() - t0
        rows += len(got)
    total = time.process_time() - start
    scenarios = sum(n for _, n in timer.batches)
    # the figures computed: one entry of the batch memo each (kept between partitions,
    # never emptied here: the table's memo, a ``LastingMemo``, stays under its limit)
    computed = sum(1 for k in meta_compute._memo if isinstance(k, tuple) and k[:1] == (
        "figures",))
    batch = sum(t for t, _ in timer.batches)
    per_row = rows / max(scenarios, 1)  # rows answered per scenario in a batch
    median = statistics.median(t / n / per_row for t, n in timer.batches if n)
    return [
        f"- {len(units)} units, {len(parts)} partitions: {rows:,} rows (unit-edition x 10 "
        f"presets x 2 phases); {scenarios:,} scenarios through the batch calls "
        f"({rows - scenarios:,} rows refused before), {computed:,} figures computed (the "
        f"others' kept in the batch memo under what the engine reads: no name, no keyword "
        f"no rule of the attack reads)",
        f"- **{total:.1f} s CPU** in all ({total / rows * 1e3:.2f} ms a row): building the "
        f"scenarios (`scenario_against`: the attacker's lines and abilities against each "
        f"fielded target) {timer.prepare:.1f} s, the batch calls "
        f"{batch:.1f} s, Parquet {write:.2f} s, the rest (rows) "
        f"{total - timer.prepare - batch - write:.1f} s",
        f"- batch cost per row: median {median * 1e3:.3f} ms over the "
        f"{len(timer.batches):,} `figures_each` calls, one a partition (a call's time / "
        f"the rows it "
        f"answers), mean {batch / rows * 1e3:.3f} ms",
    ]


#: The yardstick's CPU time per matchup on a quiet machine: ``bench_batch.py``'s sweep,
#: 0.27 ms a matchup at load average 0.6 (benchmarks/README.md, 2026-12-01).
QUIET_YARDSTICK_MS = 0.27


def yardstick(lib: Library, stride: int = 10) -> float:
    """CPU ms a matchup of ``bench_batch.py``'s sweep (every ``stride``-th attacker x the
    presets, ``calculate_many``) now: the machine's load on the same work, to read the
    figures above against a quiet machine's."""
    from gauntlet import attackers, targets

    from tactica.combat.contract.scenario import Scenario

    presets = [t for _, t in targets(lib)]
    units = list(attackers(lib))[::stride]
    n = 0
    t0 = time.process_time()
    for m in units:
        base = Scenario(attacker=m.attacker, target=presets[0], phase=m.phase, rules=m.rules)
        n += len(calculate_many(base, targets=presets))
    return (time.process_time() - t0) / n * 1e3


def _children_cpu() -> float:
    """CPU seconds of this process's finished children (the local cluster's workers once
    it is closed)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def unit_by_unit(lib: Library, stride: int) -> list[str]:
    units = select_units(lib)
    eleventh = tuple(u for u in units if any(s.rules == "11th"
                                             for s in lib.datasheet_versions(u)))
    sample = eleventh[::stride]
    lines = [f"- sample: every {stride}th unit as attacker ({len(sample)} of "
             f"{len(eleventh)}, a fixed {100 / stride:g}% of the attacker rows), against "
             f"all {len(eleventh)} units, both phases, 11th, no effects"]
    times = {}
    for workers in (1, 2):
        sel = Selection(attackers=sample, targets=eleventh, editions=("11th",),
                        partition_size=1)
        with tempfile.TemporaryDirectory() as folder:
            cpu0 = _children_cpu()
            t0 = time.perf_counter()
            report = run(sel, folder, mode="local", workers=workers, lib=lib)
            wall = time.perf_counter() - t0
            cpu = _children_cpu() - cpu0
            files = sum(1 for _ in Path(folder).glob("part-*.parquet"))
            from tactica.meta import load

            n = len(load(folder))
        computing = report.seconds - report.startup
        times[workers] = (computing, n, cpu)
        lines.append(f"- {workers} worker{'s' if workers > 1 else ''}: {n:,} rows "
                     f"({files} files) in {wall:.0f} s wall, of which {report.startup:.0f} s "
                     f"starting the cluster (each worker loading the library and fielding "
                     f"the targets as it joins) and {computing:.0f} s computing "
                     f"({n / computing:,.0f} rows/s); the workers' CPU time {cpu:.0f} s "
                     f"(their start included): {cpu / n * 1e3:.2f} ms CPU a matchup "
                     f"(load average {os.getloadavg()[0]:.1f} after)")
    (s1, n1, c1), (s2, _, c2) = times[1], times[2]
    full = len(eleventh) * len(eleventh) * 2
    cpu_row = min(c1, c2) / n1
    lines += [
        f"- speed-up 1 -> 2 workers: **{s1 / s2:.2f}x** in computing (wall) time; CPU "
        f"time 1 worker {c1:.0f} s, 2 workers {c2:.0f} s (the same work; each worker's "
        "own start, loading the library and fielding the targets, included)",
        f"- extrapolated from the sample (not run in full): the full table "
        f"({len(eleventh):,} x {len(eleventh):,} x 2 = {full:,} matchups) is "
        f"~{full * cpu_row / 3600:.1f} CPU-hours at {cpu_row * 1e3:.2f} ms CPU a matchup "
        f"(**{cpu_row * 1e6 / 60:.0f} CPU-minutes per million matchups** on this load), "
        f"~{full / n1 * s2 / 3600:.1f} h wall on these 2 workers",
    ]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--stride", type=int, default=50)
    parser.add_argument("--skip-units", action="store_true")
    parser.add_argument("--skip-presets", action="store_true")
    args = parser.parse_args(argv)
    lib = load_library()
    lib.datasheets()
    head = [f"Run {time.strftime('%Y-%m-%d')} on {platform.machine()}, {os.cpu_count()} "
            f"cpu, Python {platform.python_version()}; `python benchmarks/bench_meta.py"
            f"{' --stride ' + str(args.stride) if args.stride != 100 else ''}`. One run on "
            f"a shared machine (load average {os.getloadavg()[0]:.1f} at the start).", "",
            "Every unit x the 10 presets x both phases, in-process:", ""]
    before = yardstick(lib)
    lines = head + (presets(lib) if not args.skip_presets else ["- (not run)"])
    after = yardstick(lib)
    now = (before + after) / 2
    lines += [f"- yardstick (`bench_batch.py`'s sweep, every 10th attacker, timed before "
              f"and after in this process): {before:.2f} / {after:.2f} ms a matchup, "
              f"~{now / QUIET_YARDSTICK_MS:.1f}x the {QUIET_YARDSTICK_MS} ms of the day the "
              f"issue was written (load average {os.getloadavg()[0]:.1f} now); the ratio "
              f"mixes this machine's speed and load with the changes to the code since"]
    if not args.skip_units:
        lines += ["", "Every unit x every unit (Dask local cluster):", "",
                  *unit_by_unit(lib, args.stride)]
    block = "\n".join(lines)
    print(block)
    if not args.no_write:
        write_section("meta", block, appended="## The meta table (`benchmarks/bench_meta.py`)"
                      "\n\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
