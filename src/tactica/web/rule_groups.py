"""The rules index as a player looks for a rule: the core rules and core stratagems, then
each faction by the name players use (``tactica.loaders.wh40kdc_factions``), its army
rules and, detachment by detachment, the detachment rule, stratagems and enhancements.

A record that does not name its faction (the seed pages' records) is filed under the
faction of its detachment when another record of that detachment names one, else under
"Faction not given".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..service import (
    ArmyRule,
    CoreRule,
    Detachment,
    DetachmentRule,
    Enhancement,
    PlayerFaction,
    RuleRecord,
    Stratagem,
    player_faction,
    record_name,
)

__all__ = ["FactionRules", "RuleIndex", "RuleLink", "rule_index"]

#: The kinds of record listed under a detachment, in the order a player reads them.
_KINDS: tuple[tuple[type, str], ...] = (
    (DetachmentRule, "detachment rule"), (Stratagem, "stratagem"),
    (Enhancement, "enhancement"))


@dataclass(frozen=True, slots=True)
class RuleLink:
    """A rule's name in the index, what kind of rule it is and its rules versions."""

    name: str
    kind: str
    versions: tuple[str, ...]


@dataclass(slots=True)
class FactionRules:
    """One faction's rules: ``faction`` is ``None`` for records that name none."""

    faction: PlayerFaction | None
    army: list[RuleLink] = field(default_factory=list)
    detachments: list[tuple[str, list[RuleLink]]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class RuleIndex:
    core: list[RuleLink]
    core_stratagems: list[RuleLink]
    factions: list[FactionRules]


def _links(found: dict[tuple[str, str], set[str]]) -> list[RuleLink]:
    order = {label: i for i, (_, label) in enumerate(_KINDS)}
    return [RuleLink(name, kind, tuple(sorted(v))) for (name, kind), v in sorted(
        found.items(), key=lambda kv: (order.get(kv[0][1], 9), kv[0][0].casefold()))]


def _faction_order(f: FactionRules) -> tuple[bool, str, bool, str]:
    p = f.faction
    if p is None:
        return (True, "", False, "")
    return (False, (p.part_of or p.name).casefold(), p.part_of is not None, p.name.casefold())


def rule_index(records: Iterable[RuleRecord]) -> RuleIndex:
    """The index of ``records`` (module text)."""
    records = list(records)
    home: dict[str, str] = {}  # detachment -> faction, from the records that say it
    for r in records:
        where, faction = getattr(r, "detachment", None), getattr(r, "faction", None)
        if isinstance(r, Detachment):
            where = r.name
        if where and faction:
            home.setdefault(str(where), str(faction))
    core: dict[tuple[str, str], set[str]] = {}
    core_stratagems: dict[tuple[str, str], set[str]] = {}
    army: dict[str | None, dict[tuple[str, str], set[str]]] = {}
    detachments: dict[str | None, dict[str, dict[tuple[str, str], set[str]]]] = {}
    for r in records:
        name = record_name(r)
        if name is None:
            continue
        rules = str(getattr(r, "rules", ""))
        if isinstance(r, CoreRule):
            core.setdefault((name, "core rule"), set()).add(rules)
        elif isinstance(r, ArmyRule):
            for f in r.factions or (None,):
                army.setdefault(f, {}).setdefault((name, "army rule"), set()).add(rules)
        kind = next((label for t, label in _KINDS if isinstance(r, t)), None)
        if kind is None:
            continue
        where = str(getattr(r, "detachment", None) or "")
        if isinstance(r, Stratagem) and where == "Core":
            core_stratagems.setdefault((name, kind), set()).add(rules)
            continue
        faction = getattr(r, "faction", None) or home.get(where)
        by_detachment = detachments.setdefault(faction, {})
        by_detachment.setdefault(where or "Any detachment", {}).setdefault(
            (name, kind), set()).add(rules)
    groups: dict[str | None, FactionRules] = {}
    for f in {*army, *detachments}:
        named = None if f is None else player_faction(f)
        group = groups.setdefault(None if named is None else named.name, FactionRules(named))
        group.army += _links(army.get(f, {}))
        group.detachments += [(d, _links(found)) for d, found in sorted(
            detachments.get(f, {}).items(), key=lambda kv: kv[0].casefold())]
    return RuleIndex(core=_links(core), core_stratagems=_links(core_stratagems),
                     factions=sorted(groups.values(), key=_faction_order))
