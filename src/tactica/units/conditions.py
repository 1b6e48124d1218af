"""Conditional defences and weapon abilities evaluated for one attack (``model.conditions``).

A scenario's attacks all have one phase and one target, so the conditions are decided
when the units are resolved, before the engine runs (the engine reads plain weapon lines
and model groups):

* a weapon ability limited to some targets joins the weapon's abilities when its
  condition holds for the target's keywords;
* a weapon that may only target some units is left out against any other (a weapon
  picked by hand is refused);
* an invulnerable save against ranged (or melee) attacks only counts in the shooting (or
  fight) phase; the model's best save that holds is used.

>>> from tactica.model import WeaponProfile
>>> from tactica.model.conditions import ConditionalAbility, TargetCondition
>>> from tactica.model.abilities import parse_weapon_ability
>>> p = WeaponProfile(name="Slugga", range=12, A="1", skill=5, S=4, AP=0, D="1",
...     conditional_abilities=(ConditionalAbility(ability=parse_weapon_ability("Lethal Hits"),
...         when=TargetCondition(none_of=("MONSTER", "VEHICLE"))),))
>>> [str(a) for a in against(p, ("INFANTRY",)).abilities], against(p, ("VEHICLE",)).abilities
(['Lethal Hits'], ())
"""

from __future__ import annotations

from ..combat.scenario import Phase
from ..model.datasheet import ModelProfile, WeaponProfile

__all__ = ["against", "invulnerable_save", "may_target"]


def may_target(p: WeaponProfile, keywords: tuple[str, ...]) -> bool:
    """Whether the weapon may target a unit with ``keywords``."""
    return p.may_target is None or p.may_target.holds(keywords)


def against(p: WeaponProfile, keywords: tuple[str, ...]) -> WeaponProfile:
    """The profile with the conditional abilities that hold against this target."""
    extra = tuple(c.ability for c in p.conditional_abilities if c.when.holds(keywords))
    if not p.conditional_abilities:
        return p
    return p.model_copy(update={"abilities": (*p.abilities, *extra),
                                "conditional_abilities": ()})


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
