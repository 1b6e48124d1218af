"""Effects a unit brings with it: its datasheet's abilities that are named effects, and
applying candidate effects to a scenario when (and only when) their conditions hold."""

from __future__ import annotations

from ..combat.contract.scenario import Scenario
from ..model.datasheet import Datasheet
from ..names import name_key
from . import UnknownEffectError, find_effect, non_combat_reason, unit_ability_effect

__all__ = ["ability_effects", "apply_candidates"]


def ability_effects(sheet: Datasheet, damaged: bool = True) -> list[str]:
    """The named effects among ``sheet``'s abilities (Cult Demagogue on a Primus) and,
    with ``damaged``, its Damaged profile (the Banehammer's "Damaged: 1-8 wounds
    remaining": it concerns the model's own attacks, so not a leader's)."""
    out = []
    for ability in sheet.abilities:
        effect = unit_ability_effect(ability.name, sheet.rules)
        if effect is not None:
            out.append(effect.name)
    if damaged and sheet.damaged is not None:
        out.append(f"Damaged: {sheet.damaged.min_wounds}-{sheet.damaged.max_wounds} "
                   "wounds remaining")
    return out


def apply_candidates(scenario: Scenario, candidates: tuple[str, ...] | list[str],
                     origin: str, situational: dict[str, str] | None = None,
                     report_skipped: bool = True) -> tuple[Scenario, list[str]]:
    """``scenario`` with every candidate effect whose conditions hold; a note for each
    other one (not a combat rule, a condition that fails, or a ``situational`` rule whose
    trigger a scenario cannot state) unless ``report_skipped`` is false. ``origin`` says
    where the candidates came from."""
    situational = situational or {}
    named = {name_key(e) for e in scenario.named_effects}
    effects = list(scenario.effects)
    notes: list[tuple[bool, str]] = []  # (applied, text), in the candidates' order
    for name in candidates:
        if name_key(name) in named:
            continue
        reason = non_combat_reason(name)
        if reason is not None:
            notes.append((False, f"{name} ({origin}): not a combat rule ({reason})"))
            continue
        try:
            effect, _ = find_effect(name, scenario.rules)
        except UnknownEffectError:
            notes.append((False, f"{name} ({origin}): no combat effect known"))
            continue
        status = getattr(effect.apply, "status", "modelled")  # a dataset record's status
        if status != "modelled":
            what = "not a combat rule" if status == "non-combat" else "not modelled"
            notes.append((False, f"{effect.name} ({origin}): {what} "
                                 f"({getattr(effect.apply, 'reason', '')})"))
            continue
        if effect.name in situational:
            notes.append((False, f"{effect.name} ({origin}) not applied: "
                                 f"{situational[effect.name]}; name it with --effect if it "
                                 "applies"))
            continue
        trial = scenario.model_copy(update={"effects": (*effects, effect.name)})
        problems = effect.check(trial)
        if not problems and effect.apply is not None:
            try:
                effect.apply(trial, None)
            except ValueError as exc:  # a condition only the rule's own code checks
                problems = [str(exc)]
        if problems:
            notes.append((False, f"{effect.name} ({origin}) not applied: "
                                 f"{'; '.join(problems)}"))
            continue
        effects.append(effect.name)
        named.add(name_key(effect.name))
        notes.append((True, f"{effect.name} ({origin}): {effect.terms}"))
    shown = [text for applied, text in notes if applied or report_skipped]
    return scenario.model_copy(update={"effects": tuple(effects)}), shown
