"""Web load benchmark: throughput, latency (p50, p99) and server CPU per request at 1, 4,
16 and 64 clients.

The app runs as ``tactica serve`` runs it (``tactica.web.serve``: uvicorn with the
connection guard, the Host allow-list, two calculation workers) in its own process on
127.0.0.1. Each client is a kept-alive connection that sends, in turn, the requests of a
session: a calculation (ten bolt rifles into ten MEQ), a datasheet, the target presets
and a list check (the 11th-edition app export in ``tests/army/fixtures``). An
answer other than a 200 is counted (``not 200``: a 503 when every calculator stayed
busy); latencies are per request over ``--seconds`` seconds per client count.

The clients speak HTTP/1.1 over raw asyncio streams (a few microseconds a request), not
through an HTTP library, so that on a 2-core machine the client's own CPU takes as
little as possible from the server's. ``CPU ms/req`` is the server's CPU time (its
process and its calculation workers, user + system, from ``/proc``) over the requests
answered: unlike the wall times it is not inflated by other jobs on the machine.
``client CPU ms/req`` is this load generator's own CPU time over the same requests (it
shares the machine's cores with the server). The load average is printed with the
figures.

``--session calc`` sends calculations only, each client the same body every time (the
issue 45 case: a player's phone pressing Calculate again, a monitor polling one
scenario); ``--session calc-varied`` sends calculations of the same work whose bodies all
differ (the weapon's name is numbered: 64 bodies, each client starting at its own).

Run ``python benchmarks/bench_clients.py`` (``--seconds N``, ``--clients 1,4,16,64``,
``--session mixed|calc|calc-varied``, ``--bundled`` to serve the bundled dataset as
``tactica serve`` does rather than the seed pages, ``--src PATH`` to serve another tree,
e.g. an older commit's ``git archive``, ``--no-write``). It prints a markdown table and
writes it into ``benchmarks/README.md`` between ``<!-- clients:start -->`` and
``<!-- clients:end -->`` (``clients-calc``, ``clients-calc-varied`` for the other
sessions). Times are reported, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psutil
from readme import write_section

ROOT = Path(__file__).resolve().parents[1]
LIST = (ROOT / "tests" / "army" / "fixtures" / "host_of_ascension.txt").read_text(
    encoding="utf-8")
CALC: dict[str, Any] = {
    "attacker": {"weapons": [{"name": "Bolt rifle", "count": 10, "range": 24, "A": "1",
                              "skill": 3, "S": 4, "AP": -1, "D": "1"}]},
    "target": {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}}
SESSION: list[tuple[str, str, Any]] = [
    ("POST", "/api/calc", CALC),
    ("GET", "/api/units/Primus", None),
    ("GET", "/api/targets", None),
    ("POST", "/api/list/validate", {"text": LIST}),
]


def _numbered(i: int) -> dict[str, Any]:
    weapon = {**CALC["attacker"]["weapons"][0], "name": f"Bolt rifle {i}"}
    return {**CALC, "attacker": {"weapons": [weapon]}}


#: The sessions a client may send, in turn (``--session``).
SESSIONS: dict[str, list[tuple[str, str, Any]]] = {
    "mixed": SESSION,
    "calc": [("POST", "/api/calc", CALC)],
    "calc-varied": [("POST", "/api/calc", _numbered(i)) for i in range(64)],
}
#: The server as ``tactica serve`` runs it, over the packaged seed library (or, in a tree
#: before ``tactica.web.serve``, as it ran it then).
SERVER = """
import sys
from tactica.library import load_seed_library
from tactica.web import create_app
try:
    from tactica.web.serve import run
except ImportError:
    import uvicorn
    from tactica.web.guard import SERVER_LIMITS
    run = lambda app, **kw: uvicorn.run(app, **kw, **SERVER_LIMITS)
app = create_app(library=load_seed_library, allowed_hosts=["127.0.0.1", "localhost"])
run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
"""


def _request(method: str, path: str, body: Any, port: int) -> bytes:
    data = json.dumps(body).encode() if body is not None else b""
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
    if body is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
    return (head + "\r\n").encode() + data


async def read_response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """One HTTP/1.1 response with a Content-Length: its status and body."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return int(lines[0].split()[1]), await reader.readexactly(length)


async def _client(port: int, until: float, latencies: list[float],
                  errors: list[str], session: list[tuple[str, str, Any]] = SESSION,
                  first: int = 0) -> None:
    requests = [_request(m, p, b, port) for m, p, b in session]
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    i = first
    try:
        while time.perf_counter() < until:
            start = time.perf_counter()
            writer.write(requests[i % len(requests)])
            status, body = await read_response(reader)
            latencies.append(time.perf_counter() - start)
            if status != 200:
                errors.append(f"{session[i % len(session)][:2]}: {status} {body[:100]!r}")
            i += 1
    finally:
        writer.close()


def _cpu(server: psutil.Process) -> float:
    """CPU seconds of the server and its live children (the calculation workers)."""
    total = 0.0
    for p in [server, *server.children(recursive=True)]:
        try:
            t = p.cpu_times()
            total += t.user + t.system
        except psutil.NoSuchProcess:
            pass
    return total


async def _measure(port: int, clients: int, seconds: float, server: psutil.Process,
                   session: list[tuple[str, str, Any]] = SESSION) -> dict[str, float]:
    latencies: list[float] = []
    errors: list[str] = []
    # warm-up: workers, caches
    await _client(port, time.perf_counter() + 1.0, [], errors, session)
    cpu0 = _cpu(server)
    own0 = time.process_time()
    start = time.perf_counter()
    until = start + seconds
    step = max(1, len(session) // max(clients, 1))
    await asyncio.gather(*(_client(port, until, latencies, errors, session, k * step)
                           for k in range(clients)))
    for error in sorted(set(errors)):
        print(f"{clients} clients: {errors.count(error)} x {error}", file=sys.stderr)
    elapsed = time.perf_counter() - start
    cpu = _cpu(server) - cpu0
    own = time.process_time() - own0
    ordered = sorted(latencies)
    return {"clients": clients, "requests": len(ordered), "rps": len(ordered) / elapsed,
            "p50": statistics.median(ordered) * 1000,
            "p99": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000,
            "p999": ordered[min(len(ordered) - 1, int(len(ordered) * 0.999))] * 1000,
            "cpu_ms": cpu / len(ordered) * 1000, "client_ms": own / len(ordered) * 1000,
            "load": os.getloadavg()[0],
            "errors": len(errors)}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run(seconds: float, counts: list[int], src: Path,
        session: list[tuple[str, str, Any]] = SESSION,
        bundled: bool = False) -> list[dict[str, float]]:
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(src)}
    script = SERVER.replace("library=load_seed_library", "library=load_library").replace(
        "import load_seed_library", "import load_library") if bundled else SERVER
    server = subprocess.Popen([sys.executable, "-c", script, str(port)], env=env)
    try:
        for _ in range(1200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        proc = psutil.Process(server.pid)
        return [asyncio.run(_measure(port, n, seconds, proc, session)) for n in counts]
    finally:
        server.terminate()
        server.wait(timeout=10)


#: What each session is, as the table says it.
SAID = {"mixed": "a session is a calculation, a datasheet, the target presets and a list "
                 "check",
        "calc": "calculations only, the same body every time",
        "calc-varied": "calculations only, of the same work, every body different"}


def table(rows: list[dict[str, float]], seconds: float, label: str,
          session: str = "mixed") -> str:
    lines = [f"{label}: Python {platform.python_version()}, {platform.machine()}, "
             f"{os.cpu_count()} CPUs shared with other jobs; {seconds:g} s per row; "
             f"{SAID[session]}. `load` is the 1-minute load average after the row.", "",
             "| clients | requests | not 200 | req/s | p50 ms | p99 ms | p99.9 ms | "
             "server CPU ms/req | client CPU ms/req | load |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    lines += [f"| {r['clients']} | {r['requests']} | {r['errors']} | {r['rps']:.0f} | "
              f"{r['p50']:.1f} | {r['p99']:.1f} | {r.get('p999', float('nan')):.1f} | "
              f"{r['cpu_ms']:.2f} | "
              f"{r.get('client_ms', float('nan')):.2f} | {r['load']:.1f} |" for r in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--clients", default="1,4,16,64")
    parser.add_argument("--src", type=Path, default=ROOT / "src",
                        help="the tactica tree to serve (e.g. an older commit's src)")
    parser.add_argument("--label", default="after")
    parser.add_argument("--session", choices=sorted(SESSIONS), default="mixed",
                        help="what each client sends in turn (module text)")
    parser.add_argument("--bundled", action="store_true",
                        help="serve the library tactica serve serves (the bundled dataset), "
                        "not the seed pages")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    counts = [int(c) for c in args.clients.split(",")]
    rows = run(args.seconds, counts, args.src, SESSIONS[args.session], args.bundled)
    block = table(rows, args.seconds, args.label, args.session)
    print(block)
    print(json.dumps(rows))
    if not args.no_write:
        section = "clients" if args.session == "mixed" else f"clients-{args.session}"
        write_section(section, block, appended="## Web server under load (bench_clients)\n\n")


if __name__ == "__main__":
    main()
