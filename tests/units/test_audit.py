"""``tactica data report --units`` (issue 23): every unit fielded on a mend or a guess."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tactica.library import Library, load_library
from tactica.units import field_unit
from tactica.units.audit import UnitAudit, fielding_audit


@pytest.fixture(scope="module")
def audited() -> tuple[Library, dict[str, UnitAudit]]:
    """The dataset library and its fielding report, made once for this module."""
    pytest.importorskip("wh40kdc.data")
    lib = load_library(dataset=True)
    return lib, {a.unit: a for a in fielding_audit(lib.datasheets())}


def _mended_units_are_reported(audited: tuple[Library, dict[str, UnitAudit]],
                               every: int) -> None:
    """Metamorphic: a unit (of every ``every``-th datasheet) whose default loadout says
    "mended" is in the report, with its evidence."""
    lib, found = audited
    for sheet in lib.datasheets()[::every]:
        lo = field_unit(sheet) if sheet.model_types or sheet.composition else None
        if lo is not None and any("mended" in d for d in lo.defaults):
            assert sheet.name in found and found[sheet.name].evidence, sheet.name


def test_mended_or_guessed_units_are_reported(
        audited: tuple[Library, dict[str, UnitAudit]]) -> None:
    """Every seventh datasheet checked in the default run (all of them:
    ``test_every_mended_unit_is_reported``, slow), and the issue's cases."""
    _mended_units_are_reported(audited, 7)
    _, found = audited
    # the cases, each with its evidence
    assert found["Terminator Squad"].kind == "mend"
    assert "lacks Storm Bolter" in found["Terminator Squad"].evidence[0]
    assert found["Vow-Sworn Crusader Squad"].kind == "guess"
    assert found["Servitor Battleclade"].kind == "guess"
    assert "Intercessor Squad" in found  # the provisional grenade launcher record


@pytest.mark.slow
def test_every_mended_unit_is_reported(
        audited: tuple[Library, dict[str, UnitAudit]]) -> None:
    _mended_units_are_reported(audited, 1)


def test_cli_units_report_json() -> None:
    pytest.importorskip("wh40kdc.data")
    from tactica.cli.app import app

    out = CliRunner().invoke(app, ["data", "report", "--units", "--json"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.stdout)
    assert {a["kind"] for a in doc} == {"mend", "guess"}
    assert all(a["evidence"] for a in doc)
