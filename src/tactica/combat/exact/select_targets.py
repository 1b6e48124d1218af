"""The models in the target unit at the Select Targets step: what [BLAST] and [CLEAVE]
count.

11th 24.05 Blast: "Each time you gather attack dice for a [BLAST] weapon, add one
additional attack dice for every five models that were in the target unit in the Select
Targets step (rounding down)"; 24.06 Cleave counts the same models; 10th Blast: "for every
five models that were in the target unit when you selected it as the target". A unit
selects its targets before any of its attacks, so against a scenario's target the count
is all its models (``rules.per_five_models``). An attack that starts from a distribution
over the target's states instead (a sequence's later step, ``combat.turn``; a volley's
later unit, ``plan.volley``; the target fighting back against a unit already hurt) counts
the models alive in each state: ``parts`` groups the states by the count they give, each
part is computed on its own (``engine.calculate_exact_from``), and ``mixed`` mixes the
parts' results with their probabilities. The attack dice are then the exact mixture over
the survivors' distribution; every other number is too (each part's final states are
its own).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from tactica.dice import FloatArray
from tactica.rules.base import RuleSet

from ..contract.result import Result, distribution_fields
from ..contract.scenario import Effect, Scenario
from .allocation import State, StateSpace
from .stages import WeaponInputs

__all__ = ["Part", "by_models_alive", "counts_models", "mixed", "mixed_states", "parts"]

#: A distribution over the target's states, each with the pmf of unsaved attacks so far
#: (``engine.Initial``).
Initial = dict[State, FloatArray]


class Part(NamedTuple):
    """The states of a starting distribution whose models alive give one count: the
    most and fewest models alive among them, their probability, and the distribution
    given them (summing to 1)."""

    models: int
    fewest: int
    weight: float
    initial: Initial

    @property
    def label(self) -> str:
        alive = (f"{self.models}" if self.fewest == self.models
                 else f"{self.fewest}-{self.models}")
        return f"{alive} models alive (P {self.weight:.4g})"


def counts_models(scenario: Scenario, rules: RuleSet, effects: tuple[Effect, ...]) -> bool:
    """Whether a weapon line of ``scenario`` (its named effects applied, ``effects``
    resolved) counts the target's models: [BLAST] or [CLEAVE], its own or granted."""
    return any(WeaponInputs.of(w, scenario, rules, effects).kinds.counts_models
               for w in scenario.attacker.weapons)


def parts(space: StateSpace, initial: Initial, rules: RuleSet) -> list[Part]:
    """``initial`` grouped by ``rules.per_five_models`` of the models alive in each state
    (the most first), each group conditioned on itself; states of no probability are
    left out (all of them: one part, the whole)."""
    by_count: dict[int, Initial] = {}
    for s, row in initial.items():
        by_count.setdefault(rules.per_five_models(space.models_left(s)), {})[s] = row
    out = []
    for _, group in sorted(by_count.items(), reverse=True):
        weight = float(sum(float(row.sum()) for row in group.values()))
        if weight <= 0.0:
            continue
        alive = [space.models_left(s) for s in group]
        out.append(Part(max(alive), min(alive), weight,
                        {s: row / weight for s, row in group.items()}))
    if not out:  # nothing with any probability: the whole, as it is
        alive = [space.models_left(s) for s in initial] or [0]
        out.append(Part(max(alive), min(alive), 1.0, initial))
    return out


def _pad_add(a: FloatArray, b: FloatArray) -> FloatArray:
    out = np.zeros(max(len(a), len(b)))
    out[: len(a)] += a
    out[: len(b)] += b
    return out


def mixed_states(found: list[tuple[float, Initial]]) -> Initial:
    """The final states of the parts, each weighed by its part's probability."""
    out: Initial = {}
    for weight, states in found:
        for s, row in states.items():
            out[s] = _pad_add(out.get(s, np.zeros(1)), weight * row)
    return out


_DISTRIBUTIONS = ("attacks", "hits", "wounds", "unsaved", "damage", "models_destroyed",
                  "attacker_mortal_wounds")


def _mix(pmfs: list[tuple[float, tuple[float, ...]]]) -> FloatArray:
    out = np.zeros(1)
    for weight, pmf in pmfs:
        out = _pad_add(out, weight * np.asarray(pmf, dtype=np.float64))
    return out


def _stages(found: list[tuple[Part, Result]]) -> list[dict[str, str]]:
    """Each stage explanation once where every part gives it alike; where they differ
    (the attack dice), each part's, labelled with its models and probability."""
    first = found[0][1].stages
    if any([(e.weapon, e.stage) for e in r.stages] != [(e.weapon, e.stage) for e in first]
           for _, r in found):  # not met: every part has the same lines and stages
        return [e.model_dump() for e in dict.fromkeys(e for _, r in found for e in r.stages)]
    out = []
    for i, e in enumerate(first):
        details = [r.stages[i].detail for _, r in found]
        detail = e.detail if len(set(details)) == 1 else "; ".join(
            f"{part.label}: {d}" for (part, _), d in zip(found, details, strict=True))
        out.append({"weapon": e.weapon, "stage": e.stage, "detail": detail})
    return out


def mixed(found: list[tuple[Part, Result]]) -> Result:
    """One result from the parts' results, each weighed by its part's probability: every
    distribution, P(destroyed), the weapons' means and the other mortal wounds mixed;
    notes and what was not calculated gathered; a note says the count was mixed."""
    if len(found) == 1:
        return found[0][1]
    first = found[0][1]
    fields = {name: distribution_fields(
        _mix([(p.weight, getattr(r, name).pmf) for p, r in found]),
        length=len(first.models_destroyed.pmf) if name == "models_destroyed" else None)
        for name in _DISTRIBUTIONS}
    weapons = [{"weapon": w.weapon, **{k: sum(p.weight * getattr(r.weapons[i], k)
                                              for p, r in found)
                                       for k in ("attacks", "hits", "wounds",
                                                 "critical_wounds")}}
               for i, w in enumerate(first.weapons)]
    labels = list(dict.fromkeys(nd.label for _, r in found for nd in r.other_mortal_wounds))
    side = [{"label": label, "distribution": distribution_fields(_mix([
        (p.weight, next((nd.distribution.pmf for nd in r.other_mortal_wounds
                         if nd.label == label), (1.0,))) for p, r in found]))}
        for label in labels]
    note = ("[BLAST]/[CLEAVE] count the target's models alive when the unit selects its "
            "targets (24.05, 24.06): the attack dice are a mixture over "
            + ", ".join(p.label for p, _ in found))
    return Result.model_validate({
        **first.model_dump(exclude={"resolved"}), **fields,
        "p_unit_destroyed": sum(p.weight * r.p_unit_destroyed for p, r in found),
        "weapons": weapons, "stages": _stages(found), "other_mortal_wounds": side,
        "notes": tuple(dict.fromkeys([*(n for _, r in found for n in r.notes), note])),
        "not_calculated": tuple(dict.fromkeys(n for _, r in found
                                              for n in r.not_calculated)),
    })


def by_models_alive(scenario: Scenario, rules: RuleSet, effects: tuple[Effect, ...],
                    space: StateSpace, initial: Initial,
                    compute: Callable[[int | None, Initial], tuple[Result, Initial]],
                    weights: list[float] | None = None) -> tuple[Result, Initial]:
    """An attack from ``initial`` (``engine.calculate_exact_from``): ``compute(models,
    start)`` gives the result and final states from ``start`` with the attack dice
    counted against ``models`` (``None``: all the target's). Without [BLAST] or [CLEAVE],
    or where every state gives one count, one call; else one per part (``parts``),
    mixed. ``weights`` receives the parts' probabilities."""
    weights = [] if weights is None else weights
    if not counts_models(scenario, rules, effects):
        weights.append(1.0)
        return compute(None, initial)
    full = scenario.target.model_count
    found = []
    for part in parts(space, initial, rules):
        weights.append(part.weight)
        found.append((part, *compute(None if part.models == full else part.models,
                                     part.initial)))
    return (mixed([(part, r) for part, r, _ in found]),
            mixed_states([(part.weight, states) for part, _, states in found]))
