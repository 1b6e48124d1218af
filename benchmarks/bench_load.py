"""Load benchmark: the bundled dataset (every faction) and a BSData catalogue.

Issue 6 asks that loading all factions from the dataset take under 2 seconds. Each run
is a fresh Python process (the dataset is cached per process), timing:

* ``index``: reading the ``wh40kdc`` bundle and indexing every unit by name (what
  ``tactica sheet NAME`` pays before converting one unit);
* ``convert all``: converting every unit to a ``Datasheet`` with its load report;
* ``total``: both, i.e. loading all factions;

and the same for the BSData Genestealer Cults catalogue when ``TACTICA_REAL_DATA`` (else
``../shared/data``) has ``bsdata-11e`` (its files are not part of tactica).

Run ``python benchmarks/bench_load.py`` (``--runs N``). It prints a markdown table;
``--write`` also puts it into ``benchmarks/README.md`` between ``<!-- load:start -->``
and ``<!-- load:end -->``. Times are reported, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

from readme import write_section

REAL_DATA = Path(os.environ.get("TACTICA_REAL_DATA")
                 or Path(__file__).resolve().parents[2] / "shared" / "data")
BSDATA = REAL_DATA / "bsdata-11e"

#: The child process: times one cold load and prints the numbers as JSON.
CHILD = r"""
import json, sys, time
import tactica.loaders.report  # the model and pydantic, imported before timing
t0 = time.perf_counter()
from tactica.loaders.wh40kdc import embedded_dataset
ds = embedded_dataset()
t1 = time.perf_counter()
report = ds.report()
t2 = time.perf_counter()
out = {"dataset": {"index": t1 - t0, "convert": t2 - t1, "units": len(report.units),
                   "counts": report.counts(), "factions": len(ds.factions())}}
if len(sys.argv) > 1:
    from tactica.loaders.bsdata import load_bsdata
    t3 = time.perf_counter()
    src = load_bsdata([sys.argv[1]])
    t4 = time.perf_counter()
    bs = src.report()
    t5 = time.perf_counter()
    out["bsdata"] = {"index": t4 - t3, "convert": t5 - t4, "units": len(bs.units),
                     "counts": bs.counts(), "factions": len(src.factions())}
print(json.dumps(out))
"""


def one_run(bsdata: Path | None) -> dict[str, dict[str, object]]:
    args = [sys.executable, "-c", CHILD] + ([str(bsdata)] if bsdata else [])
    done = subprocess.run(args, check=True, capture_output=True, text=True)
    result: dict[str, dict[str, object]] = json.loads(done.stdout)
    return result


def table(runs: list[dict[str, dict[str, object]]]) -> str:
    rows = []
    for key, label in (("dataset", "wh40kdc bundled dataset, all factions"),
                       ("bsdata", "BSData Genestealer Cults.json (+ linked files)")):
        if key not in runs[0]:
            continue

        def median(field: str, key: str = key) -> float:
            return statistics.median(float(str(r[key][field])) for r in runs)

        first = runs[0][key]
        counts = first["counts"]
        assert isinstance(counts, dict)
        rows.append(
            f"| {label} | {first['factions']} | {first['units']} | "
            f"{counts['loaded']} / {counts['repaired']} / {counts['rejected']} | "
            f"{median('index'):.2f} | {median('convert'):.2f} | "
            f"{median('index') + median('convert'):.2f} |"
        )
    head = (
        f"Median of {len(runs)} cold runs (a fresh process each) on Python "
        f"{platform.python_version()} ({platform.machine()}); "
        "`python benchmarks/bench_load.py`.\n\n"
        "| source | factions | units | loaded / repaired / rejected | index (s) | "
        "convert all (s) | total (s) |\n|---|---:|---:|---|---:|---:|---:|\n"
    )
    return head + "\n".join(rows) + "\n"


def write(text: str) -> None:
    """Put ``text`` in the load section of the benchmarks README."""
    write_section("load", f"## Loading the data (`benchmarks/bench_load.py`)\n\n{text.rstrip()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--write", action="store_true", help="update benchmarks/README.md")
    args = parser.parse_args()
    bsdata = BSDATA / "Genestealer Cults.json"
    runs = [one_run(bsdata if bsdata.exists() else None) for _ in range(args.runs)]
    text = table(runs)
    print(text)
    if args.write:
        write(text)


if __name__ == "__main__":
    main()
