"""The saving throw's weapon side (05.04 / Saving Throw): AP (never worse than 0,
02.02.01), save-roll modifiers and re-rolls. The save against each allocation group is
``combat.profile.save_probability``."""

from __future__ import annotations

from typing import NamedTuple

from .inputs import RerollPolicy, WeaponInputs

__all__ = ["SaveStage", "save_stage"]


class SaveStage(NamedTuple):
    ap: int
    modifier: int  # from effects; cover per group, the rule set's cap in save_probability
    reroll: RerollPolicy


def save_stage(inp: WeaponInputs) -> SaveStage:
    """AP plus the effects' AP changes, "cannot be worse than 0" (02.02.01); the save-roll
    modifiers of the effects, summed (the rule set caps them per group)."""
    if not inp.effects:  # most lines: nothing changes the save (the same answer)
        return SaveStage(min(0, inp.weapon.AP), 0, None)
    return SaveStage(ap=min(0, inp.weapon.AP + inp.total("ap")), modifier=inp.total("save"),
                     reroll=inp.reroll("save"))
