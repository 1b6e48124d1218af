"""List formats over the real roster files of ``tests/fixtures/rosters`` (copied with their
licences: ``tests/fixtures/ATTRIBUTION.md``) and small hand-written fixtures.

Every file either imports or is refused for a stated reason; every imported file
round-trips through its own format. The assertions check what the files say (units,
points, models, wargear, enhancements, attachments), not the datasheets, so they hold
whatever the library has.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tactica.army.formats import (
    EXPORT_FORMATS,
    RosterParseError,
    UnsupportedFormatError,
    detect_format,
    export_roster,
    load_roster,
    parse_roster,
    roundtrip_view,
)
from tactica.army.roster import Roster
from tactica.library import load_seed_library

from .helpers import FIXTURES, ROSTERS, army, unit

ALL_FILES = sorted(p for p in ROSTERS.rglob("*") if p.is_file())

#: Files that are not army-list exports, and the words their refusal gives.
REFUSED = {
    "expected.parsed.json": "conformance result",
    "expected.roster.json": "resolved roster",
    "expected.roster-json.json": "resolved roster",
}
#: Import-only formats (no export to round-trip through).
IMPORT_ONLY = ("rosterizer.json",)

#: The format each importable file is in, by its name.
FORMAT_OF = {
    ".gw-app-10e.txt": "gw-text", "official_": "gw-text", "input.gw.txt": "gw-text",
    "newrecruit-json.json": "newrecruit-json", "input.json": "listforge-json",
    "newrecruit-simple.txt": "newrecruit-text", "wtc-compact.txt": "wtc",
    "wtc-full.txt": "wtc", "listforge-text.txt": "listforge-text",
    "rosterizer.json": "rosterizer",
}


def _expected_format(path: Path) -> str:
    return next(fmt for key, fmt in FORMAT_OF.items() if key in path.name)


def _export_format(path: Path, fmt: str) -> str:
    if fmt == "listforge-json":
        return "newrecruit-json"  # List Forge's JSON is New Recruit's layout
    return "wtc-full" if "wtc-full" in path.name else fmt


def _load(*parts: str) -> Roster:
    return load_roster(ROSTERS.joinpath(*parts), library=load_seed_library())


def test_the_roster_fixtures_are_there() -> None:
    assert len(ALL_FILES) >= 69 + 1 + 3  # 40kdc-data cases, the GSC list, 11th app lists


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_file_imports_or_is_refused_for_a_stated_reason(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    if path.name in REFUSED:
        with pytest.raises(UnsupportedFormatError, match=REFUSED[path.name]):
            detect_format(text)
        return
    fmt = detect_format(text)
    assert fmt == _expected_format(path)
    roster = parse_roster(text, fmt, file=str(path))
    assert roster.units and roster.source is not None and roster.source.format == fmt
    assert all(u.points is not None for u in roster.units)
    if roster.declared_points is not None and fmt != "wtc":  # WTC's total is the limit
        assert sum(u.points or 0 for u in roster.units) == roster.declared_points


@pytest.mark.parametrize("path", [p for p in ALL_FILES if p.name not in REFUSED
                                  and not p.name.endswith(IMPORT_ONLY)],
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_export_then_import_gives_the_same_roster(path: Path) -> None:
    roster = load_roster(path)
    fmt = _export_format(path, roster.source.format if roster.source else "")
    again = parse_roster(export_roster(roster, fmt))
    assert roundtrip_view(again) == roundtrip_view(roster)


# --- the official app ----------------------------------------------------------------------


def test_gw_app_10th_edition_genestealer_cults_list() -> None:
    r = _load("gsc", "listgrok_official_7.gw-app-10e.txt")
    assert (r.name, r.rules, r.faction) == (
        "1. I Have Friends Everywhere. Very Fragile Friends.", "10th", "Genestealer Cults")
    assert (r.detachments, r.battle_size, r.declared_points) == (
        ("Xenocreed Congregation",), "Strike Force", 2000)
    assert len(r.units) == 24
    iconward = r.units[0]
    assert (iconward.name, iconward.points, iconward.enhancements[0].name) == (
        "Acolyte Iconward", 75, "Deeds that Speak to the Masses")
    assert [u.name for u in r.warlords()] == ["Patriarch"]
    neophytes = next(u for u in r.units if u.name == "Neophyte Hybrids")
    assert (neophytes.models, neophytes.points) == (10, 65)
    assert [(e.name, e.count) for e in neophytes.model_entries] == [
        ("Neophyte Leader", 1), ("Neophyte Hybrid", 9)]
    gear = {w.name: w.count for w in neophytes.model_entries[1].wargear}
    assert gear["Autopistol"] == 9 and gear["Hybrid firearm"] == 5 and gear["Webber"] == 1
    assert [u.section for u in r.units].count("DEDICATED TRANSPORTS") == 3
    assert not r.embarkation_recorded


def test_gw_app_11th_edition_attached_units_and_detachment_points() -> None:
    r = _load("gw-app-11e", "official_9.txt")
    assert (r.rules, r.faction, r.detachments, r.detachment_points, r.force_disposition) == (
        "11th", "Aeldari", ("Aspect Host",), 3, "Priority Assets")
    asurmen, avengers = r.unit("u1"), r.unit("u2")
    assert (asurmen.name, asurmen.attached_to, asurmen.attach_role, asurmen.warlord) == (
        "Asurmen", "u2", "leader", True)
    assert (avengers.name, avengers.models, avengers.points) == ("Dire Avengers", 5, 70)
    assert [(e.name, e.count) for e in avengers.model_entries] == [
        ("Dire Avenger Exarch", 1), ("Dire Avenger", 4)]
    assert [str(w) for w in avengers.model_entries[0].wargear] == [
        "2x Avenger shuriken catapult", "1x Close combat weapon"]


def test_gw_app_11th_edition_leader_and_support() -> None:
    r = _load("gw-app-11e", "official_16.txt")
    assert r.detachments == ("Blitz Brigade", "Runt Swarm", "Wreckas")
    zodgrod, runtherd, gretchin = r.units[:3]
    assert (zodgrod.attach_role, runtherd.attach_role) == ("leader", "support")
    assert zodgrod.attached_to == runtherd.attached_to == gretchin.id
    assert (gretchin.models, gretchin.enhancements[0].label()) == (20, "Extra Sneaky (Upgrade)")
    tankbustas = r.unit("u5")
    assert [(e.name, e.count) for e in tankbustas.model_entries] == [("Tankbusta", 5),
                                                                     ("Nob", 1)]
    assert [u.points for u in r.units if u.name == "Kill Rig"] == [175, 175, 185]


def test_gw_app_11th_edition_detachment_keywords_and_enhancement_kinds() -> None:
    r = _load("gw-app-11e", "official_10.txt")
    assert r.detachments == ("Houndpack Lance", "Hunting Warpack")
    brigand = r.units[0]
    assert brigand.character and brigand.markers == ("Houndpack Lance Keyword: Character",)
    assert brigand.enhancements[0].label() == "Final Howl (Aura)"
    assert not brigand.enhancements[0].upgrade and r.units[1].enhancements[0].upgrade


def test_app_layout_with_a_wtc_header() -> None:
    """40kdc-data's gw.txt: a WTC header, one "•" line per item, nested model items."""
    r = _load("gw-chaos-knights", "input.gw.txt")
    assert (r.faction, r.detachments, r.declared_points) == ("Chaos Knights",
                                                             ("Houndpack Lance",), 2000)
    assert any("Marked Prey" in n for n in r.notes) and any("SECONDARY" in n for n in r.notes)
    karnivore = next(u for u in r.units if u.enhancements)
    assert (karnivore.points, karnivore.enhancements[0].name,
            karnivore.enhancements[0].points) == (165, "Preyslayer's Mantle", 15)
    executioner = r.warlords()[0]
    assert executioner.name == "War Dog Executioner" and executioner.character
    assert [str(w) for w in executioner.wargear] == [
        "1x Armoured feet", "2x War Dog autocannon", "1x Diabolus heavy stubber"]
    nurglings = r.units[-1]
    assert (nurglings.models, nurglings.section) == (3, "ALLIED UNITS")


# --- New Recruit and List Forge ----------------------------------------------------------


def test_newrecruit_json() -> None:
    r = _load("chaos-knights-houndpack", "input.newrecruit-json.json")
    assert (r.name, r.faction, r.battle_size, r.detachments, r.declared_points) == (
        "Dog Kill God?", "Chaos Knights", "Strike Force", ("Houndpack Lance",), 485)
    karnivore = r.units[0]
    assert (karnivore.points, karnivore.markers) == (165, ("Houndpack Lance Character",))
    assert (karnivore.enhancements[0].name, karnivore.enhancements[0].points) == (
        "Preyslayer's Mantle", 15)
    assert r.units[2].warlord and [str(w) for w in r.units[2].wargear][1] == (
        "2x War Dog autocannon")
    nurglings = r.units[3]
    assert (nurglings.models, nurglings.model_entries[0].name) == (3, "Nurgling Swarm")
    assert r.source is not None and r.source.generated_by == "https://newrecruit.eu"


def test_newrecruit_json_two_detachments() -> None:
    r = _load("sm-detachment-overcap", "input.newrecruit-json.json")
    assert r.detachments == ("Gladius Task Force", "1st Company Task Force")
    assert [(u.name, u.points) for u in r.units] == [("Gladiator Lancer", 160),
                                                     ("Redemptor Dreadnought", 205)]


def test_newrecruit_json_detachment_points() -> None:
    """BSData wh40k-11e rosters cost detachments in "Detachment Points"."""
    config = {"categories": [{"name": "Configuration", "primary": True}], "type": "upgrade"}
    doc = {"roster": {"forces": [{"catalogueName": "Xenos - Genestealer Cults", "selections": [
        {**config, "name": "Detachment", "selections": [
            {"name": "Host of Ascension", "type": "upgrade",
             "costs": [{"name": "Detachment Points", "value": 3}]}]},
        {**config, "name": "Detachment", "selections": [
            {"name": "Xenocult Masses", "type": "upgrade",
             "costs": [{"name": "Detachment Points", "value": 1}]}]},
        {"name": "Primus", "type": "model", "costs": [{"name": "pts", "value": 70}]}]}]}}
    r = parse_roster(json.dumps(doc))
    assert (r.faction, r.detachments, r.detachment_points) == (
        "Genestealer Cults", ("Host of Ascension", "Xenocult Masses"), 4)
    assert parse_roster(export_roster(r, "newrecruit-json")).detachment_points == 4


def test_listforge_json_with_an_allied_force() -> None:
    r = _load("gk-allied-multiforce", "input.json")
    assert r.source is not None and r.source.format == "listforge-json"
    assert r.faction == "Grey Knights"  # from the first force's units
    assert [(u.name, u.force) for u in r.units] == [
        ("Grand Master in Nemesis Dreadknight", None), ("Callidus Assassin", "Allied Force")]


def test_newrecruit_simple_text() -> None:
    r = _load("chaos-knights-houndpack", "input.newrecruit-simple.txt")
    assert (r.faction, r.name, r.detachments, r.declared_points) == (
        "Chaos Knights", "Dog Kill God?", ("Houndpack Lance",), 485)
    assert r.units[0].enhancements[0].points == 15 and r.units[2].warlord
    assert (r.units[3].models, r.units[3].section) == (3, "Battleline")


@pytest.mark.parametrize("name", ["input.newrecruit-wtc-compact.txt",
                                  "input.newrecruit-wtc-full.txt"])
def test_newrecruit_wtc(name: str) -> None:
    r = _load("chaos-knights-houndpack", name)
    assert (r.name, r.faction, r.limit, r.declared_points) == ("Dog Kill God?",
                                                               "Chaos Knights", 2000, 485)
    assert [(u.name, u.models, u.points) for u in r.units] == [
        ("War Dog Karnivore", 1, 165), ("War Dog Karnivore", 1, 150),
        ("War Dog Executioner", 1, 130), ("Nurglings", 3, 40)]
    assert r.units[0].enhancements[0].points == 15 and r.units[2].warlord
    assert [w.name for w in r.units[0].all_wargear()] == [
        "Reaper chaintalon", "Slaughterclaw", "Havoc multi-launcher"]


def test_listforge_text() -> None:
    r = _load("cd-daemonic-incursion", "input.listforge-text.txt")
    assert (r.name, r.faction, r.detachments, r.limit) == (
        "all gas no breaks", "Chaos Daemons", ("Daemonic Incursion",), 1995)
    guo = r.units[1]
    assert (guo.warlord, guo.enhancements[0].name, guo.section) == (True, "The Endless Gift",
                                                                    "Character")
    bloodletters = r.units[3]
    assert bloodletters.models == 10
    assert [(e.name, e.count) for e in bloodletters.model_entries] == [("Bloodreaper", 1),
                                                                       ("Bloodletter", 9)]
    assert [w.name for w in bloodletters.wargear] == ["Instrument of Chaos", "Daemonic Icon"]


# --- refusals and errors -----------------------------------------------------------------


@pytest.mark.parametrize(("text", "line", "what"), [
    ("My list (100 points)\n\nGenestealer Cults\nStrike Force (2000 points)\n\nCHARACTERS\n\n"
     "Primus (70 points)\n• 1x Cult bonesword\n• Lucky charm\n", 10, "Lucky charm"),
    ("My list (100 points)\n\nGenestealer Cults\n\nCHARACTERS\n\nPrimus (70 points)\n\n"
     "a stray remark\n", 9, "a stray remark"),
    ("Genestealer Cults - X - [2000 pts]\n\n# ++ Army Roster ++ [70 pts]\n## Battleline\n"
     "Primus [70 pts]: Cult bonesword\nwhat is this\n", 6, "what is this"),
    ("+++\n+ FACTION KEYWORD: Genestealer Cults\n+++\n\n1x Primus (70 pts): Cult bonesword\n"
     "oops\n", 6, "oops"),
    ("x - Genestealer Cults - Host of Ascension (2000 Points)\n\nCharacter:\nPrimus (70 pts)\n"
     "  • Cult bonesword\nnot a unit line\n", 6, "not a unit line"),
])
def test_an_unparsed_line_is_an_error_with_its_line_number(text: str, line: int,
                                                           what: str) -> None:
    with pytest.raises(RosterParseError) as err:
        parse_roster(text, file="list.txt")
    assert err.value.line == line and what in str(err.value)
    assert f"list.txt:{line}" in str(err.value)


def test_an_unknown_json_selection_is_an_error_with_its_place() -> None:
    # named in the player's words (the unit, then the selection), not a JSON path
    doc = {"roster": {"forces": [{"selections": [
        {"name": "Primus", "type": "model", "selections": [{"name": "X", "type": "rule"}]}]}]}}
    with pytest.raises(RosterParseError, match=r'\(unit 1 \("Primus"\), "X"\): unknown '
                       "selection type 'rule'"):
        parse_roster(json.dumps(doc))


@pytest.mark.parametrize(("text", "reason"), [
    ("", "empty"), ("{not json", "not valid JSON"), ("[1, 2]", "not an object"),
    ('{"hello": 1}', "unknown kind"), ("Dear diary,\ntoday I painted.", "unrecognised"),
])
def test_unsupported_texts_are_refused_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(UnsupportedFormatError, match=reason):
        detect_format(text)


# --- own fixtures and full round trips -----------------------------------------------------


def test_host_of_ascension_fixture_reads_attached_units_and_wargear() -> None:
    r = load_roster(FIXTURES / "host_of_ascension.txt")
    assert [(u.name, u.attached_to) for u in r.units[:6]] == [
        ("Primus", "u2"), ("Neophyte Hybrids", None), ("Primus", "u4"),
        ("Neophyte Hybrids", None), ("Primus", "u6"), ("Neophyte Hybrids", None)]
    assert [e.name for u in r.units for e in u.enhancements] == [
        "Assassination Edict", "A Chink in Their Armour"]
    hybrids = r.unit("u2").model_entries[1]
    assert {w.name: w.count for w in hybrids.wargear}["Mining laser"] == 2


@pytest.mark.parametrize("fmt", sorted(EXPORT_FORMATS))
def test_every_export_format_reads_back(fmt: str) -> None:
    """A roster with an attached leader, an enhancement with points and model entries:
    what each format carries comes back."""
    roster = load_roster(FIXTURES / "host_of_ascension.txt")
    again = parse_roster(export_roster(roster, fmt))
    assert [(u.name, u.models, u.points) for u in again.units] == [
        (u.name, u.models, u.points) for u in roster.units]
    assert again.units[0].warlord and again.units[0].enhancements[0].name == (
        "Assassination Edict")
    if fmt in ("gw-text", "tactica-json"):
        assert roundtrip_view(again) == roundtrip_view(roster)


def test_tactica_json_keeps_everything() -> None:
    roster = army(unit("u3", "Tyrannocyte"), unit("u4", "Neophyte Hybrids", models=10,
                                                   embarked_in="u3"), detachments=("Final Day",))
    again = parse_roster(export_roster(roster, "tactica-json"))
    assert again.embarkation_recorded and again.unit("u4").embarked_in == "u3"
    assert roundtrip_view(again) == roundtrip_view(roster)


def test_a_broken_tactica_json_is_a_parse_error() -> None:
    doc = {"format": "tactica-roster", "units": [{"id": "u1", "name": "Primus",
                                                  "attached_to": "u7"}]}
    with pytest.raises(RosterParseError, match="u7"):
        parse_roster(json.dumps(doc))
