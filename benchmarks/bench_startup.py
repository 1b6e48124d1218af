"""Start-up benchmark: whole ``tactica`` commands, each in a fresh process (issue 11).

Issue 11 asks that ``tactica sheet X`` and ``tactica calc --attacker X --target meq``
take under 0.6 s with the dataset, and ``tactica --data DIR units`` on the real BSData
catalogues under 5 s. Each command is timed as a user runs it, in a new Python process:

* ``cache``: tactica's on-disk cache filled (``tactica.cache``; what every command after
  the first one meets);
* ``no cache``: ``TACTICA_CACHE=0``, the dataset converted and the seed pages parsed in the
  process (what every command did before the cache);
* ``--src DIR`` times another checkout's ``src`` instead (e.g. the commit before, checked
  out with ``git worktree add``), run with this environment's packages;
* ``--before DIR`` times another checkout's ``src`` beside this one, in the same rounds
  (``before``: its own cache folder, filled in the warm-up, as this code's ``cache``), so
  that load on a shared machine falls on both alike.

Every round times every command once, in turn, so load on a shared machine falls on all
alike; the table gives the median wall time and the median CPU time (user + system) of
the child, which load inflates less. Bytecode is written and read as an installed package
does (``PYTHONDONTWRITEBYTECODE`` is unset for the children). The cache lives in a
temporary folder, never the user's.

Issue 25 adds ``import tactica``, ``tactica --help`` and ``tactica rule NAME`` (bounds:
0.3 s CPU for ``--help``, 0.5 s for ``rule``, 0.8 s for a warm ``calc`` on library units).
Issue 40 adds ``tactica units --faction Orks`` (a look-up: 0.3 s CPU once the cache is
warm) and the first ``tactica rule NAME`` after installing: each run of that command gets
an empty cache folder of its own (``FIRST``: the cache mode's and the ``before`` code's),
so it builds what the first command builds (the converted dataset, the index of rules).

``python benchmarks/bench_startup.py [--runs N] [--src DIR] [--label TEXT] [--only WORDS]
[--write]``;
the BSData command runs when ``TACTICA_REAL_DATA`` (or ``../shared/data``) has the
catalogues. ``--write`` puts the table into ``benchmarks/README.md`` between
``<!-- startup:start -->`` and ``<!-- startup:end -->`` (rows of earlier labels are kept).
Times are reported, never asserted.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from readme import README, markers, write_section

ROOT = Path(__file__).resolve().parents[1]
#: The console script (``tactica.launch:main``; ``tactica.cli:main`` in a checkout from
#: before it), run through ``python -c`` so that ``--src`` and ``--before`` swap the code.
LAUNCH = ("import sys; sys.argv[0] = 'tactica'\n"
          "try:\n    from tactica.launch import main\n"
          "except ImportError:\n    from tactica.cli import main\n"
          "main()")


def real_bsdata() -> Path | None:
    folder = Path(os.environ.get("TACTICA_REAL_DATA") or ROOT.parent / "shared" / "data")
    if not folder.is_absolute():
        folder = ROOT / folder
    bsdata = folder / "bsdata-11e"
    return bsdata if (bsdata / "Genestealer Cults.json").is_file() else None


#: Not a command: the import alone, run as ``python -c "import tactica"``.
IMPORT = "import tactica"
#: Commands timed as the first after installing: each run with an empty cache folder.
FIRST = frozenset({'tactica rule "Lethal Hits" (first after install)'})


def commands() -> dict[str, list[str]]:
    out = {
        IMPORT: [],
        "tactica --help": ["--help"],
        "tactica --version": ["--version"],
        'tactica rule "Lethal Hits"': ["rule", "Lethal Hits"],
        'tactica rule "Lethal Hits" (first after install)': ["rule", "Lethal Hits"],
        "tactica units --faction Orks": ["units", "--faction", "Orks"],
        "tactica sheet Primus": ["sheet", "Primus"],
        'tactica sheet "Intercessor Squad"': ["sheet", "Intercessor Squad"],
        'tactica calc --attacker "Intercessor Squad" --target meq':
            ["calc", "--attacker", "Intercessor Squad", "--target", "meq"],
        "tactica units": ["units"],
    }
    bsdata = real_bsdata()
    if bsdata is not None:
        out["tactica --data bsdata-11e units"] = ["--data", str(bsdata), "units"]
    return out


def environment(cache_dir: Path, cached: bool, src: Path | None) -> dict[str, str]:
    """The child's environment: its cache folder, the cache on or off, its ``src``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["TACTICA_CACHE_DIR"] = str(cache_dir)
    env["TACTICA_CACHE"] = "1" if cached else "0"
    env["COLUMNS"] = "120"
    if src is not None:
        env["PYTHONPATH"] = str(src)
    return env


def one_run(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one command in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    code = [IMPORT] if not args else [LAUNCH, *args]
    subprocess.run([sys.executable, "-c", *code], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def measure(runs: int, src: Path | None, only: str | None = None,
            before: Path | None = None
            ) -> dict[tuple[str, str], list[tuple[float, float]]]:
    # another checkout has no cache of its own to fill: one mode, as it runs
    modes = {"cache": True, "no cache": False} if src is None else {"as it is": False}
    found: dict[tuple[str, str], list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="tactica-bench-cache-") as folder, \
            tempfile.TemporaryDirectory(prefix="tactica-bench-before-") as other:
        envs = {mode: environment(Path(folder), cached, src) for mode, cached in modes.items()}
        if before is not None:
            envs["before"] = environment(Path(other), True, before)
        chosen = {k: v for k, v in commands().items()
                  if only is None or any(w in k for w in only.split(","))}
        for args in chosen.values():  # warm-up: bytecode and the caches written
            for env in envs.values():
                one_run(args, env)
        for _ in range(runs):
            for label, args in chosen.items():
                for mode, env in envs.items():
                    if label in FIRST and mode == "no cache":
                        continue  # (the cache mode is the one that starts empty)
                    if label not in FIRST:
                        found.setdefault((label, mode), []).append(one_run(args, env))
                        continue
                    with tempfile.TemporaryDirectory(prefix="tactica-bench-first-") as empty:
                        fresh = {**env, "TACTICA_CACHE_DIR": empty}
                        found.setdefault((label, mode), []).append(one_run(args, fresh))
    return found


def table(found: dict[tuple[str, str], list[tuple[float, float]]], runs: int,
          label: str) -> list[str]:
    rows = []
    for (command, mode), times in found.items():
        wall = statistics.median(t[0] for t in times)
        cpu = statistics.median(t[1] for t in times)
        rows.append(f"| {label} | `{command}` | {mode} | {wall:.2f} | {cpu:.2f} |")
    return rows


HEAD = ("| code | command | data | wall (s) | CPU (s) |\n"
        "|---|---|---|---:|---:|")


def write(rows: list[str], label: str, runs: int) -> None:
    """Keep the rows of other labels (another commit measured earlier), replace ours."""
    start, end = markers("startup")
    text = README.read_text(encoding="utf-8") if README.exists() else ""
    kept: list[str] = []
    if start in text and end in text:
        old = text.split(start, 1)[1].split(end, 1)[0]
        kept = [r for r in old.splitlines()
                if r.startswith("| ") and not r.startswith(("| code ", f"| {label} |"))]
    intro = (
        "## Start-up (`benchmarks/bench_startup.py`)\n\n"
        "Whole commands, each in a fresh process, median of "
        f"{runs} interleaved rounds on Python {platform.python_version()} "
        f"({platform.machine()}, {os.cpu_count()} cpu, shared with other jobs: wall times "
        "are inflated by load, CPU times much less). `cache`: tactica's cache filled, as "
        "for every command after the first; `no cache`: `TACTICA_CACHE=0`, everything "
        "converted in the process. The issue's bounds: 0.6 s for `sheet` and `calc`, 5 s "
        "for `--data` on the real catalogues.\n\n")
    write_section("startup", intro + HEAD + "\n" + "\n".join([*kept, *rows]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--src", type=Path, help="time this checkout's src folder instead")
    parser.add_argument("--before", type=Path, help="time this checkout's src folder too, "
                        "in the same rounds (mode 'before')")
    parser.add_argument("--label", default="this branch", help="the row label")
    parser.add_argument("--write", action="store_true", help="update benchmarks/README.md")
    parser.add_argument("--only", help="only the commands containing one of these "
                        "comma-separated words (e.g. 'help,rule')")
    args = parser.parse_args()
    found = measure(args.runs, args.src, args.only, args.before)
    rows = table(found, args.runs, args.label)
    print(HEAD + "\n" + "\n".join(rows))
    if args.write:
        write(rows, args.label, args.runs)


if __name__ == "__main__":
    main()
