"""Frozen data: datasheets, weapons, abilities and rules records."""

from typing import TYPE_CHECKING, Any

from .abilities import (
    RECOGNISED_WEAPON_ABILITIES,
    Anti,
    Blast,
    Cleave,
    Flag,
    Limited,
    Melta,
    NamedWeaponRule,
    RapidFire,
    SustainedHits,
    UnknownAbilityError,
    WeaponAbility,
    parse_weapon_ability,
)
from .common import Frozen, RulesVersion, Source
from .datasheet import (
    Ability,
    CompositionLine,
    DamagedProfile,
    Datasheet,
    EscalatingPoints,
    ModelProfile,
    PointsBracket,
    PointsTier,
    TransportCapacity,
    Weapon,
    WeaponProfile,
)
from .wargear import ModelType, WargearBudget, WargearOption

if TYPE_CHECKING:
    from .rules import (
        ArmyRule,
        CoreRule,
        Detachment,
        DetachmentRule,
        Enhancement,
        Errata,
        FaqEntry,
        RuleRecord,
        Stratagem,
        StratagemCategory,
    )

__all__ = [
    "RECOGNISED_WEAPON_ABILITIES",
    "Ability",
    "Anti",
    "ArmyRule",
    "Blast",
    "Cleave",
    "CompositionLine",
    "CoreRule",
    "DamagedProfile",
    "Datasheet",
    "Detachment",
    "DetachmentRule",
    "Enhancement",
    "Errata",
    "EscalatingPoints",
    "FaqEntry",
    "Flag",
    "Frozen",
    "Limited",
    "Melta",
    "ModelProfile",
    "ModelType",
    "NamedWeaponRule",
    "PointsBracket",
    "PointsTier",
    "RapidFire",
    "RuleRecord",
    "RulesVersion",
    "Source",
    "Stratagem",
    "StratagemCategory",
    "SustainedHits",
    "TransportCapacity",
    "UnknownAbilityError",
    "WargearBudget",
    "WargearOption",
    "Weapon",
    "WeaponAbility",
    "WeaponProfile",
    "parse_weapon_ability",
]

#: The rules records' names (``.rules``), imported on first use: a command that reads no
#: rule record (a calculation) builds none of their models.
_RULES = frozenset({"ArmyRule", "CoreRule", "Detachment", "DetachmentRule", "Enhancement",
                    "Errata", "FaqEntry", "RuleRecord", "Stratagem", "StratagemCategory"})


def __getattr__(name: str) -> Any:
    if name in _RULES:
        from . import rules

        return getattr(rules, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
