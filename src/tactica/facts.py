"""The standard target presets (reference_facts.md §2) as a packaged data file, and how
a preset makes a target. The facts that complete a seed page (§1) are
``tactica.reference_facts``, read only when the seed pages are parsed.
"""

from __future__ import annotations

import importlib.resources
from typing import Any

from pydantic import Field

from tactica.cache_registry import lasting_cache

from .combat.contract.scenario import ModelGroup, Phase, Target
from .model.common import Frozen, RulesVersion
from .model.conditions import ConditionalSave

__all__ = ["PRESETS_FILE", "TargetPreset", "load_presets", "read_data_yaml"]

#: The packaged data file (relative to the ``tactica`` package).
PRESETS_FILE = "data/target_presets.yaml"


def read_data_yaml(relative: str) -> Any:
    """A packaged YAML file, read with libyaml's parser where PyYAML has it (the same
    safe loader, several times faster: every command reads the presets)."""
    import yaml  # read when a file is: a command that needs none starts without it

    text = importlib.resources.files("tactica").joinpath(relative).read_text(encoding="utf-8")
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


# --- target presets (reference_facts.md §2) ---------------------------------------------


class TargetPreset(Frozen):
    """A standard target such as ``meq``: the library unit it names (``unit``) at
    ``models`` models. Fielding makes it that unit, as the library has it
    (``tactica.units.preset_target``), so that ``--target knight`` and ``--target "Knight
    Paladin"`` give the same numbers. The rest is the unit's defensive profile as data,
    used only by a library without that unit (the seed pages alone, ``--no-dataset``):
    T, Sv, W, the invulnerable save against every attack (``InSv``) and those against
    ranged or melee attacks only (``conditional_saves``, the datasheet's own form), Feel
    No Pain, damage reduction and every keyword of the unit (a CHARACTER keyword makes
    the model a CHARACTER model). ``tests/test_presets.py`` checks it against the unit.
    ``rules``: the edition whose stats these are."""

    name: str
    unit: str
    rules: RulesVersion = "11th"
    models: int = Field(ge=1)
    T: int = Field(ge=1, le=20)
    Sv: int = Field(ge=2, le=7)
    InSv: int | None = Field(default=None, ge=2, le=6)
    conditional_saves: tuple[ConditionalSave, ...] = ()
    W: int = Field(ge=1, le=60)
    keywords: tuple[str, ...] = ()
    fnp: int | None = Field(default=None, ge=2, le=6)
    damage_reduction: int = Field(default=0, ge=0, le=6)
    source: str

    def invuln(self, phase: Phase = "shooting") -> int | None:
        """The best invulnerable save against the phase's attacks: ``InSv``, or a
        conditional one against ranged attacks (shooting) or melee attacks (fight), as
        ``tactica.units.conditions.invulnerable_save`` reads a datasheet's.

        >>> knight = next(p for p in load_presets() if p.name == "knight")
        >>> knight.invuln("shooting"), knight.invuln("fight")
        (5, None)
        """
        kind = "ranged" if phase == "shooting" else "melee"
        saves = [s.value for s in self.conditional_saves if s.against == kind]
        if self.InSv is not None:
            saves.append(self.InSv)
        return min(saves) if saves else None

    def to_target(self, models: int | None = None, phase: Phase = "shooting") -> Target:
        """The scenario's ``Target`` from this data alone (a library that has the unit
        fields the unit instead: ``tactica.units.preset_target``); ``models`` overrides
        the preset's model count; ``phase`` decides a conditional invulnerable save.

        >>> load_presets()[1].to_target(models=10).model_count
        10
        """
        return Target(
            name=self.unit,
            keywords=self.keywords,
            models=(
                ModelGroup(
                    name=self.unit,
                    count=self.models if models is None else models,
                    T=self.T,
                    Sv=self.Sv,
                    invuln=self.invuln(phase),
                    W=self.W,
                    fnp=self.fnp,
                    character="CHARACTER" in self.keywords,
                ),
            ),
            damage_reduction=self.damage_reduction,
        )


@lasting_cache(maxsize=None, kind="data")
def load_presets() -> tuple[TargetPreset, ...]:
    """The packaged target presets, in the order of reference_facts.md §2."""
    data = read_data_yaml(PRESETS_FILE)
    return tuple(
        TargetPreset.model_validate({"name": name, "rules": data["rules"], **fields})
        for name, fields in data["presets"].items()
    )
