"""Benchmark: Precision (24.28) against attached units, the target's states found along
the chain (``tactica.combat.exact.reach``) against the full closure the engine used before.

For each case the full exact result is computed twice in one process, side by side:
*before*, the former engine (``former_states``: every operator closed over every state,
the Precision group a label in the state); *after*, the engine as it is: the states the
chain reaches in its order (``tactica.combat.exact.reach``), a Precision weapon's group read
off the state (``tactica.combat.exact.allocation``). Reported:
the number of target states, the CPU time (``time.process_time``, median of ``--runs``
calls after one warm-up call; the machine is shared, wall time is noisy) and the mean
damage (equal in both columns when neither refuses). A refusal (``TooLargeError``) is
reported with the time it took to say no.

Cases (11th rules unless named):

* ``1 leader``: 10 shots BS3+ S5 AP-1 D3, Precision, into 10 Intercessors (T4 Sv3+ W2)
  led by a Captain in Terminator armour (Sv2+ 4++ W6);
* ``1 leader, then bolters``: that Precision line, then 20 shots S5 AP-1 D1 without;
* ``bolters, then 1 leader``: the same two lines the other way round (the CHARACTER's
  and the bodyguard's damage form a true product: no saving there);
* ``3 leaders``: 20 shots D3 with Precision into 20 bodyguards of W3 led by three
  CHARACTER models of W5 (Sv3+);
* ``3 leaders, mixed``: 10 Precision shots D3, 20 shots D1 without, 5 more Precision;
* ``3 leaders, 10th DW``: 20 shots D3 with Precision and Devastating Wounds, 10th rules
  (held-back mortal wounds allocated to a CHARACTER);
* ``stress, Precision``: the engine benchmark's stress gun (40 attacks D6, Sustained
  Hits 2, Lethal Hits, Devastating Wounds) with Precision into the ``1 leader`` unit
  (its Devastating Wounds hit the bodyguard of a wounded CHARACTER: a true product);
* ``library``: the library's Eliminator Squad (bolt sniper rifles: Heavy, Precision)
  with a Deathwatch Veterans squad's stalker-pattern boltguns into 10 Intercessors led
  by a Captain and a Lieutenant (unit references, ``tactica.units``).

Run ``python benchmarks/bench_precision.py`` (``--runs N``, ``--no-write``): prints a
markdown table and writes it into ``benchmarks/README.md`` between ``<!-- precision:start
-->`` and ``<!-- precision:end -->``. Times are reported, never asserted.
"""

from __future__ import annotations

import contextlib
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any
from unittest import mock

from bench_engine import stress_scenario
from former_states import LabelledSpace, full_closure
from readme import table_command, write_section

from tactica.combat.contract.scenario import Scenario
from tactica.combat.exact import engine as exact
from tactica.combat.exact.allocation import TooLargeError
from tactica.library import load_library
from tactica.units import ScenarioDocument, resolve

Json = dict[str, Any]


def _gun(name: str, count: int, damage: str, *abilities: str, attacks: str = "1") -> Json:
    return {"name": name, "count": count, "range": 24, "A": attacks, "skill": 3, "S": 5,
            "AP": -1, "D": damage, "abilities": list(abilities)}


LED_1: list[Json] = [
    {"name": "Intercessor", "count": 10, "T": 4, "Sv": 3, "W": 2},
    {"name": "Captain", "count": 1, "T": 4, "Sv": 2, "invuln": 4, "W": 6, "character": True}]
LED_3: list[Json] = [
    {"name": "Bodyguard", "count": 20, "T": 4, "Sv": 3, "W": 3},
    *({"name": f"Leader {i}", "count": 1, "T": 4, "Sv": 3, "W": 5, "character": True}
      for i in (1, 2, 3))]
PRECISE = _gun("precision gun", 10, "D3", "Precision")
BOLTERS = _gun("bolters", 10, "1", attacks="2")


def _stress_precise() -> Json:
    gun: Json = stress_scenario("11th")["attacker"]["weapons"][0]
    return {**gun, "abilities": [*gun["abilities"], "Precision"]}


def _plain(target: list[Json], weapons: list[Json], rules: str = "11th") -> Scenario:
    return Scenario.model_validate({"rules": rules, "attacker": {"name": "guns",
                                                                 "weapons": weapons},
                                    "target": {"name": "led unit", "models": target}})


def _library() -> Scenario:
    lib = load_library()
    target = {"unit": "Intercessor Squad", "models": 10, "led_by": ["Captain", "Lieutenant"]}
    snipers, _, _ = resolve(ScenarioDocument.model_validate(
        {"attacker": {"unit": "Eliminator Squad"}, "target": target}), lib)
    veterans, _, _ = resolve(ScenarioDocument.model_validate(
        {"attacker": {"unit": "Deathwatch Veterans",
                      "weapons": ["Stalker-pattern boltgun:5"]}, "target": target}), lib)
    weapons = (*snipers.attacker.weapons, *veterans.attacker.weapons)
    return snipers.model_copy(update={"attacker": snipers.attacker.model_copy(
        update={"weapons": weapons})})


CASES: dict[str, Callable[[], Scenario]] = {
    "1 leader": lambda: _plain(LED_1, [PRECISE]),
    "1 leader, then bolters": lambda: _plain(LED_1, [PRECISE, BOLTERS]),
    "bolters, then 1 leader": lambda: _plain(LED_1, [BOLTERS, PRECISE]),
    "3 leaders": lambda: _plain(LED_3, [_gun("precision gun", 20, "D3", "Precision")]),
    "3 leaders, mixed": lambda: _plain(LED_3, [PRECISE, BOLTERS,
                                              _gun("second", 5, "D3", "Precision")]),
    "3 leaders, 10th DW": lambda: _plain(
        LED_3, [_gun("precision gun", 20, "D3", "Precision", "Devastating Wounds")], "10th"),
    "stress, Precision": lambda: _plain(LED_1, [_stress_precise()]),
    "library": _library,
}


def states_of(scenario: Scenario) -> int:
    """The number of target states the exact engine builds for ``scenario``."""
    memo: dict[Any, Any] = {}
    exact.calculate_exact(scenario, memo)
    return max(len(v[0].states) for k, v in memo.items()
               if isinstance(k, tuple) and k and k[0] == "operators")


def measure(scenario: Scenario, runs: int) -> str:
    """``states | ms | mean damage`` cells, or a refusal with the time to refuse."""
    try:
        n = states_of(scenario)
    except TooLargeError:
        t0 = time.process_time()
        with contextlib.suppress(TooLargeError):
            exact.calculate_exact(scenario)
        return f"refused | {(time.process_time() - t0) * 1000:.1f} | |"
    times = []
    for _ in range(runs):
        t0 = time.process_time()
        result = exact.calculate_exact(scenario)
        times.append(time.process_time() - t0)
    return f"{n} | {statistics.median(times) * 1000:.1f} | {result.damage.mean:.4f} |"


def table(runs: int) -> str:
    rows = []
    for name, build in CASES.items():
        scenario = build()
        with (mock.patch.object(exact, "reach", full_closure),
              mock.patch.object(exact, "StateSpace", LabelledSpace)):
            before = measure(scenario, runs)
        after = measure(scenario, runs)
        rows.append(f"| {name} | {before} {after}")
    head = [
        "## Precision against attached units (`benchmarks/bench_precision.py`)",
        "",
        "Full exact result, CPU-time median of "
        f"{runs} runs after one warm-up call. *before*: the target's states closed under "
        "every operator from every state, the Precision group a label in the state; "
        "*after*: the states the chain reaches in its order (`tactica.combat.exact.reach`), a "
        "Precision weapon's group read off the state. Equal damage means equal results "
        "(the tests check every distribution to 1e-12). With one Precision line the "
        "states are the CHARACTER's damage, then the bodyguard's; with another line "
        "before or after it, the product of the two is reached for real and stays "
        "(each operator works on its own states only).",
        "",
        "| case | states before | ms before | damage before | states after | ms after "
        "| damage after |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    return "\n".join(head + rows)


def main(argv: list[str] | None = None) -> int:
    return table_command(__doc__ or "", table, lambda text: write_section("precision", text), 9,
                         "timed runs per cell", argv)


if __name__ == "__main__":
    sys.exit(main())
