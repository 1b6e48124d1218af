"""A single ``tactica.calculate`` on library units, this tree against another commit, side
by side (issue 42: "measured side by side against the commit before this work").

Two worker processes, one importing this tree's ``src/`` and one the other commit's
(``git archive`` into a temporary folder), each with its own cache folder and
``TACTICA_VALIDATE_ALL`` off. After a warm-up (the library loaded, the document
computed once), rounds alternate which worker goes first; in each round a worker makes
``--calls`` calls (``DOCUMENTS`` in turn) and reports each one's CPU time
(``time.process_time``: the machine is shared, so wall time would count other jobs).
Two kinds of call:

* ``warm``: a new document dict each call (validated in the call), every cache as the
  process keeps it between calls (a door answering the same question again);
* ``cold``: the same, after clearing the caches of computed numbers that
  ``run.clear_tactica_caches`` clears (a first call of a process, but for the imports).

Prints the median of each worker's calls and the ratio (this tree / the other); times are
reported, never asserted.

    python benchmarks/side_by_side.py [--base main] [--rounds 15] [--calls 20]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]
#: The documents, called in turn: a plain target, a target led by a CHARACTER (the
#: allocation order at work), a fight against a led unit.
DOCUMENTS: list[dict[str, Any]] = [
    {"attacker": {"unit": "Intercessor Squad"}, "target": {"unit": "Termagants", "models": 10},
     "context": {"distance": 12}},
    {"attacker": {"unit": "Intercessor Squad"},
     "target": {"unit": "Neophyte Hybrids", "models": 10, "led_by": "Primus"},
     "context": {"distance": 12}},
    {"attacker": {"unit": "Primus"}, "target": {"unit": "Intercessor Squad", "led_by": "Captain"},
     "phase": "fight"},
]


def _worker() -> None:
    """Read commands ("warm N", "cold N") and answer each with a JSON list of CPU times."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from run import clear_tactica_caches

    import tactica

    for doc in DOCUMENTS:  # warm-up: library, code, caches
        tactica.calculate(json.loads(json.dumps(doc)))
    print("ready", flush=True)
    for line in sys.stdin:
        kind, n = line.split()
        times = []
        for i in range(int(n)):
            doc = json.loads(json.dumps(DOCUMENTS[i % len(DOCUMENTS)]))
            if kind == "cold":
                clear_tactica_caches()
            t0 = time.process_time()
            tactica.calculate(doc)
            times.append(time.process_time() - t0)
        print(json.dumps(times), flush=True)


def _export(ref: str, into: Path) -> Path:
    """``ref``'s ``src/`` and ``benchmarks/`` in ``into``."""
    blob = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "src", "benchmarks"],
                          check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(blob)) as tar:
        tar.extractall(into, filter="data")
    return into


def _start(tree: Path, cache: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(tree / "src"), "TACTICA_CACHE_DIR": str(cache),
           "TACTICA_VALIDATE_ALL": "0", "PYTHONHASHSEED": "0", "OMP_NUM_THREADS": "1",
           "OPENBLAS_NUM_THREADS": "1"}
    proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--worker"],
                            cwd=tree / "benchmarks", env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    return proc


def _ask(proc: subprocess.Popen[str], kind: str, n: int) -> list[float]:
    stdin: IO[str] | None = proc.stdin
    assert stdin is not None and proc.stdout is not None
    stdin.write(f"{kind} {n}\n")
    stdin.flush()
    times: list[float] = json.loads(proc.stdout.readline())
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="main", help="the commit to compare with")
    parser.add_argument("--this", default=None,
                        help="a commit to time instead of this tree (exported like the "
                             "base, so both workers import from the same kind of folder)")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--pairs", type=int, default=4,
                        help="pairs of worker processes, started in turn in either order "
                             "(one process pair alone differs by up to 10%% on the same code)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        _worker()
        return
    base = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", args.base],
                          check=True, capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        other = _export(base, Path(tmp) / "base")
        this = ROOT if args.this is None else _export(args.this, Path(tmp) / "this")
        n = len(DOCUMENTS)
        calls = max(n, args.calls - args.calls % n)
        got: dict[str, dict[str, list[float]]] = {
            kind: {k: [] for k in (base, "this")} for kind in ("warm", "cold")}
        for pair in range(args.pairs):
            trees = [(base, other), ("this", this)]
            workers = {k: _start(tree, Path(tmp) / f"cache-{k}-{pair}")
                       for k, tree in (trees if pair % 2 == 0 else trees[::-1])}
            for kind in ("warm", "cold"):
                for r in range(args.rounds):
                    order = list(workers) if r % 2 == 0 else list(reversed(workers))
                    for k in order:
                        got[kind][k] += _ask(workers[k], kind, calls)
            for proc in workers.values():
                assert proc.stdin is not None
                proc.stdin.close()
                proc.wait()
        for kind, times in got.items():
            for d in range(n):
                med = {k: statistics.median(v[d::n]) for k, v in times.items()}
                print(f"{kind} document {d}: "
                      + ", ".join(f"{k} {1e3 * m:.3f} ms" for k, m in med.items())
                      + f"; this / {base} = {med['this'] / med[base]:.3f}")
            total = {k: sum(statistics.median(v[d::n]) for d in range(n))
                     for k, v in times.items()}
            print(f"{kind} all {n}: this / {base} = {total['this'] / total[base]:.3f} "
                  f"({args.pairs} process pairs x {args.rounds} rounds x {calls} calls, "
                  "CPU time medians)")


if __name__ == "__main__":
    main()
