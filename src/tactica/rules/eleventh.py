"""11th edition (the numbered seed rules: 13.08, 24.xx, 06.03, 15.09). The default."""

from __future__ import annotations

from .base import AttackCircumstances, RuleSet

__all__ = ["Eleventh"]


class Eleventh(RuleSet):
    name = "11th"
    title = "11th edition (numbered sections)"
    lethal_hits_optional = True  # 24.23 "you can choose"
    devastating_wounds = "mortal"  # 24.10
    hazard_fails_on = 2  # 06.03 "on a 1-2, that roll fails"
    snap_shooting_hit_rerolls = False  # 15.09 "You cannot re-roll hit rolls"
    extra_attacks_unmodifiable = False  # 24.11 has no such clause
    psychic_ignores_hit_modifiers = True  # reference facts §3
    #: 24.07 "for each model in that unit (excluding MONSTER/VEHICLE models), you can only
    #: select one of the following ...: [CLOSE-QUARTERS] weapons / its other ranged
    #: weapons"; 24.27 "[PISTOL] and [CLOSE-QUARTERS] are identical for all rules purposes".
    pistol_choice_exempt = frozenset({"MONSTER", "VEHICLE"})

    def skill_penalty(self, c: AttackCircumstances) -> int:
        """13.08 Benefit of Cover: "worsen the BS characteristic of that attack by 1";
        24.33 Stealth gives the benefit of cover (not cumulative); 24.18 Ignores Cover
        removes both; 11th Psychic ignores modifiers to BS."""
        if not c.ranged or c.ignores_cover or c.psychic:
            return 0
        return 1 if (c.cover or c.stealth) else 0

    def hazard_mortal_wounds(self, attacker_keywords: tuple[str, ...]) -> int:
        """06.03: 1 mortal wound, or 3 if each model is a MONSTER/VEHICLE (reference
        facts §5.8: decided from the attacker's keywords)."""
        kws = {k.upper() for k in attacker_keywords}
        return 3 if kws & {"MONSTER", "VEHICLE"} else 1
