"""``initialize`` answered before the SDK is imported (``tactica.assistant.early``): the
answer is the SDK's own, byte for byte in meaning, for every protocol version a client
may ask; the SDK's session is initialized by the request handed on, and its own answer
to it never reaches the client."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp.shared.message import SessionMessage
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

import tactica
from tactica.assistant import create_server
from tactica.assistant.early import (
    HANDSHAKE_VERSIONS,
    REPLAY_ID,
    early_answer,
    read_first_line,
)

SRC = Path(tactica.__file__).resolve().parents[1]


def _initialize(version: Any, ident: Any = 1) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": {"roots": {"listChanged": True}},
        "clientInfo": {"name": "test", "version": "1.0"}}}


def _sdk_answer(request: dict[str, Any]) -> dict[str, Any]:
    """The SDK's server's answer to ``request`` (no early answer in this process)."""
    server = create_server()

    async def go() -> dict[str, Any]:
        to_server, server_reads = anyio.create_memory_object_stream[Any](10)
        server_writes, from_server = anyio.create_memory_object_stream[Any](10)
        async with anyio.create_task_group() as tg:
            tg.start_soon(server.run, server_reads, server_writes,
                          server.create_initialization_options())
            await to_server.send(SessionMessage(
                types.jsonrpc_message_adapter.validate_python(request)))
            reply = await from_server.receive()
            tg.cancel_scope.cancel()
        dumped: dict[str, Any] = reply.message.model_dump(by_alias=True, exclude_unset=True,
                                                          mode="json")
        return dumped

    return anyio.run(go)


def test_the_handshake_versions_are_the_sdks() -> None:
    assert tuple(HANDSHAKE_PROTOCOL_VERSIONS) == HANDSHAKE_VERSIONS


@pytest.mark.parametrize("version", [*HANDSHAKE_VERSIONS, "2026-07-28", "1999-01-01"])
def test_the_early_answer_is_the_sdks(version: str) -> None:
    request = _initialize(version, ident="a-7")
    early = early_answer(json.dumps(request).encode() + b"\n")
    assert early is not None
    answer, replay = early
    assert json.loads(answer) == _sdk_answer(request)
    # the request handed on is the client's under the replay's id; the SDK accepts it
    handed = json.loads(replay)
    assert handed == {**request, "id": REPLAY_ID}
    assert _sdk_answer(handed) == {**json.loads(answer), "id": REPLAY_ID}


@pytest.mark.parametrize("line", [
    b"garbage\n", b"[]\n", b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n',
    b'{"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {}}\n',
    json.dumps(_initialize(7)).encode(),  # a version that is not text
    json.dumps(_initialize("2025-06-18", ident=True)).encode(),
    json.dumps({**_initialize("2025-06-18"), "params": {
        **_initialize("2025-06-18")["params"], "_meta": {}}}).encode(),
    b'{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}\n',
    b"\xff\xfe\n",
], ids=["garbage", "batch", "notification", "discover", "version", "id", "meta", "empty",
        "bytes"])
def test_anything_but_a_plain_initialize_is_handed_on_unanswered(line: bytes) -> None:
    assert early_answer(line) is None


def test_the_first_line_is_read_and_the_rest_kept() -> None:
    read, write = os.pipe()
    os.write(write, b'{"a": 1}\n{"b": 2}\n{"c"')
    os.close(write)
    try:
        assert read_first_line(read) == (b'{"a": 1}\n', b'{"b": 2}\n{"c"')
        assert read_first_line(read) == (b"", b"")
    finally:
        os.close(read)


def _server(*args: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(SRC), os.environ.get("PYTHONPATH")) if p)}
    return subprocess.Popen([sys.executable, "-m", *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)


def _replies(child: subprocess.Popen[bytes], messages: list[dict[str, Any]],
             count: int) -> tuple[list[dict[str, Any]], bytes]:
    """Send ``messages``, read ``count`` replies (60 s at most), then end the input (the
    SDK ends a request still running at the end of input) and read the rest."""
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in messages))
    child.stdin.flush()
    out = b""
    fd = child.stdout.fileno()
    while out.count(b"\n") < count:  # unbuffered: select sees every byte not yet read
        ready, _, _ = select.select([fd], [], [], 60)
        assert ready, f"no reply within 60 s after {out!r}"
        chunk = os.read(fd, 65536)
        assert chunk, f"the server ended after {out!r}"
        out += chunk
    rest, err = child.communicate(timeout=300)
    return [json.loads(line) for line in (out + rest).splitlines() if line], err


def test_tactica_mcp_answers_initialize_once_and_serves_after_it() -> None:
    """Over stdio: the early answer, then the tools listed by the SDK (the session it
    initialized from the request handed on), and nothing else: the SDK's own answer to
    the request handed on is left out; the end of input ends the server quietly."""
    child = _server("tactica", "--no-dataset", "mcp")
    replies, err = _replies(child, [
        _initialize("2025-06-18"), {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}], 2)
    assert [r["id"] for r in replies] == [1, 2], replies
    assert replies[0]["result"]["serverInfo"]["name"] == "tactica"
    assert replies[0]["result"]["protocolVersion"] == "2025-06-18"
    assert "find_units" in {t["name"] for t in replies[1]["result"]["tools"]}
    assert child.returncode == 0 and b"Traceback" not in err, err


def test_a_first_line_not_answered_early_reaches_the_sdk_unchanged() -> None:
    """``python -m tactica.assistant`` whose first message is a ping: the SDK answers it
    (before initialization: refused, as the SDK refuses it), then the handshake as usual."""
    child = _server("tactica.assistant")
    replies, err = _replies(child, [{"jsonrpc": "2.0", "id": 0, "method": "ping"},
                                    _initialize("2025-03-26")], 2)
    assert [r["id"] for r in replies] == [0, 1], replies
    assert replies[1]["result"]["protocolVersion"] == "2025-03-26"
    assert b"Traceback" not in err, err
