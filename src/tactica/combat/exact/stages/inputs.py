"""What every stage reads: one weapon line with the effects and abilities that apply to
it, the scenario's circumstances and the rule set."""

from __future__ import annotations

from typing import Literal, NamedTuple

from tactica.combat.contract.scenario import Effect, RerollStage, Scenario, WeaponLine
from tactica.model.abilities import Flag, Limited, WeaponAbility
from tactica.rules.base import AttackCircumstances, RuleSet

__all__ = ["RerollPolicy", "WeaponInputs", "stronger"]

RerollPolicy = Literal["ones", "failed", "any"] | None


_STRENGTH: dict[RerollPolicy, int] = {None: 0, "ones": 1, "failed": 2, "any": 3}


def stronger(a: RerollPolicy, b: RerollPolicy) -> RerollPolicy:
    """The stronger of two re-roll policies (a die is re-rolled at most once, §4.5)."""
    return a if _STRENGTH[a] >= _STRENGTH[b] else b


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

    @classmethod
    def of(cls, weapon: WeaponLine, scenario: Scenario, rules: RuleSet,
           effects: tuple[Effect, ...]) -> WeaponInputs:
        if effects:
            effects = tuple(e for e in effects if e.applies_to(weapon.name))
        # an ability limited to some targets counts only against those (Limited)
        target_kws = scenario.target.keywords
        own = tuple(a.ability if isinstance(a, Limited) else a for a in weapon.abilities
                    if not isinstance(a, Limited) or a.applies(target_kws))
        abilities = own + tuple(e.grant for e in effects if e.grant is not None
                                ) if effects else own
        flags = frozenset(a.name for a in abilities if isinstance(a, Flag))
        ctx = scenario.context
        ranged = scenario.phase == "shooting"  # reference facts §5.11
        indirect = ranged and "Indirect Fire" in flags and ctx.indirect is not None
        circ = AttackCircumstances(
            ranged=ranged,
            cover=ctx.cover or (indirect and rules.indirect_gives_cover),
            # 24.33 Stealth: the target's own ability, or given by the context
            stealth=ctx.stealth or any(a.casefold() == "stealth"
                                       for a in scenario.target.abilities),
            ignores_cover="Ignores Cover" in flags,
            psychic="Psychic" in flags,
            indirect=ctx.indirect if indirect else None,
        )
        return cls(weapon, scenario, rules, effects, abilities, flags, circ,
                   ctx.half_range(weapon.range))

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
    def target_models(self) -> int:
        return self.scenario.target.model_count

    @property
    def melee(self) -> bool:
        return self.weapon.range == "Melee"
