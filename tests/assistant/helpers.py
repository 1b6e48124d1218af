"""Calling the server through the SDK's client, and reading its answers."""

from __future__ import annotations

import json
from typing import Any

import anyio
import mcp_types as types
from mcp import Client
from mcp.server.lowlevel import Server


def call_many(server: Server[Any], calls: list[tuple[str, dict[str, Any]]],
              mode: str = "legacy") -> list[types.CallToolResult]:
    """Each call's result, over one client session."""
    async def go() -> list[types.CallToolResult]:
        async with Client(server, mode=mode, read_timeout_seconds=300) as client:
            return [await client.call_tool(name, args) for name, args in calls]

    return anyio.run(go)


def call(server: Server[Any], name: str, args: dict[str, Any]) -> types.CallToolResult:
    return call_many(server, [(name, args)])[0]


def answer(result: types.CallToolResult) -> dict[str, Any]:
    """A successful call's document; its text and structured content agree (the SDK's
    client has checked it against the tool's output schema), and it says what it left
    out (``omitted``: sentences, each saying how to ask for it)."""
    assert not result.is_error, result.content
    text = result.content[0]
    assert isinstance(text, types.TextContent)
    document: dict[str, Any] = json.loads(text.text)
    assert document == result.structured_content
    assert text.text == json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    assert isinstance(document["omitted"], list)
    assert all(isinstance(line, str) and line for line in document["omitted"])
    return document


def core(document: dict[str, Any]) -> dict[str, Any]:
    """An answer without what the assistant's door adds (``omitted``, ``detail``): the
    core's document."""
    return {k: v for k, v in document.items() if k not in ("omitted", "detail")}


def refusal(result: types.CallToolResult) -> str:
    """A refused call's one line."""
    assert result.is_error
    assert len(result.content) == 1
    text = result.content[0]
    assert isinstance(text, types.TextContent)
    assert "\n" not in text.text and text.text.startswith("error: "), text.text
    assert "Traceback" not in text.text and "errors.pydantic.dev" not in text.text
    return text.text


def assert_close(got: Any, want: Any, tol: float = 1e-12, path: str = "") -> None:
    """Equal documents, numbers within ``tol``."""
    if isinstance(want, dict):
        assert isinstance(got, dict) and got.keys() == want.keys(), path
        for key in want:
            assert_close(got[key], want[key], tol, f"{path}.{key}")
    elif isinstance(want, list | tuple):
        assert isinstance(got, list | tuple) and len(got) == len(want), path
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            assert_close(g, w, tol, f"{path}[{i}]")
    elif isinstance(want, float) and not isinstance(want, bool):
        assert abs(got - want) <= tol, f"{path}: {got} != {want}"
    else:
        assert got == want, f"{path}: {got!r} != {want!r}"
