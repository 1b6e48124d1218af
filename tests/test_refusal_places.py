"""A refusal names the place as the user gave it (issue 46, item 6): a scenario file's
field (``attacker.models``), the CLI flag (``--models``), the assistant's tool argument
(``attacker``) — and the place really at fault, a default one included: a melee-only
unit asked to shoot (the default phase) is refused naming the phase, ``--phase fight``
suggested on the command line. Each door's answer is one line of tactica's own error.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

import tactica
from tactica.cli import commands
from tactica.library import load_library
from tactica.units.resolve import UnitError

pytest.importorskip("wh40kdc")  # the bundled dataset: the library's units

runner = CliRunner()

#: (the attacker's reference, the scenario file's field at fault, the CLI flags giving
#: the same reference, the flag at fault)
CASES: list[tuple[dict[str, Any], str, list[str], str]] = [
    ({"unit": "Intercessor Squad", "models": 11}, "attacker.models",
     ["--attacker", "Intercessor Squad", "--models", "11"], "--models"),
    ({"unit": "Intercessor Squad", "wargear": ["Lascannon"]}, "attacker.wargear",
     ["--attacker", "Intercessor Squad", "--wargear", "Lascannon"], "--wargear"),
    ({"unit": "Genestealers"}, "phase", ["--attacker", "Genestealers"], "--phase"),
]
IDS = [c[1] for c in CASES]


def _line(result: Any) -> str:
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ") and "Traceback" not in result.output
    return lines[0]


@pytest.mark.parametrize(("ref", "field", "flags", "flag"), CASES, ids=IDS)
def test_a_scenario_file_names_its_own_field_never_a_flag(
        tmp_path: Path, ref: dict[str, Any], field: str, flags: list[str], flag: str) -> None:
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps({"attacker": ref, "target": {"unit": "meq"}}),
                    encoding="utf-8")
    line = _line(runner.invoke(commands.app, ["calc", str(path)]))
    assert line.startswith(f"error: {path}: {field}: "), line
    assert "--" not in line  # no flag was given


@pytest.mark.parametrize(("ref", "field", "flags", "flag"), CASES, ids=IDS)
def test_the_flags_name_the_flag_at_fault(ref: dict[str, Any], field: str,
                                          flags: list[str], flag: str) -> None:
    line = _line(runner.invoke(commands.app, ["calc", *flags, "--target", "meq"]))
    assert line.startswith(f"error: Invalid value for {flag}: "), line
    assert "--wargear/--models" not in line


def test_a_melee_only_unit_shooting_by_default_is_the_phases_fault() -> None:
    """The phase was never typed (shooting is the default): the refusal still names it,
    and says which phase the unit attacks in."""
    line = _line(runner.invoke(commands.app, ["calc", "--attacker", "Genestealers",
                                              "--target", "meq"]))
    assert line == ("error: Invalid value for --phase: Genestealers have no ranged "
                    "weapons; give --phase fight")
    answered = runner.invoke(commands.app, ["calc", "--attacker", "Genestealers",
                                            "--target", "meq", "--phase", "fight"])
    assert answered.exit_code == 0, answered.output


def test_the_python_api_names_the_documents_field() -> None:
    lib = load_library()
    for ref, field, _, _ in CASES:
        with pytest.raises(UnitError) as info:
            tactica.calculate({"attacker": ref, "target": {"unit": "meq"}}, lib)
        assert isinstance(info.value, ValueError)
        assert not isinstance(info.value, ValidationError)
        assert str(info.value).startswith(f"{field}: ") and "\n" not in str(info.value)
    with pytest.raises(UnitError, match=r"^phase: .*its melee weapons attack in the fight"):
        tactica.calculate({"attacker": {"unit": "Genestealers"}, "target": {"unit": "meq"}},
                          lib)


def test_the_assistant_names_its_tool_argument() -> None:
    pytest.importorskip("mcp")
    from assistant.helpers import call, refusal
    from tactica.assistant import create_server

    server = create_server()
    want = {"attacker.models": "error: attacker.models: ",
            "attacker.wargear": "error: attacker.wargear: ", "phase": "error: phases: "}
    for ref, field, _, _ in CASES:
        line = refusal(call(server, "simulate_combat",
                            {"attacker": ref, "defender": {"unit": "meq"}}))
        assert line.startswith(want[field]), line


def test_the_web_api_names_the_bodys_field() -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from tactica.web import create_app

    client = TestClient(create_app(library=load_library))  # no lifespan: no pool
    for ref, field, _, _ in CASES[:2]:
        answer = client.post("/api/calc", json={"attacker": ref, "target": {"unit": "meq"}})
        assert answer.status_code == 422, answer.text
        detail = answer.json()["detail"]
        assert detail[0]["loc"] == ["body", *field.split(".")], detail
