"""The Model Context Protocol server: the tools of ``tactica.assistant.tools`` on the
official SDK's low-level ``Server`` (``mcp.server.lowlevel``).

The low-level server rather than the SDK's ``MCPServer`` decorator API, for two things
the decorators decide for us: the input schemas are the JSON Schemas of tactica's own
pydantic models (``UnitRef``, ``Context``, ``ScenarioDocument``, the turn
``SequenceDocument``), flattened (``tactica.assistant.schemas``), not ones derived from a
function signature, and each tool declares its output schema (``outputs``); and a refusal
is exactly the one line the command line prints (``error: attacker.unit: no unit named
...``), not the SDK's "Error executing tool" prefix over pydantic's multi-line report.

Every call is bounded:

* in size: the arguments' JSON at most ``MAX_ARGUMENT_BYTES``; each argument model's own
  bounds (the scenario contract's 100 weapon lines and 200 models, a list's 256 KB and
  5,000 lines, at most a million Monte Carlo trials); the exact engine's size model
  refuses, before computing, what would take more than about 3 s on one core
  (``tactica.combat.size``), with "use method monte-carlo";
* in time: a call runs on a worker thread (at most ``workers`` at once; a call waits at
  most ``wait`` seconds for one, else it is refused as busy) and is answered within
  ``timeout`` seconds or refused. A thread cannot be stopped: a call past its timeout
  finishes in the background holding its worker slot (``_Job``), which the size bounds
  above keep to a few seconds; a call abandoned before its thread started never runs.

The library and every faction's rules are loaded once, on a thread (``warm_up``) started
by the first ``tools/list`` or ``tools/call``, not before. Over stdio ``initialize`` is
answered before the SDK is imported (``tactica.assistant.early``); the SDK's own answer
to the request handed on to it is left out (``_Server.run``). tactica's own side (the
tools, their argument models and schemas, the engine) is imported on a worker thread at
the first ``tools/list`` or ``tools/call`` (``_Calls.catalogue``): importing it costs
about as much CPU as the SDK's own start. A call made while the library loads waits for
it (up to ``STARTUP_TIMEOUT``).
"""

from __future__ import annotations

import contextlib
import json
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server.lowlevel import Server
from pydantic import ValidationError

from ..service import DocumentError, InputError, one_line, surrogates_in, warm_up
from . import early
from .early import INSTRUCTIONS, SERVER_INFO

if TYPE_CHECKING:
    from ..service import Library
    from .tools import ToolSpec

__all__ = ["MAX_ARGUMENT_BYTES", "STARTUP_TIMEOUT", "Limits", "create_server", "warm_up"]

#: The largest arguments object a call may send (the web API's request bound).
MAX_ARGUMENT_BYTES = 256 * 1024
#: Seconds the first call waits for the library to load.
STARTUP_TIMEOUT = 120.0


@dataclass(frozen=True)
class Limits:
    """How long a call may run, how many run at once, how long one waits for a worker."""

    timeout: float = 5.0
    workers: int = 2
    wait: float = 2.0
    #: ``matchup`` and ``plan``: every unit of one army against every unit of the other
    #: (a 1,000-cell matrix of two 2,000-point lists takes 1-2 s, a plan 2-5 s, on one
    #: core)
    army_timeout: float = 60.0


@dataclass
class _Warm:
    """The library, loaded once on a thread of its own (module text)."""

    done: threading.Event = field(default_factory=threading.Event)
    #: the index of every datasheet's abilities built (after ``done``)
    indexed: threading.Event = field(default_factory=threading.Event)
    library: Library | None = None
    error: str | None = None
    started: bool = False

    def start(self) -> None:
        """Start loading, once."""
        if not self.started:
            self.started = True
            # not a daemon: a process that ends while it loads waits for it, rather than
            # killing it inside the libraries it calls (an abort at exit)
            threading.Thread(target=self._run, name="tactica-mcp-warm-up").start()

    def _run(self) -> None:
        try:
            self.library = warm_up()
        except Exception as exc:  # reported to every call rather than crashing the server
            self.error = f"the unit library could not be loaded: {one_line(exc)}"
        finally:
            self.done.set()
        try:
            if self.library is not None:  # then, calls being served, the abilities' index
                with contextlib.suppress(LookupError):
                    self.library.find_rules("Deep Strike")
        finally:
            self.indexed.set()


def _text(payload: str, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=payload)],
                                is_error=error)


def refusal(message: str) -> types.CallToolResult:
    """A tool error: ``error: `` and one line."""
    return _text(f"error: {' '.join(message.split())}", error=True)


def _tool(spec: ToolSpec) -> types.Tool:
    return types.Tool(
        name=spec.name, title=spec.title, description=spec.describe(),
        input_schema=spec.input_schema(), output_schema=spec.output_schema(),
        # (destructive and idempotent hints mean nothing for a read-only tool: MCP spec)
        annotations=types.ToolAnnotations(read_only_hint=True, open_world_hint=False))


def _argument_error(spec: ToolSpec, exc: ValidationError) -> str:
    """The one line for arguments that do not fit: a misspelt argument first, with the
    tool's arguments (a model corrects a name faster from the list), else ``one_line``."""
    errors = exc.errors(include_url=False)
    for error in errors:
        loc = error.get("loc", ())
        if error.get("type") == "extra_forbidden" and len(loc) == 1:
            return (f"{loc[0]}: unknown argument; {spec.name} takes "
                    f"{', '.join(spec.arguments.model_fields)}")
    text = one_line(exc)
    if errors and not errors[0].get("loc"):  # the arguments together: the text names them
        text = text.removeprefix("document: ")
    return text


class _Calls:
    """Runs tool calls within ``Limits`` (module text)."""

    def __init__(self, limits: Limits, warm: _Warm) -> None:
        self.limits = limits
        self.warm = warm
        self.slots = threading.BoundedSemaphore(limits.workers)
        self._lock = threading.Lock()
        self._catalogue: tuple[dict[str, ToolSpec], list[types.Tool]] | None = None

    def catalogue(self) -> tuple[dict[str, ToolSpec], list[types.Tool]]:
        """The tools by name and as listed, built once (on a worker thread: it imports
        tactica's side, module text)."""
        with self._lock:
            if self._catalogue is None:
                from .tools import TOOLS

                self._catalogue = ({s.name: s for s in TOOLS}, [_tool(s) for s in TOOLS])
            return self._catalogue

    async def listing(self) -> list[types.Tool]:
        self.warm.start()
        return (await anyio.to_thread.run_sync(self.catalogue))[1]

    async def library(self) -> Library | types.CallToolResult:
        self.warm.start()
        if not self.warm.done.is_set():
            ready = await anyio.to_thread.run_sync(self.warm.done.wait, STARTUP_TIMEOUT,
                                                   abandon_on_cancel=True)
            if not ready:
                return refusal("the unit library is still loading; try again in a moment")
        if self.warm.library is None:
            return refusal(self.warm.error or "the unit library could not be loaded")
        return self.warm.library

    async def call(self, name: str, arguments: dict[str, Any] | None) -> types.CallToolResult:
        self.warm.start()
        specs = (await anyio.to_thread.run_sync(self.catalogue))[0]
        spec = specs.get(name)
        if spec is None:
            return refusal(f"no tool named {name!r}; tools: {', '.join(specs)}")
        arguments = arguments or {}
        try:  # a lone surrogate ("\\ud800"): valid JSON, yet no text (nor UTF-8)
            surrogates_in(arguments)
        except InputError as exc:
            return refusal(str(exc))
        size = len(json.dumps(arguments, ensure_ascii=False).encode())
        if size > MAX_ARGUMENT_BYTES:
            return refusal(f"arguments of {size:,} bytes; at most {MAX_ARGUMENT_BYTES:,}")
        try:
            args = spec.arguments.model_validate(arguments)
        except ValidationError as exc:
            return refusal(_argument_error(spec, exc))
        library = await self.library()
        if isinstance(library, types.CallToolResult):
            return library
        if spec.indexed and not self.warm.indexed.is_set():  # a rule look-up waits for it
            await anyio.to_thread.run_sync(self.warm.indexed.wait, STARTUP_TIMEOUT,
                                           abandon_on_cancel=True)
        return await self._run(spec, args, library)

    async def _slot(self) -> bool:
        """Take a worker slot, waiting at most ``limits.wait`` seconds."""
        with anyio.move_on_after(self.limits.wait):
            while not self.slots.acquire(blocking=False):
                await anyio.sleep(0.02)
            return True
        return False

    async def _run(self, spec: ToolSpec, args: Any, library: Library) -> types.CallToolResult:
        if not await self._slot():
            return refusal("every calculator is busy; try again in a moment")
        job = _Job(spec, args, library, self.slots)
        timeout = self.limits.army_timeout if spec.armies else self.limits.timeout
        try:
            with anyio.move_on_after(timeout) as running:
                document = await anyio.to_thread.run_sync(job.run, abandon_on_cancel=True)
        except (ValidationError, DocumentError) as exc:
            return refusal(f"invalid scenario: {one_line(exc)}" if spec.name == "calculate"
                           else one_line(exc))
        except (ValueError, LookupError, OSError) as exc:  # the core's refusals
            return refusal(one_line(exc))
        except Exception as exc:  # a bug: said as such, and the server lives on
            return refusal(f"{spec.name} failed unexpectedly ({type(exc).__name__}: "
                           f"{one_line(exc)}); this is a bug in tactica")
        if running.cancelled_caught or document is None:
            job.abandon()
            return refusal(f"no answer within {timeout:g} s; {spec.late}")
        try:  # strict JSON: a number that is not finite is a bug, not "Infinity"
            text = json.dumps(document, ensure_ascii=False, allow_nan=False,
                              separators=(",", ":"))
        except ValueError as exc:
            return refusal(f"{spec.name} failed unexpectedly ({one_line(exc)}); this is a "
                           "bug in tactica")
        result = _text(text)
        return result.model_copy(update={"structured_content": document})


class _Job:
    """One call's work on a worker thread, holding a worker slot until the work ends,
    even after its call has timed out (the slots count the threads still working); a job
    abandoned before its thread started never starts, and frees its slot at once."""

    def __init__(self, spec: ToolSpec, args: Any, library: Library,
                 slots: threading.BoundedSemaphore) -> None:
        self.spec, self.args, self.library, self.slots = spec, args, library, slots
        self.lock = threading.Lock()
        self.state = "waiting"

    def run(self) -> dict[str, Any] | None:
        with self.lock:
            if self.state == "abandoned":
                return None
            self.state = "running"
        try:
            return self.spec.run(self.args, self.library)
        finally:
            self.slots.release()

    def abandon(self) -> None:
        with self.lock:
            if self.state == "waiting":
                self.state = "abandoned"
                self.slots.release()


class _Dropping:
    """A write stream that leaves out the SDK's answer to the ``initialize`` request
    answered before the SDK was imported (``early.REPLAY_ID``): the client has its answer
    already."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.dropped = False

    async def send(self, item: Any, /) -> None:
        message = getattr(item, "message", None)
        if not self.dropped and getattr(message, "id", None) == early.REPLAY_ID:
            self.dropped = True
            error = getattr(message, "error", None)
            if error is not None:  # the early answer and the SDK's disagree: say so
                import sys

                print(f"tactica mcp: initialize: {getattr(error, 'message', error)}",
                      file=sys.stderr)
            return
        await self.inner.send(item)

    async def aclose(self) -> None:
        await self.inner.aclose()

    async def __aenter__(self) -> _Dropping:
        await self.inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> bool | None:
        result: bool | None = await self.inner.__aexit__(*exc)
        return result


class _Server(Server[Any]):
    """The SDK's low-level server; over stdio after an early ``initialize`` answer
    (``tactica.assistant.early``), the SDK's own answer to it left out."""

    async def run(self, read_stream: Any, write_stream: Any,
                  initialization_options: Any, raise_exceptions: bool = False) -> None:
        if early.replayed():
            write_stream = _Dropping(write_stream)
        await super().run(read_stream, write_stream, initialization_options,
                          raise_exceptions)


def create_server(limits: Limits | None = None) -> Server[Any]:
    """The tactica MCP server (not yet running); its library loads from the first
    ``tools/list`` or ``tools/call`` on."""
    calls = _Calls(limits or Limits(), _Warm())

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=await calls.listing())

    async def call_tool(ctx: Any, params: types.CallToolRequestParams
                        ) -> types.CallToolResult:
        return await calls.call(params.name, params.arguments)

    return _Server(SERVER_INFO["name"], version=SERVER_INFO["version"],
                   title=SERVER_INFO["title"], description=SERVER_INFO["description"],
                   instructions=INSTRUCTIONS, on_list_tools=list_tools,
                   on_call_tool=call_tool)
