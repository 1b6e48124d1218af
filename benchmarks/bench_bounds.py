"""Benchmark: every input answered or refused, within a bound (issue 26).

Two parts, through the public API only (``tactica.calculate``), so that the same script
measures an older tree too (``PYTHONPATH=/old/src python benchmarks/bench_bounds.py``):

* **refusals**: the CPU time until the size model refuses scenarios that would take too
  long (the aim: 50 ms or less), e.g. 137 models W10 invulnerable 2+ FNP 6+ against
  6D6 and 2D6+6 attacks of D 10D3 with Devastating Wounds (10th);
* **generated**: ``--n`` seeded scenarios with extreme but valid weapon lines (A up to
  10D3, D up to 6D6, up to seven abilities, up to 200 models W30, FNP, invulnerable
  saves), each run in-process with a wall-clock alarm (``--limit`` seconds): counted as
  a result (its distributions summing to 1 and serialising), a refusal (the project's
  ``ValueError`` / ``LookupError`` in one line), a crash (any other exception), an
  unsound result, or a hang (past the limit); with the CPU time of the slowest answers.

Run ``python benchmarks/bench_bounds.py [--n 300] [--limit 20]``; times are reported,
never asserted.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import signal
import time
from collections import Counter
from typing import Any

import tactica

DICE = ["1", "6", "10", "D6", "2D6", "3D6", "6D6", "10D3", "2D6+6", "D3+3"]
ABILITIES = ["Conversion", "Sustained Hits 2", "Sustained Hits D3", "Twin-linked",
             "Lethal Hits", "Anti-Monster 3+", "Anti-Infantry 2+", "Melta 2", "Melta 4",
             "Rapid Fire D6", "Rapid Fire 2", "Devastating Wounds", "Torrent", "Blast",
             "Lance", "Heavy", "Hazardous", "Precision", "Ignores Cover", "Indirect Fire"]


def _hang_case(abilities: list[str]) -> dict[str, Any]:
    return {"rules": "10th", "attacker": {"weapons": [
        {"name": "a", "count": 1, "A": "6D6", "skill": 3, "S": 8, "AP": -2, "D": "10D3",
         "abilities": abilities},
        {"name": "b", "count": 1, "A": "2D6+6", "skill": 3, "S": 8, "AP": -2, "D": "10D3",
         "abilities": abilities}]},
        "target": {"models": [{"count": 137, "T": 5, "Sv": 3, "W": 10, "invuln": 2,
                               "fnp": 6}]}}


REFUSED = [
    ("137 x W10 inv 2+ FNP 6+, 6D6 and 2D6+6 attacks of D 10D3, DW (10th)",
     _hang_case(["Devastating Wounds"])),
    ("the same with Sustained Hits 2", _hang_case(["Devastating Wounds",
                                                   "Sustained Hits 2"])),
    ("200 x W30 FNP 5+, 3 lines of 10 x 10D3 attacks D 6D6, SH2 DW (10th)", {
        "rules": "10th", "attacker": {"weapons": [
            {"name": f"w{i}", "count": 10, "A": "10D3", "skill": 2, "S": 14, "AP": -4,
             "D": "6D6", "abilities": ["Sustained Hits 2", "Devastating Wounds"]}
            for i in range(3)]},
        "target": {"models": [{"count": 200, "T": 12, "Sv": 2, "W": 30, "fnp": 5}]}}),
]


def _generated(rng: random.Random) -> dict[str, Any]:
    weapons = [{"name": f"w{j}", "count": rng.choice([1, 2, 5, 10]), "A": rng.choice(DICE),
                "skill": rng.randint(2, 6), "S": rng.choice([1, 4, 8, 14, 20]),
                "AP": rng.randint(-4, 0), "D": rng.choice(DICE),
                "abilities": rng.sample(ABILITIES, rng.randint(0, 7))}
               for j in range(rng.randint(1, 3))]
    models: dict[str, Any] = {"count": rng.choice([1, 5, 20, 137, 200]),
                              "T": rng.choice([1, 4, 8, 12]), "Sv": rng.randint(2, 6),
                              "W": rng.choice([1, 2, 3, 10, 24, 30])}
    if rng.random() < 0.5:
        models["invuln"] = rng.randint(2, 6)
    if rng.random() < 0.5:
        models["fnp"] = rng.randint(2, 6)
    return {"rules": rng.choice(["10th", "11th"]),
            "phase": rng.choice(["shooting", "shooting", "fight"]),
            "context": {"within_half_range": rng.random() < 0.5},
            "attacker": {"weapons": weapons}, "target": {"models": [models]}}


class _Late(Exception):
    pass


def _alarm(*_: object) -> None:
    raise _Late


def _sound(result: Any) -> bool:
    doc = json.loads(result.model_dump_json())
    pmfs = [d["pmf"] for d in (doc.get("damage"), doc.get("models_destroyed")) if d]
    return all(math.isclose(sum(p), 1.0, abs_tol=1e-9) for p in pmfs)


def _one(doc: dict[str, Any], limit: float) -> tuple[str, float, str]:
    signal.setitimer(signal.ITIMER_REAL, limit)
    t0 = time.process_time()
    try:
        kind = "result" if _sound(tactica.calculate(doc)) else "unsound"
        text = ""
    except _Late:
        kind, text = "hang", ""
    except (ValueError, LookupError) as exc:
        text = " ".join(str(exc).split())
        kind = "refusal" if "\n" not in str(exc) or "validation error" in str(exc) else \
            "multi-line refusal"
    except Exception as exc:
        kind, text = f"crash ({type(exc).__name__})", str(exc)[:120]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return kind, time.process_time() - t0, text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--limit", type=float, default=20.0)
    args = parser.parse_args(argv)
    signal.signal(signal.SIGALRM, _alarm)
    tactica.calculate(_generated(random.Random(0)) | {"attacker": {"weapons": [
        {"name": "w", "A": "1", "skill": 3, "S": 4, "AP": 0, "D": "1"}]}})  # imports
    print("| refused case | CPU (ms) | answer |\n|---|---:|---|")
    for name, doc in REFUSED:
        kind, took, text = _one(doc, args.limit)
        print(f"| {name} | {took * 1e3:.1f} | {kind}: {text[:90]} |")
    rng = random.Random(args.seed)
    counts: Counter[str] = Counter()
    times: list[tuple[float, str]] = []
    for _ in range(args.n):
        kind, took, _text = _one(_generated(rng), args.limit)
        counts[kind] += 1
        times.append((took, kind))
    times.sort(reverse=True)
    print(f"\n{args.n} generated scenarios (seed {args.seed}, limit {args.limit:g} s): "
          + ", ".join(f"{k} {v}" for k, v in counts.most_common()))
    print("slowest CPU (s): " + ", ".join(f"{t:.2f} ({k})" for t, k in times[:5]))
    print(f"answers over 3 s of CPU: {sum(t > 3 for t, _ in times)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
