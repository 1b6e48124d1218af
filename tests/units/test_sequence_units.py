"""Unit references in a sequence document (``tactica.units.sequence``): fielded from the
library's bundled dataset exactly as a single scenario's, the result echoing them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import tactica
from tactica.combat.contract.sequence import SequenceResult
from tactica.library import Library, load_library
from tactica.units import UnitError

EXAMPLE = Path(__file__).parents[2] / "examples" / "turn_units.json"


@pytest.fixture(scope="module")
def lib() -> Library:
    return load_library(dataset=True)


def _units_doc() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return data


def _without_echo(r: SequenceResult) -> dict[str, Any]:
    """The numbers (the notes list the fielded units' abilities that are not modelled)."""
    out = r.model_dump(mode="json", exclude={"resolved", "notes", "not_calculated"})
    for s in out["steps"]:
        for key in ("resolved", "notes", "not_calculated"):
            s.pop(key)
    return out


def test_units_equal_their_resolved_plain_lines(lib: Library) -> None:
    """The same turn with plain weapon lines (the ones the units were fielded with) gives
    the same numbers, exactly; the plain document is written by hand from the echo."""
    doc = _units_doc()
    r = tactica.calculate(doc, lib)
    assert isinstance(r, SequenceResult) and r.resolved is not None
    steps = {s.step: s for s in r.steps}
    assert steps[1].resolved is None and steps[1].unit == "Atalan Jackals"
    neophytes = steps[0].resolved
    assert neophytes is not None
    assert any("Primus" in m for m in neophytes.attacker_models)
    # the Primus leads: Cult Demagogue is applied, and his weapons join the unit's lines
    assert any("Cult Demagogue" in n for n in r.notes)
    jackals, back = steps[2].resolved, steps[3].resolved
    assert jackals is not None and back is not None
    assert all(w.range == "Melee" for w in (*jackals.attacker, *back.attacker))
    assert steps[3].attacker_losses is not None and steps[3].attacker_losses.mean > 0

    plain = json.loads(json.dumps(doc))
    plain["target"] = {"name": "Intercessor Squad", "keywords": list(
        lib.target("Intercessor Squad", models=5).keywords),
        "models": [g.model_dump(mode="json") for g in r.resolved.target]}
    for i, st in steps.items():
        if st.resolved is None:
            continue
        step = plain["steps"][i]
        step["attacker"] = {"name": st.unit, "weapons": [
            w.model_dump(mode="json") for w in st.resolved.attacker]}
    plain["steps"][0]["context"]["led_by"] = ["Primus"]
    plain["steps"][0]["effects"] = ["Cult Demagogue"]
    plain["steps"][2]["models"] = [
        g.model_dump(mode="json") for g in lib.target("Atalan Jackals").models]
    plain_result = tactica.calculate(plain)
    assert isinstance(plain_result, SequenceResult)
    assert _without_echo(plain_result) == _without_echo(r)


def test_a_unit_that_cannot_be_fielded_names_the_step(lib: Library) -> None:
    doc = _units_doc()
    doc["steps"][2]["attacker"] = {"unit": "Atalan Jackals", "models": 99}
    with pytest.raises(UnitError, match=r"^steps\[2\]\.attacker\.models: "):
        tactica.calculate(doc, lib)
    doc = _units_doc()
    doc["steps"][0]["attacker"]["led_by"] = ["No Such Leader"]
    with pytest.raises(UnitError, match=r"^steps\[0\]\.attacker\.led_by: "):
        tactica.calculate(doc, lib)


def test_calc_reads_a_sequence_file_with_units(tmp_path: Path) -> None:
    from tactica.cli.app import app

    out = CliRunner().invoke(app, ["--dataset", "calc", str(EXAMPLE), "--json"])
    assert out.exit_code == 0, out.output
    r = SequenceResult.model_validate_json(out.output)
    assert r.resolved is not None and len(r.steps) == 4
    assert [s.unit for s in r.steps][:2] == ["Neophyte Hybrids", "Atalan Jackals"]
    bad = _units_doc()
    bad["steps"][0]["attacker"]["models"] = 999
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    out = CliRunner().invoke(app, ["--dataset", "calc", str(path)])
    assert out.exit_code != 0
    assert "steps[0].attacker" in out.output and "Traceback" not in out.output
