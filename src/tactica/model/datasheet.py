"""Datasheets: model profiles, weapons, abilities, composition, points and keywords.

>>> w = WeaponProfile(name="Lascannon", range=48, A="1", skill=4, S=12, AP=-3, D="D6+1")
>>> w.D.mean, w.is_melee
(Fraction(9, 2), False)
>>> str(w)
'Lascannon 48" A1 BS4+ S12 AP-3 D:D6+1'
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from ..dice import DiceExpr
from ..names import name_key
from .abilities import WeaponAbility
from .common import Frozen, RulesVersion, Source, inches_or_melee
from .conditions import ConditionalSave, TargetCondition
from .wargear import ModelType, WargearBudget, WargearOption

__all__ = [
    "Ability",
    "CompositionLine",
    "DamagedProfile",
    "Datasheet",
    "EscalatingPoints",
    "ModelProfile",
    "PointsBracket",
    "PointsTier",
    "TransportCapacity",
    "Weapon",
    "WeaponProfile",
]


class ModelProfile(Frozen):
    """One model's characteristics (M, T, Sv, InSv, W, Ld, OC). Saves and Ld are the
    number before the ``+``; ``None`` where the unit has none (InSv) or it is unknown."""

    name: str
    M: int | None = Field(default=None, ge=0, le=60, description='inches (the " dropped)')
    T: int | None = Field(default=None, ge=1, le=20)
    Sv: int | None = Field(default=None, ge=2, le=7)
    InSv: int | None = Field(default=None, ge=2, le=6)
    W: int | None = Field(default=None, ge=1, le=60)
    Ld: int | None = Field(default=None, ge=2, le=12)
    OC: int | None = Field(default=None, ge=0, le=20)
    conditional_saves: tuple[ConditionalSave, ...] = ()
    source: Source | None = None

    def statline(self) -> str:
        def plus(v: int | None) -> str:
            return "-" if v is None else f"{v}+"

        def num(v: int | None) -> str:
            return "-" if v is None else str(v)

        inv = f" {self.InSv}++" if self.InSv is not None else ""
        return (
            f'M{num(self.M)}" T{num(self.T)} Sv{plus(self.Sv)}{inv} W{num(self.W)} '
            f"Ld{plus(self.Ld)} OC{num(self.OC)}"
        )


class WeaponProfile(Frozen):
    """One profile of a weapon. ``range`` is inches (1 or more: a loader leaves out a
    profile of another Range) or ``"Melee"``; ``skill`` is BS/WS (``None`` for N/A, i.e.
    Torrent); ``AP`` is 0 or negative."""

    name: str
    range: int | Literal["Melee"]
    A: DiceExpr
    skill: int | None = Field(ge=2, le=6)
    S: int = Field(ge=1, le=30)
    AP: int = Field(ge=-6, le=0)
    D: DiceExpr
    abilities: tuple[WeaponAbility, ...] = ()
    may_target: TargetCondition | None = Field(
        default=None, description="the units this weapon may target (None: any)")
    source: Source | None = None

    @field_validator("range")
    @classmethod
    def _inches(cls, value: int | str) -> int | str:
        return inches_or_melee(value)

    @property
    def is_melee(self) -> bool:
        return self.range == "Melee"

    def has(self, flag: str) -> bool:
        return any(getattr(a, "name", None) == flag for a in self.abilities)

    def __str__(self) -> str:
        rng = "Melee" if self.is_melee else f'{self.range}"'
        sk = "N/A" if self.skill is None else f"{'WS' if self.is_melee else 'BS'}{self.skill}+"
        ab = f" [{', '.join(str(a) for a in self.abilities)}]" if self.abilities else ""
        return f"{self.name} {rng} A{self.A} {sk} S{self.S} AP{self.AP} D:{self.D}{ab}"


class Weapon(Frozen):
    """A weapon with one or more profiles (multi-profile weapons pick one per attack:
    "Before selecting targets for this weapon, select one of its profiles")."""

    name: str
    profiles: tuple[WeaponProfile, ...] = Field(min_length=1)

    @property
    def is_melee(self) -> bool:
        return self.profiles[0].is_melee


class Ability(Frozen):
    """A datasheet ability. ``kind`` says where it is listed; ``parameter`` holds the
    parsed value of parameterised core abilities (Deadly Demise D6+2 -> "D6+2",
    Firing Deck 12 -> "12", Feel No Pain 5+ -> "5")."""

    name: str
    kind: Literal["core", "faction", "unit", "wargear", "damaged"] = "unit"
    parameter: DiceExpr | None = None
    text: str | None = None
    source: Source | None = None
    effect: str | None = Field(
        default=None, description="the dataset's effect record of the ability, as JSON "
        "text: its effect tree, behavior, curation notes and the effects of the abilities "
        "it grants (compiled by tactica.effects.unit_abilities; data, never parsed here)")

    def __str__(self) -> str:
        if self.parameter is None:
            return self.name
        suffix = "+" if self.name == "Feel No Pain" else ""
        return f"{self.name} {self.parameter}{suffix}"


class CompositionLine(Frozen):
    """"- 4-9 Death Riders": a model type and how many of it the unit may hold."""

    model: str
    min: int = Field(ge=0)
    max: int = Field(ge=0)

    @model_validator(mode="after")
    def _order(self) -> CompositionLine:
        if self.max < self.min:
            raise ValueError(f"composition {self.model}: max {self.max} < min {self.min}")
        return self


class PointsBracket(Frozen):
    """"| 10 models | 90 |": the price of a unit of exactly ``models`` models."""

    models: int = Field(ge=1)
    points: int = Field(ge=0)


class PointsTier(Frozen):
    """One tier of escalating costs: units ``first``..``last`` (``None`` = no end) of this
    datasheet in the army cost ``brackets`` each ("YOUR 1ST TO 3RD UNITS COST")."""

    first: int = Field(ge=1)
    last: int | None = None
    brackets: tuple[PointsBracket, ...]


class EscalatingPoints(Frozen):
    """Costs that depend on how many units of the datasheet the army already has."""

    tiers: tuple[PointsTier, ...] = Field(min_length=1)

    def brackets_for_unit(self, ordinal: int) -> tuple[PointsBracket, ...]:
        """Brackets for the ``ordinal``-th (1-based) unit of this datasheet.

        >>> e = EscalatingPoints(tiers=(
        ...     PointsTier(first=1, last=3, brackets=(PointsBracket(models=1, points=80),)),
        ...     PointsTier(first=4, brackets=(PointsBracket(models=1, points=90),))))
        >>> [e.brackets_for_unit(i)[0].points for i in (1, 3, 4, 9)]
        [80, 80, 90, 90]
        """
        for tier in self.tiers:
            if ordinal >= tier.first and (tier.last is None or ordinal <= tier.last):
                return tier.brackets
        raise ValueError(f"no points tier covers unit number {ordinal}")


class DamagedProfile(Frozen):
    """"DAMAGED: 1-8 WOUNDS REMAINING": modifiers while wounds left are in range."""

    min_wounds: int = Field(ge=1)
    max_wounds: int = Field(ge=1)
    hit_modifier: int = 0
    oc_modifier: int = 0
    text: str
    source: Source | None = None


class TransportCapacity(Frozen):
    """Transport capacity: the text, plus the parsed headline number and keywords."""

    capacity: int | None = None
    keywords: tuple[str, ...] = ()
    text: str
    source: Source | None = None


class Datasheet(Frozen):
    """A unit's datasheet, for one rules version."""

    name: str
    rules: RulesVersion
    faction_keywords: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    models: tuple[ModelProfile, ...] = ()
    weapons: tuple[Weapon, ...] = ()
    abilities: tuple[Ability, ...] = ()
    composition: tuple[CompositionLine, ...] = ()
    tiers: tuple[tuple[CompositionLine, ...], ...] = Field(
        default=(), description="the buildable sizes: a unit matches one tier, a count "
        "range per model type (the composition is their envelope)")
    points: tuple[PointsBracket, ...] | EscalatingPoints = ()
    leader_of: tuple[str, ...] = ()
    leader_keywords: tuple[tuple[str, ...], ...] = Field(
        default=(), description="Leader: any unit with ALL the keywords of one set")
    attach_role: Literal["leader", "support"] | None = Field(
        default=None, description="24.22 Leader / Support: the kind of unit it attaches as "
        "(a leader unit or a support unit); None where the data does not say")
    transport: TransportCapacity | None = None
    damaged: DamagedProfile | None = None
    wargear_options: tuple[str, ...] = ()
    model_types: tuple[ModelType, ...] = Field(
        default=(), description="composition with each model type's default equipment")
    wargear: tuple[WargearOption, ...] = Field(
        default=(), description="wargear options with their constraints")
    wargear_budgets: tuple[WargearBudget, ...] = ()
    source: Source
    notes: tuple[str, ...] = ()

    @field_validator("keywords", "faction_keywords")
    @classmethod
    def _upper(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(k.strip().upper() for k in v)

    def has_keyword(self, kw: str) -> bool:
        k = kw.upper()
        return k in self.keywords or k in self.faction_keywords

    def weapon(self, name: str) -> Weapon:
        key = name_key(name)
        for w in self.weapons:
            if name_key(w.name) == key:
                return w
        raise KeyError(f"{self.name} has no weapon {name!r}")

    def ability(self, name: str) -> Ability | None:
        key = name_key(name)
        return next((a for a in self.abilities if name_key(a.name) == key), None)
