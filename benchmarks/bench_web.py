"""Web benchmark: how fast ``POST /api/calc`` refuses a scenario of 1,000 weapon lines.

The issue asks for the refusal (a 422 naming ``attacker.weapons``) in under 100 ms. The
script times it two ways, each the median of ``--runs`` requests after one warm-up:

* in-process, through an ASGI client (``httpx.ASGITransport``): the app's own time;
* over HTTP to the app served by uvicorn in its own process on 127.0.0.1 (a free port),
  one kept-alive connection, as a browser sends it.

Run ``python benchmarks/bench_web.py`` (``--runs N``, ``--no-write``). It prints a
markdown table and writes it into ``benchmarks/README.md`` between the markers
``<!-- web:start -->`` and ``<!-- web:end -->``. Times are reported, never asserted.
"""

from __future__ import annotations

import asyncio
import json
import platform
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from readme import README, table_command, write_section

from tactica.library import load_seed_library
from tactica.web import create_app

LINES = 1000


def thousand_lines() -> bytes:
    """The request body: 1,000 bolt-rifle lines against ten MEQ."""
    line = {"name": "Bolt rifle", "count": 10, "range": 24, "A": "1", "skill": 3, "S": 4,
            "AP": -1, "D": "1"}
    return json.dumps({"attacker": {"weapons": [line] * LINES},
                       "target": {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}}).encode()


def _check(response: httpx.Response) -> None:
    detail = response.json()["detail"]
    if response.status_code != 422 or detail[0]["loc"] != ["body", "attacker", "weapons"]:
        raise SystemExit(f"unexpected answer: {response.status_code} {detail}")


async def _in_process(body: bytes, runs: int) -> list[float]:
    app = create_app(library=load_seed_library)
    times = []
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                 base_url="http://bench") as client:
        for i in range(runs + 1):
            start = time.perf_counter()
            response = await client.post("/api/calc", content=body,
                                         headers={"content-type": "application/json"})
            elapsed = time.perf_counter() - start
            _check(response)
            if i:
                times.append(elapsed)
    app.state.calc_pool.close()
    return times


def _post(conn: socket.socket, port: int, body: bytes) -> tuple[int, bytes]:
    """One POST on an open connection, headers and body in one write (as browsers send
    it, with TCP_NODELAY: no Nagle delay in the measurement); the status and body."""
    head = (f"POST /api/calc HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n")
    conn.sendall(head.encode() + body)
    data = b""
    while b"\r\n\r\n" not in data:
        data += conn.recv(65536)
    header, _, rest = data.partition(b"\r\n\r\n")
    lines = header.decode("latin-1").split("\r\n")
    length = next(int(x.split(":", 1)[1]) for x in lines
                  if x.lower().startswith("content-length:"))
    while len(rest) < length:
        rest += conn.recv(65536)
    return int(lines[0].split()[1]), rest[:length]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _over_http(body: bytes, runs: int) -> list[float]:
    """Against the app in its own process (uvicorn, as ``tactica serve`` runs it)."""
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "tactica.web.app:create_app", "--factory",
         "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"])
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                conn = socket.create_connection(("127.0.0.1", port))
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.05)
        times = []
        with conn:
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            for i in range(runs + 1):
                start = time.perf_counter()
                status, answer = _post(conn, port, body)
                elapsed = time.perf_counter() - start
                _check(httpx.Response(status, content=answer))
                if i:
                    times.append(elapsed)
        return times
    finally:
        server.terminate()
        server.wait(timeout=10)


def table(runs: int) -> str:
    body = thousand_lines()
    rows: list[tuple[str, Any]] = [
        ("in-process (ASGI client)", asyncio.run(_in_process(body, runs))),
        ("over HTTP (uvicorn process, 127.0.0.1)", _over_http(body, runs)),
    ]
    out = [
        f"Refusing a scenario of {LINES:,} weapon lines ({len(body) // 1024} KB body): "
        "422 naming `attacker.weapons`; target under 100 ms.",
        "",
        f"Median of {runs} requests after one warm-up, on Python {platform.python_version()} "
        f"({platform.machine()}); `python benchmarks/bench_web.py`.",
        "",
        "| how | median (ms) | max (ms) |",
        "|---|---:|---:|",
    ]
    for label, times in rows:
        out.append(f"| {label} | {statistics.median(times) * 1000:.1f} | "
                   f"{max(times) * 1000:.1f} |")
    return "\n".join(out)


def write_readme(text: str, path: Path = README) -> None:
    """Put ``text`` in the web section of the benchmarks README."""
    write_section("web", f"## Web: refusing oversized scenarios\n\n{text}", path)


def main(argv: list[str] | None = None) -> int:
    return table_command(__doc__ or "", table, write_readme, 50, "requests timed per row", argv)


if __name__ == "__main__":
    sys.exit(main())
