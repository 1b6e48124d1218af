"""Side by side: three timings of this tree against another commit (issue 42, Speed).

The three workloads of the issue, each in a fresh Python process per run, the two trees'
processes alternating (old, new, new, old, ...) so that the machine's load falls on both
alike; each run reports the CPU time of its process for the timed work
(``time.process_time``: on a machine shared with other jobs, wall time counts their
time slices too); the table gives the median of each side and the ratio new / old.

* ``meta``: the presets meta table (every library unit x the presets x both phases,
  ``tactica.meta.compute.compute_partition`` over every partition, in-process, after one
  untimed warm-up partition and ``forget()``), as ``bench_meta.py``'s first part.
* ``plan``: a 2,000 v 2,000 plan (``tactica.plan.solve``, Aeldari against Orks, the app's
  lists ``official_9.txt`` and ``official_16.txt``), the sides read afresh, after an
  untimed warm-up solve.
* ``calc``: a single library calculation (``tactica.calculate`` of Intercessor Squad
  against the ``meq`` preset): the median of 40 calls, the engine's caches emptied before
  each (untimed: each ``functools`` cache in ``tactica.combat``, ``tactica.dice`` and
  ``tactica.names``), so each computes its result from the document.

    python benchmarks/bench_side_by_side.py --old <commit> [--old-src DIR] [--rounds N]
        [--only meta,plan]

``--old`` is checked out with ``git worktree add`` into a temporary folder (removed after)
and imported through ``PYTHONPATH``. Times are reported, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LISTS = ROOT / "tests" / "fixtures" / "rosters" / "gw-app-11e"
WORKLOADS = ("meta", "plan", "calc")


def _clear_engine_caches() -> None:
    """Empty every ``functools`` cache of the engine's modules (both trees alike)."""
    for name, module in list(sys.modules.items()):
        if not (name.startswith(("tactica.combat", "tactica.dice", "tactica.names"))):
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()


def _meta() -> float:
    from tactica.library import load_library
    from tactica.meta import Selection, plan, select_units
    from tactica.meta import compute as meta_compute

    lib = load_library()
    sel = Selection(attackers=select_units(lib), targets=tuple(p.name for p in lib.presets()))
    parts = plan(sel, lib)
    meta_compute.compute_partition(sel, parts[0], lib)  # warm-up
    meta_compute.forget()
    t0 = time.process_time()
    for part in parts:
        meta_compute.compute_partition(sel, part, lib)
    return time.process_time() - t0


def _plan() -> float:
    from tactica.library import load_library
    from tactica.plan import read_side, solve

    lib = load_library()

    def sides() -> tuple[Any, Any]:
        return read_side(LISTS / "official_9.txt", lib), read_side(LISTS / "official_16.txt", lib)

    solve(*sides())  # warm-up
    a, b = sides()
    t0 = time.process_time()
    solve(a, b)
    return time.process_time() - t0


def _calc() -> float:
    import tactica
    from tactica.library import load_library

    load_library()
    doc = {"attacker": {"unit": "Intercessor Squad"}, "target": {"unit": "meq"}}
    tactica.calculate(doc)  # warm-up: imports
    times = []
    for _ in range(40):
        _clear_engine_caches()
        t0 = time.process_time()
        tactica.calculate(doc)
        times.append(time.process_time() - t0)
    return statistics.median(times)


def _run(src: Path, workload: str) -> float:
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run([sys.executable, __file__, "--child", workload], env=env,
                          check=False, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{workload} under {src} failed:\n{done.stderr[-2000:]}")
    return float(json.loads(done.stdout.strip().splitlines()[-1]))


def side_by_side(old_src: Path, new_src: Path, workloads: list[str], rounds: int
                 ) -> dict[str, tuple[list[float], list[float]]]:
    """Per workload, the old and new runs' CPU seconds, alternating (old first in even
    rounds, new first in odd ones)."""
    found: dict[str, tuple[list[float], list[float]]] = {}
    for w in workloads:
        old: list[float] = []
        new: list[float] = []
        for r in range(rounds):
            order = [(old_src, old), (new_src, new)]
            for src, into in (order if r % 2 == 0 else order[::-1]):
                into.append(_run(src, w))
        found[w] = (old, new)
    return found


def table(found: dict[str, tuple[list[float], list[float]]], commit: str) -> str:
    lines = [f"| workload | {commit} (median CPU s) | this tree (median CPU s) | new / old |"
             " runs |", "|---|---|---|---|---|"]
    for w, (old, new) in found.items():
        mo, mn = statistics.median(old), statistics.median(new)
        lines.append(f"| {w} | {mo:.4f} | {mn:.4f} | {mn / mo:.3f} | {len(old)} each |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", help="the commit to compare against")
    parser.add_argument("--old-src", type=Path,
                        help="its src folder, checked out already (else a worktree is made)")
    parser.add_argument("--new-src", type=Path, default=ROOT / "src",
                        help="the src folder of the tree to compare (this one's)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", default=",".join(WORKLOADS))
    parser.add_argument("--child", choices=WORKLOADS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps({"meta": _meta, "plan": _plan, "calc": _calc}[args.child]()))
        return 0
    if not args.old:
        parser.error("--old <commit> is needed")
    if args.old_src:
        print(table(side_by_side(args.old_src, args.new_src, args.only.split(","),
                                 args.rounds), args.old))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "old"
        subprocess.run(["git", "worktree", "add", "--detach", str(tree), args.old], cwd=ROOT,
                       check=True, capture_output=True)
        try:
            found = side_by_side(tree / "src", args.new_src, args.only.split(","),
                                 args.rounds)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT,
                           check=False, capture_output=True)
    print(table(found, args.old))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
