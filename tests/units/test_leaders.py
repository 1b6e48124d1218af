"""Leader attachment (24.22, seed 000) in every door, checked against the dataset's own
leader-attachment records read independently here (wh40kdc schema
``leader-attachment.schema.json``: a bodyguard is named by id, or holds ALL of an entry's
``eligible_bodyguard_keywords``; a unit with no entry leads nothing)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from typer.testing import CliRunner

from tactica.library import Library, load_library
from tactica.model import Datasheet, Source
from tactica.units import (
    LeaderError,
    ScenarioDocument,
    UnitError,
    can_lead,
    check_leaders,
    lead_refusal,
    resolve,
)

wh40kdc_data = pytest.importorskip("wh40kdc.data")

_NOTE = re.compile(r"^unit ([^/]+)/([^;]+);")


@pytest.fixture(scope="module")
def lib() -> Library:
    return load_library(dataset=True)


def _raw_id(sheet: Datasheet) -> tuple[str, str] | None:
    m = _NOTE.match(sheet.source.note or "")
    return (m.group(1), m.group(2)) if m and sheet.source.file.startswith("wh40kdc") else None


def _legal_pairs(raw: dict[str, Any], only: set[tuple[str, str]] | None = None,
                 ) -> tuple[set[tuple[tuple[str, str], tuple[str, str]]], set[str]]:
    """(leader, bodyguard) pairs of (faction, id) the records allow (of the leaders
    ``only`` names, when given), and the leader ids.
    An id-named bodyguard is the unit of that id in the leader's own faction, or in any
    faction when the leader's faction has no unit of that id; a keyword entry admits every
    unit holding all its keywords (keywords and faction keywords, case-insensitive)."""
    units = raw["units"]
    by_faction = {(u["faction_id"], u["id"]) for u in units}
    entries: dict[str, list[dict[str, Any]]] = {}
    for la in raw["leader_attachments"]:
        entries.setdefault(la["leader_id"], []).append(la)
    pairs = set()
    for leader in units:
        if only is not None and (leader["faction_id"], leader["id"]) not in only:
            continue
        for la in entries.get(leader["id"], ()):
            ids = la.get("eligible_bodyguard_ids") or ()
            if not any((leader["faction_id"], i) in by_faction for i in ids) and any(
                    any((leader["faction_id"], i) in by_faction for i in other.get(
                        "eligible_bodyguard_ids") or ())
                    for other in entries[leader["id"]]):
                continue  # another faction's entry for a shared leader id
            for guard in units:
                named = guard["id"] in ids and (
                    guard["faction_id"] == leader["faction_id"]
                    or (leader["faction_id"], guard["id"]) not in by_faction)
                have = {k.lower() for k in (*guard["keywords"], *guard["faction_keywords"])}
                kws = la.get("eligible_bodyguard_keywords") or ()
                if named or (kws and all(k.lower() in have for k in kws)):
                    pairs.add(((leader["faction_id"], leader["id"]),
                               (guard["faction_id"], guard["id"])))
    return pairs, set(entries)


#: The default run checks every SAMPLE-th leader of the library against every unit; the
#: slow suite checks them all.
SAMPLE = 5


def test_a_sample_of_leader_pairs_matches_the_dataset_records(lib: Library) -> None:
    _check_leader_pairs(lib, every=SAMPLE)


@pytest.mark.slow
def test_every_leader_pair_matches_the_dataset_records(lib: Library) -> None:
    _check_leader_pairs(lib, every=1)


def _check_leader_pairs(lib: Library, every: int) -> None:
    """Every ``every``-th leader (in library order) against every unit of the library."""
    raw = wh40kdc_data.raw_data()
    leader_ids = {la["leader_id"] for la in raw["leader_attachments"]}
    sheets = [(s, _raw_id(s)) for s in lib.datasheets()]
    sheets = [(s, key) for s, key in sheets if key is not None]
    wrong = []
    every_leader = [(s, key) for s, key in sheets if key[1] in leader_ids]
    leaders = every_leader[::every]
    legal, _ = _legal_pairs(raw, only={key for _, key in leaders})
    for leader, lkey in leaders:
        for guard, gkey in sheets:
            ours = can_lead(leader, guard)
            if ours != ((lkey, gkey) in legal):
                wrong.append((leader.name, guard.name, ours))
    # a unit with no leader-attachment record leads nothing
    non_leaders = [s for s, key in sheets if key[1] not in leader_ids]
    leading = [s.name for s in non_leaders if s.leader_of or s.leader_keywords]
    assert len(every_leader) > 250 and len(legal) > (1000 if every == 1 else 100)
    assert leading == []
    # two units of one name (another faction's copy) answer to the name a Leader list
    # gives, so the records allow fewer pairs than the names do: none other differs
    assert [w for w in wrong if not (w[2] and _same_name(w[1], sheets, legal, w[0]))] == []


def _same_name(guard: str, sheets: list[tuple[Datasheet, tuple[str, str] | None]],
               legal: set[Any], leader: str) -> bool:
    base = guard.rsplit(" (", 1)[0]
    lkeys = [k for s, k in sheets if s.name == leader]
    return any(s.name != guard and s.name.rsplit(" (", 1)[0] == base
               and (lkeys[0], k) in legal for s, k in sheets)


def test_the_issue_s_pairs_in_the_python_api(lib: Library) -> None:
    # 24.22 and the records: Inquisitor leads IMPERIUM BATTLELINE INFANTRY units
    assert lead_refusal(lib.datasheet("Inquisitor"), lib.datasheet("Cadian Shock Troops")) is None
    for leader, unit, why in [
        ("Inquisitor", "Boyz", "it leads IMPERIUM BATTLELINE INFANTRY units"),
        ("Inquisitor", "Termagants", "it leads IMPERIUM BATTLELINE INFANTRY units"),
        ("Leman Russ Battle Tank", "Intercessor Squad", "no Leader ability"),
        ("Hellblaster Squad", "Intercessor Squad", "no Leader ability"),
    ]:
        refusal = lead_refusal(lib.datasheet(leader), lib.datasheet(unit))
        assert refusal is not None and why in refusal, (leader, unit, refusal)


@pytest.mark.parametrize(("led_by", "why"), [
    (["Captain", "Chaplain", "Lieutenant"], "one leader unit may be attached, not 3"),
    (["Lieutenant", "Lieutenant"], "Lieutenant is attached twice"),
    (["Inquisitor"], "Inquisitor cannot lead Hellblaster Squad"),  # not BATTLELINE
])
def test_scenario_refuses_illegal_attachments(lib: Library, led_by: list[str],
                                              why: str) -> None:
    unit = "Hellblaster Squad" if led_by == ["Inquisitor"] else "Intercessor Squad"
    doc = ScenarioDocument.model_validate({
        "attacker": {"unit": unit, "led_by": led_by},
        "target": {"unit": "meq"}})
    with pytest.raises(UnitError, match=re.escape(why)):
        resolve(doc, lib)


def test_scenario_accepts_a_keyword_pair(lib: Library) -> None:
    doc = ScenarioDocument.model_validate({
        "attacker": {"unit": "Cadian Shock Troops", "led_by": "Inquisitor"},
        "target": {"unit": "meq"}})
    scenario, resolved, _ = resolve(doc, lib)
    assert "Inquisitor" in scenario.context.led_by
    assert any(t.startswith("1 Inquisitor:") for t in resolved.attacker_models)


def test_one_leader_and_one_support() -> None:
    # 24.22: one leader unit and one support unit; SUPPORT is the datasheet's ability
    from tactica.model.datasheet import Ability

    s = Source(file="x")
    guard = Datasheet(name="Squad", rules="11th", source=s)
    a = Datasheet(name="A", rules="11th", source=s, leader_of=("Squad",))
    b = Datasheet(name="B", rules="11th", source=s, leader_of=("Squad",),
                  abilities=(Ability(name="Support", kind="core"),))
    c = Datasheet(name="C", rules="11th", source=s, leader_of=("Squad",))
    check_leaders(guard, [a, b])
    with pytest.raises(LeaderError, match="one leader unit may be attached, not 2"):
        check_leaders(guard, [a, c])


def test_cli_led_by_uses_the_same_check(lib: Library) -> None:
    from tactica.cli.app import app

    runner = CliRunner()
    ok = runner.invoke(app, ["calc", "--attacker", "Cadian Shock Troops", "--led-by",
                             "Inquisitor", "--target", "meq"])
    assert ok.exit_code == 0, ok.output
    bad = runner.invoke(app, ["calc", "--attacker", "Boyz", "--led-by", "Inquisitor",
                              "--target", "meq"])
    assert bad.exit_code != 0 and "Inquisitor cannot lead Boyz" in bad.output


def test_web_leader_list_has_the_keyword_leaders(lib: Library) -> None:
    from tactica.units import leaders_of

    names = leaders_of(lib.datasheet("Cadian Shock Troops"), lib.datasheets())
    assert "Inquisitor" in names
    assert "Inquisitor" not in leaders_of(lib.datasheet("Boyz"), lib.datasheets())


def test_a_support_unit_named_as_the_list_states_it(lib: Library) -> None:
    """24.22 allows one leader unit AND one support unit. The dataset marks no Runtherd as
    support, but the official app's Orks list attaches Zodgrod Wortsnagga as the leader
    and a Runtherd as support to one Gretchin unit: named as ``support``, it is the
    second attached unit; as a second leader, it is refused."""
    as_support = ScenarioDocument.model_validate({
        "attacker": {"unit": "Intercessor Squad"},
        "target": {"unit": "Gretchin", "led_by": "Zodgrod Wortsnagga",
                   "support": "Runtherd"}})
    scenario, _, _ = resolve(as_support, lib)
    names = {g.name for g in scenario.target.models}
    assert {"Zodgrod Wortsnagga", "Runtherd"} <= names
    both_leaders = ScenarioDocument.model_validate({
        "attacker": {"unit": "Intercessor Squad"},
        "target": {"unit": "Gretchin", "led_by": ["Zodgrod Wortsnagga", "Runtherd"]}})
    with pytest.raises(UnitError, match="one leader unit may be attached, not 2"):
        resolve(both_leaders, lib)
