"""Independent evaluations for the plan tests: ``tactica.calculate`` on a scenario or on a
sequence document (the sequence engine, ``tactica.combat.turn``), and the points of the
first k models a target loses read from the list order, not from the engine's states.

Without Precision, a target loses its models in a fixed order (reference facts §5.1,
05.04.01): the non-CHARACTER models first, entry by entry in the order listed, then the
CHARACTER models in the order listed. So E[points destroyed] = sum_k P(k models
destroyed) x (the points of the first k models in that order): a second route to the
number ``tactica.plan.points`` reads off the final states.
"""

from __future__ import annotations

from pathlib import Path

import tactica
from tactica.combat import calculate
from tactica.combat.contract.scenario import Scenario, Target
from tactica.combat.contract.sequence import Sequence

ROSTERS = Path(__file__).resolve().parents[1] / "fixtures" / "rosters" / "gw-app-11e"
#: The three real lists of the fixtures that are not Genestealer Cults (the official
#: app's 11th-edition exports): Aeldari, Chaos Knights, Orks.
REAL_LISTS = ("official_9.txt", "official_10.txt", "official_16.txt")


def removal_costs(target: Target, entry_points: tuple[tuple[int, float], ...]) -> list[float]:
    """cost[k]: the points of the first k models removed, in the order of the module
    text."""
    models = [(g.character, j) for j, g in enumerate(target.models)
              for _ in range(g.count)]
    order = [j for c, j in models if not c] + [j for c, j in models if c]
    costs = [0.0]
    for j in order:
        costs.append(costs[-1] + entry_points[j][1])
    return costs


def has_precision(scenarios: list[Scenario]) -> bool:
    return any("precision" in str(a).casefold() for s in scenarios
               for w in s.attacker.weapons for a in w.abilities)


def points_from_pmf(pmf: tuple[float, ...], costs: list[float]) -> float:
    return sum(p * costs[k] for k, p in enumerate(pmf))


def single_points(scenario: Scenario, entry_points: tuple[tuple[int, float], ...],
                  result: tactica.Result | None = None) -> float:
    """One ``tactica.calculate`` call (or its ``result``, already made), read through the
    removal order."""
    r = tactica.calculate(scenario) if result is None else result
    return points_from_pmf(r.models_destroyed.pmf, removal_costs(scenario.target, entry_points))


def sequence_result(scenarios: list[Scenario]) -> tactica.Result:
    """The sequence engine's result of these units shooting one target in this order."""
    target = scenarios[0].target
    seq = Sequence(rules=scenarios[0].rules, target=target, steps=tuple(
        {"phase": "shooting", "unit": f"unit {i}", "attacker": s.attacker,
         "context": s.context, "effects": s.effects} for i, s in enumerate(scenarios)))
    return calculate(seq)


def sequence_points(scenarios: list[Scenario],
                    entry_points: tuple[tuple[int, float], ...]) -> float:
    r = sequence_result(scenarios)
    return points_from_pmf(r.models_destroyed.pmf,
                           removal_costs(scenarios[0].target, entry_points))
