"""Conditional defences and weapon abilities evaluated for one attack (``model.conditions``).

A scenario's attacks all have one phase and one target, so the conditions are decided
when the units are resolved, before the engine runs (the engine reads plain weapon lines
and model groups):

* a weapon that may only target some units is left out against any other (a weapon
  picked by hand is refused);
* an invulnerable save against ranged (or melee) attacks only counts in the shooting (or
  fight) phase; the model's best save that holds is used.
"""

from __future__ import annotations

from ..combat.contract.scenario import Phase
from ..model.datasheet import ModelProfile, WeaponProfile

__all__ = ["invulnerable_save", "may_target"]


def may_target(p: WeaponProfile, keywords: tuple[str, ...]) -> bool:
    """Whether the weapon may target a unit with ``keywords``."""
    return p.may_target is None or p.may_target.holds(keywords)


def invulnerable_save(model: ModelProfile, phase: Phase) -> int | None:
    """The best invulnerable save the model has against this phase's attacks.

    >>> from tactica.model.conditions import ConditionalSave
    >>> knight = ModelProfile(name="Knight", Sv=3, conditional_saves=(
    ...     ConditionalSave(value=5, against="ranged"),))
    >>> invulnerable_save(knight, "shooting"), invulnerable_save(knight, "fight")
    (5, None)
    """
    kind = "ranged" if phase == "shooting" else "melee"
    saves = [s.value for s in model.conditional_saves if s.against == kind]
    if model.InSv is not None:
        saves.append(model.InSv)
    return min(saves) if saves else None
