"""Effects in a scenario: plain modifiers pass through; named rules are looked up.

Named effects (stratagems, detachment rules, enhancements, abilities by name) register
in ``NAMED_EFFECTS``; a name that is not registered is refused with the field named.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tactica.dice import FloatArray

from ..contract.scenario import Effect, ModelGroup, Scenario, ScenarioError

if TYPE_CHECKING:
    from tactica.effects.model import NamedEffect

__all__ = ["NamedEffectError", "NamedEffects", "resolve_effects"]


class NamedEffectError(ScenarioError):
    """A named effect that is unknown or whose conditions fail."""


@dataclass(frozen=True)
class NamedEffects:
    """What the named effects of a scenario amount to, besides their modifiers."""

    applied: tuple[str, ...] = ()
    cp: int = 0
    notes: tuple[str, ...] = ()
    not_calculated: tuple[str, ...] = ()
    #: (label, pmf of mortal wounds) the target suffers before the attacks
    mortal_before: tuple[tuple[str, FloatArray], ...] = ()
    #: (label, pmf) of mortal wounds that land elsewhere (the attacker, friendly units)
    side: tuple[tuple[str, FloatArray], ...] = ()
    #: (label, pmf) that happen only if the attack destroys a CHARACTER model
    side_if_character_destroyed: tuple[tuple[str, FloatArray], ...] = ()
    #: context changes (Smokescreen: cover and Stealth)
    context: dict[str, object] = field(default_factory=dict)
    #: target characteristic changes (stat, "add" | "best", value): T, Sv, W, invuln
    target_changes: tuple[tuple[str, str, int], ...] = ()

    def side_distributions(self, p_character_destroyed: float
                           ) -> tuple[tuple[str, FloatArray], ...]:
        """Every side distribution; the conditional ones mixed with "nothing happens"
        by the probability that a CHARACTER model is destroyed."""
        import numpy as np

        out = list(self.side)
        for label, pmf in self.side_if_character_destroyed:
            mixed = p_character_destroyed * np.asarray(pmf, dtype=np.float64)
            mixed[0] += 1.0 - p_character_destroyed
            out.append((f"{label}: P(a CHARACTER is destroyed) = {p_character_destroyed:.4f}",
                        mixed))
        return tuple(out)

    def scenario(self, scenario: Scenario) -> Scenario:
        """``scenario`` with the effects' context and target changes applied."""
        if self.context:
            ctx = scenario.context.model_copy(update=self.context)
            scenario = scenario.model_copy(update={"context": ctx})
        if self.target_changes:
            groups = tuple(_changed(g, self.target_changes) for g in scenario.target.models)
            target = scenario.target.model_copy(update={"models": groups})
            scenario = scenario.model_copy(update={"target": target})
        return scenario


_LIMITS = {"T": (1, 20), "Sv": (2, 7), "W": (1, 60), "invuln": (2, 6)}


def _changed(group: ModelGroup, changes: tuple[tuple[str, str, int], ...]) -> ModelGroup:
    """One model group with characteristic changes: "add" shifts T, Sv or W (within the
    characteristic's range; an Sv of 7 is no save), "best" keeps the better of the
    model's invulnerable save and the one given."""
    values: dict[str, int | None] = {"T": group.T, "Sv": group.Sv, "W": group.W,
                                     "invuln": group.invuln}
    for stat, op, value in changes:
        current = values[stat]
        if op == "best":
            values[stat] = value if current is None else min(current, value)
        elif current is not None:
            low, high = _LIMITS[stat]
            values[stat] = max(low, min(high, current + value))
    update: dict[str, object] = dict(values)
    w = values["W"]
    if w is not None and group.wounds_lost >= w:
        update["wounds_lost"] = w - 1
    return group.model_copy(update=update)


#: What a scenario without named effects has of them (read only: one for all).
_NO_NAMED_EFFECTS = NamedEffects()


def resolve_effects(scenario: Scenario) -> tuple[tuple[Effect, ...], NamedEffects]:
    """Plain effects plus the modifiers of every named effect (``tactica.effects``);
    each named effect's conditions are checked and every failure is reported at once.
    Without named effects, the plain ones alone (nothing to look up or check)."""
    if all(not isinstance(entry, str) for entry in scenario.effects):
        return scenario.plain_effects, _NO_NAMED_EFFECTS
    from tactica.effects import UnknownEffectError, find_effect, non_combat_reason
    from tactica.effects.stratagem_use import stratagem_use_problems

    effects = list(scenario.plain_effects)
    applied: list[str] = []
    notes: list[str] = []
    not_calc: list[str] = []
    before: list[tuple[str, FloatArray]] = []
    side: list[tuple[str, FloatArray]] = []
    side_char: list[tuple[str, FloatArray]] = []
    context: dict[str, object] = {}
    target_changes: list[tuple[str, str, int]] = []
    failures: list[str] = []
    used: list[tuple[int, NamedEffect]] = []
    cp = 0
    for i, entry in enumerate(scenario.effects):
        if not isinstance(entry, str):
            continue
        reason = non_combat_reason(entry)
        if reason is not None:
            not_calc.append(f"{entry}: not a combat rule ({reason})")
            continue
        try:
            effect, param = find_effect(entry, scenario.rules, scenario.context.detachment)
        except UnknownEffectError as exc:
            raise NamedEffectError(f"effects.{i}: {exc}") from None
        used.append((i, effect))
        problems = effect.check(scenario)
        if problems:
            failures.extend(f"effects.{i}: {p}" for p in problems)
            continue
        assert effect.apply is not None
        try:
            out = effect.apply(scenario, param)
        except ValueError as exc:
            failures.append(f"effects.{i}: {exc}")
            continue
        effects.extend(out.modifiers)
        context.update(out.context)
        before.extend(out.mortal_before)
        side.extend(out.side)
        side_char.extend(out.side_if_character_destroyed)
        notes.extend(out.notes)
        not_calc.extend(out.not_calculated)
        target_changes.extend(out.target_changes)
        applied.append(effect.name + (f" ({param})" if param else ""))
        cp += effect.cp
    failures.extend(stratagem_use_problems(scenario, used))  # 15.01
    if failures:
        raise NamedEffectError("; ".join(failures))
    return tuple(effects), NamedEffects(tuple(applied), cp, tuple(notes), tuple(not_calc),
                                        tuple(before), tuple(side), tuple(side_char),
                                        context, tuple(target_changes))
