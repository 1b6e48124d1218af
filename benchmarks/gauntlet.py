"""The gauntlet: every unit of the bundled library as an attacker, in both phases, with
its default wargear (``tactica.units.resolve_attacker``), at its default size,
against the ten target presets (shared by ``bench_batch.py`` and its tests)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tactica.combat.contract.scenario import Attacker, Phase, Target
from tactica.library import Library, load_library
from tactica.model.common import RulesVersion
from tactica.units import UnitError, UnitRef, resolve_attacker


@dataclass(frozen=True)
class Matchup:
    """One unit's attacker in one phase (its rule set), to be fired at every target."""

    unit: str
    phase: Phase
    rules: RulesVersion
    attacker: Attacker


def attackers(lib: Library) -> Iterator[Matchup]:
    """Every datasheet (each rules version) in both phases; units with no weapons of a
    phase are left out of that phase."""
    for sheet in lib.datasheets():
        phases: tuple[Phase, ...] = ("shooting", "fight")
        for phase in phases:
            try:
                attacker, _ = resolve_attacker(UnitRef(unit=sheet.name), lib, sheet.rules,
                                               phase)
            except UnitError:
                continue
            yield Matchup(sheet.name, phase, sheet.rules, attacker)


def targets(lib: Library) -> list[tuple[str, Target]]:
    return [(p.name, p.to_target()) for p in lib.presets()]


def default_library() -> Library:
    return load_library()
