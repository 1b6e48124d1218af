"""Schemas an assistant can trust: the tool listing is small and flat (no ``$ref``, every
argument typed, nothing the MCP Inspector's portability check warns of), and what the
server computes validates against what it advertises: every example document of
``examples/`` and every document ``simulate_combat`` hands back "for calculate" against
``calculate``'s input schema and against the contract's own schemas (issue 44, D1: a
turn of unit names was refused by the schema while the server computed it)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import jsonschema
import pytest
from mcp import Client
from mcp.server.lowlevel import Server

from tactica.assistant.schemas import flatten, merge_objects, size
from tactica.units.scenario import ScenarioDocument
from tactica.units.sequence import SequenceDocument

from .helpers import answer, call_many

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))
#: The listing's bound (issue 44): the tools' names, descriptions and schemas.
MAX_LISTING = 20 * 1024

#: Calls whose documents go back to calculate: one phase, a turn, Monte Carlo, leaders.
SIMULATIONS: list[dict[str, Any]] = [
    {"attacker": "Intercessor Squad", "defender": "Termagants", "context": {"distance": 12},
     "effects": ["Oath of Moment"]},
    {"attacker": {"unit": "Intercessor Squad", "models": 10, "led_by": "Lieutenant"},
     "defender": {"unit": "Neophyte Hybrids", "led_by": ["Primus"]}, "context": {
         "led_by": ["Lieutenant"], "cover": True}, "effects": [{"hit": 1}]},
    {"attacker": "Atalan Jackals", "defender": {"unit": "Intercessor Squad", "models": 5},
     "phases": ["shooting", "charge", "fight"], "charge_distance": 7,
     "effects_by_phase": {"fight": [{"hit": 1}]}},
    {"attacker": "Neophyte Hybrids", "defender": "meq", "phases": ["charge", "fight"],
     "charge_distance": 6, "leadership": 7},
    {"attacker": "Neophyte Hybrids", "defender": "meq", "method": "monte-carlo",
     "trials": 1000, "seed": 3},
]


@pytest.fixture(scope="module")
def listing(server: Server[Any]) -> dict[str, Any]:
    """The ``tools/list`` result as the protocol sends it."""
    async def go() -> dict[str, Any]:
        async with Client(server, mode="legacy") as client:
            result = await client.list_tools()
        dumped: dict[str, Any] = result.model_dump(by_alias=True, exclude_none=True,
                                                   mode="json")
        return dumped

    return anyio.run(go)


def _schemas(listing: dict[str, Any], kind: str) -> dict[str, dict[str, Any]]:
    return {t["name"]: t[kind] for t in listing["tools"]}


def _walk(node: Any, path: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every subschema of ``node`` with its path."""
    if not isinstance(node, dict):
        return []
    out = [(path, node)]
    for key in ("properties", "$defs"):
        for name, sub in node.get(key, {}).items():
            out += _walk(sub, f"{path}.{name}")
    for key in ("items", "additionalProperties", "propertyNames"):
        out += _walk(node.get(key), f"{path}[{key}]")
    for key in ("anyOf", "oneOf", "allOf"):
        for i, sub in enumerate(node.get(key, ())):
            out += _walk(sub, f"{path}|{i}")
    return out


#: What makes a schema constrain its value (the Inspector's "untyped-schema" check).
_CONSTRAINING = {"type", "enum", "const", "anyOf", "oneOf", "allOf", "not", "properties",
                 "items", "required", "minimum", "maximum", "pattern", "maxLength",
                 "minLength", "additionalProperties", "propertyNames", "maxItems",
                 "minItems", "maxProperties", "$ref"}


def test_the_listing_is_small(listing: dict[str, Any]) -> None:
    assert size(listing) <= MAX_LISTING, size(listing)
    assert size(listing) == size(json.loads(json.dumps(listing)))


@pytest.mark.parametrize("kind", ["inputSchema", "outputSchema"])
def test_every_schema_is_flat_and_portable(listing: dict[str, Any], kind: str) -> None:
    """No ``$ref`` or ``$defs`` (a client need not resolve anything), no ``type`` list
    (one type per schema: ``anyOf`` branches), no schema that constrains nothing, no
    ``title`` (the descriptions say it); each argument an object's typed property."""
    for name, schema in _schemas(listing, kind).items():
        assert schema["type"] == "object", name
        for path, sub in _walk(schema):
            where = f"{name}{path}"
            assert "$ref" not in sub and "$defs" not in sub and "title" not in sub, where
            assert not isinstance(sub.get("type"), list), where
            assert _CONSTRAINING & set(sub), where
        for argument, sub in schema.get("properties", {}).items():
            assert "type" in sub or "anyOf" in sub, f"{name}.{argument}"
        jsonschema.Draft202012Validator.check_schema(schema)


def test_a_unit_argument_is_advertised_as_an_object(listing: dict[str, Any]) -> None:
    """The Inspector passes JSON to an argument whose schema says object: a unit is one
    (a bare name is still read by the server)."""
    simulate = _schemas(listing, "inputSchema")["simulate_combat"]
    for side in ("attacker", "defender"):
        assert simulate["properties"][side]["type"] == "object"
        assert simulate["properties"][side]["required"] == ["unit"]
    assert simulate["properties"]["context"]["type"] == "object"


def _contract(document: dict[str, Any]) -> dict[str, Any]:
    """The contract's own schema for ``document`` (a turn has steps)."""
    model = SequenceDocument if "steps" in document else ScenarioDocument
    schema: dict[str, Any] = model.model_json_schema()
    return schema


def _documents(server: Server[Any]) -> list[dict[str, Any]]:
    """The example documents and the documents simulate_combat hands back."""
    examples = [json.loads(p.read_text(encoding="utf-8")) for p in EXAMPLES]
    simulated = [answer(r)["document"] for r in call_many(
        server, [("simulate_combat", args) for args in SIMULATIONS])]
    return examples + simulated


@pytest.fixture(scope="module")
def documents(server: Server[Any]) -> list[dict[str, Any]]:
    return _documents(server)


def test_the_examples_are_the_documents_they_should_be() -> None:
    names = {p.name for p in EXAMPLES}
    assert "turn_units.json" in names and len(names) >= 3  # D1's turn of unit names


def test_every_document_validates_against_what_calculate_advertises(
        listing: dict[str, Any], documents: list[dict[str, Any]]) -> None:
    schema = _schemas(listing, "inputSchema")["calculate"]
    validator = jsonschema.Draft202012Validator(schema)
    for document in documents:
        errors = [e.message for e in validator.iter_errors({"document": document})]
        assert not errors, (document, errors)


def test_every_document_validates_against_the_contracts_schema(
        documents: list[dict[str, Any]]) -> None:
    """The schema's source: ``SequenceDocument`` (a step's attacker may be a unit) for a
    turn, ``ScenarioDocument`` for one attack."""
    for document in documents:
        errors = [e.message for e in
                  jsonschema.Draft202012Validator(_contract(document)).iter_errors(document)]
        assert not errors, (document, errors)


def test_the_server_computes_every_document(server: Server[Any],
                                            documents: list[dict[str, Any]]) -> None:
    for result in call_many(server, [("calculate", {"document": d}) for d in documents]):
        answer(result)


def test_the_turn_of_unit_names_was_refused_by_the_old_schema() -> None:
    """D1 as it was: the turn contract without library units (``Sequence``) refuses
    ``examples/turn_units.json``; ``SequenceDocument`` accepts it."""
    from tactica.combat.contract.sequence import Sequence

    turn = json.loads((ROOT / "examples" / "turn_units.json").read_text(encoding="utf-8"))
    old = jsonschema.Draft202012Validator(Sequence.model_json_schema())
    assert any("steps" in e.json_path for e in old.iter_errors(turn))
    assert not list(jsonschema.Draft202012Validator(
        SequenceDocument.model_json_schema()).iter_errors(turn))


def test_flattening_keeps_what_a_document_may_hold() -> None:
    """``flatten`` and ``merge_objects`` only loosen: a document the full schema accepts,
    the flat one accepts too (here the examples, at every depth)."""
    turn = json.loads((ROOT / "examples" / "turn_units.json").read_text(encoding="utf-8"))
    for depth in (1, 2, 3, 99):
        flat = merge_objects("doc", flatten(ScenarioDocument.model_json_schema(), 0, depth),
                             flatten(SequenceDocument.model_json_schema(), 0, depth))
        assert not list(jsonschema.Draft202012Validator(flat).iter_errors(turn)), depth


def test_every_answer_validates_against_its_output_schema(
        server: Server[Any], listing: dict[str, Any]) -> None:
    """What the SDK's client checks on every call (``helpers.answer``), here by
    ``jsonschema`` directly, one call per tool."""
    outputs = _schemas(listing, "outputSchema")
    calls = [("simulate_combat", SIMULATIONS[2]), ("calculate", {"document": json.loads(
        EXAMPLES[0].read_text(encoding="utf-8"))}), ("find_units", {"query": "gaunts"}),
        ("lookup_unit", {"name": "Primus"}), ("lookup_rule", {"name": "Oath of Moment"}),
        ("list_units", {"keyword": "character", "limit": 3}),
        ("validate_list", {"text": (ROOT / "tests" / "fixtures" / "rosters" / "gw-app-11e" /
                                    "official_9.txt").read_text(encoding="utf-8")}),
        ("matchup", {"mine": "Intercessor Squad:5", "enemy": "Gretchin:10"}),
        ("plan", {"mine": "Intercessor Squad:5", "enemy": "Gretchin:10"})]
    assert {name for name, _ in calls} == set(outputs)
    for (name, _), result in zip(calls, call_many(server, calls), strict=True):
        jsonschema.validate(answer(result), outputs[name])


def test_the_context_argument_is_the_contracts(listing: dict[str, Any]) -> None:
    """``simulate_combat``'s ``context`` argument is made from the scenario contract
    (issue 46): every circumstance, with the contract's bounds (the listing leaves the
    help of arguments this deep out: it stays under its size bound)."""
    from tactica.combat.contract.circumstances import circumstances

    tool = next(t for t in listing["tools"] if t["name"] == "simulate_combat")
    context = tool["inputSchema"]["properties"]["context"]
    found = context.get("properties") or next(
        b["properties"] for b in context.get("anyOf", []) if "properties" in b)
    for c in circumstances():
        assert c.name in found, c.name
        if c.maximum is not None:
            assert f'"maximum": {json.dumps(c.maximum)}' in json.dumps(found[c.name]), c.name
        for choice in c.choices:
            assert json.dumps(choice) in json.dumps(found[c.name]), c.name
