"""The rule-set interface: every difference between rules versions lives behind it.

A rule set is a class with declarative knobs and a few narrow methods (the shape of
python-chess variants). The engine asks the rule set; it never branches on the version.

>>> from tactica.rules import get_ruleset
>>> r = get_ruleset("11th")
>>> r.wound_roll_needed(5, 4), r.wound_roll_needed(8, 4), r.wound_roll_needed(2, 4)
(3, 2, 6)
>>> get_ruleset("10th").hazard_fails_on, r.hazard_fails_on
(1, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from ..model.common import RulesVersion

__all__ = ["AttackCircumstances", "RuleSet"]


@dataclass(frozen=True, slots=True)
class AttackCircumstances:
    """What a rule set needs to know about one weapon's attacks to decide cover, Stealth
    and friends. ``ranged`` is true only in the shooting phase (reference facts §5.11)."""

    ranged: bool
    cover: bool
    stealth: bool
    ignores_cover: bool
    psychic: bool


class RuleSet:
    """Base class: the rules common to both versions (reference facts §4 "Both rule sets").

    Subclasses set the knobs and override the few methods that differ.
    """

    name: ClassVar[RulesVersion]
    title: ClassVar[str]

    #: Hit Roll / Wound Roll: "can never be modified by more than -1/+1" (10th text; the
    #: 11th tables are lost, reference facts §4.1-2 keep the same caps).
    hit_modifier_cap: ClassVar[int] = 1
    wound_modifier_cap: ClassVar[int] = 1
    #: Saving Throw: "a save can never be improved by more than +1" (worsening uncapped).
    save_improvement_cap: ClassVar[int] = 1
    #: An unmodified 1 always fails hit, wound and save rolls.
    natural_one_fails: ClassVar[bool] = True

    #: 11th 24.23: "you can choose" to auto-wound; 10th: a critical hit auto-wounds.
    lethal_hits_optional: ClassVar[bool]
    #: ``"mortal"``: 11th 24.10, the sequence ends and mortal wounds equal to the weapon's D
    #: follow normal damage, picked by the mortal-wound order (06.02), never halved or
    #: reduced. ``"unsaveable"``: 10th, no save of any kind, allocated after all other
    #: attacks like an attack, mortal wounds equal to the damage after modifiers.
    devastating_wounds: ClassVar[Literal["mortal", "unsaveable"]]
    #: Hazard roll / Hazardous test fails on this or less.
    hazard_fails_on: ClassVar[int]
    #: May hit rolls be re-rolled while snap shooting (15.09: no; 10th Fire Overwatch: yes).
    snap_shooting_hit_rerolls: ClassVar[bool]
    #: 10th Extra Attacks: "The number of attacks ... cannot be modified by other rules".
    extra_attacks_unmodifiable: ClassVar[bool]
    #: 11th Psychic (reference facts §3): ignores modifiers to the hit roll and to BS.
    psychic_ignores_hit_modifiers: ClassVar[bool]
    #: Models with these keywords may fire their Pistols alongside their other ranged
    #: weapons; every other model fires one or the other (11th 24.07, 24.27).
    pistol_choice_exempt: ClassVar[frozenset[str]]

    # --- tables -----------------------------------------------------------------------
    @staticmethod
    def wound_roll_needed(strength: int, toughness: int) -> int:
        """Wound roll table (reference facts §3, the same in both versions)."""
        if strength >= 2 * toughness:
            return 2
        if strength > toughness:
            return 3
        if strength == toughness:
            return 4
        if 2 * strength <= toughness:
            return 6
        return 5

    @staticmethod
    def cap(value: int, low: int, high: int) -> int:
        return max(low, min(high, value))

    # --- cover and Stealth (the versions differ completely) --------------------------
    def skill_penalty(self, c: AttackCircumstances) -> int:
        """How much the attack's BS is worsened (a characteristic change, outside caps)."""
        return 0

    def hit_modifier_from_target(self, c: AttackCircumstances) -> int:
        """A hit-roll modifier the target's rules impose (inside the +1/-1 cap)."""
        return 0

    def save_bonus(self, c: AttackCircumstances, save: int, ap: int) -> int:
        """An armour-save modifier from cover (inside the +1 improvement cap)."""
        return 0

    def hazard_mortal_wounds(self, attacker_keywords: tuple[str, ...]) -> int:
        """Mortal wounds the attacking unit suffers per failed hazard roll."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"get_ruleset({self.name!r})"
