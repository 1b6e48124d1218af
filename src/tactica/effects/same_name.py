"""One name, several records that differ (issue 24): resolution by army.

27 names of the 1.4.5 records stand for rules that differ in effect or status between
factions or detachments ("Fire Discipline" is a Dark Angels and an Ultramarines
stratagem). Naming such a rule gives a ``SameName`` effect that picks, for the scenario
at hand, the record of the attacking army: of the army's detachment
(``context.detachment``) when given, then of the unit's faction (``FactionKeys``, for the
side whose rule it is), and with no detachment given an army rule or core stratagem
before a detachment's. One rule left: it applies as that record. None or several: the
name is refused with the candidates named, each as "Name (Detachment)", which names it
exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Protocol

from ..combat.contract.scenario import Scenario
from ..names import name_key, normalise
from .compiled import Compiled
from .dsl_conditions import Owner
from .faction_checks import FactionKeys
from .model import NamedEffect, Outcome


class DatasetEffect(Protocol):
    """What this module reads of a ``dataset.DatasetEffect`` (not imported: ``dataset``
    imports this module)."""

    @property
    def record(self) -> Any: ...
    @property
    def factions(self) -> tuple[str, ...]: ...
    @property
    def compiled(self) -> Compiled: ...
    @property
    def effect(self) -> NamedEffect: ...

__all__ = ["SameName", "candidate_label"]


def candidate_label(e: DatasetEffect) -> str:
    """"Fire Discipline (Gladius Task Force: Ultramarines...)" -- the name that names
    this record exactly is "Name (Detachment)"."""
    where = getattr(e.record, "detachment", None)
    factions = ", ".join(e.factions[:3]) + ("..." if len(e.factions) > 3 else "")
    if where and where != "Core":
        return f"{e.record.name} ({where}; {factions})"
    return f"{e.record.name} ({factions or 'Core'})"


class SameName:
    """``NamedEffect.apply`` for a name several differing records share; ``groups`` are
    the records grouped by what they do, each with the entry that applies it."""

    status = "modelled"
    reason = ""

    def __init__(self, name: str,
                 groups: Sequence[tuple[DatasetEffect, Sequence[DatasetEffect]]],
                 factions: FactionKeys) -> None:
        self.name = name
        self.groups = list(groups)
        self.factions = factions

    def _owners(self, e: DatasetEffect) -> tuple[str, ...]:
        owners = tuple(dict.fromkeys(p.owner for p in e.compiled.parts))
        return owners or ("attacker",)

    def _fits(self, e: DatasetEffect, s: Scenario) -> int:
        """2: the unit whose rule it is belongs to one of the record's factions (by a
        faction's own keyword); 1: it is taken as given (a profile with no faction
        keyword, or a record of no faction); 0: it may not use the record."""
        if not e.factions or not any(f in self.factions.keywords for f in e.factions):
            return 1
        label = " or ".join(e.factions)
        score = 2
        for owner in self._owners(e):
            side: Owner = "attacker" if owner == "attacker" else "target"
            if not all(c.test(s) for c in self.factions.conditions(side, e.factions, label)):
                return 0
            unit = s.attacker if side == "attacker" else s.target
            if not self.factions.belongs({normalise(k) for k in unit.keywords}):
                score = 1
        return score

    def pick(self, s: Scenario) -> DatasetEffect:
        """The group's entry for this scenario; raises ``ValueError`` naming the
        candidates when none or several remain."""
        groups = self.groups
        army = s.context.detachment
        if army:
            mine = [g for g in groups if any(
                name_key(getattr(r.record, "detachment", "") or "") == name_key(army)
                for r in g[1])]
            groups = mine or [g for g in groups if any(
                not getattr(r.record, "detachment", None) for r in g[1])] or groups
        scores = [max(self._fits(r, s) for r in g[1]) for g in groups]
        best = max(scores)
        fitting = [g for g, n in zip(groups, scores, strict=True) if n and n == best]
        if len(fitting) > 1 and not army:  # no detachment given: the army's own rule
            every_army = [g for g in fitting if any(
                getattr(r.record, "detachment", None) in (None, "", "Core") for r in g[1])]
            fitting = every_army if len(every_army) == 1 else fitting
        if len(fitting) == 1:
            return fitting[0][0]
        names = "; ".join(candidate_label(r) for g in (fitting or self.groups) for r in g[1])
        why = "several rules of this army have this name" if fitting else \
            "no rule of this name is the attacking army's"
        raise ValueError(f"{self.name}: {why}: {names}; name one as 'Name (Detachment)' "
                         "or give the army's detachment")

    def __call__(self, s: Scenario, param: str | None) -> Outcome:
        entry = self.pick(s)
        apply: Callable[[Scenario, str | None], Outcome] | None = entry.effect.apply
        assert apply is not None
        out = apply(s, param)
        return replace(out, notes=(*out.notes,
                                   f"{self.name}: the rule of {candidate_label(entry)}"))
