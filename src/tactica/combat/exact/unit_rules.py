"""Rules a unit brings to an attack besides its weapons: Deadly Demise as a side outcome,
and every other rule of the attacker or the target that the engine does not compute,
listed under ``not_calculated`` (never dropped silently).

Deadly Demise X (24.08, the same in the 10th text): "Each time a model in this unit is
destroyed ... roll one D6. On a 6 ... each unit within 6\\" of that model suffers a number
of mortal wounds denoted by X (if this is a random number, roll separately for each unit
within 6\\")". For one attack, the attacking unit is within 6" in the fight phase or when
``context.distance`` <= 6; the mortal wounds it suffers are, exactly, a compound of the
number of models the attack destroys (the result's ``models_destroyed``): each destroyed
model adds X with probability 1/6.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tactica.dice import DiceExpr, FloatArray
from tactica.names import name_key

from ..contract.result import Distribution, NamedDistribution, Result
from ..contract.scenario import Scenario
from .totals import compound

__all__ = [
    "COMPUTED",
    "CORE_OUTSIDE_THE_ATTACK",
    "deadly_demise_pmf",
    "finish",
    "rules_not_calculated",
    "within_6",
]

#: Core abilities that do not change the odds of one attack: why, in the player's words.
CORE_OUTSIDE_THE_ATTACK: dict[str, str] = {
    "Deep Strike": "set-up from reserves",
    "Scouts": "a move before the battle",
    "Infiltrators": "deployment",
    "Leader": "attaching to a bodyguard unit (give the attached unit's models)",
    "Support": "attaching to a bodyguard unit (give the attached unit's models)",
    "Lone Operative": "who can target the unit",
    "Fights First": "fight order",
    "Hover": "movement",
    "Super-Heavy Walker": "movement",
    "Crucible": "not part of an attack",
}

#: The target's rules the engine computes from the scenario's own fields (each model
#: group's fnp, Stealth as the benefit of cover / -1 to hit, Deadly Demise as a side
#: outcome).
COMPUTED = ("Feel No Pain", "Stealth", "Deadly Demise")


def within_6(scenario: Scenario) -> bool:
    """The attacking unit is within 6\" of the target: fighting, or ``context.distance``."""
    d = scenario.context.distance
    return scenario.phase == "fight" or (d is not None and d <= 6)


def deadly_demise_pmf(models_destroyed: tuple[float, ...] | FloatArray,
                      x: DiceExpr) -> FloatArray:
    """Mortal wounds to the attacking unit: per destroyed model, a D6 that on a 6 adds a
    roll of X (independent rolls).

    >>> p = deadly_demise_pmf((0.0, 1.0), DiceExpr.parse("3"))   # one model destroyed
    >>> [round(float(v) * 6, 9) for v in p]
    [5.0, 0.0, 0.0, 1.0]
    """
    one = np.zeros(x.max + 1)
    one[0] = 5 / 6
    one += x.pmf()[: x.max + 1] / 6
    killed = np.asarray(models_destroyed, dtype=np.float64)
    return compound(killed, one)


def _base(rule: str) -> str:
    """A rule's name without its parameter ("Deadly Demise D6+2" -> "Deadly Demise")."""
    for core in ("Deadly Demise", "Firing Deck", "Feel No Pain", "Scouts"):
        if name_key(rule).startswith(name_key(core)):
            return core
    return rule


def _reason(rule: str, whose: str, scenario: Scenario, applied: set[str]) -> str | None:
    """Why ``rule`` (of the ``whose`` unit) is not in the numbers, or None if it is. It
    reads no more of ``scenario`` than its rules version and whether an attacker's weapon
    fires from a Firing Deck (``rules_not_calculated`` keys its memo on those)."""
    from tactica.effects import UnknownEffectError, find_effect, non_combat_reason
    from tactica.effects.dataset_names import dataset_record_kind

    base = _base(rule)
    if whose == "target" and base in COMPUTED:
        return None  # Deadly Demise: a side outcome, or a note when the units are apart
    if base == "Deadly Demise":
        return "only when the attacking unit's own models are destroyed"
    if base in ("Feel No Pain", "Stealth"):
        return "it protects the unit when it is attacked"
    if base == "Firing Deck":
        if whose == "attacker" and any(w.firing_deck for w in scenario.attacker.weapons):
            return None
        return ("no embarked unit's weapons in the attack" if whose == "attacker"
                else "a transport's shooting rule; no effect on attacks against it")
    if base in CORE_OUTSIDE_THE_ATTACK:
        return f"not part of the attack ({CORE_OUTSIDE_THE_ATTACK[base]})"
    reason = non_combat_reason(rule)
    if reason is not None:
        return f"not a combat rule ({reason})"
    try:
        effect, _ = find_effect(rule, scenario.rules, hints=False, dataset=False)
        name: str = effect.name
        kind: str = effect.kind
    except UnknownEffectError:
        # every faction's rules by name only (a cached index: nothing compiled here)
        found = dataset_record_kind(_split_option(rule))
        if found is None:
            return "not modelled"
        name, kind = rule, found
    if name_key(name) in applied:
        return None
    if whose == "target":
        return "it concerns the unit's own attacks" if kind == "ability" else \
            "not modelled"
    return "its conditions do not hold here (name it as an effect if they do)"


def _split_option(rule: str) -> str:
    """"Name: option" -> "Name" (a rule named with its chosen option)."""
    return rule.partition(":")[0].strip() if ":" in rule else rule


def rules_not_calculated(scenario: Scenario, effects_applied: tuple[str, ...] = (),
                         memo: dict[Any, Any] | None = None) -> list[str]:
    """Every rule of the attacker and the target (``abilities``) that the numbers do
    not include, with the reason: "Firing Deck 12 (Banehammer): ..."; then the reasons
    the fielding gave for the units' own abilities (``rules_not_applied``). ``effects_applied``
    are the named effects the calculation used (their rules are included). ``memo``
    keeps each reason between the calculations of a batch, keyed on all it depends on."""
    applied = {name_key(a.split(" (")[0]) for a in effects_applied}
    memo = {} if memo is None else memo
    deck = any(w.firing_deck for w in scenario.attacker.weapons)
    out = []
    for whose, unit in (("attacker", scenario.attacker), ("target", scenario.target)):
        for rule in unit.abilities:
            key = ("reason", rule, whose, scenario.rules, deck, frozenset(applied))
            if key not in memo:
                memo[key] = _reason(rule, whose, scenario, applied)
            why = memo[key]
            if why is not None:
                out.append(f"{rule} ({unit.name}): {why}")
        out += unit.rules_not_applied  # the fielding's own reasons (units.abilities)
    return out


def finish(scenario: Scenario, result: Result, memo: dict[Any, Any] | None = None) -> Result:
    """``result`` with the target's Deadly Demise and the units' rules it does not
    compute (both exact and Monte Carlo results: the distribution follows the result's
    models destroyed)."""
    side = list(result.other_mortal_wounds)
    notes = list(result.notes)
    x = scenario.target.deadly_demise
    if x is not None:
        if within_6(scenario):
            pmf = deadly_demise_pmf(result.models_destroyed.pmf, x)
            side.append(NamedDistribution(
                label=f"Deadly Demise {x}: mortal wounds to the attacking unit (a 6 for "
                      "each model destroyed)", distribution=Distribution.from_array(pmf)))
        else:
            notes.append(f"Deadly Demise {x}: the attacking unit is taken to be more than "
                         "6\" away (give the distance if it is not)")
    notes += [r for r in (*scenario.attacker.rules_applied, *scenario.target.rules_applied)
              if r not in notes]
    not_calc = list(result.not_calculated)
    not_calc += [r for r in rules_not_calculated(scenario, result.effects_applied, memo)
                 if r not in not_calc]
    update = {"other_mortal_wounds": tuple(side), "notes": tuple(notes),
              "not_calculated": tuple(not_calc)}
    if all(getattr(result, k) == v for k, v in update.items()):
        return result  # nothing to add (no copy)
    return result.model_copy(update=update)
