"""``tactica list show|price|validate|convert`` and ``tactica calc --list``.

The commands run with ``--no-dataset`` so that the library is the seed pages alone (the
five Genestealer Cults seed datasheets) whatever else is installed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tactica.army.attack import apply_list_effects, find_unit, list_attacker
from tactica.army.formats import load_roster
from tactica.army.roster import EnhancementChoice
from tactica.cli import commands
from tactica.combat import Scenario, calculate
from tactica.library import load_seed_library
from tactica.names import UnknownNameError

from .helpers import FIXTURES, ROSTERS, army, unit

runner = CliRunner()
HOST = str(FIXTURES / "host_of_ascension.txt")
WIDE = {"COLUMNS": "200"}


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(commands.app, ["--no-dataset", *args], env=WIDE)
    return result.exit_code, result.stdout, result.stderr


def write(tmp_path: Path, text: str, name: str = "list.txt") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# --- tactica list ------------------------------------------------------------------------


def test_validate_a_legal_list_exits_0() -> None:
    code, out, _ = run("list", "validate", HOST)
    assert code == 0
    assert "no violations" in out and "legal" in out and "10 Resurgence points" in out


def test_validate_an_illegal_list_exits_1_and_names_every_violation(tmp_path: Path) -> None:
    roster = army(unit("u3", "Neophyte Hybrid", models=10), unit("u4", "Primus", warlord=True))
    path = write(tmp_path, roster.model_dump_json(), "list.json")
    code, out, _ = run("list", "validate", path)
    assert code == 1
    assert "UNKNOWN_DATASHEET" in out and "WARLORD_MULTIPLE" in out and "ILLEGAL" in out
    assert "did you mean: Neophyte Hybrids" in out


def test_validate_json_for_machines(tmp_path: Path) -> None:
    path = write(tmp_path, army(points_limit=100).model_dump_json(), "list.json")
    code, out, _ = run("list", "validate", path, "--json")
    doc = json.loads(out)
    assert code == 1 and doc["legal"] is False and doc["total"] == 160
    assert [v["code"] for v in doc["violations"]] == ["POINTS_LIMIT"]
    assert doc["violations"][0]["rule"].startswith("battle size points limit")


def test_an_unreadable_list_exits_2_with_the_line_number(tmp_path: Path) -> None:
    path = write(tmp_path, "My list (70 points)\n\nGenestealer Cults\n\nCHARACTERS\n\n"
                           "Primus (70 points)\n• what is this\n")
    for command in ("show", "price", "validate"):
        code, _, err = run("list", command, path)
        assert code == 2 and f"{path}:8" in err and "what is this" in err


def test_an_unsupported_file_exits_2_with_the_reason() -> None:
    code, _, err = run("list", "validate",
                       str(ROSTERS / "chaos-knights-houndpack" / "expected.parsed.json"))
    assert code == 2 and "conformance result" in err


def test_show_marks_unknown_datasheets_with_did_you_mean() -> None:
    code, out, _ = run("list", "show",
                       str(ROSTERS / "gsc" / "listgrok_official_7.gw-app-10e.txt"))
    assert code == 0
    assert "Acolyte Iconward" in out and "unknown datasheet" in out
    assert "Neophyte Hybrids" in out


def test_show_json() -> None:
    code, out, _ = run("list", "show", HOST, "--json")
    doc = json.loads(out)
    assert code == 0 and doc["roster"]["units"][0]["name"] == "Primus"
    assert doc["datasheets"]["u2"]["datasheet"] == "Neophyte Hybrids"


def test_price_table_and_json() -> None:
    code, out, _ = run("list", "price", HOST)
    assert code == 0 and "total 1325 / 2000 pts" in out and "Assassination Edict 15" in out
    code, out, _ = run("list", "price", HOST, "--json")
    doc = json.loads(out)
    assert doc["total"] == 1325 and doc["units"][0]["total"] == 85


def test_convert_writes_another_format(tmp_path: Path) -> None:
    out_file = tmp_path / "list.json"
    code, _, _ = run("list", "convert", HOST, "--to", "newrecruit-json", "--out", str(out_file))
    assert code == 0
    again = load_roster(out_file)
    assert again.source is not None and again.source.format == "newrecruit-json"
    assert [u.points for u in again.units] == [u.points for u in load_roster(HOST).units]
    code, _, err = run("list", "convert", HOST, "--to", "pdf")
    assert code == 2 and "cannot export" in err


def test_convert_says_what_the_format_cannot_carry(tmp_path: Path) -> None:
    """The fixture's Primus are attached to Neophyte Hybrids; WTC has no way to say so."""
    assert any(u.attached_to for u in load_roster(HOST).units)
    code, out, err = run("list", "convert", HOST, "--to", "wtc")
    assert code == 0 and out.startswith("+++")
    assert "warning: wtc cannot carry attached leaders and support units (Primus: with " \
        "Neophyte Hybrids" in " ".join(err.split())
    code, _, err = run("list", "convert", HOST, "--to", "gw-text")
    assert code == 0 and "warning" not in err


# --- from list to maths --------------------------------------------------------------------


def test_the_unit_as_built_becomes_the_attacker() -> None:
    """Neophyte Hybrids #1 of the fixture, led by a Primus, shooting: each model fires its
    non-Pistol gun (24.27), the Primus its only ranged weapon, the scoped needle pistol."""
    built = list_attacker(load_roster(HOST), "Neophyte Hybrids", load_seed_library(),
                          "shooting")
    # 20 models: 16 hybrid firearms, 2 mining lasers, 2 seismic cannons, each model
    # firing its gun rather than its autopistol; the Primus its needle pistol
    assert sorted((w.name, w.count) for w in built.attacker.weapons) == [
        ("Hybrid firearm", 16), ("Mining laser", 2), ("Scoped needle pistol (Primus)", 1),
        ("Seismic cannon", 2)]
    assert built.led_by == ("Primus",)
    assert {"Cult Demagogue", "Assassination Edict", "A Perfect Ambush"} <= set(
        built.candidates)
    assert "GENESTEALER CULTS" in built.attacker.keywords
    assert any("using the first (u2)" in n for n in built.notes)


def test_wargear_that_is_no_weapon_is_named_in_the_notes() -> None:
    from tactica.army.roster import ModelEntry, WargearItem

    neophytes = unit("u2", "Neophyte Hybrids", model_entries=(ModelEntry(
        name="Neophyte Hybrid", count=10, wargear=(
            WargearItem(name="Cult Icon"), WargearItem(name="Hybrid firearms", count=10))),))
    roster = army(units=(unit("u1", "Primus", warlord=True), neophytes))
    built = list_attacker(roster, "Neophyte Hybrids", load_seed_library(), "shooting")
    assert [(w.name, w.count) for w in built.attacker.weapons] == [("Hybrid firearm", 10)]
    assert "Cult Icon: not a weapon of Neophyte Hybrids's datasheet" in built.notes
    assert built.led_by == ()


def test_fight_phase_one_melee_weapon_per_model_plus_extra_attacks() -> None:
    built = list_attacker(load_roster(HOST), "Neophyte Hybrids#2", load_seed_library(),
                          "fight")
    assert [(w.name, w.count) for w in built.attacker.weapons] == [
        ("Chainsword", 1), ("Close combat weapon", 19), ("Cult bonesword (Primus)", 1),
        ("Toxin injector claw (Primus)", 1)]


def test_naming_the_leader_gives_the_attached_unit() -> None:
    built = list_attacker(load_roster(HOST), "u3", load_seed_library(), "shooting")
    assert built.unit.id == "u4" and built.led_by == ("Primus",)


def test_unknown_unit_in_the_list_suggests_names() -> None:
    with pytest.raises(UnknownNameError, match="Neophyte Hybrids"):
        find_unit(load_roster(HOST), "Neophyte Hybrid")
    with pytest.raises(UnknownNameError, match="Neophyte Hybrids#6"):
        find_unit(load_roster(HOST), "Neophyte Hybrids#9")


def test_list_effects_apply_when_their_conditions_hold() -> None:
    roster = army(units=(unit("u1", "Primus", warlord=True, attached_to="u2",
                              enhancements=(EnhancementChoice(name="Assassination Edict"),)),
                         unit("u2", "Neophyte Hybrids", models=10)))
    built = list_attacker(roster, "Neophyte Hybrids", load_seed_library(), "shooting")
    base = {"attacker": built.attacker,
            "target": {"keywords": ["INFANTRY"], "models": [{"T": 3, "Sv": 5, "W": 1,
                                                             "count": 10}]},
            "context": {"led_by": list(built.led_by)}}
    plain, notes = apply_list_effects(Scenario.model_validate(base), built.candidates)
    assert plain.named_effects == ("Cult Demagogue",)
    assert any("Assassination Edict (from the list) not applied" in n for n in notes)
    assert any("A Perfect Ambush (from the list) not applied" in n for n in notes)
    arrived = Scenario.model_validate({**base, "context": {"led_by": ["Primus"],
                                                           "arrived_from_reserves": True}})
    applied, _ = apply_list_effects(arrived, built.candidates)
    assert applied.named_effects == ("Cult Demagogue", "A Perfect Ambush")


def test_situational_rules_and_rules_that_refuse_are_explained_not_applied() -> None:
    """Integrated Tactics (Brood Brother Auxilia) needs a target an ASTRA MILITARUM unit
    picked; Firepoint Commander works only during Fire Overwatch."""
    roster = army(units=(unit("u1", "Primus", warlord=True, attached_to="u2",
                              enhancements=(EnhancementChoice(name="Firepoint Commander"),)),
                         unit("u2", "Neophyte Hybrids", models=10)),
                  detachments=("Brood Brother Auxilia",))
    built = list_attacker(roster, "Neophyte Hybrids", load_seed_library(), "shooting")
    assert {"Integrated Tactics", "Firepoint Commander"} <= set(built.candidates)
    scenario = Scenario.model_validate({
        "attacker": built.attacker, "context": {"led_by": ["Primus"]},
        "target": {"models": [{"T": 3, "Sv": 5, "W": 1, "count": 10}]}})
    applied, notes = apply_list_effects(scenario, built.candidates)
    assert applied.named_effects == ("Cult Demagogue",)
    assert any(n.startswith("Integrated Tactics (from the list) not applied") for n in notes)
    assert any("Firepoint Commander (from the list) not applied" in n and "Overwatch" in n
               for n in notes)
    calculate(applied)  # the list's effects never make the calculation fail


def test_calc_list_equals_the_scenario_built_by_hand() -> None:
    """``tactica calc --list`` against the same attack written as a scenario."""
    code, out, err = run("calc", "--list", HOST, "--attacker", "Neophyte Hybrids",
                         "--target", "geq", "--arrived", "--json")
    assert code == 0, err
    result = json.loads(out)
    built = list_attacker(load_roster(HOST), "Neophyte Hybrids", load_seed_library(),
                          "shooting")
    target = load_seed_library().target("geq")
    by_hand = calculate(Scenario.model_validate({
        "attacker": built.attacker, "target": target,
        "context": {"led_by": ["Primus"], "arrived_from_reserves": True},
        "effects": ["Cult Demagogue", "A Perfect Ambush"]}))
    assert result["effects_applied"] == ["Cult Demagogue", "A Perfect Ambush"]
    assert result["damage"]["mean"] == pytest.approx(by_hand.damage.mean)


def test_calc_list_warns_for_effects_that_need_context() -> None:
    code, out, _ = run("calc", "--list", HOST, "--attacker", "Neophyte Hybrids",
                       "--target", "geq")
    assert code == 0
    flat = " ".join(out.split())
    assert "A Perfect Ambush (from the list) not applied" in flat
    assert "Cult Demagogue" in flat


def test_calc_list_refuses_weapon_choices_and_unknown_units() -> None:
    code, _, err = run("calc", "--list", HOST, "--attacker", "Neophyte Hybrids",
                       "--target", "geq", "--weapon", "Webber")
    assert code == 2 and "--list" in err
    code, _, err = run("calc", "--list", HOST, "--attacker", "Patriarch", "--target", "geq")
    assert code == 2 and "no unit in the list named 'Patriarch'" in err
