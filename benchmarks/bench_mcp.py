"""MCP benchmark: how fast ``tactica mcp`` starts and answers a ``simulate_combat``.

The issue asks that the server start in at most 1 s and answer a ``simulate_combat`` of
two library units (10 Intercessors against 10 Neophyte Hybrids) in at most 50 ms warm.

* start: ``tactica mcp`` spawned as an assistant spawns it (the console script, in a
  fresh process, tactica's cache filled), until its answer to ``initialize`` arrives on
  stdout. The answer is written before the SDK is imported
  (``tactica.assistant.early``), so the start is Python's, the command line's and the
  first line's reading; the SDK, the tools and the library load after it. Also the same
  with ``python -m tactica.assistant`` (no command line around it), beside ``python -c
  pass``; and until the answer to the first ``tools/list`` (the SDK and the tools
  imported, their schemas built). Wall time and the child's CPU time at that moment
  (``/proc``, Linux), medians of ``--runs`` starts;
* warm call: one ``simulate_combat`` after a first one, through the SDK's client,
  in-process over memory streams (JSON-RPC framing, the server's threads and bounds
  included) and over stdio to a ``tactica mcp`` subprocess; median and max of
  ``--runs`` calls.

* sizes: the tool listing, and ``matchup`` and ``plan`` for two real 2,000-point lists,
  their default summary and their whole document (``detail: "all"``).

``python benchmarks/bench_mcp.py [--runs N] [--no-write]`` prints a markdown table and
writes it into ``benchmarks/README.md`` between ``<!-- mcp:start -->`` and
``<!-- mcp:end -->``. Times are reported, never asserted.
"""

from __future__ import annotations

import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
from readme import table_command, write_section

ROOT = Path(__file__).resolve().parents[1]
#: The console script, as ``tactica`` runs it.
LAUNCH = "import sys; sys.argv[0] = 'tactica'; from tactica.cli import main; main()"
ARGS = {"attacker": {"unit": "Intercessor Squad", "models": 10},
        "defender": {"unit": "Neophyte Hybrids", "models": 10}, "context": {"distance": 12}}
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "bench", "version": "0"}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
LIST = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
_TICK = os.sysconf("SC_CLK_TCK")


def _env() -> dict[str, str]:
    """This checkout's ``tactica``; bytecode written and read as an installed package
    does (``PYTHONDONTWRITEBYTECODE`` unset)."""
    src = str(ROOT / "src")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, os.environ.get("PYTHONPATH")) if p)
    return env


def _cpu(pid: int) -> float:
    """Seconds of CPU (user + system) process ``pid`` has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICK


def one_start(command: list[str], listing: bool = False) -> tuple[float, float]:
    """Wall and CPU seconds from spawning the server to its ``initialize`` answer (with
    ``listing``: to its answer to the first ``tools/list``)."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, env=_env())
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write((json.dumps(INITIALIZE) + "\n").encode())
    child.stdin.flush()
    line = child.stdout.readline()
    if listing:
        child.stdin.write((json.dumps(INITIALIZED) + "\n" + json.dumps(LIST) + "\n").encode())
        child.stdin.flush()
        line = child.stdout.readline()
    wall = time.perf_counter() - start
    cpu = _cpu(child.pid)
    assert b'"result"' in line, line
    child.stdin.close()
    child.kill()
    child.wait()
    return wall, cpu


def one_import(code: str) -> tuple[float, float]:
    """Wall and CPU seconds of a Python process running ``code`` (an import)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=_env())
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def starts(runs: int) -> dict[str, tuple[float, float]]:
    commands = {"`tactica mcp`": [sys.executable, "-c", LAUNCH, "mcp"],
                "`python -m tactica.assistant`": [sys.executable, "-m",
                                                   "tactica.assistant"]}
    imports = {"Python itself (`python -c pass`)": "pass",
               "the SDK's protocol types alone (`import mcp.types`)": "import mcp.types",
               "the SDK's import alone (`import mcp.server.lowlevel, mcp.server.stdio`)":
               "import mcp.server.lowlevel, mcp.server.stdio"}
    listed = "first `tools/list` answered by `tactica mcp` (from its start)"
    times: dict[str, list[tuple[float, float]]] = {
        k: [] for k in (*commands, listed, *imports)}
    for _ in range(runs):
        for name, command in commands.items():
            times[name].append(one_start(command))
        times[listed].append(one_start(commands["`tactica mcp`"], listing=True))
        for name, code in imports.items():
            times[name].append(one_import(code))
    return {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
            for k, v in times.items()}


async def _calls(client: Any, runs: int) -> list[tuple[float, float]]:
    """Wall and CPU seconds (this process's, every thread) of each warm call."""
    first = await client.call_tool("simulate_combat", ARGS)  # loads the library, warms up
    assert not first.is_error, first.content
    out = []
    for _ in range(runs):
        start, cpu = time.perf_counter(), time.process_time()
        result = await client.call_tool("simulate_combat", ARGS)
        out.append((time.perf_counter() - start, time.process_time() - cpu))
        assert not result.is_error
    return out


def warm_calls(runs: int) -> dict[str, list[tuple[float, float]]]:
    from mcp import Client, StdioServerParameters

    from tactica.assistant import create_server

    async def in_process() -> list[tuple[float, float]]:
        async with Client(create_server(), mode="legacy", read_timeout_seconds=300) as c:
            return await _calls(c, runs)

    async def over_stdio() -> list[tuple[float, float]]:
        params = StdioServerParameters(command=sys.executable, args=["-c", LAUNCH, "mcp"],
                                       env=_env())
        async with Client(params, read_timeout_seconds=300) as c:
            return await _calls(c, runs)

    return {"in-process (memory streams)": anyio.run(in_process),
            "over stdio (`tactica mcp` subprocess)": anyio.run(over_stdio)}


def sizes() -> list[tuple[str, int]]:
    """Bytes of the tool listing and of the army tools' answers for two real 2,000-point
    lists (the app's exports of an Aeldari and an Ork list), by default and whole."""
    from mcp import Client

    from tactica.assistant import Limits, create_server

    rosters = ROOT / "tests" / "fixtures" / "rosters" / "gw-app-11e"
    armies = {"mine": (rosters / "official_9.txt").read_text(encoding="utf-8"),
              "enemy": (rosters / "official_16.txt").read_text(encoding="utf-8")}

    async def go() -> list[tuple[str, int]]:
        async with Client(create_server(Limits(army_timeout=600)), mode="legacy",
                          read_timeout_seconds=600) as client:
            listed = (await client.list_tools()).model_dump(by_alias=True,
                                                             exclude_none=True, mode="json")
            out = [("the tool listing (`tools/list`)",
                    len(json.dumps(listed, separators=(",", ":")).encode()))]
            for tool, detail in (("matchup", "summary"), ("matchup", "all"),
                                 ("plan", "summary"), ("plan", "all")):
                result = await client.call_tool(tool, {**armies, "detail": detail})
                assert not result.is_error, result.content
                text = getattr(result.content[0], "text", "")
                out.append((f"`{tool}` of the two lists, detail `{detail}`",
                            len(text.encode())))
            return out

    return anyio.run(go)


def table(runs: int) -> str:
    started = starts(max(3, runs // 4))
    called = warm_calls(runs)
    measured = sizes()
    rows = ["| measure | median (ms) | max (ms) | CPU (ms) |", "|---|---:|---:|---:|"]
    for name, (wall, cpu) in started.items():
        what = f"start of {name} to its `initialize` answer" if name.startswith("`") \
            else name
        rows.append(f"| {what} | {wall * 1e3:.0f} | | {cpu * 1e3:.0f} |")
    for name, times in called.items():
        walls = [w for w, _ in times]
        cpu = f"{statistics.median(c for _, c in times) * 1e3:.1f}" \
            if name.startswith("in-process") else ""
        rows.append(f"| warm `simulate_combat`, {name} | {statistics.median(walls) * 1e3:.1f} "
                    f"| {max(walls) * 1e3:.1f} | {cpu} |")
    return "\n".join([
        "## MCP server: start and a warm `simulate_combat`", "",
        "10 Intercessors against 10 Neophyte Hybrids at 12\" (targets: start <= 1 s, a warm "
        "call <= 50 ms).", "",
        f"Starts: median of {max(3, runs // 4)} (CPU: the child's user + system time when "
        f"it answered); calls: {runs} after one warm-up (CPU in-process: the client's and "
        f"the server's threads together); Python {platform.python_version()} "
        f"({platform.machine()}), load average {os.getloadavg()[0]:.1f} on "
        f"{os.cpu_count()} cores when it ended; `python benchmarks/bench_mcp.py`.", "",
        *rows, "",
        "Sizes (compact JSON, as the server sends it; two 2,000-point lists of the app, "
        "`tests/fixtures/rosters/gw-app-11e/official_9.txt` against `official_16.txt`; "
        "bound: 20 KB):", "",
        "| what | KB |", "|---|---:|",
        *(f"| {what} | {n / 1024:.1f} |" for what, n in measured), "",
        "The server answers `initialize` before the SDK is imported "
        "(`tactica.assistant.early`: the first line read and answered with the standard "
        "library, then handed on to the SDK's transport, whose own answer to it is left "
        "out), so its start is Python's and the command line's, beside `python -c pass`; "
        "the SDK's import (some 550 pydantic models), the tools and their schemas come "
        "with the first `tools/list`, and the library loads after it."])


def write_readme(text: str) -> None:
    write_section("mcp", text)


def main(argv: list[str] | None = None) -> int:
    return table_command(__doc__ or "", table, write_readme, 20, "calls timed per row", argv)


if __name__ == "__main__":
    sys.exit(main())
