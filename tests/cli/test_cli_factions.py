"""Discovery of every faction's rules on the command line (real data: needs ``wh40kdc``):
``tactica effects --faction/--detachment``, ``tactica rule`` for dataset records, and the
coverage table of ``tactica data report``."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tactica.cli import commands

pytest.importorskip("wh40kdc")
runner = CliRunner()
WIDE = {"COLUMNS": "200"}


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(commands.app, list(args), env=WIDE)
    return result.exit_code, result.stdout if result.exit_code == 0 else result.stderr


def test_effects_of_a_faction_by_its_alias() -> None:
    code, out = run("effects", "--faction", "Space Marines", "--json")
    assert code == 0
    found = {e["name"]: e for e in json.loads(out)["effects"]}
    assert found["Oath of Moment"]["status"] == "modelled"
    assert found["Oath of Moment"]["kind"] == "army rule"
    assert {e["status"] for e in found.values()} == {"modelled", "non-combat", "not modelled"}
    assert all(e["reason"] for e in found.values() if e["status"] != "modelled")


def test_effects_of_a_detachment() -> None:
    code, out = run("effects", "--detachment", "Kauyon", "--json")
    assert code == 0
    names = {e["name"] for e in json.loads(out)["effects"]}
    assert {"A Tempting Trap", "Patient Hunter"} <= names
    code, out = run("effects", "--detachment", "Kauyon")
    assert code == 0 and "A Tempting Trap" in out and "+1 to wound rolls" in out


def test_an_unknown_faction_is_one_clear_line() -> None:
    code, err = run("effects", "--faction", "Squats of Old")
    assert code == 2 and err.strip() == \
        "error: --faction: no rules known for faction 'Squats of Old'"


def test_rule_shows_a_dataset_record_and_its_status() -> None:
    code, out = run("rule", "Gladius Task Force")
    assert code == 0 and "3 DP" in out and "Storm of Fire" in out
    code, out = run("rule", "Armour of Contempt (The Angelic Host)")
    assert code == 0 and "in the calculator: modelled" in out


def test_data_report_coverage_per_faction() -> None:
    code, out = run("data", "report", "--coverage", "--json")
    assert code == 0
    doc = json.loads(out)
    assert len(doc["factions"]) >= 35
    for row in doc["factions"].values():
        assert row["modelled"] + row["partly"] + row["non-combat"] + row["not modelled"] == \
            row["records"]
    totals = doc["totals"]
    assert totals["modelled"] + totals["partly"] + totals["non-combat"] + \
        totals["not modelled"] == totals["records"]
    # a record modelled in part names the part not calculated
    assert totals["partly"] == len(doc["partly"]) and all(p["not calculated"]
                                                          for p in doc["partly"])
    assert doc["not_modelled_share_of_records_with_effect"] <= 0.05
    code, out = run("data", "report", "--coverage")
    assert code == 0 and "Grey Knights" in out


def test_options_are_listed_by_what_they_do() -> None:
    """Issue 24: an option is named by what it does (or the name players use), on
    ``tactica rule`` and ``tactica effects``; what a record does not calculate is listed."""
    code, out = run("rule", "Martial Ka'tah")
    assert code == 0 and "Dacatarai (Sustained Hits 1)" in out and "Rendax (Lethal Hits)" in out
    code, out = run("effects", "--faction", "Chaos Space Marines", "--json")
    assert code == 0
    pacts = next(e for e in json.loads(out)["effects"] if e["name"] == "Dark Pacts")
    assert [o["name"] for o in pacts["options"]] == ["Lethal Hits", "Sustained Hits 1"]
    assert pacts["coverage"] == "partly" and any("leadership" in n
                                                 for n in pacts["not_calculated"])


def test_calc_detachment_refuses_another_detachments_stratagem() -> None:
    code, out = run("calc", "--attacker", "Intercessor Squad", "--weapon", "Bolt rifle",
                    "--target", "meq", "--effect", "Fire Discipline (Unforgiven Task Force)",
                    "--detachment", "Gladius Task Force")
    assert code == 2 and "the army's detachment is Gladius Task Force" in out
