"""The BSData catalogue loader (``tactica.loaders.bsdata``).

The first part reads the hand-written catalogues of ``tests/fixtures/bsdata`` (the
BattleScribe JSON layout of the 11e files: a game system, a faction catalogue that links a
library catalogue and an absent one); small catalogues written in the tests cover more
edge cases. The real-data part (the ``bsdata`` fixture: ``TACTICA_REAL_DATA``, see
``tests/conftest.py``) reads BSData/wh40k-11e, which states no licence and so is not in the
repository; its expected values were read from those JSON files.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tactica.dice import DiceExpr
from tactica.loaders.bsdata import BSDataSource, load_bsdata
from tactica.loaders.errors import LoadError
from tactica.model import Anti, Blast, EscalatingPoints, Flag, PointsBracket


def brackets(prices: dict[int, int]) -> tuple[PointsBracket, ...]:
    """One bracket per unit size (the loaders' reading of a size range)."""
    return tuple(PointsBracket(models=n, points=p) for n, p in sorted(prices.items()))


FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "bsdata"
TESTERS = FIXTURES / "Xenos - Testers.json"
AM_LIBRARY = "'Imperium - Astra Militarum - Library'"


@pytest.fixture(scope="module")
def testers() -> BSDataSource:
    return load_bsdata([TESTERS])


@pytest.fixture(scope="module")
def gsc(bsdata: Path) -> BSDataSource:
    return load_bsdata([bsdata / "Genestealer Cults.json"])


def _gsc_names(src: BSDataSource) -> list[str]:
    out = []
    for name in src.names():
        sheet = src.datasheet(name)
        if sheet is not None and "GENESTEALER CULTS" in sheet.faction_keywords:
            out.append(name)
    return out


# --- the hand-written catalogues (tests/fixtures/bsdata) ---------------------------------


def test_fixture_catalogue_pulls_in_what_it_links() -> None:
    src = load_bsdata([TESTERS])
    assert src.converted == 0
    assert (src.rules, src.factions(), src.label) == ("11th", ("Testers",),
                                                      "BSData Xenos - Testers.json")
    assert src.notes == ("Xenos - Testers.json links 'Library - Absent' (cat-absent), which "
                         "is not loaded: its entries cannot be resolved",)
    assert src.names() == ("Test Warden", "Test Squad", "Test Relic", "Test Beast",
                           "Test Wall", "Test Pod")  # "Test Conscripts": unresolved link
    src.datasheet("Test Warden")
    assert src.converted == 1


def test_fixture_report_counts_faults_and_the_missing_library(testers: BSDataSource) -> None:
    report = testers.report()
    assert report.counts() == {"loaded": 4, "repaired": 1, "rejected": 3}
    assert report.unit("Test Conscripts").reasons == (
        "entry: link target e-conscripts is in no loaded file (not loaded: "
        "'Library - Absent')",)
    assert report.unit("Test Beast").reasons == (
        "weapon 'Gaping test maw': left out: AP '-' is not a number",)
    beast = testers.datasheet("Test Beast")
    assert beast is not None and [w.name for w in beast.weapons] == ["Test claws"]
    wall = report.unit("Test Wall")
    assert wall.status == "rejected" and wall.reasons[0] == (
        "profile 'Test Wall': left out: W: Input should be less than or equal to 60 (80)")
    assert testers.datasheet("Test Wall") is None


def test_fixture_character_leader_list_and_anti_keywords(testers: BSDataSource) -> None:
    sheet = testers.datasheet("test warden")
    assert sheet is not None and sheet.rules == "11th"
    assert [m.statline() for m in sheet.models] == ['M6" T3 Sv5+ 5++ W4 Ld6+ OC1']
    assert sheet.points == (PointsBracket(models=1, points=65),)
    assert sheet.leader_of == ("Test Squad",)  # "- **^^Test Squad^^**"
    assert [(a.name, a.kind) for a in sheet.abilities] == [
        ("Rallying Cry", "unit"), ("Deep Strike", "core"), ("Leader", "core")]
    talon = sheet.weapon("Hooked talon").profiles[0]
    assert Anti(keyword="MONSTER", threshold=5) in talon.abilities
    assert Anti(keyword="VEHICLE", threshold=5) in talon.abilities
    assert sheet.faction_keywords == ("TESTERS",)
    assert sheet.source.file == "Xenos - Testers.json"


def test_fixture_points_modifier_escalation_and_composition(testers: BSDataSource) -> None:
    """70 points, "set 140 when the unit has more than 5 models", +10 from the 3rd unit."""
    sheet = testers.datasheet("Test Squad")
    assert sheet is not None and isinstance(sheet.points, EscalatingPoints)
    first, later = sheet.points.tiers
    assert (first.first, first.last, later.first, later.last) == (1, 2, 3, None)
    assert first.brackets == brackets({5: 70, **dict.fromkeys(range(6, 11), 140)})
    assert later.brackets == brackets({5: 80, **dict.fromkeys(range(6, 11), 150)})
    assert [(c.model, c.min, c.max) for c in sheet.composition] == [
        ("Test Sergeant", 1, 1), ("Test Trooper", 4, 9)]
    assert [str(p) for p in sheet.weapon("Test launcher").profiles] == [
        'Test launcher – frag 24" AD3 BS4+ S4 AP0 D:1 [Blast]',
        'Test launcher – krak 24" A1 BS4+ S9 AP-2 D:D3',
    ]


def test_fixture_unit_from_the_linked_library_and_legends(testers: BSDataSource) -> None:
    pod = testers.datasheet("Test Pod")
    assert pod is not None and pod.source.file == "Library - Testers.json"
    assert pod.transport is not None and pod.transport.capacity == 20
    relic = testers.datasheet("Test Relic")
    assert relic is not None and "Legends datasheet" in relic.notes
    assert relic.models[0].M is None  # "-" on the stat line


def test_fixture_rejection_is_noted_on_the_unit_another_source_gives() -> None:
    """A catalogue entry whose target is missing ("Primus", linked into the absent
    library): the seed page gives the datasheet, which says why the catalogue did not."""
    from tactica.library import load_library

    sheet = load_library([TESTERS], dataset=False).datasheet("Primus")
    assert sheet.source.file == "000_0f632543a676f819.txt"
    assert ("not from BSData Xenos - Testers.json: entry: link target e-absent-primus is in "
            "no loaded file (not loaded: 'Library - Absent')") in sheet.notes


def test_fixture_folder_reads_the_game_system_and_every_catalogue() -> None:
    src = load_bsdata([FIXTURES])
    assert src.label == "BSData bsdata/"
    assert src.factions() == ("Testers",)
    assert src.datasheet("Test Pod") is not None


# --- the real Genestealer Cults catalogue (real-data suite) ------------------------------


def test_catalogue_file_pulls_in_what_it_links(bsdata: Path) -> None:
    src = load_bsdata([bsdata / "Genestealer Cults.json"])
    assert src.converted == 0  # names are indexed, nothing converted yet
    assert src.rules == "11th"
    assert src.factions() == ("Genestealer Cults",)
    assert src.label == "BSData Genestealer Cults.json"
    assert src.notes == (
        f"Genestealer Cults.json links {AM_LIBRARY} (5a44-f048-114b-e3ff), which is not "
        "loaded: its entries cannot be resolved",
    )
    src.datasheet("Primus")
    assert src.converted == 1


def test_every_genestealer_cults_datasheet_loads(gsc: BSDataSource) -> None:
    names = _gsc_names(gsc)
    assert len(names) == 28
    assert {gsc.unit_report(n).status for n in names} == {"loaded"}
    assert {"Tectonic Fragdrill", "Cult Insurrectionist [Crucible]", "Magus", "Primus",
            "Neophyte Hybrids", "Acolyte Hybrids with Hand Flamers"} <= set(names)


def test_report_counts_and_the_missing_library(gsc: BSDataSource) -> None:
    report = gsc.report()
    assert len(report.units) == 175
    assert report.counts() == {"loaded": 66, "repaired": 1, "rejected": 108}
    # 106 Astra Militarum / Brood Brothers entries live in the absent library
    missing = [u for u in report.rejected if "not loaded" in " ".join(u.reasons)]
    assert len(missing) == 106
    banehammer = report.unit("Banehammer")
    assert banehammer.status == "rejected"
    assert banehammer.reasons == (
        f"entry: link target d10-48db-3241-ec72 is in no loaded file (not loaded: {AM_LIBRARY})",)
    assert report.unit("Death Riders").status == "rejected"
    assert [u.unit for u in report.repaired] == ["The Red Terror"]


def test_known_faults_are_reported_not_copied(gsc: BSDataSource) -> None:
    terror = gsc.unit_report("The Red Terror")
    assert terror.reasons == ("weapon 'Gaping maw': left out: AP '-' is not a number",)
    sheet = gsc.datasheet("The Red Terror")
    assert sheet is not None and [w.name for w in sheet.weapons] == ["Scything talons"]
    walls = gsc.unit_report("Imperial Fortress Walls")
    assert walls.status == "rejected"
    assert walls.reasons[0] == ("profile 'Imperial Fortress Walls': left out: W: Input should "
                                "be less than or equal to 60 (80)")
    assert gsc.datasheet("Imperial Fortress Walls") is None


def test_primus(gsc: BSDataSource) -> None:
    sheet = gsc.datasheet("Primus")
    assert sheet is not None
    assert sheet.rules == "11th"
    assert [m.statline() for m in sheet.models] == ['M6" T3 Sv5+ 5++ W4 Ld6+ OC1']
    assert sheet.points == (PointsBracket(models=1, points=70),)
    assert [(c.model, c.min, c.max) for c in sheet.composition] == [("Primus", 1, 1)]
    assert sheet.keywords == ("PRIMUS", "INFANTRY", "CHARACTER", "GREAT DEVOURER")
    assert sheet.faction_keywords == ("GENESTEALER CULTS",)
    # the Leader profile names keywords ("^^Acolyte Hybrids^^"): every unit with it
    assert sheet.leader_of == ("Acolyte Hybrids with Hand Flamers",
                               "Acolyte Hybrids with Autopistols", "Hybrid Metamorphs",
                               "Neophyte Hybrids")
    assert [(a.name, a.kind) for a in sheet.abilities] == [
        ("Cult Demagogue", "unit"), ("Decoys and Misdirection", "unit"),
        ("Deep Strike", "core"), ("Leader", "core")]
    needle = sheet.weapon("Scoped needle pistol").profiles[0]
    assert str(needle) == ('Scoped needle pistol 18" A1 BS2+ S1 AP0 D:D3 '
                           "[Anti-Infantry 2+, Ignores Cover, Pistol]")
    assert sheet.source.file == "Genestealer Cults.json"
    assert sheet.source.note is not None and "entry 30e9-42fa-3a6e-e8ef" in sheet.source.note


def test_neophyte_hybrids_points_modifier_and_composition(gsc: BSDataSource) -> None:
    sheet = gsc.datasheet("Neophyte Hybrids")
    assert sheet is not None
    # cost 70, "set 145 when the unit has more than 10 models"
    assert sheet.points == brackets({10: 70, **dict.fromkeys(range(11, 21), 145)})
    assert [(c.model, c.min, c.max) for c in sheet.composition] == [
        ("Neophyte Hybrid", 9, 19), ("Neophyte Leader", 1, 1)]
    assert [m.name for m in sheet.models] == ["Neophyte Hybrid", "Neophyte Leader"]
    launcher = sheet.weapon("Grenade launcher")
    assert [str(p) for p in launcher.profiles] == [
        'Grenade launcher – frag 24" AD3 BS4+ S4 AP0 D:1 [Blast]',
        'Grenade launcher – krak 24" A1 BS4+ S9 AP-2 D:D3',
    ]
    assert str(sheet.weapon("Mining laser").profiles[0]) == (
        'Mining laser 24" A1 BS5+ S10 AP-3 D:D6+1 [Heavy]')
    cult_icon = sheet.ability("Cult Icon")
    assert cult_icon is not None and cult_icon.kind == "wargear"
    assert cult_icon.text is not None and cult_icon.text.startswith("In your Command phase")
    cult_ambush = sheet.ability("Cult Ambush")
    assert cult_ambush is not None and cult_ambush.kind == "faction"


def test_acolyte_hybrids_with_hand_flamers(gsc: BSDataSource) -> None:
    sheet = gsc.datasheet("acolyte hybrids with hand flamers")
    assert sheet is not None
    assert sheet.points == brackets({5: 75, **dict.fromkeys(range(6, 11), 150)})
    assert str(sheet.weapon("Hand flamer").profiles[0]) == (
        'Hand flamer 12" AD6 N/A S3 AP0 D:1 [Ignores Cover, Pistol, Torrent]')
    assert sheet.weapon("Demolition charge").profiles[0].abilities == (
        Flag(name="Assault"), Blast(), Flag(name="Hazardous"), Flag(name="One Shot"))


def test_escalating_cost_of_later_units(gsc: BSDataSource) -> None:
    """Aberrants: 150 (set 300 above 5 models), +10 when two earlier units of the entry
    are in the force: the 3rd unit on."""
    sheet = gsc.datasheet("Aberrants")
    assert sheet is not None and isinstance(sheet.points, EscalatingPoints)
    first, later = sheet.points.tiers
    assert (first.first, first.last, later.first, later.last) == (1, 2, 3, None)
    assert [(b.models, b.points) for b in first.brackets] == [(5, 150)] + [(n, 300)
                                                                           for n in range(6, 11)]
    assert [(b.models, b.points) for b in later.brackets] == [(5, 160)] + [(n, 310)
                                                                           for n in range(6, 11)]
    fnp = sheet.ability("Feel No Pain")
    assert fnp is not None and (fnp.kind, fnp.parameter) == ("core", DiceExpr.parse("5"))


def test_tyrannocyte_from_the_tyranids_library(gsc: BSDataSource) -> None:
    sheet = gsc.datasheet("Tyrannocyte")
    assert sheet is not None
    assert sheet.source.file == "Library - Tyranids.json"
    assert sheet.points == (PointsBracket(models=1, points=90),)
    assert sheet.faction_keywords == ("TYRANIDS",)
    assert "FRAME" not in sheet.keywords
    assert [str(a) for a in sheet.abilities] == ["Aerial Seeding", "Deadly Demise D3",
                                                 "Deep Strike", "Synapse"]
    assert sheet.transport is not None and sheet.transport.capacity == 20


def test_legends_suffix_is_dropped_and_noted(gsc: BSDataSource) -> None:
    sheet = gsc.datasheet("Tectonic Fragdrill")
    assert sheet is not None
    assert "Legends datasheet" in sheet.notes
    assert sheet.models[0].M is None  # "-" on the stat line


def test_leader_list_written_inline(gsc: BSDataSource) -> None:
    sheet = gsc.datasheet("Hyperadapted Raveners")
    assert sheet is not None and sheet.leader_of == ("Raveners",)


def test_anti_two_keywords(gsc: BSDataSource) -> None:
    sheet = gsc.datasheet("Hyperadapted Raveners")
    assert sheet is not None
    claws = sheet.weapon("Prime claws and talons").profiles[0]
    assert Anti(keyword="MONSTER", threshold=5) in claws.abilities
    assert Anti(keyword="VEHICLE", threshold=5) in claws.abilities


# --- a folder ----------------------------------------------------------------------------


def test_folder_loads_every_faction_catalogue(bsdata: Path) -> None:
    src = load_bsdata([bsdata])
    assert src.label == "BSData bsdata-11e/"
    assert src.factions() == ("Genestealer Cults", "Astra Militarum", "Tyranids")
    assert src.factions_of("Tyrannocyte") == ("Genestealer Cults", "Tyranids")
    malanthrope = src.unit_report("Malanthrope")
    assert malanthrope.reasons == ("weapon 'Grasping tail': WS '4' read as 4+",)
    sheet = src.datasheet("Malanthrope")
    assert sheet is not None and sheet.weapon("Grasping tail").profiles[0].skill == 4
    assert "Legends datasheet" in sheet.notes


# --- hand-written files ------------------------------------------------------------------


def _write(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _chars(**values: str) -> list[dict[str, str]]:
    return [{"name": k, "$text": v} for k, v in values.items()]


GAME = {"gameSystem": {"id": "gs", "name": "Warhammer 40,000 11th Edition", "revision": 1,
                       "costTypes": [{"id": "pts-id", "name": "pts"}],
                       "sharedRules": [{"id": "r-ds", "name": "Deep Strike"}]}}


def _catalogue(entries: list[dict[str, Any]], links: list[dict[str, Any]] | None = None,
               **extra: Any) -> dict[str, Any]:
    return {"catalogue": {"id": "cat", "name": "Xenos - Testers", "revision": 3,
                          "library": False, "gameSystemId": "gs",
                          "sharedSelectionEntries": entries,
                          "entryLinks": links or [], **extra}}


TROOPER = {
    "id": "u1", "name": "Troopers", "type": "unit", "hidden": False,
    "costs": [{"name": "pts", "typeId": "pts-id", "value": 60}],
    "categoryLinks": [{"name": "Infantry"}, {"name": "Faction: Testers"}],
    "infoLinks": [{"type": "rule", "targetId": "r-ds", "name": "Deep Strike"}],
    "modifiers": [{"type": "increment", "value": 5, "field": "pts-id",
                   "repeats": [{"value": 2, "repeats": 1, "field": "selections",
                                "scope": "u1", "childId": "model"}]}],
    "selectionEntries": [{
        "id": "m1", "name": "Trooper", "type": "model",
        "constraints": [{"type": "min", "value": 3, "field": "selections", "scope": "parent"},
                        {"type": "max", "value": 5, "field": "selections", "scope": "parent"}],
        "profiles": [{"typeName": "Unit", "name": "Trooper",
                      "characteristics": _chars(M='6"', T="4", Sv="4+", W="1", LD="7+", OC="2",
                                                InSv="")}],
        "selectionEntries": [{
            "id": "w1", "name": "Rifle", "type": "upgrade",
            "profiles": [{"typeName": "Ranged Weapons", "name": "Rifle",
                          "characteristics": _chars(Range='24"', A="2", BS="4+", S="4",
                                                    AP="0", D="1",
                                                    Keywords="Rapid Fire 1, Frobnicate")}],
        }, {
            "id": "w2", "name": "Bad blade", "type": "upgrade",
            "profiles": [{"typeName": "Melee Weapons", "name": "Bad blade",
                          "characteristics": _chars(Range="Melee", A="D7", WS="3+", S="4",
                                                    AP="-1", D="1", Keywords="-")}],
        }],
    }],
}


def test_hand_written_catalogue(tmp_path: Path) -> None:
    _write(tmp_path / "gs.json", GAME)
    cat = _write(tmp_path / "cat.json", _catalogue(
        [TROOPER], links=[{"id": "l1", "name": "Troopers", "targetId": "u1",
                           "type": "selectionEntry"},
                          {"id": "l2", "name": "Ghosts", "targetId": "nowhere",
                           "type": "selectionEntry"}]))
    src = load_bsdata([cat])
    assert src.names() == ("Troopers",)
    sheet = src.datasheet("Troopers")
    assert sheet is not None
    # 60 + 5 per 2 models (a repeating modifier counting the unit's models)
    assert sheet.points == (PointsBracket(models=3, points=65), PointsBracket(models=4, points=70),
                            PointsBracket(models=5, points=70))
    assert [(c.model, c.min, c.max) for c in sheet.composition] == [("Trooper", 3, 5)]
    assert sheet.faction_keywords == ("TESTERS",) and sheet.keywords == ("INFANTRY",)
    assert [w.name for w in sheet.weapons] == ["Rifle"]
    report = src.report()
    troopers = report.unit("Troopers")
    assert troopers.status == "repaired"
    assert troopers.reasons == ("weapon 'Bad blade': left out: A 'D7' is not a dice expression",)
    assert ("unsupported", "weapon 'Rifle'") in {(i.kind, i.record) for i in troopers.issues}
    ghosts = report.unit("Ghosts")
    assert ghosts.reasons == ("entry: link target nowhere is in no loaded file",)


def test_without_the_game_system_the_rules_version_is_unknown(tmp_path: Path) -> None:
    cat = _write(tmp_path / "cat.json", _catalogue([TROOPER], links=[
        {"id": "l1", "name": "Troopers", "targetId": "u1", "type": "selectionEntry"}]))
    src = load_bsdata([cat])
    assert src.rules is None
    assert src.datasheet("Troopers") is None
    assert src.unit_report("Troopers").reasons == (
        "game system: no game system file loaded: the rules version is unknown",)


def test_not_bsdata(tmp_path: Path) -> None:
    junk = _write(tmp_path / "junk.json", {"hello": "world"})
    with pytest.raises(LoadError, match="not BattleScribe data"):
        load_bsdata([junk])
    _write(tmp_path / "gs.json", GAME)
    with pytest.raises(LoadError, match="1 file in this folder cannot be read"):
        load_bsdata([tmp_path])  # a folder is all or nothing (test_bsdata_folder.py)
    src = load_bsdata([tmp_path], skip_bad=True)
    assert src.notes[0] == "skipped junk.json: not BattleScribe data (no gameSystem or catalogue)"
    with pytest.raises(FileNotFoundError):
        load_bsdata([tmp_path / "absent.json"])
