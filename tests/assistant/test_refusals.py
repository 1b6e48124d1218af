"""Bad arguments are tool errors of one line (the command line's text), never a crashed
server: after every refusal the same session still answers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp.server.lowlevel import Server
from typer.testing import CliRunner

from tactica.assistant import Limits, create_server
from tactica.assistant.server import MAX_ARGUMENT_BYTES
from tactica.cli import commands

from .helpers import answer, call, call_many, refusal

BOLTERS = {"attacker": {"weapons": [{"name": "Bolt rifle", "count": 10, "A": "1", "skill": 3,
                                     "S": 4, "AP": -1, "D": "1"}]},
           "target": {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}}
#: 7,001 target states (two groups of 30 and 40 wounds a model, Precision): the size
#: model predicts hours of exact work and refuses before computing.
HUGE = {"attacker": {"weapons": [{"name": "Gun", "count": 100, "A": "2D6", "skill": 3, "S": 8,
                                  "AP": -2, "D": "D6", "abilities": ["Precision"]}]},
        "target": {"models": [{"count": 100, "T": 4, "Sv": 3, "W": 30},
                              {"count": 100, "T": 5, "Sv": 2, "W": 40, "fnp": 5}]}}

#: (tool, arguments, words the one line must contain)
BAD: list[tuple[str, dict[str, Any], list[str]]] = [
    ("simulate_combat", {"attacker": "Intercesor Squad", "defender": "meq"},
     ["attacker.unit: no unit named 'Intercesor Squad'", "did you mean", "Intercessor Squad"]),
    ("simulate_combat", {"attacker": "Intercessor Squad",
                         "defender": {"unit": "Intercessor Squad", "models": 12}},
     ["defender", "Intercessor Squad has 5-10 models; 12 asked for"]),
    ("simulate_combat", {"attacker": {"unit": "Intercessor Squad", "models": 0},
                         "defender": "meq"}, ["attacker", "models", "greater than or equal to 1"]),
    ("simulate_combat", {"atacker": "Intercessor Squad", "defender": "meq"},
     ["atacker: unknown argument; simulate_combat takes attacker, defender, phases"]),
    ("simulate_combat", {"attacker": "Intercessor Squad", "defender": "meq",
                         "phases": ["fight", "shooting"]}, ["phases", "turn order"]),
    ("simulate_combat", {"attacker": "Intercessor Squad", "defender": "meq",
                         "phases": ["charge", "fight"]}, ["charge_distance"]),
    ("simulate_combat", {"attacker": "Intercessor Squad", "defender": "meq",
                         "effects": ["Oath of Momnet"]}, ["Oath of Momnet", "Oath of Moment"]),
    ("simulate_combat", {"attacker": "Atalan Jackals", "defender": "meq", "phases": [
        "shooting", "fight"], "effects": ["Oath of Moment"]}, ["effects_by_phase"]),
    ("simulate_combat", {"attacker": "Atalan Jackals", "defender": "meq",
                         "effects_by_phase": {"fight": []}}, ["one phase takes 'effects'"]),
    ("simulate_combat", {"attacker": "Intercessor Squad", "defender": "meq",
                         "method": "monte-carlo", "trials": 5_000_000}, ["trials", "1000000"]),
    ("calculate", {"document": HUGE}, ["too large for the exact engine", "monte-carlo"]),
    ("calculate", {"document": {**BOLTERS, "method": "monte-carlo", "trials": 2_000_000}},
     ["trials", "at most 1,000,000"]),
    ("calculate", {"document": BOLTERS, "full": True},
     ["full: unknown argument; calculate takes document"]),
    ("calculate", {"document": {**BOLTERS, "contxt": {}}}, ["contxt: unknown field"]),
    ("calculate", {}, ["document", "required"]),
    ("calculate", {"document": "{'attacker': 1}"}, ["document: not a JSON object"]),
    ("lookup_unit", {"name": "Primsu"}, ["no unit named 'Primsu'", "Primus"]),
    ("lookup_unit", {"name": ""}, ["name", "at least 1 character"]),
    ("lookup_rule", {"name": "Primed and Redied"}, ["no rule named", "Primed and Readied"]),
    ("list_units", {"faction": "Genestealer Cultz"}, ["faction: ", "Genestealer Cults"]),
    ("list_units", {"keyword": "Charakter"}, ["keyword: no keyword named", "CHARACTER"]),
    ("list_units", {"limit": 0}, ["limit", "greater than or equal to 1"]),
    ("validate_list", {"text": "hello"}, ["unrecognised first line"]),
    ("validate_list", {"text": "x", "format": "pdf"}, ["unknown format 'pdf'"]),
    ("no_such_tool", {}, ["no tool named 'no_such_tool'", "simulate_combat"]),
    # a lone surrogate is valid JSON but no text: refused naming the argument (issue 47)
    ("lookup_unit", {"name": "\ud800"}, ["name: text holds a lone surrogate (U+D800)"]),
    ("calculate", {"document": {**BOLTERS, "note": ["x", "a\udfff"]}},
     ["document.note[1]: text holds a lone surrogate (U+DFFF) at character 2"]),
    ("\ud800", {}, ["no tool named '\\ud800'"]),
    # D2: an empty unit name, in words (not pydantic's "String should have ...")
    ("simulate_combat", {"attacker": {"unit": ""}, "defender": "meq"},
     ["attacker: an empty unit name", "find_units"]),
    ("simulate_combat", {"attacker": "Intercessor Squad", "defender": " "},
     ["defender: an empty unit name"]),
    # a charge distance or a Leadership that one phase would ignore
    ("simulate_combat", {"attacker": "Intercessor Squad", "defender": "meq",
                         "charge_distance": 7}, ["charge_distance: only a turn with a charge"]),
    ("simulate_combat", {"attacker": "Intercessor Squad", "defender": "meq",
                         "leadership": 7}, ["leadership: battle-shock is tested after a turn"]),
    # D3: a detachment or an army faction the library does not know
    ("simulate_combat", {"attacker": "Intercessor Squad", "defender": "meq",
                         "context": {"detachment": "Gladius Taskforc"}},
     ["context.detachment: no detachment named 'Gladius Taskforc'", "Gladius Task Force"]),
    ("simulate_combat", {"attacker": "Neophyte Hybrids", "defender": "meq",
                         "context": {"army_faction": "Genestealer Cultz"}},
     ["context.army_faction: no faction named 'Genestealer Cultz'", "Genestealer Cults"]),
    ("calculate", {"document": {"attacker": {"unit": "Intercessor Squad"},
                                "target": {"unit": "meq"}, "context": {"led_by": ["Lieutenant"]}}},
     ["context.led_by", "name it in attacker.led_by"]),
    ("calculate", {"document": {"target": {"unit": "meq"}, "steps": [
        {"phase": "shooting", "attacker": {"unit": "Intercessor Squad"},
         "context": {"detachment": "Nowhere Host"}}]}}, ["steps[0].context.detachment"]),
    ("find_units", {"query": "Primus", "faction": "Genestealer Cultz"},
     ["faction: no faction named 'Genestealer Cultz'", "Genestealer Cults"]),
    ("find_units", {"query": "x", "limit": 500}, ["limit", "80"]),
]


@pytest.mark.parametrize(("tool", "args", "words"), BAD,
                         ids=[f"{t} {json.dumps(a)[:40]}" for t, a, _ in BAD])
def test_a_bad_argument_is_one_line(server: Server[Any], tool: str, args: dict[str, Any],
                                    words: list[str]) -> None:
    refused, after = call_many(server, [(tool, args), ("calculate", {"document": BOLTERS})])
    line = refusal(refused)
    for word in words:
        assert word in line, line
    assert not line.startswith("error: document:") or tool == "calculate", line
    answer(after)  # the server lives on


def test_the_refusal_is_the_command_lines_text(server: Server[Any], tmp_path: Path) -> None:
    document = json.loads(json.dumps(BOLTERS))
    document["attacker"]["weapons"][0]["D"] = "X"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    printed = CliRunner().invoke(commands.app, ["calc", str(path)])
    assert printed.exit_code == 2
    line = refusal(call(server, "calculate", {"document": document}))
    assert line == printed.stderr.strip()
    assert line.startswith("error: invalid scenario: attacker.weapons[0].D: ")


def test_arguments_over_the_size_bound_are_refused(server: Server[Any]) -> None:
    line = refusal(call(server, "validate_list", {"text": "x" * (MAX_ARGUMENT_BYTES + 1)}))
    assert f"at most {MAX_ARGUMENT_BYTES:,}" in line


def test_a_call_past_its_time_bound_is_refused_and_frees_its_worker() -> None:
    # one worker: were a timed-out call to keep its slot, the next would be "busy"
    results = call_many(create_server(Limits(timeout=0.0, workers=1)),
                        [("calculate", {"document": BOLTERS})] * 3)
    for result in results:
        line = refusal(result)
        assert "no answer within 0 s" in line and "monte-carlo" in line


def test_a_bug_is_a_tool_error_and_the_server_lives_on(monkeypatch: pytest.MonkeyPatch) -> None:
    from tactica.assistant import tools

    def broken(args: Any, library: Any) -> Any:
        raise TypeError("boom")

    patched = tuple(t if t.name != "lookup_unit" else type(t)(
        t.name, t.title, t.description, t.arguments, broken) for t in tools.TOOLS)
    monkeypatch.setattr("tactica.assistant.tools.TOOLS", patched)
    server = create_server()
    failed, after = call_many(server, [("lookup_unit", {"name": "Primus"}),
                                       ("calculate", {"document": BOLTERS})])
    line = refusal(failed)
    assert "TypeError: boom" in line and "bug" in line
    answer(after)


def test_a_number_that_is_not_finite_is_a_bug_not_invalid_json(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # JSON has no Infinity: an answer holding one would break the assistant's parser
    from tactica.assistant import tools

    def infinite(args: Any, library: Any) -> Any:
        return {"bound": float("inf")}

    patched = tuple(t if t.name != "lookup_unit" else type(t)(
        t.name, t.title, t.description, t.arguments, infinite) for t in tools.TOOLS)
    monkeypatch.setattr("tactica.assistant.tools.TOOLS", patched)
    failed, after = call_many(create_server(), [("lookup_unit", {"name": "Primus"}),
                                                ("calculate", {"document": BOLTERS})])
    line = refusal(failed)
    assert "lookup_unit failed unexpectedly" in line and "bug" in line
    answer(after)
