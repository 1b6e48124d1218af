"""Benchmark: the meta table's tasks on Dask, from 1 to 2 workers, and a projection to 64.

1. **1 -> 2 workers**: every ``--stride``-th 11th-edition unit against every one, both
   phases, on a Dask local cluster of 1 and then 2 worker processes started here (one
   thread each), the table cut by ``tactica.meta.plan`` (tasks sized by cost): wall time
   of the whole run and of its computing part (``RunReport.startup`` apart).
2. **The task stream** of the 2-worker run (``Client.get_task_stream``: each task's
   worker, start and stop, what Dask's performance report draws; the report itself is
   written with ``--report FILE``): the tasks' compute times, their spread, and the
   64-worker projection: the measured task times scheduled largest first on 64 workers
   (``lpt``, what the scheduler does with the priorities ``run`` gives), plus each
   worker's start as measured here.

Run ``python benchmarks/bench_cluster.py`` (``--stride N``, ``--report FILE``,
``--no-write``): prints a markdown block and writes it into ``benchmarks/README.md``
between ``<!-- cluster:start -->`` and ``<!-- cluster:end -->``. Times are reported,
never asserted.
"""

from __future__ import annotations

import argparse
import heapq
import logging
import os
import statistics
import sys
import tempfile
import time
from typing import Any

from readme import write_section

from tactica.library import Library, load_library
from tactica.meta import Selection, plan, run, select_units


def lpt(times: list[float], workers: int) -> float:
    """The makespan of ``times`` given largest first to whichever worker is free."""
    free = [0.0] * workers
    for t in sorted(times, reverse=True):
        heapq.heappush(free, heapq.heappop(free) + t)
    return max(free)


def _cluster(workers: int) -> tuple[Any, Any]:
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                           dashboard_address=None, silence_logs=logging.ERROR)
    return cluster, Client(cluster)


def _one(sel: Selection, lib: Library, workers: int, report: str | None
         ) -> tuple[float, float, float, list[float]]:
    """Wall (cluster start included), startup, computing, each task's compute seconds."""
    t0 = time.perf_counter()
    cluster, client = _cluster(workers)
    client.wait_for_workers(workers)
    client.get_task_stream()  # the scheduler's task-stream plugin, from now on
    start = time.time()
    with tempfile.TemporaryDirectory() as folder:
        done = run(sel, folder, scheduler=cluster.scheduler_address, lib=lib,
                   performance_report=report)
    wall = time.perf_counter() - t0
    stream = client.get_task_stream(start=start)
    tasks = [sum(s["stop"] - s["start"] for s in t["startstops"] if s["action"] == "compute")
             for t in stream if str(t["key"]).startswith("meta-")]
    client.close()
    cluster.close()
    return wall, done.startup, done.seconds - done.startup, tasks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stride", type=int, default=10)
    parser.add_argument("--report", default=None)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    lib = load_library()
    units = select_units(lib)
    eleventh = tuple(u for u in units if any(s.rules == "11th"
                                             for s in lib.datasheet_versions(u)))
    sample = eleventh[::args.stride]
    sel = Selection(attackers=sample, targets=eleventh, editions=("11th",))
    parts = plan(sel, lib)
    rows = len(sample) * len(eleventh) * 2
    lines = [f"Run {time.strftime('%Y-%m-%d %H:%M')} UTC, {os.cpu_count()} cpu; `python "
             f"benchmarks/bench_cluster.py --stride {args.stride}`; load average "
             f"{os.getloadavg()[0]:.1f} at the start.", "",
             f"- sample: every {args.stride}th 11th-edition unit ({len(sample)} of "
             f"{len(eleventh)}) against all {len(eleventh)}, both phases: {rows:,} rows in "
             f"{len(parts)} tasks (`plan`)"]
    measured = {}
    for workers in (1, 2):
        wall, startup, computing, tasks = _one(sel, lib, workers,
                                               args.report if workers == 2 else None)
        measured[workers] = (wall, computing, tasks)
        lines.append(f"- {workers} worker{'s' if workers > 1 else ''}: {wall:.1f} s wall "
                     f"in all ({startup:.1f} s preparing the workers: the library loaded "
                     f"and the targets fielded), {computing:.1f} s computing "
                     f"({rows / computing:,.0f} rows/s; "
                     f"tasks' compute time {sum(tasks):.1f} s over {len(tasks)} tasks); load "
                     f"average {os.getloadavg()[0]:.1f} after")
    (w1, c1, _), (w2, c2, tasks) = measured[1], measured[2]
    lines.append(f"- speed-up 1 -> 2 workers: **{w1 / w2:.2f}x** wall in all, "
                 f"**{c1 / c2:.2f}x** computing")
    total = sum(tasks)
    lines.append(f"- the 2-worker run's task stream: {len(tasks)} tasks, compute time "
                 f"median {statistics.median(tasks):.3f} s, largest {max(tasks):.3f} s "
                 f"({100 * max(tasks) / total:.1f}% of {total:.1f} s)")
    for w in (2, 8, 64):
        span = lpt(tasks, w)
        lines.append(f"- these tasks largest first on {w} workers: {span:.2f} s "
                     f"(efficiency {total / (w * span):.0%})")
    block = "\n".join(lines)
    print(block)
    if not args.no_write:
        write_section("cluster", block, appended="## The meta table on Dask "
                      "(`benchmarks/bench_cluster.py`)\n\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
