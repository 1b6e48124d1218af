"""Units as fielded: a datasheet's models, their wargear and the weapons they attack with,
and the scenario contract's unit references (version 2) resolved into the engine's input.

Data flows one way: datasheets (``tactica.model``) -> a unit as fielded (``loadout``) ->
its weapon lines and model groups (``firing``, ``resolve``) -> the engine.
"""

from .firing import Aim, NoWeaponsError, weapon_lines
from .leaders import LeaderError, can_lead, check_leaders, lead_refusal, leaders_of
from .loadout import FieldedModels, Loadout, WargearError, field_unit, model_types
from .resolve import (
    FieldedTarget,
    UnitError,
    resolve,
    resolve_against,
    resolve_attacker,
    resolve_target,
    scenario_against,
)
from .scenario import ScenarioDocument, UnitRef

__all__ = [
    "Aim",
    "FieldedModels",
    "FieldedTarget",
    "LeaderError",
    "Loadout",
    "NoWeaponsError",
    "ScenarioDocument",
    "UnitError",
    "UnitRef",
    "WargearError",
    "can_lead",
    "check_leaders",
    "field_unit",
    "lead_refusal",
    "leaders_of",
    "model_types",
    "resolve",
    "resolve_against",
    "resolve_attacker",
    "resolve_target",
    "scenario_against",
    "weapon_lines",
]
