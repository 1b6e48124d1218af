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

Each stage is a pure function of one input record that holds what the stage reads and
nothing else (``AttackInputs``, ``HitInputs``, ``WoundInputs``, ``DamageInputs``,
``SaveInputs``, each made ``of`` a line's ``WeaponInputs``): the record is the stage's
cache key, so no key function exists to fall out of step with the stage (issue 42).
"""

from __future__ import annotations

from .attacks import AttackDice, AttackInputs, attack_dice
from .damage import DamageInputs, DamageStage, damage_stage
from .hit import HitInputs, HitRoll, hit_roll
from .inputs import WeaponInputs
from .save import SaveInputs, SaveStage, save_stage
from .wound import WoundInputs, WoundRoll, wound_roll

__all__ = [
    "AttackDice",
    "AttackInputs",
    "DamageInputs",
    "DamageStage",
    "HitInputs",
    "HitRoll",
    "SaveInputs",
    "SaveStage",
    "WeaponInputs",
    "WoundInputs",
    "WoundRoll",
    "attack_dice",
    "damage_stage",
    "hit_roll",
    "save_stage",
    "wound_roll",
]
