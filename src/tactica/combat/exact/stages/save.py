"""The saving throw's weapon side (05.04 / Saving Throw): AP (never worse than 0,
02.02.01), save-roll modifiers and re-rolls. The save against each allocation group is
``combat.profile.save_probability``."""

from __future__ import annotations

from typing import NamedTuple

from tactica.combat.contract.scenario import Effect

from .inputs import RerollPolicy, effects_reroll, effects_total

__all__ = ["SaveInputs", "SaveStage", "save_stage"]


class SaveInputs(NamedTuple):
    """Everything ``save_stage`` reads: the line's AP and the effects that apply to it."""

    AP: int
    effects: tuple[Effect, ...]


class SaveStage(NamedTuple):
    ap: int
    modifier: int  # from effects; cover per group, the rule set's cap in save_probability
    reroll: RerollPolicy


def save_stage(inp: SaveInputs) -> SaveStage:
    """AP plus the effects' AP changes, "cannot be worse than 0" (02.02.01); the save-roll
    modifiers of the effects, summed (the rule set caps them per group)."""
    effects = inp.effects
    if not effects:  # most lines: nothing changes the save (the same answer)
        return SaveStage(min(0, inp.AP), 0, None)
    return SaveStage(ap=min(0, inp.AP + effects_total(effects, "ap")),
                     modifier=effects_total(effects, "save"),
                     reroll=effects_reroll(effects, "save"))
