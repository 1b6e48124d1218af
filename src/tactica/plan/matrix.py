"""The matchup matrix: every unit of one army against every unit of the other, in the
shooting phase and in the fight after a charge, exactly; and the same from the enemy's side.

``matchup(MINE, ENEMY)`` reads both sides (``tactica.plan.army.read_side``: a list file, a
list's text, or unit names) and computes every cell (``tactica.plan.cells``). A unit that
cannot attack in a phase (no ranged weapon) keeps its row, each cell saying why.

>>> m = matchup("Intercessor Squad:5", "Intercessor Squad:5", phases=("shooting",),
...             sides=("mine",))
>>> c = m.cell("mine", "shooting", "Intercessor Squad", "Intercessor Squad")
>>> c.status, round(c.points, 4) == round(16 * c.models_destroyed, 4)
('ok', True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ..errors import needs_extra
from ..library import Library, load_library
from ..model.common import RulesVersion
from .army import PHASES, Phase, Prices, Side, read_sides
from .cells import Cell, Conditions, compute_cell

if TYPE_CHECKING:
    with needs_extra("plan", "to_frame"):  # pandas
        import pandas as pd

__all__ = ["Matchup", "SideName", "matchup", "matchup_sides"]

SideName = Literal["mine", "enemy"]
SIDES: tuple[SideName, ...] = ("mine", "enemy")


@dataclass(frozen=True)
class Matchup:
    """Both sides and the cells: ``grids[(side, phase)][i][j]`` is the ``i``-th unit of
    the attacking side (``side``: "mine" attacks the enemy, "enemy" attacks mine) against
    the ``j``-th unit of the other."""

    mine: Side
    enemy: Side
    conditions: Conditions
    grids: dict[tuple[SideName, Phase], list[list[Cell]]] = field(default_factory=dict)

    def attackers(self, side: SideName) -> Side:
        return self.mine if side == "mine" else self.enemy

    def defenders(self, side: SideName) -> Side:
        return self.enemy if side == "mine" else self.mine

    def cells(self) -> Iterable[tuple[SideName, Cell]]:
        for (side, _), grid in self.grids.items():
            for row in grid:
                for cell in row:
                    yield side, cell

    def cell(self, side: SideName, phase: Phase, attacker: str, target: str) -> Cell:
        """The cell of the units labelled ``attacker`` and ``target``."""
        i = self.attackers(side).units.index(self.attackers(side).unit(attacker))
        j = self.defenders(side).units.index(self.defenders(side).unit(target))
        return self.grids[(side, phase)][i][j]

    def to_records(self) -> list[dict[str, Any]]:
        """One record per cell (the columns of ``to_frame``)."""
        out = []
        for side, c in self.cells():
            unit = self.attackers(side).unit(c.attacker)
            out.append({
                "side": side, "phase": c.phase, "attacker": c.attacker, "target": c.target,
                "status": c.status, "reason": c.reason,
                "models_destroyed": c.models_destroyed, "p_destroyed": c.p_destroyed,
                "damage": c.damage, "points_destroyed": c.points, "per_100_points": c.per_100,
                "p_charge": c.p_charge, "attacker_points": unit.points,
                "target_points": c.target_points, "target_models": c.target_models,
                "effects": "; ".join(c.effects), "cp": c.cp})
        return out

    def to_frame(self) -> pd.DataFrame:
        """The cells as a pandas DataFrame, one row per cell."""
        with needs_extra("plan", "to_frame"):  # pandas
            import pandas as pd

        return pd.DataFrame.from_records(self.to_records())

    def to_csv(self) -> str:
        return str(self.to_frame().to_csv(index=False))

    def to_json(self) -> dict[str, Any]:
        """The document ``tactica matchup --json`` prints."""
        def side_doc(s: Side) -> dict[str, Any]:
            return {"name": s.name, "faction": s.roster.faction,
                    "detachments": list(s.roster.detachments), "rules": s.rules,
                    "points": s.points, "points_source": s.points_source,
                    "units": [{"label": u.label, "points": u.points,
                               "models": u.body.models + sum(x.models for x in u.leaders),
                               "attacks": {p: (None if not isinstance(u.attack.get(p), str)
                                               else u.attack[p]) for p in PHASES}}
                              for u in s.units]}
        c = self.conditions
        return {"warnings": [*self.mine.warnings, *self.enemy.warnings],
                "mine": side_doc(self.mine), "enemy": side_doc(self.enemy),
                "conditions": {"charge": c.charge, "stationary": c.stationary,
                               "half_range": c.half_range, "cover": c.cover,
                               "distance": c.distance,
                               "distances": [{"mine": a, "enemy": t, "inches": d}
                                             for (a, t), d in c.distances.items()],
                               "stratagems": {k: list(v) for k, v in c.stratagems.items()}},
                "cells": [{**r, "notes": list(c.notes)} for r, (_, c) in
                          zip(self.to_records(), self.cells(), strict=True)]}


def matchup_sides(mine: Side, enemy: Side, *, phases: Iterable[Phase] = PHASES,
                  sides: Iterable[SideName] = SIDES,
                  conditions: Conditions | None = None) -> Matchup:
    """The matrix of two sides already read."""
    conditions = (conditions or Conditions()).for_sides(mine, enemy)
    conditions.check((*mine.units, *enemy.units), mine.rules)
    m = Matchup(mine, enemy, conditions)
    for side in sides:
        attackers, defenders = m.attackers(side), m.defenders(side)
        for phase in phases:
            memo: dict[Any, Any] = {}
            m.grids[(side, phase)] = [
                [compute_cell(a, d, phase, attackers.rules, conditions, memo)
                 for d in defenders.units] for a in attackers.units]
    return m


def matchup(mine: str | Path | Side, enemy: str | Path | Side, *,
            phases: Iterable[Phase] = PHASES, sides: Iterable[SideName] = SIDES,
            conditions: Conditions | None = None, library: Library | None = None,
            rules: RulesVersion = "11th", strict: bool = False, files: bool = True,
            prices: Prices = "list") -> Matchup:
    """The matchup of two armies, each a list file, a list's text or unit names (see
    ``tactica.plan.army.read_side``). Raises ``SideError`` for a list that cannot be read
    (with ``strict``, or that does not validate; otherwise its problems are the sides'
    ``warnings``). ``files``, ``prices``: as ``read_side`` takes them."""
    a, b = read_sides(mine, enemy, library or load_library(), rules=rules, strict=strict,
                      files=files, prices=prices)
    return matchup_sides(a, b, phases=phases, sides=sides, conditions=conditions)
