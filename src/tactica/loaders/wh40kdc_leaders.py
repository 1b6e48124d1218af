"""A ``wh40kdc`` unit's leader-attachment records -> its Leader list (24.22 Leader /
Support, seed 000: "for each leader and support unit ... select one friendly bodyguard
unit that unit can lead").

A record (``leader_attachments``) names its bodyguards by unit id
(``eligible_bodyguard_ids``) and, optionally, by ``eligible_bodyguard_keywords``. The
schema calls the latter keywords that a bodyguard holds ALL of ("an Inquisitor can lead
any IMPERIUM BATTLELINE INFANTRY unit"), but most records write datasheet names there: a
Chaplain in Terminator Armour's ``["Terminator Squad"]``, Marneus Calgar's
``["Eradicator Squad", "Sternguard Veteran Squad", "Terminator Squad"]`` (no unit has all
three). Read as keywords, "Terminator Squad" admits the Chaos Terminators (whose keywords
hold it) and refuses the Space Marines' Terminator Squad (whose keywords do not). So an
entry that is the name of a unit of the leader's own faction is that datasheet, one more
bodyguard; the other entries are keywords, one set held ALL.

Records carry no faction: a leader id shared by several factions (Ministorum Priest) has
one record per faction, told apart by its bodyguards. A leader's own records are those
whose bodyguard ids are all units of its faction (else those naming one, else all): the
Adepta Sororitas record of the Ministorum Priest names Sanctifiers, which the Agents of
the Imperium have too, yet it is not the Agents' Priest's. Ids and names are read in the
leader's faction first.

>>> from tactica.loaders.report import IssueLog
>>> class Records:
...     def leader_attachments(self, uid): return [{
...         "eligible_bodyguard_ids": ["squad"],
...         "eligible_bodyguard_keywords": ["Terminator Squad"]}]
...     def has_unit(self, faction, uid): return uid in ("squad", "terminator-squad")
...     def unit_name(self, faction, uid): return {"squad": "Squad"}.get(uid)
...     def unit_named(self, faction, name): return "Terminator Squad" \\
...         if name.casefold() == "terminator squad" else None
...     def any_unit_has(self, keywords): return True
>>> leader_lists(Records(), "chaplain", "adeptus-astartes", IssueLog())
(('Squad', 'Terminator Squad'), ())
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from .report import IssueLog
from .wh40kdc_records import Raw

__all__ = ["LeaderRecords", "leader_lists"]


class LeaderRecords(Protocol):
    """What reading a Leader list asks of the dataset (``Wh40kdcDataset``)."""

    def leader_attachments(self, uid: str) -> list[Raw]: ...
    def has_unit(self, faction: str, uid: str) -> bool: ...
    def unit_name(self, faction: str, uid: str) -> str | None: ...
    def unit_named(self, faction: str, name: str) -> str | None: ...
    def any_unit_has(self, keywords: Iterable[str]) -> bool: ...


def leader_lists(ds: LeaderRecords, uid: str, faction: str, log: IssueLog,
                 ) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """The bodyguard unit names and keyword sets of the leader ``uid`` of ``faction``
    (the module text says how the records are read)."""
    names: list[str] = []
    keywords: list[tuple[str, ...]] = []
    entries = ds.leader_attachments(uid)
    ids = [[str(i) for i in la.get("eligible_bodyguard_ids") or ()] for la in entries]
    whole = [la for la, i in zip(entries, ids, strict=True)
             if i and all(ds.has_unit(faction, x) for x in i)]
    some = [la for la, i in zip(entries, ids, strict=True)
            if any(ds.has_unit(faction, x) for x in i)]
    for la in whole or some or entries:
        for i in la.get("eligible_bodyguard_ids") or ():
            found = ds.unit_name(faction, i)
            if found is None:
                log.repaired("leader", f"bodyguard id {i!r} is not a unit; left out")
            else:
                names.append(found)
        kws: list[str] = []
        for entry in (str(k) for k in la.get("eligible_bodyguard_keywords") or ()):
            named = ds.unit_named(faction, entry)
            if named is None:
                kws.append(entry)
            else:
                names.append(named)
        if kws:
            if not ds.any_unit_has(kws):
                log.suspect("leader", f"no unit has all of the keywords "
                            f"{', '.join(kws)}: the set leads nothing")
            keywords.append(tuple(kws))
    return tuple(dict.fromkeys(names)), tuple(dict.fromkeys(keywords))
