"""One look-up for names (issue 46, item 7): the same odd-cased, misspelt or
apostrophe-variant name typed into the CLI, the web API and the assistant finds the same
unit, rule, effect or standard target, or suggests the same names in the same order (the
plain name first: "Space Marine Captain" suggests Captain). The kind the app writes after
a rule ("Snarling Rivalry (Upgrade)") is not part of its name.

Each door's answer is read from what it shows (the CLI's one line or card, the web's JSON,
the assistant's tool answer); the expected names are written out here, not computed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from tactica.cli import commands
from tactica.library import load_library

pytest.importorskip("wh40kdc")
pytest.importorskip("fastapi")
pytest.importorskip("mcp")

runner = CliRunner()
_MEANT = re.compile(r"did you mean: (.*)\?$")


def _suggested(line: str) -> list[str]:
    m = _MEANT.search(line.strip())
    return m.group(1).split(", ") if m else []


@pytest.fixture(scope="module")
def doors() -> Iterator[tuple[Any, Any]]:
    from fastapi.testclient import TestClient

    from tactica.assistant import create_server
    from tactica.web import create_app

    yield TestClient(create_app(library=load_library)), create_server()


def _cli(args: list[str]) -> tuple[str | None, list[str]]:
    """The name a CLI look-up found (its --json), or the names its one line suggests."""
    result = runner.invoke(commands.app, args, env={"COLUMNS": "80"})
    if result.exit_code == 0:
        data = json.loads(result.stdout)
        return (data[0] if isinstance(data, list) else data)["name"], []
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr  # one line, however long
    return None, _suggested(lines[0])


def _assistant(server: Any, tool: str, args: dict[str, Any]) -> tuple[str | None, list[str]]:
    from assistant.helpers import call

    result = call(server, tool, args)
    text = result.content[0].text
    if result.is_error:
        return None, _suggested(text)
    data = json.loads(text)
    found = data.get("datasheet") or (data.get("rules") or [{}])[0]
    return found["name"], []


def _web(client: Any, path: str) -> tuple[str | None, list[str]]:
    answer = client.get(path)
    if answer.status_code == 200:
        data = answer.json()
        return (data[0] if isinstance(data, list) else data)["name"], []
    assert answer.status_code == 404, answer.text
    return None, answer.json()["detail"][0]["suggestions"]


#: (what, the name typed, the name found or None, the names suggested)
UNITS = [
    ("INTERCESSOR-squad", "Intercessor Squad", []),
    ("Cʼtan Shard of the Nightbringer", "C’tan Shard of the Nightbringer", []),  # U+02BC
    ("c'tan shard of the nightbringer", "C’tan Shard of the Nightbringer", []),
    ("Intercesor Squad", None,
     ["Intercessor Squad", "Heavy Intercessor Squad", "Assault Intercessor Squad"]),
    ("Space Marine Captain", None, ["Captain", "Captain Titus", "Captain Raldeo"]),
]
RULES = [
    ("OATH OF MOMENT", "Oath of Moment", []),
    ("oath of moment’", "Oath of Moment", []),
    ("Snarling Rivalry", "Snarling Rivalry (Upgrade)", []),
    ("final howl", "Final Howl (Aura)", []),
    ("Oath of Momnet", None, ["Oath of Moment"]),
]


@pytest.mark.parametrize(("typed", "found", "suggested"), UNITS, ids=[u[0] for u in UNITS])
def test_a_unit_name_is_looked_up_alike_by_every_door(
        doors: tuple[Any, Any], typed: str, found: str | None, suggested: list[str]) -> None:
    client, server = doors
    want = (found, suggested)
    assert _cli(["sheet", typed, "--json"]) == want
    assert _web(client, f"/api/units/{typed}") == want
    assert _assistant(server, "lookup_unit", {"name": typed}) == want


@pytest.mark.parametrize(("typed", "found", "suggested"), RULES, ids=[r[0] for r in RULES])
def test_a_rule_name_is_looked_up_alike_by_every_door(
        doors: tuple[Any, Any], typed: str, found: str | None, suggested: list[str]) -> None:
    client, server = doors
    want = (found, suggested)
    web = _web(client, f"/api/rules/{typed}")
    assert web == want
    assert _assistant(server, "lookup_rule", {"name": typed}) == want
    result = runner.invoke(commands.app, ["rule", typed], env={"COLUMNS": "80"})
    if found is None:
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert result.exit_code != 0 and len(lines) == 1, result.stderr
        assert _suggested(lines[0]) == suggested
    else:
        assert result.exit_code == 0 and found in " ".join(result.stdout.split())


def test_a_standard_target_and_an_effect_misspelt_suggest_alike(
        doors: tuple[Any, Any]) -> None:
    """A target that is neither a unit nor a standard one suggests standard targets too;
    a named effect misspelt suggests the same rule through every door."""
    client, server = doors
    from assistant.helpers import call

    for target, effect, want in (("meqq", None, ["meq"]),
                                 ("meq", "Oath of Momnet", ["Oath of Moment"])):
        flags = ["calc", "--attacker", "Intercessor Squad", "--target", target]
        cli = runner.invoke(commands.app, [*flags, *(["--effect", effect] if effect else [])],
                            env={"COLUMNS": "80"})
        lines = [line for line in cli.stderr.splitlines() if line.strip()]
        assert cli.exit_code == 2 and len(lines) == 1, cli.output
        doc: dict[str, Any] = {"attacker": {"unit": "Intercessor Squad"},
                               "target": {"unit": target},
                               "effects": [effect] if effect else []}
        web = client.post("/api/calc", json=doc)
        assert web.status_code in (404, 422), web.text
        detail = web.json()["detail"][0]
        assistant = call(server, "simulate_combat", {
            "attacker": doc["attacker"], "defender": doc["target"],
            "effects": doc["effects"]})
        assert assistant.is_error
        assert _suggested(lines[0]) == want, lines[0]
        assert detail.get("suggestions", _suggested(detail["msg"])) == want, detail
        assert _suggested(assistant.content[0].text) == want
