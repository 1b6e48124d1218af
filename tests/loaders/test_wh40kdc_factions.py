"""Factions in the players' words (``tactica.loaders.wh40kdc_factions``), checked against
the dataset's own records read here: each faction's name and aliases, and the faction
keywords its units carry."""

from __future__ import annotations

import pytest

from tactica.loaders.wh40kdc_factions import PlayerFaction, _table, player_faction

pytest.importorskip("wh40kdc")


def test_the_names_players_use_for_the_issues_factions() -> None:
    said = {k: player_faction(k) for k in ("ADEPTUS ASTARTES", "ASURYANI", "LEGIONES DAEMONICA",
                                           "HERETIC ASTARTES", "AGENTS OF THE IMPERIUM")}
    assert {k: f.name for k, f in said.items()} == {
        "ADEPTUS ASTARTES": "Space Marines", "ASURYANI": "Aeldari",
        "LEGIONES DAEMONICA": "Chaos Daemons", "HERETIC ASTARTES": "Chaos Space Marines",
        "AGENTS OF THE IMPERIUM": "Imperial Agents"}
    # any of a faction's names finds it, with its keyword and the dataset's name
    for text in ("Space Marines", "space marines", "Adeptus Astartes", "adeptus-astartes"):
        assert player_faction(text) == said["ADEPTUS ASTARTES"]
    assert said["ADEPTUS ASTARTES"].dataset == "Adeptus Astartes"
    assert player_faction("Blood Angels").part_of == "Space Marines"


def test_a_keyword_no_faction_has_keeps_its_words() -> None:
    assert player_faction("YNNARI") == PlayerFaction(name="Ynnari", keyword="YNNARI")
    assert player_faction(" emperor’s children ").name == "Emperor’s Children"
    assert player_faction("NOT A FACTION").dataset is None


def test_every_unit_keyword_is_its_own_faction_or_an_ancestor() -> None:
    """Each faction keyword on a unit of the dataset names the unit's faction, the faction
    it belongs to, or no faction of the dataset (the keyword's own words)."""
    from wh40kdc.data import raw_data

    raw = raw_data()
    factions = {f["id"]: f for f in raw["factions"]}

    def line(fid: str | None) -> set[str]:
        out = set()
        while fid:
            out.add(factions[fid]["name"])
            fid = factions[fid].get("parent_faction_id")
        return out

    spoken = {f["name"]: (f.get("aliases") or [f["name"]])[0] for f in raw["factions"]}
    unnamed = set()
    for unit in raw["units"]:
        for keyword in unit.get("faction_keywords") or ():
            found = player_faction(keyword)
            if found.dataset is None:
                unnamed.add(keyword.upper())
                continue
            assert found.dataset in line(unit["faction_id"]) | {
                f["name"] for f in raw["factions"] if f["name"].upper() == keyword.upper()
            }, (unit["name"], keyword)
            assert found.name == spoken[found.dataset]
            assert found.keyword == keyword.upper()
    assert unnamed <= {"HARLEQUINS", "YNNARI"}


def test_the_table_from_hand_made_records() -> None:
    table = _table([
        {"id": "a", "name": "Adeptus Astartes", "aliases": ["Space Marines"],
         "keywords": ["Imperium", "Adeptus Astartes"]},
        {"id": "b", "name": "Blood Angels", "parent_faction_id": "a",
         "keywords": ["Imperium", "Adeptus Astartes", "Blood Angels"]},
    ])
    assert table["spacemarines"] == table["adeptusastartes"] == PlayerFaction(
        "Space Marines", "ADEPTUS ASTARTES", "Adeptus Astartes")
    assert table["bloodangels"] == PlayerFaction(
        "Blood Angels", "BLOOD ANGELS", "Blood Angels", part_of="Space Marines")
