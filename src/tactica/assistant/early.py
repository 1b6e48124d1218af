"""Answering an assistant's ``initialize`` before anything heavy is imported.

Over stdio an assistant starts ``tactica mcp`` and waits for the answer to its
``initialize`` request. Importing the official SDK takes most of a second of CPU (some 550
pydantic models), more on a loaded machine; the answer itself needs none of it. So the
server, with only the standard library imported:

1. reads the first line of its stdin (``read_first_line``);
2. if it is a plain handshake ``initialize`` request (``early_answer``), writes the answer
   the SDK would write (``initialize_result``: the same protocol version negotiated, the
   same capabilities, server info and instructions; a test compares the two) at once;
3. hands stdin on to the SDK's transport through a pipe (``hand_on``): first the request
   again, under an id of its own (``REPLAY_ID``), so that the SDK's session is initialized
   with the client's own parameters, then everything the client sends after it, copied by
   a thread. The SDK's answer to that replayed request is not sent (``Server.run`` drops
   it: ``tactica.assistant.server``).

Any other first line (a modern-era request, a notification, a line that is not JSON) is
handed on unchanged: the SDK's transport answers it as it would have. Nothing here is
used over HTTP.
"""

from __future__ import annotations

import json
import os
import threading
from typing import Any

from ..service import __version__

__all__ = ["CAPABILITIES", "HANDSHAKE_VERSIONS", "INSTRUCTIONS", "REPLAY_ID", "SERVER_INFO",
           "answer_early", "early_answer", "initialize_result", "replayed"]

INSTRUCTIONS = (
    "tactica: Warhammer 40,000 rules engine. Exact combat odds (simulate_combat for units "
    "by name, calculate for scenario and turn documents), unit names from what a player "
    "types (find_units), datasheets and rules by name (lookup_unit, lookup_rule, "
    "list_units), army-list checking (validate_list) and army against army (matchup: "
    "every unit against every unit; plan: who shoots whom). Every tool is read-only. "
    "Always tell the user what a result lists under 'not_calculated': the figures leave "
    "those rules out; an answer's 'omitted' says what it left out and how to ask for it.")
#: The server as ``initialize`` describes it (``create_server`` gives the SDK the same).
SERVER_INFO: dict[str, str] = {
    "name": "tactica", "title": "tactica", "version": __version__,
    "description": "Warhammer 40,000 rules engine: exact combat odds, datasheets, rules "
    "and army lists"}
#: What the server offers (tools, a list that does not change).
CAPABILITIES: dict[str, Any] = {"tools": {"listChanged": False}}
#: The protocol versions of the ``initialize`` handshake, oldest first: the SDK's
#: ``HANDSHAKE_PROTOCOL_VERSIONS`` (a test keeps them the same).
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
#: The id under which the client's ``initialize`` is handed on to the SDK.
REPLAY_ID = "tactica-early-initialize"
#: The longest first line read before handing everything on as it came.
_MAX_LINE = 1 << 20

#: Whether this process answered ``initialize`` early (read by ``create_server``).
_answered = False


def replayed() -> bool:
    """Whether ``initialize`` was answered here: the SDK's answer to ``REPLAY_ID`` is then
    not to be sent."""
    return _answered


def initialize_result(params: dict[str, Any]) -> dict[str, Any]:
    """The result of ``initialize`` as the SDK's server writes it (the requested protocol
    version when it is one of the handshake's, else the newest)."""
    requested = params.get("protocolVersion")
    version = requested if requested in HANDSHAKE_VERSIONS else HANDSHAKE_VERSIONS[-1]
    return {"capabilities": CAPABILITIES, "instructions": INSTRUCTIONS,
            "protocolVersion": version, "serverInfo": SERVER_INFO}


def early_answer(line: bytes) -> tuple[bytes, bytes] | None:
    """For a plain handshake ``initialize`` request: the answer to write and the request
    to hand on (under ``REPLAY_ID``); ``None`` for anything else."""
    try:
        message = json.loads(line)
    except (ValueError, UnicodeError, RecursionError):
        return None
    if not isinstance(message, dict) or message.get("method") != "initialize" or \
            set(message) != {"jsonrpc", "id", "method", "params"} or \
            message["jsonrpc"] != "2.0":
        return None
    ident, params = message["id"], message["params"]
    if isinstance(ident, bool) or not isinstance(ident, int | str) or \
            not isinstance(params, dict):
        return None
    client = params.get("clientInfo")
    if set(params) != {"protocolVersion", "capabilities", "clientInfo"} or \
            not isinstance(params["protocolVersion"], str) or \
            not isinstance(params["capabilities"], dict) or not isinstance(client, dict) \
            or not isinstance(client.get("name"), str) \
            or not isinstance(client.get("version"), str):
        return None
    answer = {"jsonrpc": "2.0", "id": ident, "result": initialize_result(params)}
    replay = {**message, "id": REPLAY_ID}
    return (json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode() + b"\n",
            json.dumps(replay, ensure_ascii=False).encode() + b"\n")


def read_first_line(fd: int) -> tuple[bytes, bytes]:
    """The first line of ``fd`` (its newline included, when it has one) and what was read
    after it; at end of input or past ``_MAX_LINE`` bytes, what there was."""
    data = b""
    while b"\n" not in data and len(data) < _MAX_LINE:
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        data += chunk
    line, newline, rest = data.partition(b"\n")
    return (line + newline, rest) if newline else (data, b"")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _copy(first: bytes, source: int, sink: int) -> None:
    """Write ``first`` into ``sink``, then copy ``source`` into it until ``source`` ends
    (or ``sink`` is closed); then close ``sink``: the SDK's transport sees the client's
    end of input."""
    try:
        _write_all(sink, first)
        while chunk := os.read(source, 65536):
            _write_all(sink, chunk)
    except OSError:
        pass  # the server stopped reading: nothing more to hand on
    finally:
        os.close(sink)
        os.close(source)


def hand_on(first: bytes, fd: int = 0) -> None:
    """Make ``fd`` a pipe that gives ``first``, then everything ``fd`` gave after it (a
    thread copies it)."""
    read_end, write_end = os.pipe()
    client = os.dup(fd)
    os.dup2(read_end, fd)
    os.close(read_end)
    threading.Thread(target=_copy, args=(first, client, write_end), daemon=True,
                     name="tactica-mcp-stdin").start()


def answer_early(fd_in: int = 0, fd_out: int = 1) -> bool:
    """Read the client's first message; answer it if it is ``initialize`` (module text);
    hand stdin on to the SDK's transport either way. Whether it answered. Only where
    pipes and ``dup2`` are (POSIX), and only when the SDK is installed (else the server's
    own refusal says which extra to install)."""
    global _answered
    import importlib.util

    if os.name != "posix" or importlib.util.find_spec("mcp") is None:
        return False
    line, rest = read_first_line(fd_in)
    early = early_answer(line)
    if early is None:
        hand_on(line + rest, fd_in)
        return False
    answer, replay = early
    try:
        _write_all(fd_out, answer)
    except OSError:  # the client is gone: the transport finds its end of input
        hand_on(b"", fd_in)
        return False
    _answered = True
    hand_on(replay + rest, fd_in)
    return True
