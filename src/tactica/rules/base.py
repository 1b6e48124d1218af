"""The rule-set interface: every difference between rules versions lives behind it.

A rule set is a class with declarative knobs and a few narrow methods (the shape of
python-chess variants). The engine asks the rule set; it never branches on the version.

>>> from tactica.rules import get_ruleset
>>> r = get_ruleset("11th")
>>> r.wound_roll_needed(5, 4), r.wound_roll_needed(8, 4), r.wound_roll_needed(2, 4)
(3, 2, 6)
>>> get_ruleset("10th").hazard_fails_on, r.hazard_fails_on
(1, 2)
>>> r.bound_skill(7), r.bound_skill(1), get_ruleset("10th").bound_skill(7)
(6, 2, 7)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal, NamedTuple

from ..model.common import RulesVersion

__all__ = ["AttackCircumstances", "IndirectShooting", "PsychicChoice", "RuleSet"]

Indirect = Literal["unseen", "spotted"]


class AttackCircumstances(NamedTuple):
    """What a rule set needs to know about one weapon's attacks to decide cover, Stealth
    and friends. ``ranged`` is true only in the shooting phase (reference facts §5.11);
    ``indirect`` is set when an [INDIRECT FIRE] weapon shoots a target it cannot see.
    A ``NamedTuple``: made for every weapon line of every calculation and hashed in the
    batch memo's hit roll key, both in C."""

    ranged: bool
    cover: bool
    stealth: bool
    ignores_cover: bool
    psychic: bool
    indirect: Indirect | None = None


@dataclass(frozen=True, slots=True)
class IndirectShooting:
    """What indirect shooting does to one attack: a hit-roll modifier, whether hit
    re-rolls are allowed, and the unmodified hit rolls that always fail (1..fails_on)."""

    hit_modifier: int = 0
    rerolls_allowed: bool = True
    fails_on: int = 1


@dataclass(frozen=True, slots=True)
class PsychicChoice:
    """The BS/WS changes and hit-roll modifiers a [PSYCHIC] attack keeps, and what it
    ignored (for the result's notes)."""

    skill_changes: tuple[int, ...]
    hit_modifiers: tuple[int, ...]
    ignored: tuple[str, ...] = ()


class RuleSet:
    """Base class: the rules common to both versions (reference facts §4 "Both rule sets").

    Subclasses set the knobs and override the few methods that differ.
    """

    name: ClassVar[RulesVersion]
    title: ClassVar[str]

    #: Hit Roll / Wound Roll: "can never be modified by more than -1/+1" (10th text;
    #: 11th 02.02.01, reference facts §6.1).
    hit_modifier_cap: ClassVar[int] = 1
    wound_modifier_cap: ClassVar[int] = 1
    #: Saving Throw: "a save can never be improved by more than +1" (10th); ``None``: no
    #: cap (11th 02.02.01 caps only hit and wound rolls, reference facts §6.1).
    save_improvement_cap: ClassVar[int | None] = 1
    #: BS/WS after all modifiers: ``(best, worst)``, or ``None`` for no bounds (10th,
    #: reference facts §5.6). 11th 02.02.01: "cannot be 1+ (or better) or 7+ (or worse)".
    skill_bounds: ClassVar[tuple[int, int] | None] = None
    #: An unmodified 1 always fails hit, wound and save rolls.
    natural_one_fails: ClassVar[bool] = True

    #: 11th 24.23: "you can choose" to auto-wound; 10th: a critical hit auto-wounds.
    lethal_hits_optional: ClassVar[bool]
    #: ``"mortal"``: 11th 24.10, the sequence ends and mortal wounds equal to the weapon's D
    #: follow normal damage, picked by the mortal-wound order (06.02), never halved or
    #: reduced. ``"unsaveable"``: 10th, no save of any kind, allocated after all other
    #: attacks like an attack, mortal wounds equal to the damage after modifiers.
    devastating_wounds: ClassVar[Literal["mortal", "unsaveable"]]
    #: How a weapon line's save rolls are made. ``True`` (11th, 05.04 Resolve Attack Dice):
    #: the save rolls of one group of attack dice are made together (re-rolls before
    #: sorting) and "the attacks are resolved one at a time, from lowest save rolls to
    #: highest", each die against the current allocation group at that moment (reference
    #: facts §6.2). ``False`` (10th Saving Throw): one attack at
    #: a time, each saved with the characteristics of the group it is allocated to.
    pooled_saves: ClassVar[bool]
    #: When Devastating Wounds mortal wounds are inflicted. ``True`` (11th, 24.10): "These
    #: are inflicted after resolving any normal damage inflicted by those attacks", i.e.
    #: after that weapon line, before the next (reference facts §6.3). ``False`` (10th,
    #: reference facts §4.10, §5.5): after all normal damage of the attacking unit.
    devastating_wounds_per_line: ClassVar[bool]
    #: Hazard roll / Hazardous test fails on this or less.
    hazard_fails_on: ClassVar[int]
    #: May hit rolls be re-rolled while snap shooting (15.09: no; 10th Fire Overwatch: yes).
    snap_shooting_hit_rerolls: ClassVar[bool]
    #: 10th Extra Attacks: "The number of attacks ... cannot be modified by other rules".
    extra_attacks_unmodifiable: ClassVar[bool]
    #: Indirect shooting gives the target the benefit of cover (10.07; 10th Indirect Fire).
    indirect_gives_cover: ClassVar[bool] = True
    #: The improvement of BS that Plunging Fire gives (22.05: "improve the BS ... by 1"),
    #: or ``None`` when the rule set has no such text in the data (10th).
    plunging_fire_improvement: ClassVar[int | None] = None
    #: Models with these keywords may fire their Pistols alongside their other ranged
    #: weapons; every other model fires one or the other (11th 24.07, 24.27).
    pistol_choice_exempt: ClassVar[frozenset[str]]

    # --- Muster Armies: the army-building limits (``army.validation`` reads them) ------
    #: How many detachments an army takes: (at least, at most; ``None``: no upper limit).
    detachments_allowed: ClassVar[tuple[int, int | None]]
    #: The detachment-point budget by battle size (detachments cost detachment points),
    #: or ``None`` when detachments cost none.
    detachment_budget: ClassVar[Mapping[str, int] | None]
    #: How many enhancements an army may include, by battle size.
    enhancement_limit: ClassVar[Mapping[str, int]]
    #: A bodyguard unit takes a leader unit and a support unit (24.22); ``False``: every
    #: unit attached counts as a leader unit, one at most (10th Leader).
    support_units: ClassVar[bool]

    def unit_repeat_limit(self, size: str | None, keywords: frozenset[str] | set[str]) -> int:
        """How many units of one datasheet an army may include (10th Muster Armies, the
        Rule of Three: "up to three times, or up to six times if it is a BATTLELINE or
        DEDICATED TRANSPORT unit"; EPIC HEROES once)."""
        if "EPIC HERO" in keywords:
            return 1
        return 6 if keywords & {"BATTLELINE", "DEDICATED TRANSPORT"} else 3

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

    # --- characteristic bounds (02.02.01) ---------------------------------------------
    def bound_skill(self, skill: int) -> int:
        """BS/WS after every characteristic change, within ``skill_bounds``."""
        if self.skill_bounds is None:
            return skill
        return self.cap(skill, *self.skill_bounds)

    def save_modifier(self, raw: int) -> int:
        """The net save-roll modifier after the rule set's cap on improvements."""
        cap = self.save_improvement_cap
        return raw if cap is None else min(raw, cap)

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

    # --- weapon abilities and circumstances ------------------------------------------
    def heavy_applies(self, ranged: bool, stationary: bool, engaged: bool,
                      arrived: bool) -> bool:
        """[HEAVY]: +1 to the hit roll. Common ground of both texts: the unit did not
        move (``remained_stationary``) and was not set up this turn (a unit arriving from
        reserves has not remained stationary: reference facts §6.5)."""
        return stationary and not arrived

    def psychic(self, c: AttackCircumstances, skill_changes: tuple[int, ...],
                hit_modifiers: tuple[int, ...]) -> PsychicChoice:
        """What a [PSYCHIC] attack does with the modifiers (10th: nothing)."""
        return PsychicChoice(skill_changes, hit_modifiers)

    def indirect_shooting(self, how: Indirect) -> IndirectShooting:
        """An [INDIRECT FIRE] attack on a target it cannot see (``unseen``/``spotted``)."""
        raise NotImplementedError

    def engaged_hit_modifier(self, *, ranged: bool, engaged: bool, target_engaged: bool,
                             attacker_big: bool, target_big: bool, close_quarters: bool
                             ) -> int:
        """The -1 to hit of ranged attacks by an engaged MONSTER/VEHICLE unit (unless a
        [CLOSE-QUARTERS]/[PISTOL] weapon shooting the unit it is engaged with: 11th 10.06
        close-quarters shooting; 10th Big Guns Never Tire) and against a MONSTER/VEHICLE
        unit engaged with friendly units (17.03; 10th Big Guns Never Tire)."""
        if not ranged:
            return 0
        mod = 0
        if engaged and attacker_big and not close_quarters:
            mod -= 1
        if target_engaged and target_big:
            mod -= 1
        return mod

    def per_five_models(self, models: int) -> int:
        """How many times [BLAST X] and [CLEAVE X] add X attack dice against a unit of
        ``models`` models at the Select Targets step. 11th 24.05 Blast: "add X
        additional attack dice for every five models that were in the target unit in the
        Select Targets step (rounding down)" (24.06 Cleave: the same count); 10th Blast:
        "add 1 to the result for every five models that were in the target unit when you
        selected it as the target (rounding down)". Both count the models alive when the
        unit selects its targets, before any of its attacks: a sequence's later step, or
        a volley's later unit, counts the models the earlier ones left."""
        return models // 5

    def in_range(self, weapon_range: int | str, distance: float | None) -> bool:
        """04.02 Select Targets: a weapon can only target a unit within its range, i.e.
        ``distance`` (inches) at most the Range characteristic ("within" holds at the
        range itself, as half range does). A melee weapon (``"Melee"``) and an unstated
        distance are in range.

        >>> from tactica.rules import get_ruleset
        >>> r = get_ruleset("11th")
        >>> r.in_range(24, 24), r.in_range(24, 30), r.in_range("Melee", 30), r.in_range(24, None)
        (True, False, True, True)
        """
        if distance is None or not isinstance(weapon_range, int):
            return True
        return distance <= weapon_range

    def conversion_critical_hit(self, distance: float | None) -> int | None:
        """[CONVERSION] (the datasheet text of the conversion beam weapons): "if the target
        is more than 12\" away, an unmodified Hit roll of 4+ scores a Critical Hit";
        ``None`` when it does not apply (or the distance is not given)."""
        if distance is None or distance <= 12:
            return None
        return 4

    def hazard_mortal_wounds(self, attacker_keywords: tuple[str, ...]) -> int:
        """Mortal wounds the attacking unit suffers per failed hazard roll."""
        raise NotImplementedError

    # --- the allocation order (05.03; 24.28 Precision; 06.02 Mortal Wounds) ----------
    def allocation_band(self, *, character: bool, precision: bool = False) -> int:
        """Where an allocation group's kind of model stands in the order (lower first).
        05.03 Allocation Order (rules inventory D.4.b; reference facts §4.8): "No
        CHARACTER group before any non-CHARACTER group", so CHARACTER groups are band 1;
        06.02 picks models for mortal wounds in the same order. 24.28 [PRECISION]: the
        attacker makes a CHARACTER group current first (reference facts §5.2): band 0.
        10th (Allocate Attack; Mortal Wounds) orders them the same way."""
        return int(character != precision)

    def allocation_tier(self, *, character: bool, wounded: bool,
                        precision: bool = False) -> int:
        """An allocation group's place in the order, 0-3 (lower first): its band
        (``allocation_band``), then, within the band, a group holding a wounded model
        before the others (05.03: "a non-CHARACTER group containing a wounded model must
        be first"; "wounded CHARACTER groups come before unwounded CHARACTER groups";
        06.02: wounded non-CHARACTER, non-CHARACTER, wounded CHARACTER, CHARACTER).

        >>> from tactica.rules import get_ruleset
        >>> r = get_ruleset("11th")
        >>> [r.allocation_tier(character=c, wounded=w) for c in (False, True)
        ...  for w in (True, False)]
        [0, 1, 2, 3]
        """
        return 2 * self.allocation_band(character=character, precision=precision) \
            + (0 if wounded else 1)

    def allocation_order(self, groups: Sequence[tuple[bool, bool]],
                         precision: bool = False) -> tuple[int, ...]:
        """The indices of ``groups`` (each ``(character, wounded)``, in the order the
        unit lists them) in the order attacks are allocated to them: by
        ``allocation_tier``, ties in the order listed (reference facts §5.1). The engines
        (exact, Monte Carlo, the size model, the turn) all read this order.

        >>> from tactica.rules import get_ruleset
        >>> r = get_ruleset("11th")
        >>> mix = [(True, False), (False, False), (False, True), (True, True)]
        >>> r.allocation_order(mix), r.allocation_order(mix, precision=True)
        ((2, 1, 3, 0), (3, 0, 2, 1))
        """
        return tuple(sorted(range(len(groups)), key=lambda i: (self.allocation_tier(
            character=groups[i][0], wounded=groups[i][1], precision=precision), i)))

    def model_order(self, wounded: Sequence[bool]) -> tuple[int, ...]:
        """Within one allocation group, the models (``wounded`` each, in the order listed)
        in the order attacks go to them: a wounded model first, then the models in the
        order listed (05.03 Allocation Order: "if a group contains a wounded model, it
        must be allocated first"; reference facts §4.8, §5.1; 10th Allocate Attack: "if
        a model in the target unit has lost one or more wounds ... it must be selected").

        >>> from tactica.rules import get_ruleset
        >>> get_ruleset("11th").model_order([False, False, True, False])
        (2, 0, 1, 3)
        """
        return tuple(sorted(range(len(wounded)), key=lambda i: (not wounded[i], i)))

    def allocation_tiers(self, precision: bool = False) -> tuple[tuple[int, ...], ...]:
        """``allocation_tier`` as a table for the engines' fast paths:
        ``[character][wounded]`` (``character``, ``wounded`` as 0/1)."""
        return tuple(tuple(self.allocation_tier(character=bool(c), wounded=bool(w),
                                                precision=precision) for w in (0, 1))
                     for c in (0, 1))

    def __repr__(self) -> str:
        return f"get_ruleset({self.name!r})"
