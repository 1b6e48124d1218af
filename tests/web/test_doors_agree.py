"""The same question through the web API, the assistant's tools and the Python API gives
the same answer (beyond ``tests/test_every_door.py``): library units of several factions
with leaders on both sides, the fight phase, both rules versions, named effects with a
detachment, a distance beyond every weapon's range (each weapon makes no attacks at every
door), Blast into a small unit and into a large one; a context naming a detachment or a
faction the library does not know is refused by every door that takes a document, in the
same words and naming the same field; real army lists priced alike by the web API and
the assistant. The reference is ``tactica.calculate``; numbers agree within 1e-9.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import tactica
from tactica.cli import commands
from tactica.library import Library

pytest.importorskip("wh40kdc")
pytest.importorskip("mcp")

from assistant.helpers import answer, call, refusal

TOL = 1e-9
DOCS: list[dict[str, Any]] = [
    {"attacker": {"unit": "Legionaries", "led_by": ["Chaos Lord"]},
     "target": {"unit": "Guardian Defenders", "led_by": ["Farseer"]}, "phase": "fight"},
    {"attacker": {"unit": "Necron Warriors", "led_by": ["Overlord"]},
     "target": {"unit": "Termagants", "models": 20}, "rules": "10th"},
    {"attacker": {"unit": "Boyz", "models": 20, "led_by": ["Warboss"]},
     "target": {"unit": "Intercessor Squad", "led_by": ["Lieutenant"]}, "phase": "fight",
     "context": {"charged": True}, "rules": "10th"},
    {"attacker": {"unit": "Intercessor Squad"}, "target": {"unit": "meq"},
     "effects": ["Oath of Moment"], "context": {"detachment": "Gladius Task Force"}},
    {"attacker": {"unit": "Intercessor Squad", "wargear": ["Astartes grenade launcher:1"]},
     "target": {"unit": "Termagants", "models": 10}, "context": {"distance": 12}},
    {"attacker": {"unit": "Intercessor Squad", "wargear": ["Astartes grenade launcher:1"]},
     "target": {"unit": "meq", "models": 5}},
]
#: Beyond every ranged weapon's Range (Bolt Rifle 24", Plasma Incinerator 24").
OUT_OF_RANGE: list[dict[str, Any]] = [
    {"attacker": {"unit": "Intercessor Squad"}, "target": {"unit": "meq"},
     "context": {"distance": 40}},
    {"attacker": {"unit": "Hellblaster Squad"}, "target": {"unit": "geq"},
     "context": {"distance": 30}, "rules": "10th"},
]
FIGURES = ("attacks", "hits", "wounds", "damage", "models_destroyed")


@pytest.fixture(scope="module")
def server() -> Any:
    from tactica.assistant import create_server

    return create_server()


def _close(got: dict[str, Any], want: dict[str, Any], door: str) -> None:
    for key in FIGURES:
        assert abs(got[key]["mean"] - want[key]["mean"]) <= TOL, (door, key)
        assert len(got[key]["pmf"]) == len(want[key]["pmf"]), (door, key)
        assert all(abs(a - b) <= TOL for a, b in zip(got[key]["pmf"], want[key]["pmf"],
                                                      strict=True)), (door, key)
    assert abs(got["p_unit_destroyed"] - want["p_unit_destroyed"]) <= TOL, door


def _simulate_args(doc: dict[str, Any]) -> dict[str, Any]:
    args = {"attacker": doc["attacker"], "defender": doc["target"],
            "phases": [doc.get("phase", "shooting")], "rules": doc.get("rules", "11th")}
    args.update({k: doc[k] for k in ("context", "effects") if k in doc})
    return args


@pytest.mark.parametrize("doc", DOCS + OUT_OF_RANGE, ids=lambda d: json.dumps(d)[:60])
def test_every_door_gives_the_same_numbers(doc: dict[str, Any], library: Library,
                                           web: TestClient, server: Any) -> None:
    want = json.loads(tactica.calculate(doc, library).model_dump_json())
    response = web.post("/api/calc", json=doc)
    assert response.status_code == 200, response.text
    _close(response.json(), want, "POST /api/calc")
    _close(answer(call(server, "calculate", {"document": doc})), want, "calculate")
    head = answer(call(server, "simulate_combat", _simulate_args(doc)))["headline"]
    assert abs(head["expected_models_destroyed"] - want["models_destroyed"]["mean"]) <= TOL
    assert abs(head["expected_damage"] - want["damage"]["mean"]) <= TOL
    assert abs(head["p_unit_destroyed"] - want["p_unit_destroyed"]) <= TOL


@pytest.mark.parametrize("doc", OUT_OF_RANGE, ids=lambda d: json.dumps(d)[:60])
def test_a_weapon_beyond_its_range_makes_no_attacks_at_any_door(
        doc: dict[str, Any], web: TestClient, server: Any) -> None:
    for door, got in (("web", web.post("/api/calc", json=doc).json()),
                      ("assistant", answer(call(server, "calculate", {"document": doc})))):
        assert len(got["attacks"]["pmf"]) == 1, door  # no attack made, for certain
        assert got["weapons"] and all(w["attacks"] == 0 for w in got["weapons"]), door
        assert any("out of range" in line for line in got["not_calculated"]), door


#: (the document's context, the field named, the words of the refusal)
BAD_CONTEXTS = [
    ({"detachment": "Gladius Taskforc"}, "context.detachment",
     "no detachment named 'Gladius Taskforc'; did you mean: Gladius Task Force?"),
    ({"detachment": "Nonsense Host"}, "context.detachment",
     "no detachment named 'Nonsense Host'"),
    ({"army_faction": "Space Marinez"}, "context.army_faction",
     "no faction named 'Space Marinez'"),
]


@pytest.mark.parametrize(("context", "field", "words"), BAD_CONTEXTS,
                         ids=[c[1] + "-" + str(i) for i, c in enumerate(BAD_CONTEXTS)])
def test_an_unknown_detachment_or_faction_is_refused_by_every_door(
        context: dict[str, Any], field: str, words: str, web: TestClient,
        server: Any) -> None:
    """The web API, the command line and the Python API once computed it silently (the
    assistant refused it): now ``tactica.calculate`` refuses it (``context_names``),
    naming the field (the flag on the command line) and close names, at every door."""
    doc = {"attacker": {"unit": "Intercessor Squad"}, "target": {"unit": "meq"},
           "context": context}
    response = web.post("/api/calc", json=doc)
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert len(detail) == 1 and detail[0]["loc"] == ["body", *field.split(".")]
    assert detail[0]["msg"].startswith(words), detail
    line = refusal(call(server, "calculate", {"document": doc}))
    assert line.startswith(f"error: {field}: {words}"), line
    line = refusal(call(server, "simulate_combat", {
        "attacker": "Intercessor Squad", "defender": "meq", "context": context}))
    assert line.startswith(f"error: {field}: {words}"), line
    turn = {"target": {"unit": "meq"}, "steps": [
        {"phase": "shooting", "attacker": {"unit": "Intercessor Squad"}},
        {"phase": "shooting", "attacker": {"unit": "Intercessor Squad"}, "context": context}]}
    response = web.post("/api/turn", json=turn)
    assert response.status_code == 422, response.text
    assert response.json()["detail"][0]["loc"] == ["body", "steps", 1, *field.split(".")]
    line = refusal(call(server, "calculate", {"document": turn}))
    assert line.startswith(f"error: steps[1].{field}: {words}"), line
    for asked, place in ((doc, field), (json.dumps(doc), field), (turn, f"steps[1].{field}")):
        with pytest.raises(tactica.ScenarioError) as raised:  # the Python API
            tactica.calculate(asked)
        assert str(raised.value).startswith(f"{place}: {words}"), raised.value
    with pytest.raises(tactica.ScenarioError) as raised:  # a batch, as a single call
        tactica.calculate_many(doc, targets=[{"unit": "geq"}])
    assert str(raised.value).startswith(f"{field}: {words}"), raised.value
    flag = {"context.detachment": "--detachment", "context.army_faction": "--army-faction"}
    [(key, value)] = context.items()
    said = CliRunner().invoke(commands.app, ["calc", "--attacker", "Intercessor Squad",
                                             "--target", "meq", flag[field], value])
    assert said.exit_code == 2 and said.stderr.startswith(f"error: {flag[field]}: {words}"), (
        key, said.output)


def test_a_known_detachment_is_computed(web: TestClient, library: Library) -> None:
    doc = {"attacker": {"unit": "Intercessor Squad"}, "target": {"unit": "meq"},
           "context": {"detachment": "gladius task force", "army_faction": "Space Marines"}}
    response = web.post("/api/calc", json=doc)
    assert response.status_code == 200, response.text
    _close(response.json(), json.loads(tactica.calculate(doc, library).model_dump_json()),
           "POST /api/calc")


def test_a_refusal_names_the_documents_field_not_pydantics_union_tag(
        web: TestClient) -> None:
    """An effect that is neither a name nor a modifier: the place is ``effects[0]`` (and
    its field), never ``function-after[_one_kind(), Effect]``."""
    response = web.post("/api/calc", json={
        "attacker": {"unit": "Intercessor Squad"}, "target": {"unit": "meq"},
        "effects": [{"name": 5}]})
    assert response.status_code == 422
    for d in response.json()["detail"]:
        assert d["loc"][:3] == ["body", "effects", 0], d
        assert all("[" not in str(p) and not str(p)[:1].isupper() for p in d["loc"]), d


ROSTERS = Path(__file__).resolve().parents[1] / "fixtures" / "rosters"
LISTS = [ROSTERS / "gw-app-11e" / "official_9.txt",
         ROSTERS / "chaos-knights-houndpack" / "input.newrecruit-json.json",
         ROSTERS / "sm-dual-detachment" / "input.rosterizer.json"]


@pytest.mark.parametrize("path", LISTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_real_list_is_priced_alike_by_the_web_and_the_assistant(
        path: Path, web: TestClient, server: Any) -> None:
    text = path.read_text(encoding="utf-8")
    got = web.post("/api/list/validate", json={"text": text})
    assert got.status_code == 200, got.text
    page, tool = got.json(), answer(call(server, "validate_list", {"text": text}))
    for key in ("legal", "total", "limit", "faction", "detachments", "battle_size"):
        assert page[key] == tool[key], key
    assert [(v["code"], v["unit_id"]) for v in page["violations"]] == \
        [(v["code"], v["unit_id"]) for v in tool["violations"]]
    assert [(u["datasheet"], u["models"], u["total"]) for u in page["units"]] == \
        [(u["datasheet"], u["models"], u["points"]) for u in tool["units"]]
    assert sum(u["total"] for u in page["units"]) == page["total"]


def test_an_effect_given_twice_is_refused_by_every_door(web: TestClient, server: Any,
                                                       library: Library) -> None:
    """The command line and the web page refused it (each door on its own); the Python API
    and the assistant applied it twice (``effects_applied`` listed it twice). Now the core
    refuses it (``tactica.calculator.effect_twice``), in the command line's words."""
    from typer.testing import CliRunner

    from tactica.cli import commands
    from tactica.errors import DocumentError

    words = "'oath of moment' is given twice (each effect is used once)"
    cli = CliRunner().invoke(commands.app, [
        "calc", "--attacker", "Intercessor Squad", "--target", "meq",
        "--effect", "Oath of Moment", "--effect", "oath of moment"])
    assert cli.exit_code == 2 and words in cli.stderr, cli.output
    doc = {"attacker": {"unit": "Intercessor Squad"}, "target": {"unit": "meq"},
           "effects": ["Oath of Moment", "oath of moment"]}
    with pytest.raises((ValueError, DocumentError), match=r"^effects\[1\]: " + re.escape(words)):
        tactica.calculate(doc, library)
    response = web.post("/api/calc", json=doc)
    assert response.status_code == 422
    assert response.json()["detail"] == [{"loc": ["body", "effects", 1], "msg": words,
                                          "type": "value_error"}]
    assert refusal(call(server, "calculate", {"document": doc})) == f"error: effects[1]: {words}"
    assert refusal(call(server, "simulate_combat", {
        "attacker": "Intercessor Squad", "defender": "meq",
        "effects": ["Oath of Moment", "oath of moment"]})) == f"error: effects[1]: {words}"
    turn = {"target": {"unit": "meq"}, "steps": [
        {"phase": "shooting", "attacker": {"unit": "Intercessor Squad"},
         "effects": ["Oath of Moment", "oath of moment"]}]}
    response = web.post("/api/turn", json=turn)
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "steps", 0, "effects", 1]
    assert refusal(call(server, "calculate", {"document": turn})) == \
        f"error: steps[0].effects[1]: {words}"


def test_a_units_model_count_as_text_is_refused_like_every_number(web: TestClient) -> None:
    """The web API refuses a number field sent as text (README, bounds); a library unit's
    ``models`` (an integer in the contract's schema) was taken as a number all the same."""
    from tactica.service import UnitRef

    assert UnitRef.model_json_schema()["properties"]["models"]["anyOf"][0]["type"] == \
        "integer"
    for path, body, loc in (
            ("/api/calc", {"attacker": {"unit": "Intercessor Squad", "models": "10"},
                           "target": {"unit": "meq"}}, ["body", "attacker", "models"]),
            ("/api/turn", {"target": {"unit": "meq", "models": "5"}, "steps": [
                {"phase": "shooting", "attacker": {"unit": "Intercessor Squad"}}]},
             ["body", "target", "models"])):
        response = web.post(path, json=body)
        assert response.status_code == 422, response.text
        assert response.json()["detail"][0]["loc"] == loc
        assert response.json()["detail"][0]["type"] == "number_type"


@pytest.mark.parametrize(("field", "value"), [("models", "ten"), ("modelz", 5)])
def test_the_web_and_the_assistant_refuse_in_the_same_words(
        web: TestClient, server: Any, field: str, value: Any) -> None:
    """pydantic's refusal of a field, in the words the assistant and the command line use
    (``error_words``), not pydantic's own ("Input should be a valid integer, ...")."""
    doc = {"attacker": {"unit": "Intercessor Squad", field: value}, "target": {"unit": "meq"}}
    detail = web.post("/api/calc", json=doc).json()["detail"]
    line = refusal(call(server, "simulate_combat", {"attacker": doc["attacker"],
                                                    "defender": "meq"}))
    assert detail[0]["loc"] == ["body", "attacker", field]
    assert line == f"error: attacker.{field}: {detail[0]['msg']}", (line, detail)
