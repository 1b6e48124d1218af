"""Every leader record of the library against the units core's one attachment check
(``check_leaders``, the one ``calc --led-by``, scenarios and army lists use), the expected
verdicts computed here from the dataset's raw records, without the code under test.

How the records are read (wh40kdc ``leader-attachment.schema.json`` and the records
themselves): a record names its bodyguards by id (``eligible_bodyguard_ids``), the unit of
that id in the leader's own faction (in any faction when the leader's has none). Its
``eligible_bodyguard_keywords`` mix datasheet names and keywords: an entry that is the
name of a unit of the leader's faction is that datasheet (a Chaplain in Terminator
Armour's "Terminator Squad" is the Space Marines' Terminator Squad, not the Chaos
Terminators whose keywords hold "Terminator Squad"); the other entries are keywords,
and a unit holding ALL of them is a bodyguard ("Imperium", "Battleline", "Infantry" for
an Inquisitor). A leader id shared by several factions (Ministorum Priest) has one record
per faction: its own are those whose ids are all units of its faction (the Adepta
Sororitas record names Sanctifiers, which the Agents of the Imperium have too), else
those naming one. A unit's
``attachment_role`` ("leader", "support"; a record without one: a leader) is its role;
24.22 (seed 000): "each bodyguard unit can only have one leader unit and one support unit
attached to it".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest

from tactica.library import Library, load_library
from tactica.model import Datasheet
from tactica.units import LeaderError, check_leaders

wh40kdc_data = pytest.importorskip("wh40kdc.data")

Key = tuple[str, str]
_NOTE = re.compile(r"^unit ([^/]+)/([^;]+);")
#: The default run checks every SAMPLE-th leader (and bodyguard, for the pairs of two);
#: the slow suite checks them all.
SAMPLE = 5


@dataclass(frozen=True)
class _Leader:
    """What the raw records say of one leader unit."""

    key: Key
    role: str
    bodyguards: frozenset[Key]
    #: the record's name entries that other factions' units carry as a keyword
    names: frozenset[str]


@pytest.fixture(scope="module")
def lib() -> Library:
    return load_library(dataset=True)


@pytest.fixture(scope="module")
def expected() -> dict[Key, _Leader]:
    return _expected(wh40kdc_data.raw_data())


def _expected(raw: dict[str, Any]) -> dict[Key, _Leader]:
    units = raw["units"]
    keys = {(u["faction_id"], u["id"]) for u in units}
    by_name = {(u["faction_id"], u["name"].casefold()): (u["faction_id"], u["id"])
               for u in units}
    records: dict[str, list[dict[str, Any]]] = {}
    for la in raw["leader_attachments"]:
        records.setdefault(la["leader_id"], []).append(la)
    out = {}
    for leader in units:
        faction, uid = leader["faction_id"], leader["id"]
        if uid not in records:
            continue
        whole = [la for la in records[uid]
                 if all((faction, i) in keys for i in la["eligible_bodyguard_ids"])]
        some = [la for la in records[uid]
                if any((faction, i) in keys for i in la["eligible_bodyguard_ids"])]
        guards: set[Key] = set()
        names: set[str] = set()
        for la in whole or some or records[uid]:
            for i in la["eligible_bodyguard_ids"]:
                guards |= {(faction, i)} if (faction, i) in keys else \
                    {k for k in keys if k[1] == i}
            words = []
            for entry in la.get("eligible_bodyguard_keywords") or ():
                named = by_name.get((faction, entry.casefold()))
                if named is None:
                    words.append(entry.casefold())
                else:
                    guards.add(named)
                    names.add(entry.casefold())
            if words:
                guards |= {(u["faction_id"], u["id"]) for u in units
                           if set(words) <= {k.casefold() for k in
                                             (*u["keywords"], *u["faction_keywords"])}}
        out[(faction, uid)] = _Leader((faction, uid), leader.get("attachment_role") or "leader",
                                      frozenset(guards), frozenset(names))
    return out


def _raw_key(sheet: Datasheet) -> Key | None:
    m = _NOTE.match(sheet.source.note or "")
    return (m.group(1), m.group(2)) if m and sheet.source.file.startswith("wh40kdc") else None


def _sheets(lib: Library) -> dict[Key, Datasheet]:
    return {key: s for s in lib.datasheets() if (key := _raw_key(s)) is not None}


def _accepts(guard: Datasheet, attached: list[Datasheet]) -> bool:
    try:
        check_leaders(guard, attached)
    except LeaderError:
        return False
    return True


def _sweep(lib: Library, expected: dict[Key, _Leader], every: int) -> dict[str, int]:
    """Every ``every``-th leader of the records against every other unit of the library:
    accepted if the records list it, refused if not."""
    sheets = _sheets(lib)
    leaders = [leader for key, leader in expected.items() if key in sheets][::every]
    counts = {"leaders": len(leaders), "accepted": 0, "refused": 0}
    wrong = []
    for leader in leaders:
        sheet = sheets[leader.key]
        for key, guard in sheets.items():
            if key == leader.key:
                continue
            verdict = key in leader.bodyguards
            counts["accepted" if verdict else "refused"] += 1
            if _accepts(guard, [sheet]) != verdict:
                wrong.append((sheet.name, guard.name, verdict))
    assert wrong == []
    return counts


def test_a_sample_of_leader_records_gives_the_records_verdicts(
        lib: Library, expected: dict[Key, _Leader]) -> None:
    counts = _sweep(lib, expected, SAMPLE)
    assert counts["accepted"] and counts["refused"]


@pytest.mark.slow
def test_every_leader_record_gives_the_records_verdicts(
        lib: Library, expected: dict[Key, _Leader]) -> None:
    counts = _sweep(lib, expected, 1)
    # the library's Primus is the seed pages' datasheet (its Leader list from the
    # reference facts), not the dataset's: every other leader record is swept
    assert counts["leaders"] == len(expected) - 1
    assert not any(s.name == "Primus" and _raw_key(s) for s in lib.datasheets())


def test_the_sweep_meets_each_kind_of_record(expected: dict[Key, _Leader]) -> None:
    """What the sweep must meet: a datasheet named where the schema says keywords, a
    keyword set, a name other factions carry as a keyword, and both roles."""
    chaplain = expected[("adeptus-astartes", "chaplain-in-terminator-armour")]
    assert ("adeptus-astartes", "terminator-squad") in chaplain.bodyguards
    assert ("world-eaters", "chaos-terminators") not in chaplain.bodyguards
    assert chaplain.names == {"terminator squad"}
    inquisitor = expected[("agents-of-the-imperium", "inquisitor")]
    assert ("astra-militarum", "cadian-shock-troops") in inquisitor.bodyguards
    assert {x.role for x in expected.values()} == {"leader", "support"}


def test_each_dataset_unit_attaches_in_its_records_role(
        lib: Library, expected: dict[Key, _Leader]) -> None:
    """The dataset's ``attachment_role`` is the datasheet's: a Lieutenant is a support
    unit, a Captain a leader unit."""
    from tactica.units.leaders import role

    sheets = _sheets(lib)
    roles = {(u["faction_id"], u["id"]): u.get("attachment_role")
             for u in wh40kdc_data.raw_data()["units"]}
    wrong = [s.name for key, s in sheets.items()
             if role(s) != (roles[key] or "leader")]
    assert wrong == []
    assert sum(1 for r in roles.values() if r == "support") == 48


def _two_at_once(lib: Library, expected: dict[Key, _Leader], every: int) -> int:
    """For every ``every``-th bodyguard of the records: its first leader unit and first
    support unit together are accepted, two of its leader units or two of its support
    units are refused (24.22)."""
    sheets = _sheets(lib)
    under: dict[Key, dict[str, list[Datasheet]]] = {}
    for leader in expected.values():
        if leader.key not in sheets:
            continue
        for guard in sorted(leader.bodyguards):
            under.setdefault(guard, {"leader": [], "support": []})[leader.role].append(
                sheets[leader.key])
    checked = 0
    wrong = []
    for guard in sorted(k for k in under if k in sheets)[::every]:
        by_role = under[guard]
        trials = [(by_role["leader"][:1] + by_role["support"][:1], True),
                  (by_role["leader"][:2], False), (by_role["support"][:2], False)]
        for attached, verdict in trials:
            if len(attached) < 2 or len({s.name for s in attached}) < 2:
                continue
            checked += 1
            if _accepts(sheets[guard], attached) != verdict:
                wrong.append((sheets[guard].name, [s.name for s in attached], verdict))
    assert wrong == []
    return checked


def test_a_sample_of_bodyguards_takes_one_leader_and_one_support(
        lib: Library, expected: dict[Key, _Leader]) -> None:
    assert _two_at_once(lib, expected, SAMPLE) > 50


@pytest.mark.slow
def test_every_bodyguard_takes_one_leader_and_one_support(
        lib: Library, expected: dict[Key, _Leader]) -> None:
    assert _two_at_once(lib, expected, 1) > 250
