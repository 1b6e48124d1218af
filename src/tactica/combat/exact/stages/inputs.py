"""What every stage reads: one weapon line with the effects and abilities that apply to
it, the scenario's circumstances and the rule set."""

from __future__ import annotations

import functools
from typing import Any, Literal, NamedTuple

from tactica.combat.contract.scenario import Effect, RerollStage, Scenario, Target, WeaponLine
from tactica.dice import DiceExpr
from tactica.kept import kept_one
from tactica.model.abilities import (
    Anti,
    Blast,
    Cleave,
    Flag,
    Limited,
    Melta,
    RapidFire,
    SustainedHits,
    WeaponAbility,
)
from tactica.rules.base import AttackCircumstances, RuleSet

__all__ = ["AbilityKinds", "RerollPolicy", "WeaponInputs", "kinds", "stronger"]

RerollPolicy = Literal["ones", "failed", "any"] | None


_STRENGTH: dict[RerollPolicy, int] = {None: 0, "ones": 1, "failed": 2, "any": 3}


def stronger(a: RerollPolicy, b: RerollPolicy) -> RerollPolicy:
    """The stronger of two re-roll policies (a die is re-rolled at most once, §4.5)."""
    return a if _STRENGTH[a] >= _STRENGTH[b] else b


class AbilityKinds(NamedTuple):
    """What the stages' keys look for among a line's abilities (``attack_dice_key``,
    ``hit_key``, ``wound_roll_key``, ``damage_stage_key``), found once per abilities
    tuple (``kinds``)."""

    flags: frozenset[str]
    #: Blast, Cleave and Rapid Fire, in order (the attack dice)
    adding: tuple[WeaponAbility, ...]
    #: Blast or Cleave among them: the attack dice read the target's models
    counts_models: bool
    #: the first Sustained Hits' extra hits
    sustained: DiceExpr | None
    anti: tuple[Anti, ...]
    melta: tuple[Melta, ...]


def kinds(abilities: tuple[WeaponAbility, ...]) -> AbilityKinds:
    """``AbilityKinds`` of ``abilities``."""
    adding = tuple(a for a in abilities if isinstance(a, Blast | Cleave | RapidFire))
    return AbilityKinds(
        frozenset(a.name for a in abilities if isinstance(a, Flag)), adding,
        any(isinstance(a, Blast | Cleave) for a in adding),
        next((a.hits for a in abilities if isinstance(a, SustainedHits)), None),
        tuple(a for a in abilities if isinstance(a, Anti)),
        tuple(a for a in abilities if isinstance(a, Melta)))


class WeaponInputs(NamedTuple):
    """One weapon line as its attacks start: ``effects`` are those scoped to it,
    ``abilities`` its own plus those granted, ``flags`` the parameterless ones by name."""

    weapon: WeaponLine
    scenario: Scenario
    rules: RuleSet
    effects: tuple[Effect, ...]
    abilities: tuple[WeaponAbility, ...]
    flags: frozenset[str]
    circumstances: AttackCircumstances
    half_range: bool
    #: what the stages' keys look for among ``abilities`` (``flags`` among them)
    kinds: AbilityKinds
    #: the models in the target unit at the Select Targets step, which [BLAST] and
    #: [CLEAVE] count (24.05, 24.06): the target's models, or those alive when the unit
    #: shoots or fights after other attacks (``select_targets``)
    target_models: int

    @classmethod
    def of(cls, weapon: WeaponLine, scenario: Scenario, rules: RuleSet,
           effects: tuple[Effect, ...], models: int | None = None,
           kept: bool = True) -> WeaponInputs:
        """``weapon``'s inputs; ``models``: the target's models at the Select Targets
        step, when not all of ``scenario.target``'s models are alive then. ``kept``: what
        is found among a line's own abilities is kept per abilities tuple (``_kinds``: a
        batch's or table's lines meet many targets); a single calculation, whose document
        is new, keeps nothing (it would only hold its abilities alive)."""
        if effects:
            effects = tuple(e for e in effects if e.applies_to(weapon.name))
        # an ability limited to some targets counts only against those (Limited); most
        # lines have none, and then their own abilities and flags as they are (kept)
        own = weapon.abilities
        for a in own:
            if isinstance(a, Limited):
                own = _against(own, scenario.target.keywords)
                break
        grants = tuple(e.grant for e in effects if e.grant is not None) if effects else ()
        abilities = own + grants if grants else own
        found = _kinds(abilities) if kept and abilities is weapon.abilities else \
            kinds(abilities)
        flags = found.flags
        ctx = scenario.context
        ranged = scenario.phase == "shooting"  # reference facts §5.11
        indirect = ranged and "Indirect Fire" in flags and ctx.indirect is not None
        circ = AttackCircumstances(
            ranged,
            ctx.cover or (indirect and rules.indirect_gives_cover),  # cover
            # 24.33 Stealth: the target's own ability, or given by the context
            ctx.stealth or _stealthy(scenario.target),
            "Ignores Cover" in flags,  # ignores_cover
            "Psychic" in flags,  # psychic
            ctx.indirect if indirect else None,
        )
        return cls(weapon, scenario, rules, effects, abilities, flags, circ,
                   ctx.half_range(weapon.range), found,
                   scenario.target.model_count if models is None else models)

    def reroll(self, stage: RerollStage) -> RerollPolicy:
        """The strongest re-roll the effects give for ``stage``."""
        policy: RerollPolicy = None
        if not self.effects:  # the common case: asked for every roll of every line
            return policy
        for e in self.effects:
            if e.reroll == stage and e.which != "below":
                policy = stronger(policy, e.which)
        return policy

    def reroll_below(self, stage: RerollStage) -> int | None:
        """The highest threshold of the effects' "re-roll results below X" for ``stage``
        (a damage or attacks roll), or None."""
        return max((e.below for e in self.effects if e.reroll == stage and e.below),
                   default=None)

    def total(self, name: str, sign: int = 0) -> int:
        """The sum of the effects' ``name`` modifiers (``sign`` > 0: only the positive
        ones, < 0: only the negative ones)."""
        if not self.effects:
            return 0
        values = [getattr(e, name) for e in self.effects if getattr(e, name)]
        return sum(v for v in values if sign == 0 or (v > 0) == (sign > 0))

    def values(self, name: str) -> list[int]:
        """Each effect's ``name`` modifier, one by one."""
        return [getattr(e, name) for e in self.effects if getattr(e, name)]

    @property
    def melee(self) -> bool:
        return self.weapon.range == "Melee"


def _against(abilities: tuple[WeaponAbility, ...], keywords: tuple[str, ...]
             ) -> tuple[WeaponAbility, ...]:
    """``abilities`` against a target with ``keywords``: each ``Limited`` one as the
    ability it limits where it applies, left out where not."""
    return tuple(a.ability if isinstance(a, Limited) else a for a in abilities
                 if not isinstance(a, Limited) or a.applies(keywords))


#: ``_kinds``' answers (``kept_one``): a line's own abilities are the same tuple for
#: every matchup of a table. At most 4096.
_kinds_kept: dict[tuple[Any, ...], Any] = {}


def _kinds(abilities: tuple[WeaponAbility, ...]) -> AbilityKinds:
    """``kinds(abilities)``, kept per tuple."""
    found: AbilityKinds = kept_one(_kinds_kept, (), abilities, lambda: kinds(abilities),
                                   limit=4096)
    return found


def _stealthy(target: Target) -> bool:
    """Whether ``target`` has Stealth among its abilities (24.33)."""
    return _stealth(target.abilities)


@functools.lru_cache(maxsize=4096)
def _stealth(abilities: tuple[str, ...]) -> bool:
    """``_stealthy`` of a target with these abilities (kept per abilities: the same for
    every matchup of a table's target)."""
    return any(a.casefold() == "stealth" for a in abilities)
