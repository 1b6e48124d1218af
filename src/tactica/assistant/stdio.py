"""The server over stdin/stdout: one JSON-RPC message a line each way (the protocol's
stdio transport), read and written here rather than by the SDK's ``stdio_server``, for
what that one leaves unanswered or ends in a traceback:

* a line that is not JSON (garbage, a cut message, ``NaN``, JSON nested deeper than
  ``inputs.MAX_DEPTH``, a line over ``MAX_LINE_BYTES``) is answered with the protocol's
  parse error (-32700, id null) and JSON that is not a JSON-RPC message with -32600
  (with its id when it has one): one line naming the line and what is wrong. The SDK's
  reader drops both without a word;
* a string holding a lone surrogate (``"\\ud800"``: valid JSON, not text) reaches the
  server, whose tools refuse it naming the argument (the SDK's reader drops the whole
  message: the call was never answered); an answer that quotes one writes it as the
  text of its escape (``printable``), never as a JSON string the client cannot read;
* a client that goes away mid-call (a broken pipe) ends the server quietly.

As the SDK's transport does, the process's own descriptors 0 and 1 point at the null
device and at stderr while it serves, so that nothing else printed lands on the wire.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
from collections.abc import Callable
from typing import Any, BinaryIO

import anyio
import anyio.from_thread
import anyio.to_thread
import mcp_types as types
from anyio.lowlevel import EventLoopToken, current_token
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.server.lowlevel import Server
from mcp.shared.message import SessionMessage
from pydantic import ValidationError
from pydantic_core import PydanticSerializationError

from ..service import check_depth, one_line, printable
from .server import MAX_ARGUMENT_BYTES

__all__ = ["MAX_LINE_BYTES", "serve_stdio"]

#: The longest line read (a tool call's arguments and the protocol's envelope).
MAX_LINE_BYTES = MAX_ARGUMENT_BYTES + 16 * 1024


class _Refused(ValueError):
    """A line answered with a protocol error (its code, the id to answer, if any)."""

    def __init__(self, message: str, code: int = types.PARSE_ERROR,
                 id: str | int | None = None) -> None:
        super().__init__(message)
        self.code, self.id = code, id


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def read_message(line: bytes, number: int, place: str | None = None
                 ) -> types.JSONRPCMessage | None:
    """The message on line ``number`` (None for a blank line), or ``_Refused`` naming
    ``place`` (by default "line NUMBER").

    >>> read_message(b'{"jsonrpc": "2.0", "id": 7, "method": "ping"}', 1).id
    7
    >>> read_message(b"garbage", 3)
    Traceback (most recent call last):
    ...
    tactica.assistant.stdio._Refused: line 3: not JSON (Expecting value at character 1)
    """
    text = line.decode("utf-8", "replace")  # as the SDK's reader: U+FFFD
    if not text.strip(" \t\r\n"):  # blank as JSON sees it (not "\x1c", "\xa0": garbage)
        return None
    place = place or f"line {number}"
    try:
        check_depth(text, place)
        value = json.loads(text, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise _Refused(f"{place}: not JSON ({exc.msg} at character {exc.pos + 1})") from None
    except ValueError as exc:  # too deep, NaN, an integer of more than 4,300 digits
        message = str(exc) if str(exc).startswith(place) else f"{place}: {exc}"
        raise _Refused(message, id=_id_of(text)) from None
    try:
        return types.jsonrpc_message_adapter.validate_python(value, by_name=False)
    except ValidationError:
        raise _Refused(f"{place}: not a JSON-RPC 2.0 request, notification or response",
                       types.INVALID_REQUEST, _id_of(value)) from None


def _id_of(message: Any) -> str | int | None:
    """The id of a request that is refused (a decoded message, or its text when only a
    lenient reading, with ``NaN``, decodes it), so that its caller is answered; None
    when it has none."""
    if isinstance(message, str):
        try:
            message = json.loads(message)
        except (ValueError, RecursionError):
            return None
    asked = message.get("id") if isinstance(message, dict) else None
    return asked if isinstance(asked, str | int) and not isinstance(asked, bool) else None


def _error(exc: _Refused) -> SessionMessage:
    return SessionMessage(types.JSONRPCError(
        jsonrpc="2.0", id=exc.id,
        error=types.ErrorData(code=exc.code, message=printable(str(exc)))))


def _escaped(value: Any) -> Any:
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, dict):
        return {_escaped(k): _escaped(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_escaped(v) for v in value]
    return value


def write_form(message: SessionMessage) -> bytes:
    """The line that carries ``message``; text the wire cannot carry (a lone surrogate
    quoted from the input) written as its escape."""
    try:
        text = message.message.model_dump_json(by_alias=True, exclude_unset=True)
    except PydanticSerializationError:
        dumped = message.message.model_dump(by_alias=True, exclude_unset=True, mode="python")
        text = json.dumps(_escaped(dumped), ensure_ascii=False, default=str)
    return (text + "\n").encode("utf-8", "replace")


class _Wire:
    """The client's two pipes, moved off descriptors 0 and 1 (module text)."""

    def __init__(self) -> None:
        self.broken = False
        self._restore: list[Callable[[], None]] = []
        self.input: BinaryIO = self._claim(0, os.O_RDONLY, "rb")
        self.output: BinaryIO = self._claim(1, os.O_WRONLY, "wb")

    def _claim(self, fd: int, mode: int, how: str) -> BinaryIO:
        try:
            wire = os.dup(fd)
            stand_in = os.dup(2) if fd == 1 else os.open(os.devnull, mode)
            os.dup2(stand_in, fd)
            os.close(stand_in)
        except OSError:  # no descriptors to move (an embedded interpreter): in place
            stream = sys.stdin if fd == 0 else sys.stdout
            return stream.buffer
        self._restore.append(lambda: self._put_back(fd, wire))
        return os.fdopen(wire, how, closefd=False)  # type: ignore[return-value]

    def _put_back(self, fd: int, wire: int) -> None:
        if fd == 1:
            sys.stdout.flush()  # what was printed while serving: to stderr, as it was
            if self.broken:  # nothing may be written to a pipe with no reader
                wire = os.open(os.devnull, os.O_WRONLY)
        os.dup2(wire, fd)

    def release(self) -> None:
        for restore in self._restore:
            with contextlib.suppress(OSError):
                restore()

    def read_line(self) -> bytes:
        """The next line, at most ``MAX_LINE_BYTES`` (the rest of a longer one is read
        and dropped: the line is then ``MAX_LINE_BYTES + 1`` bytes)."""
        line = self.input.readline(MAX_LINE_BYTES + 1)
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            while (rest := self.input.readline(1 << 16)) and not rest.endswith(b"\n"):
                pass
        return line

    def write(self, data: bytes) -> bool:
        """Send ``data``; False once the client is gone."""
        try:
            self.output.write(data)
            self.output.flush()
        except (OSError, ValueError):  # a broken pipe, a closed stream
            self.broken = True
        return not self.broken


def _read_lines(wire: _Wire, token: EventLoopToken,
                lines: MemoryObjectSendStream[bytes]) -> None:
    """The client's lines onto ``lines``, on a daemon thread of its own: a thread blocked
    on a pipe the client left open must not keep the process alive once it is done."""
    try:
        while line := wire.read_line():
            anyio.from_thread.run(lines.send, line, token=token)
    except (anyio.BrokenResourceError, anyio.ClosedResourceError, RuntimeError, OSError):
        return  # the server stopped (its loop gone) or the pipe failed: nothing to read
    with contextlib.suppress(RuntimeError):  # the end of input, if the loop still runs
        anyio.from_thread.run_sync(lines.close, token=token)


async def _read(wire: _Wire, messages: MemoryObjectSendStream[SessionMessage | Exception],
                replies: MemoryObjectSendStream[SessionMessage]) -> None:
    lines, incoming = anyio.create_memory_object_stream[bytes]()
    threading.Thread(target=_read_lines, args=(wire, current_token(), lines),
                     name="tactica-mcp-stdin", daemon=True).start()
    async with messages, replies, incoming:
        number = 0
        async for line in incoming:
            number += 1
            try:
                if len(line) > MAX_LINE_BYTES:
                    raise _Refused(f"line {number}: longer than {MAX_LINE_BYTES:,} bytes")
                message = read_message(line, number)
            except _Refused as exc:
                await replies.send(_error(exc))
                continue
            if message is not None:
                await messages.send(SessionMessage(message))


async def _write(wire: _Wire, replies: MemoryObjectReceiveStream[SessionMessage],
                 stop: anyio.CancelScope) -> None:
    async with replies:
        async for message in replies:
            if not await anyio.to_thread.run_sync(wire.write, write_form(message)):
                stop.cancel()  # the client is gone: nothing more to answer
                return


def serve_stdio(server: Server[Any]) -> None:
    """Serve ``server`` to one client over stdin/stdout until it closes them or goes."""

    async def serve() -> None:
        messages_in, messages = anyio.create_memory_object_stream[SessionMessage | Exception]()
        replies, replies_out = anyio.create_memory_object_stream[SessionMessage]()
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(_read, wire, messages_in, replies.clone())
            tasks.start_soon(_write, wire, replies_out, tasks.cancel_scope)
            await server.run(messages, replies, server.create_initialization_options())

    wire = _Wire()
    try:
        anyio.run(serve)
    except Exception as exc:  # a fault of the server itself: one line, not a page
        if wire.broken:
            return  # the client went first: nobody is left to tell
        while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
            exc = exc.exceptions[0]  # type: ignore[assignment]
        print(f"error: tactica mcp stopped ({type(exc).__name__}: {one_line(exc)}); this "
              "is a bug in tactica", file=sys.stderr)
        raise SystemExit(1) from None
    finally:
        wire.release()
