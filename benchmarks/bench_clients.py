"""Web load benchmark: request latency (p50, p99) and throughput at 1, 4 and 16 clients.

The app runs as ``tactica serve`` runs it (uvicorn with ``tactica.web.guard``'s limits,
the Host allow-list, two calculation workers) in its own process on 127.0.0.1. Each
client is a kept-alive connection that sends, in turn, the requests of a session: a
calculation (ten bolt rifles into ten MEQ), a datasheet, the target presets and a list
check (the 11th-edition app export in ``tests/army/fixtures``). Every answer must be a
200; latencies are per request over ``--seconds`` seconds per client count.

Run ``python benchmarks/bench_clients.py`` (``--seconds N``, ``--no-write``). It prints a
markdown table and writes it into ``benchmarks/README.md`` between ``<!-- clients:start
-->`` and ``<!-- clients:end -->``. Times are reported, never asserted.
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

import httpx
from readme import write_section

ROOT = Path(__file__).resolve().parents[1]
LIST = (ROOT / "tests" / "army" / "fixtures" / "host_of_ascension.txt").read_text(
    encoding="utf-8")
CALC = {"attacker": {"weapons": [{"name": "Bolt rifle", "count": 10, "range": 24, "A": "1",
                                  "skill": 3, "S": 4, "AP": -1, "D": "1"}]},
        "target": {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}}
SESSION: list[tuple[str, str, Any]] = [
    ("POST", "/api/calc", CALC),
    ("GET", "/api/units/Primus", None),
    ("GET", "/api/targets", None),
    ("POST", "/api/list/validate", {"text": LIST}),
]
SERVER = """
import sys, uvicorn
from tactica.library import load_seed_library
from tactica.web import create_app
from tactica.web.guard import SERVER_LIMITS
app = create_app(library=load_seed_library, allowed_hosts=["127.0.0.1", "localhost"])
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning",
            **SERVER_LIMITS)
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _client(url: str, until: float, latencies: list[float]) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        i = 0
        while time.perf_counter() < until:
            method, path, body = SESSION[i % len(SESSION)]
            start = time.perf_counter()
            response = await client.request(method, path, json=body)
            latencies.append(time.perf_counter() - start)
            if response.status_code != 200:
                raise SystemExit(f"{method} {path}: {response.status_code} {response.text}")
            i += 1


async def _measure(url: str, clients: int, seconds: float) -> dict[str, float]:
    latencies: list[float] = []
    await _client(url, time.perf_counter() + 1.0, [])  # warm-up: workers, caches
    start = time.perf_counter()
    until = start + seconds
    await asyncio.gather(*(_client(url, until, latencies) for _ in range(clients)))
    elapsed = time.perf_counter() - start
    ordered = sorted(latencies)
    return {"clients": clients, "requests": len(ordered), "rps": len(ordered) / elapsed,
            "p50": statistics.median(ordered) * 1000,
            "p99": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(port)], env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                httpx.get(url + "/api/targets", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        rows = [asyncio.run(_measure(url, n, args.seconds)) for n in (1, 4, 16)]
    finally:
        server.terminate()
        server.wait(timeout=10)
    lines = [f"Python {platform.python_version()}, {platform.machine()}, "
             f"{os.cpu_count()} CPUs (shared); {args.seconds:g} s per row; a session is a "
             "calculation, a datasheet, the target presets and a list check.", "",
             "| clients | requests | req/s | p50 ms | p99 ms |", "|---|---|---|---|---|"]
    lines += [f"| {r['clients']} | {r['requests']} | {r['rps']:.0f} | {r['p50']:.1f} | "
              f"{r['p99']:.1f} |" for r in rows]
    block = "\n".join(lines)
    print(block)
    print(json.dumps(rows))
    if not args.no_write:
        write_section("clients", block, appended="## Web server under load (bench_clients)\n\n")


if __name__ == "__main__":
    main()
