"""The gauntlet: every unit of the bundled library as an attacker, in both phases, with
the weapons ``tactica calc`` picks by default (``build_attacker``), at its smallest size,
against the ten target presets (shared by ``bench_batch.py`` and its tests)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import typer

from tactica.cli.calc import build_attacker
from tactica.combat.scenario import Attacker, Phase, Target
from tactica.library import Library, load_library
from tactica.model.common import RulesVersion


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
        low = sum(c.min for c in sheet.composition) or 1
        phases: tuple[Phase, ...] = ("shooting", "fight")
        for phase in phases:
            try:
                attacker, _ = build_attacker(sheet, low, phase, [])
            except typer.BadParameter:
                continue
            yield Matchup(sheet.name, phase, sheet.rules, attacker)


def targets(lib: Library) -> list[tuple[str, Target]]:
    return [(p.name, p.to_target()) for p in lib.presets()]


def default_library() -> Library:
    return load_library()
