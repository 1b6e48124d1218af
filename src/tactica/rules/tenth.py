"""10th edition (the unnumbered seed rules: Hit Roll, Saving Throw, Benefit of Cover...)."""

from __future__ import annotations

from types import MappingProxyType

from .base import AttackCircumstances, Indirect, IndirectShooting, RuleSet

__all__ = ["Tenth"]


class Tenth(RuleSet):
    name = "10th"
    title = "10th edition (unnumbered sections)"
    lethal_hits_optional = False  # Lethal Hits: "a Critical Hit automatically wounds"
    devastating_wounds = "unsaveable"  # Devastating Wounds (001/002 text)
    pooled_saves = False  # Saving Throw: one attack at a time
    devastating_wounds_per_line = False  # allocated after all other attacks (§4.10)
    hazard_fails_on = 1  # Hazardous: "fails on a 1"
    snap_shooting_hit_rerolls = True  # reference facts §5.12
    extra_attacks_unmodifiable = True  # Extra Attacks (002): "cannot be modified"
    #: Pistol (10th core rules; the 003 capture stops before this sentence): "If a model
    #: is equipped with one or more Pistols, unless it is a MONSTER or VEHICLE model, it
    #: can either shoot with its Pistols or with all of its other ranged weapons."
    pistol_choice_exempt = frozenset({"MONSTER", "VEHICLE"})
    # Muster Armies (10th Core Rules): "select one Detachment rule"; no detachment points
    detachments_allowed = (1, 1)
    detachment_budget = None
    # Muster Armies: "you can include up to 3 Enhancements" (every battle size)
    enhancement_limit = MappingProxyType({"Incursion": 3, "Strike Force": 3, "Onslaught": 3})
    # Leader (10th): "each Bodyguard unit can only have one Leader unit attached to it"
    support_units = False

    def hit_modifier_from_target(self, c: AttackCircumstances) -> int:
        """Stealth (001/003): "each time a ranged attack is made against it, subtract 1
        from that attack's Hit roll" — not removed by Ignores Cover."""
        return -1 if (c.ranged and c.stealth) else 0

    def save_bonus(self, c: AttackCircumstances, save: int, ap: int) -> int:
        """Benefit of Cover (001): +1 to armour saves against ranged attacks, not for
        models with a Save of 3+ or better against AP 0; Ignores Cover removes it."""
        if not c.ranged or not c.cover or c.ignores_cover:
            return 0
        if save <= 3 and ap == 0:
            return 0
        return 1

    def indirect_shooting(self, how: Indirect) -> IndirectShooting:
        """Indirect Fire (10th text): against a target none of whose models are visible,
        "subtract 1 from that attack's Hit roll and the target has the Benefit of Cover
        against that attack" (a spotter changes nothing in 10th)."""
        return IndirectShooting(hit_modifier=-1)

    def hazard_mortal_wounds(self, attacker_keywords: tuple[str, ...]) -> int:
        """Hazardous (001/002): the selected model suffers 3 mortal wounds."""
        return 3
