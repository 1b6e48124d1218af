"""The MCP Inspector's command line (a client nobody here wrote, from npm) against
``tactica mcp`` over stdio: its schema portability check finds nothing, and it calls
every tool with object and list arguments, which it sends as JSON only where the schema
says ``object`` or ``array`` (issue 44). Slow (each call starts the server); skipped
where ``npx`` is not installed or the npm registry cannot be reached."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import tactica

pytestmark = pytest.mark.slow

SRC = Path(tactica.__file__).resolve().parents[1]
ROSTER = Path(__file__).resolve().parents[1] / "fixtures" / "rosters" / "gw-app-11e" / \
    "official_9.txt"
INSPECTOR = os.environ.get("TACTICA_MCP_INSPECTOR", "@modelcontextprotocol/inspector@2")
#: What npm prints when it cannot reach the registry.
OFFLINE = ("ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "ECONNREFUSED", "ENETUNREACH")

#: (tool, its arguments as KEY=VALUE, what the answer must hold)
CALLS: list[tuple[str, list[str], str]] = [
    ("simulate_combat", ['attacker={"unit": "Intercessor Squad", "models": 10}',
                         'defender={"unit": "Termagants", "models": 10}',
                         'context={"distance": 12}', 'effects=["Oath of Moment"]'],
     "expected_models_destroyed"),
    ("calculate", ['document={"attacker": {"unit": "Intercessor Squad"}, '
                   '"target": {"unit": "meq"}, "context": {"distance": 12}}'],
     "p_unit_destroyed"),
    ("find_units", ["query=Intercessors", "limit=2"], "Intercessor Squad"),
    ("lookup_unit", ["name=Termagants"], "datasheet"),
    ("lookup_rule", ["name=Oath of Moment"], "calculator"),
    ("list_units", ["faction=Genestealer Cults", "keyword=Character", "limit=3"], "total"),
    ("validate_list", [f"text={ROSTER.read_text(encoding='utf-8')}"], "legal"),
    ("matchup", ["mine=Intercessor Squad:10", "enemy=Termagants:20",
                 'stratagems={"Intercessor Squad": ["Armour of Contempt"]}',
                 'phases=["shooting"]'], "best"),
    ("plan", ["mine=Intercessor Squad:10, Hellblaster Squad:5", "enemy=Termagants:20",
              'forbid=[["Hellblaster Squad", "Termagants"]]'], "volleys"),
]


def _inspector(*options: str) -> subprocess.CompletedProcess[str]:
    npx = shutil.which("npx")
    if npx is None:
        pytest.skip("npx is not installed: the MCP Inspector's CLI comes from npm")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(SRC), os.environ.get("PYTHONPATH")) if p)}
    done = subprocess.run(
        # the server's bound per call raised from 5 s: each call here starts a server whose
        # first call loads the library, on a machine that may be busy (the schemas are
        # what this checks, not the speed)
        [npx, "--yes", INSPECTOR, "--cli", *options, "--", sys.executable, "-m", "tactica",
         "mcp", "--timeout", "60"], capture_output=True, text=True, env=env, timeout=600)
    if done.returncode != 0 and any(word in done.stderr for word in OFFLINE):
        pytest.skip(f"the npm registry cannot be reached: {done.stderr.strip()[-200:]}")
    return done


def test_the_inspector_finds_the_schemas_portable() -> None:
    done = _inspector("--method", "tools/list", "--strict")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Schema portability" not in done.stderr, done.stderr
    tools = {t["name"] for t in json.loads(done.stdout)["tools"]}
    assert tools == {name for name, _, _ in CALLS}


@pytest.mark.parametrize(("tool", "arguments", "holds"), CALLS, ids=[c[0] for c in CALLS])
def test_the_inspector_calls_every_tool_with_object_arguments(
        tool: str, arguments: list[str], holds: str) -> None:
    done = _inspector("--format", "json", "--method", "tools/call", "--tool-name", tool,
                      "--tool-arg", *arguments)
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    result: dict[str, Any] = json.loads(done.stdout)["result"]
    assert not result.get("isError"), result
    assert holds in result["content"][0]["text"]
    assert result["structuredContent"] == json.loads(result["content"][0]["text"])
