"""Benchmark: the exact engine's size model (``tactica.combat.exact.size``) against the time the
work really takes, and how fast oversize scenarios are refused.

For each case the full exact result is computed once (after a warm-up call for the
smallest and a garbage collection of what the imports left), with the engine's stage of
the target's chain timed (CPU time of every call of ``exact._target_states``: state
discovery and the chain, over Lethal Hits searches and Command Re-roll branches) and the
size model's prediction for the same calls recorded (``exact.chain_cost``: the chain,
plus the exploration of the states when they were discovered). ``ratio`` = measured /
predicted; the model aims at 0.5-2 where the chain takes long enough to matter (tens of
ms; below, fixed per-call costs dominate). Refused cases report the time until
``TooLargeError`` and its message; with Precision the refusal comes while the target's
states are explored (``size.check_explored``: "at least" so many states found, "over" so
many seconds) or once they are (near the limit).

Run ``python benchmarks/bench_size.py`` (``--no-write``): prints a markdown table and
writes it into ``benchmarks/README.md`` between ``<!-- size:start -->`` and
``<!-- size:end -->``. Times are reported, never asserted.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable
from typing import Any

from bench_engine import stress_scenario
from readme import write_section

from tactica import calculate
from tactica.combat.exact import engine as exact
from tactica.combat.exact import size
from tactica.combat.exact.allocation import TooLargeError
from tactica.combat.exact.one_group import general_chain

_W3 = {"name": "model", "count": 10, "T": 5, "Sv": 3, "W": 3, "fnp": 5}
_CAPTAIN = {"name": "Captain", "count": 1, "T": 4, "Sv": 2, "invuln": 4, "W": 6,
            "character": True}


def _gun(name: str, count: int, d: str, *abilities: str, a: str = "1") -> dict[str, Any]:
    return {"name": name, "count": count, "A": a, "skill": 3, "S": 5, "AP": -1, "D": d,
            "abilities": list(abilities)}


def _scenario(rules: str, weapons: list[dict[str, Any]], models: list[dict[str, Any]],
              **extra: Any) -> dict[str, Any]:
    return {"rules": rules, "attacker": {"weapons": weapons},
            "target": {"models": models}, **extra}


def _dw_lines(n: int, rules: str = "10th", models: list[dict[str, Any]] | None = None,
              count: int = 10) -> dict[str, Any]:
    damages = ["1", "2", "D3", "3", "D6", "4", "2", "D3+1", "5", "6"]
    return _scenario(rules, [_gun(f"gun {i}", count, damages[i % 10], "Devastating Wounds")
                             for i in range(n)],
                     models or [{"name": "Marine", "count": 10, "T": 4, "Sv": 3, "W": 2}])


def _stress(rules: str, factor: int = 1, models: list[dict[str, Any]] | None = None
            ) -> dict[str, Any]:
    s = stress_scenario(rules)
    s["attacker"]["weapons"][0]["A"] = str(factor)
    if models is not None:
        s["target"]["models"] = models
    return s


def _led(bodyguard: int, w: int, characters: int) -> list[dict[str, Any]]:
    return [{"name": "Guard", "count": bodyguard, "T": 4, "Sv": 3, "W": w},
            {**_CAPTAIN, "count": characters}]


def _mixed_saves() -> list[dict[str, Any]]:
    return [{"name": "A", "count": 10, "T": 4, "Sv": 3, "W": 2},
            {"name": "B", "count": 10, "T": 4, "Sv": 4, "W": 2},
            {"name": "C", "count": 5, "T": 4, "Sv": 2, "W": 3, "invuln": 4}]


CASES: list[tuple[str, dict[str, Any]]] = [
    ("stress 11th", _stress("11th")),
    ("stress 10th", _stress("10th")),
    ("stress x8 (320 attacks) 11th", _stress("11th", 8)),
    ("stress x8 (320 attacks) 10th", _stress("10th", 8)),
    ("stress into 30 x W1", _stress("11th", 1, [{**_W3, "count": 30, "W": 1}])),
    ("stress into a knight (W22)", _stress("11th", 1, [
        {"name": "Knight", "count": 1, "T": 11, "Sv": 3, "W": 22, "invuln": 5}])),
    ("stress into 20 x W3, 10th", _stress("10th", 1, [{**_W3, "count": 20}])),
    ("pooled saves: stress into 3 save groups", _stress("11th", 1, _mixed_saves())),
    ("pooled saves: stress x4 into 3 save groups", _stress("11th", 4, _mixed_saves())),
    ("Precision 11th: 10 W2 led by a Captain", _scenario("11th", [
        _gun("bolt", 20, "1", a="2"), _gun("sniper", 5, "D3", "Precision")],
        _led(10, 2, 1))),
    ("Precision 10th: 20 W3 led by 3 Captains", _scenario("10th", [
        _gun("bolt", 20, "1", a="2"), _gun("sniper", 5, "D3", "Precision")],
        _led(20, 3, 3))),
    ("Precision 11th: 20 W3 led by 3 Captains, DW", _scenario("11th", [
        _gun("bolt", 20, "1", a="2"),
        _gun("sniper", 5, "D3", "Precision", "Devastating Wounds")], _led(20, 3, 3))),
    ("Command Re-roll: stress, wound roll", {**_stress("11th"),
                                             "effects": [{"command_reroll": "wound"}]}),
    ("10th: 3 DW lines, different damage", _dw_lines(3)),
    ("10th: 5 DW lines", _dw_lines(5)),
    ("10th: 10 DW lines", _dw_lines(10)),
    ("10th: 10 DW lines into 10 x W3 FNP5+", _dw_lines(10, models=[_W3])),
    ("10th: 4 DW lines of 20 shots into 20 x W3", _dw_lines(4, count=20,
                                                           models=[{**_W3, "count": 20}])),
    ("11th: 10 DW lines", _dw_lines(10, "11th")),
    ("Precision 11th: 60 W3 led by 8 Captains", _scenario("11th", [
        _gun("sniper", 5, "D3", "Precision")], _led(60, 3, 8))),
    # refused
    ("Precision 11th: 60 W4 led by 10 Captains", _scenario("11th", [
        _gun("sniper", 5, "D3", "Precision")], _led(60, 4, 10))),
    ("refused: 100 W4 led by 10 Captains, 10 Precision lines and bolters", _scenario(
        "11th", [_gun("bolt", 5, "1"), *(_gun(f"sniper {i}", 1, "D3", "Precision")
                                         for i in range(10))], _led(100, 4, 10))),
    ("refused past the prediction (19,861 states): 90 W4 led by 10 Captains, 9 Precision "
     "lines and bolters", _scenario("11th", [_gun("bolt", 5, "1"), *(
         _gun(f"sniper {i}", 1, "D3", "Precision") for i in range(9))], _led(90, 4, 10))),
    ("refused: stress gun x2 with Precision and 40 bolters into 20 W3 led by 3 Captains",
     _scenario("11th", [{**_stress("11th", 2)["attacker"]["weapons"][0], "abilities": [
         "Sustained Hits 2", "Lethal Hits", "Devastating Wounds", "Precision"]},
         _gun("bolt", 40, "1")], _led(20, 3, 3))),
    ("refused near the limit: the same with 16 stress guns of 1 attack",
     _scenario("11th", [{**_stress("11th", 1)["attacker"]["weapons"][0], "count": 16,
                         "abilities": ["Sustained Hits 2", "Lethal Hits",
                                       "Devastating Wounds", "Precision"]},
                        _gun("bolt", 40, "1")], _led(20, 3, 3))),
    ("refused: 20 Precision shots D3 and 60 bolters into 100 W3 led by 12 Captains",
     _scenario("11th", [_gun("sniper", 20, "D3", "Precision"), _gun("bolt", 60, "1")],
               _led(100, 3, 12))),
    ("refused: 10th HEAVY (2 x 50 D6 attacks, DW, D6 and D3)", _scenario("10th", [
        _gun("w", 50, "D6", "Sustained Hits 2", "Devastating Wounds", a="D6"),
        _gun("v", 50, "D3", "Sustained Hits 2", "Devastating Wounds", a="D6")],
        [{**_W3, "count": 20}])),
    ("refused: 10th, 10 DW lines of 40 shots into 20 x W3", _dw_lines(
        10, count=40, models=[{**_W3, "count": 20}])),
    ("refused: 200 x 2D6 attacks, SH2, DW", _scenario("11th", [
        _gun("w", 200, "D6", "Sustained Hits 2", "Devastating Wounds", a="2D6")], [_W3])),
    ("refused: pooled saves, stress x40 into 3 save groups", _stress("11th", 40,
                                                                      _mixed_saves())),
]


class _Probe:
    """Times ``exact._target_states`` and records the size model's last prediction in
    each (made with the states found, their exploration included when it ran)."""

    def __init__(self) -> None:
        self.measured = 0.0
        self.predicted = 0.0
        self._pending = 0.0
        self._inside = False  # the chain's own predictions, not the check before totals
        self.methods: set[str] = set()

    def __enter__(self) -> _Probe:
        self._ts, self._cc = exact._target_states, size.chain_cost
        exact._target_states = self._time(self._ts)  # type: ignore[assignment]
        size.chain_cost = self._cost  # type: ignore[assignment]
        return self

    def __exit__(self, *exc: object) -> None:
        exact._target_states, size.chain_cost = self._ts, self._cc  # type: ignore[assignment]

    def _time(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = time.process_time()
            self._inside = True
            try:
                return fn(*args, **kwargs)
            finally:
                self._inside = False
                self.measured += time.process_time() - t0
                self.predicted += self._pending
                self._pending = 0.0
        return timed

    def _cost(self, *args: Any, **kwargs: Any) -> size.ChainCost:
        c: size.ChainCost = self._cc(*args, **kwargs)
        if not self._inside:
            return c
        self._pending = c.seconds  # the last: with the states found (and explored)
        if c.keys > 1:
            self.methods.add(c.method)
        return c


def _row(name: str, doc: dict[str, Any]) -> str:
    with _Probe() as probe, general_chain():
        t0 = time.process_time()
        try:
            calculate(doc)
        except TooLargeError as exc:
            took = (time.process_time() - t0) * 1e3
            text = str(exc).split(": ", 1)[1].rsplit("; use", 1)[0]
            msg = text.split(" (", 1)[1].rsplit(")", 1)[0] if " (" in text else text
            return f"| {name} | refused in {took:.1f} ms | | | | | {msg} |"
        total = time.process_time() - t0
    ratio = probe.measured / probe.predicted if probe.predicted else float("nan")
    held = ", ".join(sorted(probe.methods))
    return (f"| {name} | {total * 1e3:.1f} | {probe.measured * 1e3:.1f} | "
            f"{probe.predicted * 1e3:.1f} | {ratio:.2f} | {held} | |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    calculate(CASES[0][1])  # warm-up: imports, caches
    # the objects of the imports collected now, not in a full collection inside whichever
    # case comes next (it added some 20 ms, a ratio of 2.1 instead of 1.1, to the first
    # case with Precision)
    gc.collect()
    gc.freeze()
    rows = [_row(name, doc) for name, doc in CASES]
    table = "\n".join([
        "## The size model (`benchmarks/bench_size.py`)",
        "",
        "CPU time of one exact call (ms), the part in the target's chain (state "
        "discovery and chain, all calls) measured and predicted by "
        "`tactica.combat.exact.size`, ratio measured / predicted; refusals with their time "
        "and reason (with Precision, \"at least\": refused while the target's states "
        "were explored, by what was found so far). "
        f"Limits: {size.MAX_SECONDS:g} s predicted, "
        f"{size.MAX_FLOATS:.0e} numbers held, {size.MAX_STATES:,} target states. "
        "`held back`: how the 10th-edition Devastating Wounds criticals held back until "
        "the whole unit has attacked were carried (`keys`: one state vector per "
        "combination of their counts; `tensor`: as an operator over the target's "
        "states, `combat/deferred.py`). Every call runs the general chain "
        "(`one_group.general_chain()`), whose cost the model predicts; in normal use a "
        "target of one allocation group takes the one-group fast path instead, bounded "
        "by that path's own limit on the numbers a line holds.",
        "",
        "| case | call (ms) | chain (ms) | predicted (ms) | ratio | held back | "
        "refused because |",
        "|---|---:|---:|---:|---:|---|---|",
        *rows,
    ])
    print(table)
    if not args.no_write:
        write_section("size", table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
