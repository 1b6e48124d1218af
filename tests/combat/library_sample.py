"""Real library units for the combat tests: every ``step``-th datasheet fielded with its
default loadout in each phase it has weapons for, and the ten target presets."""

from __future__ import annotations

import contextlib
from functools import cache

from tactica.combat.contract.scenario import Attacker, Target
from tactica.library import load_library
from tactica.units import UnitError, UnitRef, resolve_attacker

__all__ = ["library_sample"]


@cache
def library_sample(step: int) -> tuple[list[tuple[str, Attacker]], list[Target]]:
    """(phase, attacker) for every ``step``-th library datasheet and phase it can attack
    in (a unit without weapons of a phase is left out of it), and the presets."""
    lib = load_library()
    attackers = []
    for sheet in lib.datasheets()[::step]:
        for phase in ("shooting", "fight"):
            with contextlib.suppress(UnitError):  # no weapons of the phase
                ref = UnitRef(unit=sheet.name)
                attackers.append((phase, resolve_attacker(ref, lib, sheet.rules, phase)[0]))
    return attackers, [p.to_target() for p in lib.presets()]
