"""The standard target presets (reference_facts.md §2) as a packaged data file, and how
a preset makes a target. The facts that complete a seed page (§1) are
``tactica.reference_facts``, read only when the seed pages are parsed.
"""

from __future__ import annotations

import functools
import importlib.resources
from typing import Any

from pydantic import Field

from .combat.contract.scenario import ModelGroup, Target
from .model.common import Frozen, RulesVersion

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
    """A standard target such as ``meq`` (reference_facts.md §2): the unit it stands for,
    its model count and one stat line; ``fnp`` and ``damage_reduction`` where §2 gives them
    (the ``monster`` preset: Feel No Pain 5+, -1 damage). ``rules``: the edition whose stats
    these are (§2 gives 11th edition's)."""

    name: str
    unit: str
    rules: RulesVersion = "11th"
    models: int = Field(ge=1)
    T: int = Field(ge=1, le=20)
    Sv: int = Field(ge=2, le=7)
    InSv: int | None = Field(default=None, ge=2, le=6)
    W: int = Field(ge=1, le=60)
    keywords: tuple[str, ...] = ()
    fnp: int | None = Field(default=None, ge=2, le=6)
    damage_reduction: int = Field(default=0, ge=0, le=6)
    source: str

    def to_target(self, models: int | None = None) -> Target:
        """The scenario's ``Target``; ``models`` overrides the preset's model count. A
        CHARACTER keyword makes the model a CHARACTER model.

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
                    invuln=self.InSv,
                    W=self.W,
                    fnp=self.fnp,
                    character="CHARACTER" in self.keywords,
                ),
            ),
            damage_reduction=self.damage_reduction,
        )


@functools.cache
def load_presets() -> tuple[TargetPreset, ...]:
    """The packaged target presets, in the order of reference_facts.md §2."""
    data = read_data_yaml(PRESETS_FILE)
    return tuple(
        TargetPreset.model_validate({"name": name, "rules": data["rules"], **fields})
        for name, fields in data["presets"].items()
    )
