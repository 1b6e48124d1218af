"""Whose stats a calculation uses when they are not of the rules version asked for: a
unit the library has only in the 11th edition fields that datasheet, and a standard target
is the unit it names (its own 11th-edition data only without that unit: the seed pages).
The note is the unit's resolution's (``tactica.units.editions``), so every door gives the
same words: Python, the batch API, a turn, the command line and the web API."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import tactica
from tactica.cli import commands
from tactica.combat.contract.sequence import SequenceResult
from tactica.library import load_library
from tactica.web.app import create_app
from tactica.web.compute import CalcPool

pytest.importorskip("wh40kdc")

ATTACKER = "Neophyte Hybrids"  # in the library in both editions


def _meq_note(rules: str) -> str:
    """The note of the unit ``meq`` names (read here from the packaged preset record, as
    YAML): the library has it in the 11th edition only."""
    text = resources.files("tactica").joinpath("data/target_presets.yaml").read_text("utf-8")
    meq = yaml.safe_load(text)["presets"]["meq"]
    return (f"{meq['unit']}: the library has no {rules}-edition datasheet; its "
            f"11th-edition stats are used under the {rules} rules")


def _doc(rules: str, target: str = "meq") -> dict[str, Any]:
    return {"rules": rules, "attacker": {"unit": ATTACKER}, "target": {"unit": target}}


def _cli_notes(rules: str) -> list[str]:
    run = CliRunner().invoke(commands.app, ["calc", "--json", "--attacker", ATTACKER,
                                            "--target", "meq", "--rules", rules])
    assert run.exit_code == 0, run.output
    found: list[str] = json.loads(run.stdout)["notes"]
    return found


def _web_notes(pool: CalcPool, rules: str) -> list[str]:
    app = create_app(library=load_library, calc_pool=pool)
    with TestClient(app, base_url="http://tactica.test") as client:
        answer = client.post("/api/calc", json=_doc(rules))
    assert answer.status_code == 200, answer.text
    found: list[str] = answer.json()["notes"]
    return found


def test_a_standard_target_under_the_10th_rules_is_noted_alike_through_every_door(
        calc_pool: CalcPool) -> None:
    note = _meq_note("10th")
    python = list(tactica.calculate(_doc("10th")).notes)
    assert note in python
    assert _cli_notes("10th") == python  # the command line prints what the core says
    assert _web_notes(calc_pool, "10th") == python
    many = tactica.calculate_many(_doc("10th"), targets=[{"unit": "meq"}])[0]
    assert not isinstance(many, Exception) and list(many.notes) == python
    turn = tactica.calculate({"rules": "10th", "target": {"unit": "meq"}, "steps": [
        {"phase": "shooting", "attacker": {"unit": ATTACKER}}]})
    assert isinstance(turn, SequenceResult) and note in turn.notes


def test_under_the_11th_rules_nothing_is_noted(calc_pool: CalcPool) -> None:
    def said(notes: list[str]) -> bool:
        return any("standard target" in n or "edition" in n for n in notes)

    assert not said(list(tactica.calculate(_doc("11th")).notes))
    assert not said(_cli_notes("11th"))
    assert not said(_web_notes(calc_pool, "11th"))


def test_a_unit_the_library_has_only_in_the_11th_edition_says_whose_stats_it_uses() -> None:
    lib = load_library()
    only_11th = next(s.name for s in lib.datasheets("11th") if s.weapons and all(
        v.rules == "11th" for v in lib.datasheet_versions(s.name)))
    note = (f"{only_11th}: the library has no 10th-edition datasheet; its 11th-edition "
            "stats are used under the 10th rules")
    as_target = tactica.calculate({"rules": "10th", "attacker": {"unit": ATTACKER},
                                   "target": {"unit": only_11th}})
    assert note in as_target.notes
    as_attacker = tactica.calculate({"rules": "10th", "attacker": {"unit": only_11th},
                                     "target": {"unit": "geq"}})
    assert note in as_attacker.notes
