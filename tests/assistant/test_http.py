"""The server over streamable HTTP (``tactica mcp --http``): the same app, served by
uvicorn on a thread on a free local port, spoken to by the SDK's HTTP client."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import mcp_types as types
import pytest
import uvicorn
from mcp import Client

import tactica
from tactica.assistant import create_server

from .helpers import answer, assert_close, core, refusal

BOLTERS = {"attacker": {"weapons": [{"name": "Bolt rifle", "count": 10, "A": "1", "skill": 3,
                                     "S": 4, "AP": -1, "D": "1"}]},
           "target": {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}}


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_server().streamable_http_app(host="127.0.0.1")
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(600):
        if server.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/mcp"
    server.should_exit = True
    thread.join(timeout=10)


def test_tools_over_streamable_http(url: str) -> None:
    async def go() -> list[types.CallToolResult]:
        async with Client(url, read_timeout_seconds=300) as client:
            return [await client.call_tool("calculate", {"document": BOLTERS}),
                    await client.call_tool("lookup_unit", {"name": "Primsu"})]

    calculated, refused = anyio.run(go)
    assert_close(core(answer(calculated)), tactica.calculate(BOLTERS).model_dump(mode="json"))
    assert "Primus" in refusal(refused)


def test_a_foreign_host_is_refused(url: str) -> None:
    """DNS rebinding: a page on another name must not reach the local server."""
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"}}}
    response = httpx.post(url, json=body, headers={
        "Host": "evil.example", "Accept": "application/json, text/event-stream"})
    assert response.status_code == 421
