"""``tactica data report --units`` (issue 23): every unit fielded on a mend or a guess."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tactica.library import load_library
from tactica.units import field_unit
from tactica.units.audit import fielding_audit


def test_every_mended_or_guessed_unit_is_reported() -> None:
    pytest.importorskip("wh40kdc.data")
    lib = load_library(dataset=True)
    found = {a.unit: a for a in fielding_audit(lib.datasheets())}
    # metamorphic: a unit whose default loadout says "mended" or whose fielding carries
    # a guess note is in the report, and the other way round for mends
    for sheet in lib.datasheets():
        lo = field_unit(sheet) if sheet.model_types or sheet.composition else None
        if lo is not None and any("mended" in d for d in lo.defaults):
            assert sheet.name in found and found[sheet.name].evidence, sheet.name
    # the cases, each with its evidence
    assert found["Terminator Squad"].kind == "mend"
    assert "lacks Storm Bolter" in found["Terminator Squad"].evidence[0]
    assert found["Vow-Sworn Crusader Squad"].kind == "guess"
    assert found["Servitor Battleclade"].kind == "guess"
    assert "Intercessor Squad" in found  # the provisional grenade launcher record


def test_cli_units_report_json() -> None:
    pytest.importorskip("wh40kdc.data")
    from tactica.cli.app import app

    out = CliRunner().invoke(app, ["data", "report", "--units", "--json"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.stdout)
    assert {a["kind"] for a in doc} == {"mend", "guess"}
    assert all(a["evidence"] for a in doc)
