"""Which of a fielded unit's model groups carries how many of each weapon line, so that a
turn of combat (``combat.turn``) takes each line away with the models that carry it.

The unit is fielded as ``resolve`` fields it (its loadout, its leaders), and each model
group of ``resolve_target`` (one per stat line, a leader's its own) fights with the
weapons its own models carry (``firing.weapon_lines`` of just those models, the same
choices as for the whole unit): the step's ``carried_by``,
``{"Close combat weapon": {"Intercessor Sergeant": 1, "Intercessor": 4}}``.
"""

from __future__ import annotations

from ..combat.contract.scenario import Phase
from ..model.common import RulesVersion
from .firing import Aim, NoWeaponsError, weapon_lines
from .loadout import Loadout
from .resolve import UnitLibrary, _field, _profile
from .scenario import UnitRef

__all__ = ["carriers"]


def carriers(ref: UnitRef, lib: UnitLibrary, rules: RulesVersion, phase: Phase,
             aim: Aim | None = None) -> dict[str, dict[str, int]]:
    """Weapon line name -> model group name -> how many of it that group carries, for
    the lines ``resolve_attacker`` gives the unit (hand-picked ``weapons`` excepted: those
    are matched to the models by the engine).

    >>> from tactica.library import load_library
    >>> carriers(UnitRef(unit="Intercessor Squad", models=5), load_library(), "11th",
    ...          "fight")
    {'Knives and Fists': {'Intercessor Sergeant': 1, 'Intercessor': 4}}
    """
    if ref.weapons:
        return {}
    side = _field(ref, lib, rules, "attacker")
    out: dict[str, dict[str, int]] = {}
    for sheet, loadout in side.loadouts:
        by_group: dict[str, list[int]] = {}
        for i, m in enumerate(loadout.models):
            by_group.setdefault(_profile(sheet, m.profile).name, []).append(i)
        for group, rows in by_group.items():
            sub = Loadout(unit=loadout.unit, models=tuple(loadout.models[i] for i in rows))
            try:
                lines = weapon_lines(sheet, sub, phase, rules, aim, ref.profiles)
            except NoWeaponsError:
                continue  # these models carry none for the phase
            for line in lines:
                share = out.setdefault(line.name, {})
                share[group] = share.get(group, 0) + line.count
    return out
