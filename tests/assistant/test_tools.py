"""Every tool through the SDK's client, in-process: its answer is the core's answer (a
calculation equals ``tactica.calculate`` to 1e-12, a datasheet or a rule is the library's
record, a list's verdict is ``tactica.army.validate``'s)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from mcp.server.lowlevel import Server

import tactica
from tactica.army import load_roster, validate
from tactica.combat.contract.scenario import Context
from tactica.library import load_library
from tactica.lookup import GENERATED
from tactica.names import name_key
from tactica.units.scenario import ScenarioDocument, UnitRef
from tactica.units.sequence import SequenceDocument

from .helpers import answer, assert_close, call, call_many, core

ROOT = Path(__file__).resolve().parents[2]
ROSTERS = ROOT / "tests" / "fixtures" / "rosters"

BOLTERS = {"attacker": {"weapons": [{"name": "Bolt rifle", "count": 10, "A": "1", "skill": 3,
                                     "S": 4, "AP": -1, "D": "1"}]},
           "target": {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}}
UNITS = {"rules": "11th", "phase": "shooting", "context": {"distance": 12},
         "attacker": {"unit": "Intercessor Squad", "models": 10,
                      "wargear": ["Astartes grenade launcher:2"]},
         "target": {"unit": "Neophyte Hybrids", "models": 10, "led_by": "Primus"}}


def _band(pmf: list[float]) -> tuple[int, int, int]:
    """Median and 10-90% band by the definition (the smallest value whose cumulative
    probability reaches q), with numpy."""
    cdf = np.cumsum(pmf)
    p10, p50, p90 = (int(np.searchsorted(cdf, q - 1e-12)) for q in (0.1, 0.5, 0.9))
    return p50, p10, p90


def test_the_tools_are_listed_read_only_with_the_models_schemas(server: Server[Any]) -> None:
    """Each tool is read-only, says how it refuses, and advertises its argument model's
    fields: the scenario contract's unit reference and context, flattened (the whole
    listing's size and shape: ``test_schemas.py``)."""
    import anyio
    from mcp import Client

    async def tools() -> Any:
        async with Client(server, mode="legacy") as client:
            return (await client.list_tools()).tools

    listed = {t.name: t for t in anyio.run(tools)}
    assert set(listed) == {"simulate_combat", "calculate", "find_units", "lookup_unit",
                           "lookup_rule", "list_units", "validate_list", "matchup", "plan"}
    for tool in listed.values():
        assert tool.annotations is not None and tool.annotations.read_only_hint
        assert tool.description and "Read-only" in tool.description
        assert "error:" in tool.description  # how a refusal looks
        assert tool.output_schema is not None and "omitted" in tool.output_schema["required"]
    simulate = listed["simulate_combat"].input_schema
    assert simulate["required"] == ["attacker", "defender"]
    for side in ("attacker", "defender"):
        assert simulate["properties"][side]["type"] == "object"
        assert set(simulate["properties"][side]["properties"]) == set(UnitRef.model_fields)
    assert set(simulate["properties"]["context"]["properties"]) == set(Context.model_fields)
    document = listed["calculate"].input_schema["properties"]["document"]
    assert document["type"] == "object"
    assert set(document["properties"]) == set(ScenarioDocument.model_fields) | set(
        SequenceDocument.model_fields)


@pytest.mark.parametrize("document", [BOLTERS, UNITS], ids=["weapon lines", "units"])
def test_calculate_returns_the_result_document(server: Server[Any],
                                                document: dict[str, Any]) -> None:
    got = core(answer(call(server, "calculate", {"document": document})))
    want = tactica.calculate(document).model_dump(mode="json")
    assert_close(got, want)
    assert "not_calculated" in got and "notes" in got


def test_calculate_says_whose_stats_a_standard_target_has(server: Server[Any]) -> None:
    """Under the 10th rules the core notes that ``meq``, an Intercessor Squad, has
    11th-edition stats (``tactica.units.editions``); the tool says it as
    ``tactica.calculate`` does."""
    document = {"rules": "10th", "attacker": {"unit": "Neophyte Hybrids"},
                "target": {"unit": "meq"}}
    got = answer(call(server, "calculate", {"document": document}))
    assert got["notes"] == list(tactica.calculate(document).notes)
    assert any(n.startswith("Intercessor Squad: the library has no 10th-edition datasheet")
               for n in got["notes"])


def test_calculate_runs_a_sequence_with_library_units(server: Server[Any]) -> None:
    document = json.loads((ROOT / "examples" / "turn_units.json").read_text(encoding="utf-8"))
    got = core(answer(call(server, "calculate", {"document": document})))
    assert_close(got, tactica.calculate(document).model_dump(mode="json"))
    assert len(got["steps"]) == 4 and got["battle_shock"] is not None


def test_simulate_combat_builds_the_scenario_and_reads_its_figures(server: Server[Any]) -> None:
    args = {"attacker": {"unit": "Intercessor Squad", "models": 10, "led_by": "Lieutenant"},
            "defender": "Neophyte Hybrids", "context": {"distance": 10, "cover": True},
            "effects": ["Oath of Moment"], "full_result": True}
    got = answer(call(server, "simulate_combat", args))
    # the document as the scenario contract writes it, by hand
    # exact: the document's inputs (a distance of 10.0), parsed, never computed
    assert got["document"] == {
        "rules": "11th", "method": "exact", "phase": "shooting",
        "attacker": {"unit": "Intercessor Squad", "models": 10, "led_by": ["Lieutenant"]},
        "target": {"unit": "Neophyte Hybrids"}, "context": {"distance": 10.0, "cover": True},
        "effects": ["Oath of Moment"]}
    want = tactica.calculate(got["document"])
    assert_close(got["result"], want.model_dump(mode="json"))
    head = got["headline"]
    assert abs(head["expected_models_destroyed"] - want.models_destroyed.mean) <= 1e-12
    assert abs(head["expected_damage"] - want.damage.mean) <= 1e-12
    assert abs(head["p_unit_destroyed"] - want.p_unit_destroyed) <= 1e-12
    for key, dist in (("models_destroyed", want.models_destroyed), ("damage", want.damage)):
        spread = head[key]
        assert (spread["median"], spread["p10"], spread["p90"]) == _band(list(dist.pmf))
    assert head["target_models"] == 10  # Neophyte Hybrids' minimum
    assert head["not_calculated"] == list(want.not_calculated) and head["not_calculated"]
    assert head["effects_applied"] == ["Oath of Moment"]
    assert any("Lieutenant" in line for line in got["fielded"])
    assert any("Bolt" in w for w in head["weapons_used"])


def test_simulate_combat_plays_a_turn(server: Server[Any]) -> None:
    args = {"attacker": "Atalan Jackals", "defender": {"unit": "Intercessor Squad"},
            "phases": ["shooting", "charge", "fight"], "charge_distance": 7,
            "context": {"distance": 9}, "effects_by_phase": {"fight": [{"hit": 1}]}}
    got = answer(call(server, "simulate_combat", args))
    steps = got["document"]["steps"]
    assert [s["phase"] for s in steps] == ["shooting", "charge", "fight"]
    # exact: the charge distance is an input, parsed, never computed
    assert steps[1] == {"phase": "charge", "unit": "Atalan Jackals", "distance": 7.0}
    assert steps[2]["context"]["charged"] is True
    assert "effects" not in steps[0] and steps[2]["effects"] == [{"hit": 1}]
    want = tactica.calculate(got["document"])
    assert abs(got["headline"]["expected_models_destroyed"] - want.models_destroyed.mean) \
        <= 1e-12
    assert "result" not in got


def test_simulate_combat_samples_with_monte_carlo(server: Server[Any]) -> None:
    args = {"attacker": "Neophyte Hybrids", "defender": "meq", "method": "monte-carlo",
            "trials": 2000, "seed": 7}
    got = answer(call(server, "simulate_combat", args))
    want = tactica.calculate(got["document"])  # the same seed: the same sample
    assert got["headline"]["method"] == "monte-carlo"
    assert abs(got["headline"]["expected_damage"] - want.damage.mean) <= 1e-12


def test_lookup_unit_returns_the_librarys_datasheet(server: Server[Any]) -> None:
    got = answer(call(server, "lookup_unit", {"name": "intercessor squad"}))
    assert got["datasheet"] == load_library().datasheet("Intercessor Squad").model_dump(
        mode="json")


def test_lookup_rule_gives_text_cost_and_calculator_status(server: Server[Any]) -> None:
    primed, oath, lethal = (answer(r)["rules"] for r in call_many(server, [
        ("lookup_rule", {"name": "primed and readied"}),
        ("lookup_rule", {"name": "Oath of Moment"}),
        ("lookup_rule", {"name": "Lethal Hits", "rules": "11th"})]))
    # seed page 003: "PRIMED AND READIED  2CP", Host of Ascension, the shooting phase
    assert [(r["kind"], r["cp"], r["where"]) for r in primed] == \
        [("stratagem", 2, "Host of Ascension")]
    assert primed[0]["calculator"].startswith("modelled")
    assert primed[0]["record"]["effect"]  # the text as published
    assert primed[0]["generated"] is None  # published text: nothing generated
    assert oath[0]["kind"] == "army_rule" and oath[0]["calculator"].startswith("modelled")
    # no published text in the dataset: its effect code in words, marked, with its notes
    # (the sentence checked by hand in tests/effects/test_wording.py)
    assert oath[0]["generated"] == (
        "At the start of your Command phase, select one enemy unit. Re-roll failed Hit "
        "rolls for attacks that target the designated enemy unit, until your next Command "
        "phase.")
    assert oath[0]["generated_from"] == GENERATED
    assert oath[0]["notes"].startswith("Additionally add 1 to the Wound roll")
    assert lethal[0]["kind"] == "core_rule" and "Lethal Hits (11th text)" in \
        lethal[0]["calculator"]


def test_list_units_filters_by_faction_and_keyword(server: Server[Any]) -> None:
    got = answer(call(server, "list_units", {"faction": "Genestealer Cults",
                                             "keyword": "character"}))
    assert got["total"] == len(got["units"]) > 3
    for row in got["units"]:
        assert "CHARACTER" in row["keywords"] and "GENESTEALER CULTS" in row["faction_keywords"]
    names = {name_key(r["name"]) for r in got["units"]}
    assert name_key("Primus") in names and name_key("Neophyte Hybrids") not in names
    page = answer(call(server, "list_units", {"faction": "Genestealer Cults", "offset": 2,
                                              "limit": 2}))
    assert len(page["units"]) == 2 and page["total"] > 4


@pytest.mark.parametrize(("case", "legal"), [
    ("sm-detachment-overcap/input.newrecruit-json.json", False),
    ("chaos-knights-houndpack/input.rosterizer.json", True)])
def test_validate_list_gives_the_verdict_and_violations(server: Server[Any], case: str,
                                                         legal: bool) -> None:
    path = ROSTERS / case
    got = answer(call(server, "validate_list", {"text": path.read_text(encoding="utf-8")}))
    lib = load_library()
    report = validate(load_roster(path, library=lib), lib)
    assert got["legal"] is legal is report.legal
    assert got["violations"] == [v.model_dump(mode="json") for v in report.violations]
    assert got["total"] == report.prices.total
    if not legal:  # the fixture's known fault (tests/army/test_faction_rosters.py)
        assert "DETACHMENT_POINTS" in {v["code"] for v in got["violations"]}


def test_calculate_reads_a_document_sent_as_json_text(server: Server[Any]) -> None:
    as_text = answer(call(server, "calculate", {"document": json.dumps(BOLTERS)}))
    assert as_text == answer(call(server, "calculate", {"document": BOLTERS}))


def test_the_direct_in_process_client_gets_the_same_answer(server: Server[Any]) -> None:
    legacy, direct = (call_many(server, [("calculate", {"document": BOLTERS})], mode=m)[0]
                      for m in ("legacy", "auto"))
    assert answer(legacy) == answer(direct)


def test_a_turn_has_the_battle_shock_test_tactica_turn_gives(server: Server[Any]) -> None:
    """The defender's Leadership is its datasheet's, as ``tactica turn`` takes it; the
    test after the turn is the engine's, the same through both doors (issue 44, D6)."""
    from typer.testing import CliRunner

    from tactica.cli import commands

    args = {"attacker": "Atalan Jackals", "defender": {"unit": "Intercessor Squad"},
            "phases": ["shooting", "charge", "fight"], "charge_distance": 7,
            "context": {"distance": 9}}
    got, led = (answer(r) for r in call_many(server, [
        ("simulate_combat", args), ("simulate_combat", {**args, "leadership": 8})]))
    printed = CliRunner().invoke(commands.app, [
        "turn", "--step", "Atalan Jackals:shooting", "--step", "Atalan Jackals:charge@7",
        "--target", "Intercessor Squad", "--distance", "9", "--json"])
    assert printed.exit_code == 0, printed.output
    want = json.loads(printed.stdout)
    assert got["document"]["target_leadership"] == 6  # Intercessor Squad: Ld 6+
    assert_close(got["battle_shock"], want["battle_shock"])
    assert abs(got["headline"]["expected_models_destroyed"]
               - want["models_destroyed"]["mean"]) <= 1e-12
    # a worse Leadership: the same chance to be tested, a greater one to fail
    assert led["battle_shock"]["leadership"] == 8
    assert abs(led["battle_shock"]["p_tested"] - got["battle_shock"]["p_tested"]) <= 1e-12
    assert led["battle_shock"]["p_battle_shocked"] > got["battle_shock"]["p_battle_shocked"]


def test_a_leader_in_the_context_is_fielded_with_the_attacker(server: Server[Any]) -> None:
    """D3: ``context.led_by`` did nothing (the same damage with or without the
    Lieutenant); it is now the attacker's leader, as ``attacker.led_by`` makes it."""
    plain, in_context, attached = (answer(r) for r in call_many(server, [
        ("simulate_combat", {"attacker": "Intercessor Squad", "defender": "meq"}),
        ("simulate_combat", {"attacker": "Intercessor Squad", "defender": "meq",
                             "context": {"led_by": ["Lieutenant"]}}),
        ("simulate_combat", {"attacker": {"unit": "Intercessor Squad",
                                          "led_by": "Lieutenant"}, "defender": "meq"})]))
    assert in_context["document"] == attached["document"]
    assert in_context["document"]["attacker"]["led_by"] == ["Lieutenant"]
    assert "led_by" not in in_context["document"]["context"]
    assert in_context["headline"] == attached["headline"]
    assert in_context["headline"]["expected_damage"] > plain["headline"]["expected_damage"]
