"""11th edition (the numbered seed rules: 13.08, 24.xx, 06.03, 15.09, and the published
texts of reference facts §6). The default."""

from __future__ import annotations

from types import MappingProxyType

from .base import AttackCircumstances, Indirect, IndirectShooting, PsychicChoice, RuleSet

__all__ = ["Eleventh"]


class Eleventh(RuleSet):
    name = "11th"
    title = "11th edition (numbered sections)"
    lethal_hits_optional = True  # 24.23 "you can choose"
    devastating_wounds = "mortal"  # 24.10
    pooled_saves = True  # 05.04: saves rolled together, resolved lowest first
    devastating_wounds_per_line = True  # 24.10: "after resolving any normal damage"
    hazard_fails_on = 2  # 06.03 "on a 1-2, that roll fails"
    snap_shooting_hit_rerolls = False  # 15.09 "You cannot re-roll hit rolls"
    extra_attacks_unmodifiable = False  # 24.11 has no such clause
    # 02.02.01: BS/WS "cannot be 1+ (or better) or 7+ (or worse)" after all modifiers
    skill_bounds = (2, 6)
    # 02.02.01 caps hit and wound rolls only: no cap on save-roll modifiers (§6.1)
    save_improvement_cap = None
    # 22.05 Plunging Fire: improve the BS of the attack by 1 (reference facts §6.1)
    plunging_fire_improvement = 1
    #: 24.07 "for each model in that unit (excluding MONSTER/VEHICLE models), you can only
    #: select one of the following ...: [CLOSE-QUARTERS] weapons / its other ranged
    #: weapons"; 24.27 "[PISTOL] and [CLOSE-QUARTERS] are identical for all rules purposes".
    pistol_choice_exempt = frozenset({"MONSTER", "VEHICLE"})
    # BSData wh40k-11e game system, "Army Roster": one or more detachments, each costing
    # detachment points within the battle size's budget (Incursion 2, Strike Force 3,
    # Onslaught 4)
    detachments_allowed = (1, None)
    detachment_budget = MappingProxyType({"Incursion": 2, "Strike Force": 3, "Onslaught": 4})
    # BSData wh40k-11e: enhancements Incursion 2, Strike Force and Onslaught 4
    enhancement_limit = MappingProxyType({"Incursion": 2, "Strike Force": 4, "Onslaught": 4})
    # 24.22 (seed 000): "each bodyguard unit can only have one leader unit and one support
    # unit attached to it"
    support_units = True

    def unit_repeat_limit(self, size: str | None, keywords: frozenset[str] | set[str]) -> int:
        """BSData wh40k-11e: the Rule of Three as in 10th, but an Incursion army includes
        a datasheet up to twice (four times if BATTLELINE or DEDICATED TRANSPORT)."""
        if size == "Incursion" and "EPIC HERO" not in keywords:
            return 4 if keywords & {"BATTLELINE", "DEDICATED TRANSPORT"} else 2
        return super().unit_repeat_limit(size, keywords)

    def skill_penalty(self, c: AttackCircumstances) -> int:
        """13.08 Benefit of Cover: "worsen the BS characteristic of that attack by 1";
        24.33 Stealth gives the benefit of cover (not cumulative); 24.18 Ignores Cover
        removes both (indirect shooting, 10.07, gives the benefit of cover too)."""
        if not c.ranged or c.ignores_cover:
            return 0
        return 1 if (c.cover or c.stealth) else 0

    def heavy_applies(self, ranged: bool, stationary: bool, engaged: bool,
                      arrived: bool) -> bool:
        """24.16 [HEAVY] (11th text): "In your Shooting phase, each time an attack is made
        with a [HEAVY] weapon, add 1 to the hit roll if ... That unit is unengaged. That
        unit was not set up on the battlefield this turn. No model in that unit has moved
        more than 3\" this turn" (``remained_stationary`` stands for the last)."""
        return ranged and stationary and not engaged and not arrived

    def psychic(self, c: AttackCircumstances, skill_changes: tuple[int, ...],
                hit_modifiers: tuple[int, ...]) -> PsychicChoice:
        """24.29 [PSYCHIC]: "you can ignore any or all modifiers to that attack's BS or WS
        characteristic and any or all modifiers to the hit roll". The attacker ignores
        exactly the harmful ones (a worse BS/WS, a negative hit modifier): keeping every
        helpful one and none of the harmful ones maximises the hit chance (§6.4)."""
        if not c.psychic:
            return PsychicChoice(skill_changes, hit_modifiers)
        keep_skill = tuple(x for x in skill_changes if x < 0)
        keep_hit = tuple(x for x in hit_modifiers if x > 0)
        ignored = [f"BS/WS worsened by {x}" for x in skill_changes if x > 0]
        ignored += [f"{x:+d} to hit" for x in hit_modifiers if x < 0]
        return PsychicChoice(keep_skill, keep_hit, tuple(ignored))

    def indirect_shooting(self, how: Indirect) -> IndirectShooting:
        """10.07 indirect shooting: the target has the benefit of cover, "hit rolls cannot
        be re-rolled", and an unmodified hit roll of 1-5 fails (1-3 when the attacking
        unit remained stationary and a friendly observer sees the target: ``spotted``)."""
        return IndirectShooting(rerolls_allowed=False, fails_on=3 if how == "spotted" else 5)

    def hazard_mortal_wounds(self, attacker_keywords: tuple[str, ...]) -> int:
        """06.03: 1 mortal wound, or 3 if each model is a MONSTER/VEHICLE (reference
        facts §5.8: decided from the attacker's keywords)."""
        kws = {k.upper() for k in attacker_keywords}
        return 3 if kws & {"MONSTER", "VEHICLE"} else 1
