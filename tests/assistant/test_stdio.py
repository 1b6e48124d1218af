"""``tactica mcp`` as an assistant runs it: a subprocess spoken to over stdin/stdout by
the SDK's stdio client. The seed pages alone (``--no-dataset``) keep its start short."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters

import tactica
from tactica.assistant.stdio import MAX_LINE_BYTES
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


# --- the wire itself (issue 47): every line answered, a departed client no traceback ---

INITIALIZE = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "raw", "version": "1"}}}


def _raw_server() -> subprocess.Popen[bytes]:
    """``tactica mcp`` with its pipes held by the test, past the initialize handshake."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(SRC), os.environ.get("PYTHONPATH")) if p)}
    proc = subprocess.Popen([sys.executable, "-m", "tactica", "--no-dataset", "mcp"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(INITIALIZE).encode() + b"\n")
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["id"] == 0
    proc.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
    return proc


def _lookup(id: int, name: str) -> bytes:
    """A ``lookup_unit`` call, its name as JSON writes it (a surrogate as ``\\ud800``)."""
    return json.dumps({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
        "name": "lookup_unit", "arguments": {"name": name}}}).encode()


#: (a line, what it is answered with: the id, the error code or the tool's refusal)
WIRE: list[tuple[bytes, int | None, str]] = [
    (_lookup(1, "\ud800"), 1, "error: name: text holds a lone surrogate (U+D800)"),
    (b"garbage", None, "-32700 line 4: not JSON"),
    (b"[" * 100_000 + b"]" * 100_000, None, "-32700 line 5: nested deeper than 64 levels"),
    (b'{"jsonrpc": "2.0", "id": 9, "method": "ping", "params": NaN}', 9,
     "-32700 line 6: NaN is not a JSON number"),
    (b'{"jsonrpc": "1.0", "id": 7, "method": "ping"}', 7, "-32600 line 7: not a JSON-RPC"),
    (b"[1, 2]", None, "-32600 line 8: not a JSON-RPC"),
    (b'"x' + b"y" * (MAX_LINE_BYTES + 10) + b'"', None, "-32700 line 9: longer than"),
    (_lookup(2, "Primus"), 2, '"name":"Primus"'),
]


def test_every_line_is_answered_in_one_line() -> None:
    proc = _raw_server()
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for line, id, want in WIRE:
            proc.stdin.write(line + b"\n")
            proc.stdin.flush()
            reply = json.loads(proc.stdout.readline())
            assert reply["id"] == id, (line[:60], reply)
            if "error" in reply:
                got = f"{reply['error']['code']} {reply['error']['message']}"
                assert "\n" not in got
            else:
                got = reply["result"]["content"][0]["text"]
            assert want in got, (line[:60], got)
    finally:
        proc.stdin.close()
        assert proc.wait(60) == 0
        assert proc.stderr is not None and proc.stderr.read() == b""


def test_a_client_gone_mid_call_ends_the_server_quietly() -> None:
    proc = _raw_server()
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.write(_lookup(1, "Primus") + b"\n")
    proc.stdin.flush()
    proc.stdout.close()  # the client goes before the answer; its stdin is left open
    try:
        assert proc.wait(120) == 0
        assert proc.stderr.read() == b""  # no BrokenPipeError traceback
    finally:
        proc.stdin.close()
        if proc.poll() is None:
            proc.kill()
