"""A scripted assistant session (issue 44): "what do 10 Intercessors do to 10 Termagants at
12 inches, and with Oath of Moment?", answered through tool calls only, over stdio, by the
SDK's own client speaking to ``tactica mcp`` as an assistant does (the ``initialize``
handshake), starting from the names as a player says them. The script does what an
assistant does with a refusal: it takes the first name offered and calls again.

The transcript is kept in ``docs/mcp.md`` (between ``<!-- session:start -->`` and
``<!-- session:end -->``); the test checks that its calls and refusals are this session's.
After a change, ``python tests/assistant/test_session.py`` prints the section to paste.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "mcp.md"
QUESTION = ("What do 10 Intercessors do to 10 Termagants at 12 inches, and with Oath of "
            "Moment?")
#: The calls a model would make for the question, with the names as the player says them.
FIRST = {"attacker": {"unit": "Intercessors", "models": 10},
         "defender": {"unit": "Termagaunts", "models": 10}, "context": {"distance": 12}}

Entry = tuple[str, dict[str, Any], str, dict[str, Any] | None]


def _text(result: types.CallToolResult) -> str:
    content = result.content[0]
    assert isinstance(content, types.TextContent)
    return content.text


def _corrected(args: dict[str, Any], refusal: str) -> dict[str, Any] | None:
    """The arguments with the name a refusal named replaced by the first it offers (what
    an assistant does with "did you mean"), or ``None`` when it offers none."""
    found = re.match(r"error: (\w+)\.unit: no unit named '([^']*)'; did you mean: ([^,?]+)",
                     refusal)
    if found is None:
        return None
    side, _, first = found.groups()
    return {**args, side: {**args[side], "unit": first}}


async def _ask(client: Client, tool: str, args: dict[str, Any],
               transcript: list[Entry]) -> dict[str, Any]:
    """Call ``tool``; after a refusal with close names, call again with the first."""
    for _ in range(3):
        result = await client.call_tool(tool, args)
        text = _text(result)
        if not result.is_error:
            document: dict[str, Any] = json.loads(text)
            transcript.append((tool, args, "", document))
            return document
        transcript.append((tool, args, text, None))
        corrected = _corrected(args, text)
        assert corrected is not None, text
        args = corrected
    raise AssertionError(f"{tool}: still refused after three calls")


def session() -> list[Entry]:
    """The session's calls and answers, in order."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(ROOT / "src"), os.environ.get("PYTHONPATH")) if p)}
    params = StdioServerParameters(command=sys.executable, args=["-m", "tactica", "mcp"],
                                   env=env)
    transcript: list[Entry] = []

    async def go() -> None:
        async with Client(params, mode="legacy", read_timeout_seconds=300) as client:
            plain = await _ask(client, "simulate_combat", FIRST, transcript)
            oath = {**transcript[-1][1], "effects": ["Oath of Moment"]}
            await _ask(client, "simulate_combat", oath, transcript)
            await _ask(client, "lookup_rule", {"name": "Oath of Moment"}, transcript)
            assert plain

    anyio.run(go)
    return transcript


def _short(tool: str, document: dict[str, Any]) -> dict[str, Any]:
    """What the transcript shows of an answer (the headline's main figures, the units
    as fielded, what it left out; a rule's name, kind and status)."""
    if tool == "simulate_combat":
        head = document["headline"]
        keep = ("expected_models_destroyed", "p_unit_destroyed", "models_destroyed",
                "weapons_used", "not_calculated", "notes", "effects_applied")
        return {"headline": {k: head[k] for k in keep if head[k]},
                "fielded": [f for f in document["fielded"] if not f.startswith("default")],
                "omitted": document["omitted"]}
    rules = [{k: r[k] for k in ("name", "kind", "calculator") if k in r}
             for r in document["rules"]]
    return {"rules": rules}


def render(transcript: list[Entry]) -> str:
    """The transcript as ``docs/mcp.md`` shows it."""
    lines = [f"> {QUESTION}", ""]
    for tool, args, refusal, document in transcript:
        lines += ["```json", f"→ {tool} {json.dumps(args, ensure_ascii=False)}"]
        if document is None:
            lines.append(f"← {refusal}")
        else:
            shown = json.dumps(_short(tool, document), ensure_ascii=False, indent=2)
            lines.append("← " + shown.replace("\n", "\n  "))
        lines += ["```", ""]
    return "\n".join(lines).rstrip() + "\n"


def _calls_and_refusals(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(("→ ", "← error"))]


def test_an_assistant_answers_the_question_through_tool_calls_only() -> None:
    import tactica

    transcript = session()
    tools = [t for t, _, _, _ in transcript]
    assert tools == ["simulate_combat"] * 4 + ["lookup_rule"]
    # the names as the player said them, corrected from the first names offered (the
    # target is fielded first: its name is refused first)
    first, second = transcript[0][2], transcript[1][2]
    assert first.startswith("error: defender.unit: no unit named 'Termagaunts'; did you "
                            "mean: Termagants,")
    assert second.startswith("error: attacker.unit: no unit named 'Intercessors'; did you "
                             "mean: Intercessor Squad,")
    plain, oath = transcript[2][3], transcript[3][3]
    assert plain is not None and oath is not None
    assert plain["document"]["attacker"] == {"unit": "Intercessor Squad", "models": 10}
    assert oath["headline"]["effects_applied"] == ["Oath of Moment"]
    for got in (plain, oath):  # the core's numbers
        want = tactica.calculate(got["document"])
        assert abs(got["headline"]["expected_models_destroyed"]
                   - want.models_destroyed.mean) <= 1e-12
        assert abs(got["headline"]["p_unit_destroyed"] - want.p_unit_destroyed) <= 1e-12
        assert got["headline"]["not_calculated"] == list(want.not_calculated)
    assert oath["headline"]["p_unit_destroyed"] > plain["headline"]["p_unit_destroyed"]
    rule = transcript[4][3]
    assert rule is not None and rule["rules"][0]["calculator"].startswith("modelled")
    # the transcript in docs/mcp.md is this session's: its calls and refusals
    kept = DOC.read_text(encoding="utf-8").split("<!-- session:start -->")[1].split(
        "<!-- session:end -->")[0]
    assert _calls_and_refusals(kept) == _calls_and_refusals(render(transcript))


if __name__ == "__main__":  # print the section of docs/mcp.md
    print(render(session()))
