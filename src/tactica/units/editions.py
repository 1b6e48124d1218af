"""Whose stats a fielded unit uses when they are not of the rules version asked for.

The library may have only one edition's datasheet of a unit (``Library.datasheet`` then
answers the one it has). A standard target (``meq``, ...) is the unit it names, and says
so as that unit does; in a library without that unit its own data stands in, 11th-edition
stats (``preset_note``). A calculation under the other rules says so, through every door:
the note is part of the unit's resolution (``units.resolve``), not of a shell.

>>> from tactica.facts import load_presets
>>> meq = next(p for p in load_presets() if p.name == "meq")
>>> preset_note(meq, "11th") is None
True
>>> preset_note(meq, "10th")
'meq: a standard target with 11th-edition stats (Intercessor Squad: T5, Sv3+, W2) used ...'
"""

from __future__ import annotations

from ..facts import TargetPreset
from ..model.common import RulesVersion
from ..model.datasheet import Datasheet

__all__ = ["edition_note", "preset_note"]


def edition_note(sheet: Datasheet, rules: RulesVersion) -> str | None:
    """The note for ``sheet`` fielded under ``rules`` when it is another edition's
    datasheet (the only one the library has), else ``None``."""
    if sheet.rules == rules:
        return None
    return (f"{sheet.name}: the library has no {rules}-edition datasheet; its "
            f"{sheet.rules}-edition stats are used under the {rules} rules")


def preset_note(preset: TargetPreset, rules: RulesVersion) -> str | None:
    """The note for the standard target ``preset`` under ``rules`` when its stats are
    another edition's, with the stats used, else ``None``."""
    if preset.rules == rules:
        return None
    return (f"{preset.name}: a standard target with {preset.rules}-edition stats "
            f"({preset.unit}: T{preset.T}, Sv{preset.Sv}+, W{preset.W}) used under the "
            f"{rules} rules")
