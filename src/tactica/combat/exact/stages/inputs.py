"""What every stage reads: one weapon line with the effects and abilities that apply to
it, the scenario's circumstances and the rule set."""

from __future__ import annotations

from typing import Literal, NamedTuple

from tactica.cache_registry import lasting_cache
from tactica.combat.contract.scenario import Effect, RerollStage, Scenario, Target, WeaponLine
from tactica.dice import DiceExpr
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

__all__ = ["AbilityKinds", "RerollPolicy", "WeaponInputs", "effects_reroll",
           "effects_reroll_below", "effects_total", "effects_values", "kinds", "stronger"]

RerollPolicy = Literal["ones", "failed", "any"] | None


_STRENGTH: dict[RerollPolicy, int] = {None: 0, "ones": 1, "failed": 2, "any": 3}


def stronger(a: RerollPolicy, b: RerollPolicy) -> RerollPolicy:
    """The stronger of two re-roll policies (a die is re-rolled at most once, §4.5)."""
    return a if _STRENGTH[a] >= _STRENGTH[b] else b


def effects_reroll(effects: tuple[Effect, ...], stage: RerollStage) -> RerollPolicy:
    """The strongest re-roll ``effects`` give for ``stage``."""
    policy: RerollPolicy = None
    for e in effects:
        if e.reroll == stage and e.which != "below":
            policy = stronger(policy, e.which)
    return policy


def effects_reroll_below(effects: tuple[Effect, ...], stage: RerollStage) -> int | None:
    """The highest threshold of the effects' "re-roll results below X" for ``stage``
    (a damage or attacks roll), or None."""
    return max((e.below for e in effects if e.reroll == stage and e.below), default=None)


def effects_values(effects: tuple[Effect, ...], name: str) -> list[int]:
    """Each effect's ``name`` modifier, one by one."""
    return [getattr(e, name) for e in effects if getattr(e, name)]


def effects_total(effects: tuple[Effect, ...], name: str, sign: int = 0) -> int:
    """The sum of the effects' ``name`` modifiers (``sign`` > 0: only the positive ones,
    < 0: only the negative ones)."""
    if not effects:
        return 0
    return sum(v for v in effects_values(effects, name) if sign == 0 or (v > 0) == (sign > 0))


class AbilityKinds(NamedTuple):
    """What the stages' input records take from a line's abilities (``AttackInputs``,
    ``HitInputs``, ``WoundInputs``, ``DamageInputs``), found once per abilities tuple
    (``kinds``)."""

    flags: frozenset[str]
    #: Blast, Cleave and Rapid Fire, in order (the attack dice)
    adding: tuple[WeaponAbility, ...]
    #: Blast or Cleave among them: the attack dice read the target's models
    counts_models: bool
    #: the first Sustained Hits' extra hits
    sustained: DiceExpr | None
    anti: tuple[Anti, ...]
    melta: tuple[Melta, ...]


@lasting_cache(maxsize=4096)
def kinds(abilities: tuple[WeaponAbility, ...]) -> AbilityKinds:
    """``AbilityKinds`` of ``abilities`` (cached by value: a line's abilities are the
    same for every matchup of a table)."""
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
    #: what the stages' input records take from ``abilities`` (``flags`` among them)
    kinds: AbilityKinds
    #: the models in the target unit at the Select Targets step, which [BLAST] and
    #: [CLEAVE] count (24.05, 24.06): the target's models, or those alive when the unit
    #: shoots or fights after other attacks (``select_targets``)
    target_models: int

    @classmethod
    def of(cls, weapon: WeaponLine, scenario: Scenario, rules: RuleSet,
           effects: tuple[Effect, ...], models: int | None = None) -> WeaponInputs:
        """``weapon``'s inputs; ``models``: the target's models at the Select Targets
        step, when not all of ``scenario.target``'s models are alive then. What is found
        among the abilities is cached by their value (``kinds``: a batch's or table's
        lines meet many targets)."""
        if effects:
            effects = tuple(e for e in effects if e.applies_to(weapon.name))
        # an ability limited to some targets counts only against those (Limited); most
        # lines have none, and then their own abilities and flags as they are
        own = weapon.abilities
        for a in own:
            if isinstance(a, Limited):
                own = _against(own, scenario.target.keywords)
                break
        grants = tuple(e.grant for e in effects if e.grant is not None) if effects else ()
        abilities = own + grants if grants else own
        found = kinds(abilities)
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

    @property
    def melee(self) -> bool:
        return self.weapon.range == "Melee"


def _against(abilities: tuple[WeaponAbility, ...], keywords: tuple[str, ...]
             ) -> tuple[WeaponAbility, ...]:
    """``abilities`` against a target with ``keywords``: each ``Limited`` one as the
    ability it limits where it applies, left out where not."""
    return tuple(a.ability if isinstance(a, Limited) else a for a in abilities
                 if not isinstance(a, Limited) or a.applies(keywords))


def _stealthy(target: Target) -> bool:
    """Whether ``target`` has Stealth among its abilities (24.33)."""
    return _stealth(target.abilities)


@lasting_cache(maxsize=4096)
def _stealth(abilities: tuple[str, ...]) -> bool:
    """``_stealthy`` of a target with these abilities (cached by value: the same for
    every matchup of a table's target)."""
    return any(a.casefold() == "stealth" for a in abilities)
