"""The attack sequence of one weapon line, one module per roll.

Each stage is a small function that asks the rule set (``tactica.rules``) and cites the
rule it follows: ``attacks`` (gather attack dice, 02.02.03 / 24.05 Blast / Cleave /
Rapid Fire), ``hit`` (the hit roll, 05.01 / 02.02.01 bounds / Heavy / Psychic /
indirect shooting), ``wound`` (the wound roll, Anti, Lance, Twin-linked), ``save`` (AP
and save modifiers) and ``damage`` (Melta, halving, reductions, Devastating Wounds).
``combat.profile.resolve_weapon`` puts their answers together into a ``ResolvedWeapon``.
Their inputs and answers are immutable records made once per weapon line and roll, as
``NamedTuple`` (a third of the cost of a frozen dataclass, which sets every field
through ``object.__setattr__``: microseconds per calculation).
"""

from __future__ import annotations

from .attacks import AttackDice, attack_dice, attack_dice_key
from .damage import DamageStage, damage_stage, damage_stage_key
from .hit import HitRoll, hit_key, hit_roll
from .inputs import WeaponInputs
from .save import SaveStage, save_stage
from .wound import WoundRoll, wound_roll, wound_roll_key

__all__ = [
    "AttackDice",
    "DamageStage",
    "HitRoll",
    "SaveStage",
    "WeaponInputs",
    "WoundRoll",
    "attack_dice",
    "attack_dice_key",
    "damage_stage",
    "damage_stage_key",
    "hit_key",
    "hit_roll",
    "save_stage",
    "wound_roll",
    "wound_roll_key",
]
