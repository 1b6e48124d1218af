"""Where a single small ``tactica.calculate`` call spends its time (issue 40, part 3).

The issue reads the single call's cost as the document layer (validation, the result
models). This script measures the call's four phases, each case's calls in a row, its
value caches cleared before every call (untimed, as ``bench_single_call.py``):

* ``validate``: the scenario document read and validated (``parse_document``);
* ``prepare``: the weapon lines resolved against the target (``engine._prepare``: the
  stage records, each line's dice, hit, wound and damage numbers);
* ``engine``: the attacker's choices and the target's states (``_lethal_search`` and
  ``_states``: the totals, the packets, the one-group chain or the general one);
* ``document``: the result document built from the final states (``_finish``: the
  read-out, the stage explanations, ``Result.model_validate``).

Each phase is timed by wrapping the engine's function for the run (the wrappers' own
cost, a clock read and a call, is in the phases' times, well under 1%). The last column
is the most a call could gain if the document layer (``validate`` and ``document``) cost
nothing: the call's time over its time without them.

    python benchmarks/bench_call_phases.py [--calls N] [--no-write]

``--write`` (the default) puts the table into ``benchmarks/README.md`` between
``<!-- phases:start -->`` and ``<!-- phases:end -->``. Times are reported, never asserted.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from cases import CASES
from readme import write_section
from run import clear_tactica_caches

import tactica.calculator as calculator
import tactica.combat.exact.engine as engine
from tactica import calculate

#: The phases, in the order a call runs them: (label, module, function names).
PHASES: tuple[tuple[str, Any, tuple[str, ...]], ...] = (
    ("validate", calculator, ("parse_document",)),
    ("prepare", engine, ("_prepare",)),
    ("engine", engine, ("_lethal_search", "_states")),
    ("document", engine, ("_finish",)),
)


@contextmanager
def timed_phases(spent: dict[str, float]) -> Iterator[None]:
    """Each phase's functions wrapped to add their time (``time.perf_counter``) into
    ``spent[label]`` while the block runs; put back after."""
    saved: list[tuple[Any, str, Callable[..., Any]]] = []
    for label, module, names in PHASES:
        for name in names:
            fn = getattr(module, name)
            saved.append((module, name, fn))

            def wrapper(*args: Any, _fn: Callable[..., Any] = fn, _label: str = label,
                        **kwargs: Any) -> Any:
                start = time.perf_counter()
                try:
                    return _fn(*args, **kwargs)
                finally:
                    spent[_label] += time.perf_counter() - start
            setattr(module, name, wrapper)
    try:
        yield
    finally:
        for module, name, fn in saved:
            setattr(module, name, fn)


def measure(calls: int) -> list[tuple[str, dict[str, float]]]:
    """Per everyday case: the medians (seconds) of each phase and of the whole call."""
    out = []
    for case in CASES:
        if case.key == "stress":
            continue
        doc = {**case.document, "method": "exact"}
        calculate(doc)  # warm-up: the imports, the library's first look-ups
        samples: dict[str, list[float]] = defaultdict(list)
        for _ in range(calls):
            clear_tactica_caches()
            spent: dict[str, float] = defaultdict(float)
            with timed_phases(spent):
                start = time.perf_counter()
                calculate(doc)
                whole = time.perf_counter() - start
            samples["call"].append(whole)
            for label, _, _ in PHASES:
                samples[label].append(spent[label])
        out.append((case.key, {k: statistics.median(v) for k, v in samples.items()}))
    return out


def markdown(found: list[tuple[str, dict[str, float]]], calls: int) -> str:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    head = ("| case | call (ms) | " + " | ".join(f"{label} (ms, share)" for label, _, _ in PHASES)
            + " | other (ms, share) | call / call without validate and document |")
    lines = [head, "|---|---:|" + "---:|" * (len(PHASES) + 1) + "---:|"]
    for key, m in found:
        call = m["call"]
        cells = [f"{m[label] * 1e3:.3f} ({m[label] / call:.0%})" for label, _, _ in PHASES]
        other = call - sum(m[label] for label, _, _ in PHASES)
        rest = call - m["validate"] - m["document"]
        lines.append(f"| {key} | {call * 1e3:.3f} | " + " | ".join(cells)
                     + f" | {other * 1e3:.3f} ({other / call:.0%}) | {call / rest:.2f}x |")
    return "\n".join([
        f"`python benchmarks/bench_call_phases.py --calls {calls}`: medians of {calls} "
        f"calls in a row per case, wall time, value caches cleared before each (untimed); "
        f"Python {platform.python_version()} ({platform.machine()}, {os.cpu_count()} cpu, "
        f"load average {load:.1f} at the end). `other`: the rest of the call (the "
        "wrapping: `tactica.calculate`'s refusals, the BLAS thread limit, the Lethal Hits "
        "notes, Deadly Demise and the rules not computed (`unit_rules.finish`); and the "
        "phase wrappers' own cost).",
        "",
        *lines,
    ])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--calls", type=int, default=500, help="calls per case (500)")
    parser.add_argument("--no-write", action="store_true", help="do not update README.md")
    args = parser.parse_args(argv)
    text = markdown(measure(max(1, args.calls)), max(1, args.calls))
    print(text)
    if not args.no_write:
        write_section("phases", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
