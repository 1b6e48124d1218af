"""``tactica mcp`` as an assistant runs it: a subprocess spoken to over stdin/stdout by
the SDK's stdio client. The seed pages alone (``--no-dataset``) keep its start short."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters

import tactica
from tactica.library import load_library

from .helpers import answer, assert_close, core, refusal

SRC = Path(tactica.__file__).resolve().parents[1]

BOLTERS = {"attacker": {"weapons": [{"name": "Bolt rifle", "count": 10, "A": "1", "skill": 3,
                                     "S": 4, "AP": -1, "D": "1"}]},
           "target": {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}}


def _session(calls: list[tuple[str, dict[str, Any]]]
             ) -> tuple[list[str], list[types.CallToolResult]]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(SRC), os.environ.get("PYTHONPATH")) if p)}
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "tactica", "--no-dataset", "mcp"], env=env)

    async def go() -> tuple[list[str], list[types.CallToolResult]]:
        async with Client(params, read_timeout_seconds=300) as client:
            tools = [t.name for t in (await client.list_tools()).tools]
            return tools, [await client.call_tool(name, args) for name, args in calls]

    return anyio.run(go)


def test_tactica_mcp_over_stdio() -> None:
    tools, (simulated, calculated, refused, looked_up) = _session([
        ("simulate_combat", {"attacker": "Neophyte Hybrids", "defender": "meq",
                             "context": {"distance": 10}, "effects": ["Primed and Readied"]}),
        ("calculate", {"document": BOLTERS}),
        ("lookup_unit", {"name": "Primsu"}),
        ("lookup_rule", {"name": "Cult Demagogue"})])
    assert tools == ["simulate_combat", "calculate", "find_units", "lookup_unit",
                     "lookup_rule", "list_units", "validate_list", "matchup", "plan"]
    got = answer(simulated)
    want = tactica.calculate(got["document"], load_library(dataset=False))
    assert abs(got["headline"]["expected_models_destroyed"] - want.models_destroyed.mean) \
        <= 1e-12
    assert abs(got["headline"]["p_unit_destroyed"] - want.p_unit_destroyed) <= 1e-12
    assert got["headline"]["effects_applied"] == ["Primed and Readied"]
    assert_close(core(answer(calculated)), tactica.calculate(BOLTERS).model_dump(mode="json"))
    assert "no unit named 'Primsu'; did you mean: Primus?" in refusal(refused)
    assert answer(looked_up)["rules"][0]["where"] == "Primus"
