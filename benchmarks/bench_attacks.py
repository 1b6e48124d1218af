"""Slow-client attacks on the served app (issue 31): are normal requests served meanwhile,
and is every attacking request answered or refused within the documented bound?

The app runs as ``tactica serve`` runs it (``tactica.web.serve``) in its own process on
127.0.0.1, over the packaged seed library. Each attack runs for ``--seconds`` seconds
while a probe (a process of its own) sends a normal request every 0.2 s on a fresh
connection (alternately the target presets and a calculation, ten bolt rifles into ten
MEQ) from 127.0.0.1; a probe
counts as served when it is answered 200 within 1 s of its connection being opened.

The attacks, each from attacking addresses other than the probe's (Linux answers on all
of 127.0.0.0/8): ``one address`` is the attack from 127.0.0.2 alone, where the cap per
client address holds it; ``50 addresses`` spreads it over 127.0.1.1-50, under that cap,
where the deadlines and the cap on all connections must hold it.

* ``1,100 half heads``: 1,100 connections each send half a request head, then nothing;
* ``300 slow-loris``: 300 connections each send a request head one header line every
  2 s, never ending it, and reopen at once when cut (sustained);
* ``250 slow bodies``: 250 connections each send a calculation's head and then its body
  one byte every 3 s, and reopen when cut (sustained).

For the attacking connections the script reports how they ended (a 408 at the deadline,
a 503 from a cap, closed without an answer) and the longest time a connection was held
before its answer or its close: the bound is the request deadline (``Limits``). Run
``python benchmarks/bench_attacks.py`` (``--seconds N``, ``--src PATH`` for another
tree's ``src``, ``--no-write``); it writes its table into ``benchmarks/README.md``
between ``<!-- attacks:start -->`` and ``<!-- attacks:end -->``. Never asserted in tests.

``--hostile SECONDS`` runs the long hostile run instead (issue 47): 32 connections from
127.0.1.1-32, each sending one malformed or hostile request after another for that long
(``HOSTILE``: a bad chunk, bytes past the declared Content-Length, Content-Length with
chunked, a 20 KB header, a garbage request line, a body over the 256 KB limit, JSON
nested 100,000 deep, a lone surrogate, a Monte Carlo run past its bound, a list of 6,000
lines, a Host not allowed, a path of odd bytes), the probes running as above. The
server's resident memory (``/proc/PID/status``: VmRSS, the server process and its
calculation workers added up) is sampled every second: its
start, its peak, its end, and its growth over the second half of the run (a leak grows
there; a warm-up does not). The table goes between ``<!-- hostile:start -->`` and
``<!-- hostile:end -->``; the server's log lines are counted (one per refused framing,
no traceback).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import socket
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from readme import write_section

ROOT = Path(__file__).resolve().parents[1]
SERVER = """
import sys
from tactica.library import load_seed_library
from tactica.web import create_app
app = create_app(library=load_seed_library, allowed_hosts=["127.0.0.1", "localhost"])
try:
    from tactica.web.serve import run
    run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="error")
except ImportError:  # a tree before tactica.web.serve
    import uvicorn
    from tactica.web.guard import SERVER_LIMITS
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="critical",
                **SERVER_LIMITS)
"""
CALC = json.dumps({"attacker": {"weapons": [{"name": "Bolt rifle", "count": 10, "A": "1",
                                             "skill": 3, "S": 4, "AP": -1, "D": "1"}]},
                   "target": {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}}).encode()


@dataclass
class Tally:
    """What happened to the probes and to the attacking connections."""

    probes: list[tuple[int, float]] = field(default_factory=list)  # status, seconds
    ends: Counter[str] = field(default_factory=Counter)
    longest: float = 0.0
    rss: list[tuple[float, float]] = field(default_factory=list)  # seconds, MB

    def end(self, how: str, held: float) -> None:
        self.ends[how] += 1
        self.longest = max(self.longest, held)


def _head(port: int, path: str, body: bytes | None) -> bytes:
    method = "POST" if body is not None else "GET"
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
    if body is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    return (head + "\r\n").encode() + (body or b"")


async def _probe(port: int, i: int, tally: Tally) -> None:
    path, body = ("/api/calc", CALC) if i % 2 else ("/api/targets", None)
    start = time.perf_counter()
    status = 0
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.1", 0)), 10)
        writer.write(_head(port, path, body))
        line = await asyncio.wait_for(reader.readline(), 10)
        status = int(line.split()[1]) if line else 0
        await asyncio.wait_for(reader.read(), 10)
        writer.close()
    except (OSError, TimeoutError, IndexError, ValueError):
        pass
    tally.probes.append((status, time.perf_counter() - start))


async def _probes(port: int, until: float, tally: Tally) -> None:
    i = 0
    tasks = []
    while time.monotonic() < until:
        tasks.append(asyncio.create_task(_probe(port, i, tally)))
        i += 1
        await asyncio.sleep(0.2)
    await asyncio.gather(*tasks)


async def _attacker(port: int, source: str, kind: str, until: float, tally: Tally,
                    sustained: bool) -> None:
    """One attacking connection (reopened while ``sustained``)."""
    while True:
        start = time.monotonic()
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(source, 0))
        except OSError:
            tally.end("connect failed", 0.0)
            await asyncio.sleep(0.5)
            if sustained and time.monotonic() < until:
                continue
            return
        feeder = asyncio.create_task(_feed(writer, port, kind))
        try:
            data = await asyncio.wait_for(reader.read(64), max(until - start, 0) + 60)
        except (OSError, TimeoutError):
            data = b"?"
        held = time.monotonic() - start
        feeder.cancel()
        writer.close()
        how = ("closed, no answer" if not data else
               f"answered {data.split()[1].decode()}" if data.startswith(b"HTTP/") else
               "still open at the end")
        tally.end(how, held)
        if how.startswith("answered 503"):
            await asyncio.sleep(0.5)  # refused: try again a little later
        if not sustained or time.monotonic() >= until:
            return


async def _feed(writer: asyncio.StreamWriter, port: int, kind: str) -> None:
    try:
        if kind == "half heads":
            writer.write(f"GET /api/targets HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
            await asyncio.Event().wait()
        if kind == "slow-loris":
            writer.write(f"GET /api/targets HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
            for i in range(10**6):
                await asyncio.sleep(2)
                writer.write(f"X-Wait-{i}: a\r\n".encode())
        body = CALC
        writer.write(_head(port, "/api/calc", body)[:-len(body)])
        for byte in body:
            await asyncio.sleep(3)
            writer.write(bytes([byte]))
        await asyncio.Event().wait()
    except (OSError, RuntimeError):
        return


ATTACKS = {"1,100 half heads": ("half heads", 1100, False),
           "300 slow-loris": ("slow-loris", 300, True),
           "250 slow bodies": ("slow bodies", 250, True)}


async def _attack(port: int, name: str, spread: int, seconds: float) -> Tally:
    kind, count, sustained = ATTACKS[name]
    tally = Tally()
    until = time.monotonic() + seconds
    sources = [f"127.0.1.{1 + i % spread}" if spread > 1 else "127.0.0.2"
               for i in range(count)]
    attackers = [asyncio.create_task(_attacker(port, s, kind, until, tally, sustained))
                 for s in sources]
    await asyncio.sleep(1.0)  # the attack in place before the first probe
    prober = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--probe", str(port), str(until - time.monotonic()),
        stdout=asyncio.subprocess.PIPE)
    out, _ = await prober.communicate()
    tally.probes = [(int(s), float(t)) for s, t in json.loads(out)]
    await asyncio.wait(attackers, timeout=90)
    for task in attackers:
        task.cancel()
    return tally


def _serve(src: Path, log: Path | None = None) -> tuple[subprocess.Popen[bytes], int]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    err = subprocess.DEVNULL if log is None else log.open("wb")
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(port)],
                              env={**os.environ, "PYTHONPATH": str(src)},
                              stdout=subprocess.DEVNULL, stderr=err)
    for _ in range(1200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    time.sleep(1.0)
    return server, port


def _hostile_requests(port: int) -> list[tuple[str, bytes]]:
    """The hostile requests of ``--hostile`` (the module text), each whole."""
    host = f"Host: 127.0.0.1:{port}\r\n"
    def post(path: str, body: bytes, extra: str = "") -> bytes:
        return (f"POST {path} HTTP/1.1\r\n{host}Content-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n{extra}\r\n").encode() + body
    def calc(doc: dict[str, object]) -> bytes:
        return post("/api/calc", json.dumps(doc).encode())
    mc = {**json.loads(CALC), "method": "monte-carlo", "trials": 10_000_000}
    lines = "Boyz (85 points)\n" * 6000
    return [
        ("bad chunk", (f"POST /api/calc HTTP/1.1\r\n{host}Transfer-Encoding: chunked\r\n"
                       "\r\nZZ\r\n{}\r\n0\r\n\r\n").encode()),
        ("bytes past Content-Length", post("/api/calc", CALC)[:-1] + b"}" + b"x" * 500),
        ("Content-Length with chunked", post("/api/calc", CALC,
                                             "Transfer-Encoding: chunked\r\n")),
        ("20 KB header", (f"GET /api/targets HTTP/1.1\r\n{host}X-Big: {'a' * 20_000}"
                          "\r\n\r\n").encode()),
        ("garbage request line", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n"),
        ("body over the limit", post("/api/calc", b"[" * 300_000)),
        ("JSON 100,000 deep", post("/api/calc", b"[" * 100_000 + b"]" * 100_000)),
        ("a lone surrogate", post("/api/calc", b'{"attacker": {"name": "\\ud800"}}')),
        ("Monte Carlo past its bound", calc(mc)),
        ("a list of 6,000 lines", post("/api/list/validate", json.dumps({"text": lines}).encode())),
        ("a Host not allowed", b"GET /api/targets HTTP/1.1\r\nHost: evil.example\r\n\r\n"),
        ("a path of odd bytes", f"GET /%00%ff%fe/../..%2f {host}".encode()
         .replace(b" Host", b" HTTP/1.1\r\nHost") + b"\r\n"),
    ]


async def _hostile_client(port: int, source: str, until: float, tally: Tally,
                          rng: random.Random) -> None:
    requests = _hostile_requests(port)
    while time.monotonic() < until:
        _, payload = rng.choice(requests)
        start = time.monotonic()
        data = b""
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(
                "127.0.0.1", port, local_addr=(source, 0)), 10)
            writer.write(payload)
            await writer.drain()
            data = await asyncio.wait_for(reader.read(64), 30)
            writer.close()
        except (OSError, TimeoutError):
            pass
        how = (f"answered {data.split()[1].decode()}" if data.startswith(b"HTTP/")
               else "closed, no answer")
        tally.end(how, time.monotonic() - start)


def _rss_mb(pid: int) -> float:
    """The resident memory of process ``pid`` in MB (Linux ``/proc``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _tree_rss_mb(pid: int) -> float:
    """The resident memory of ``pid`` and its descendants (the calculation workers)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        try:
            total += _rss_mb(p)
        except OSError:
            continue
        todo += children.get(p, [])
    return total


async def _sample(pid: int, until: float, tally: Tally) -> None:
    start = time.monotonic()
    while time.monotonic() < until + 2:
        tally.rss.append((time.monotonic() - start, _tree_rss_mb(pid)))
        await asyncio.sleep(1.0)


async def _hostile(port: int, pid: int, seconds: float) -> Tally:
    tally = Tally()
    until = time.monotonic() + seconds
    sampler = asyncio.create_task(_sample(pid, until, tally))
    clients = [asyncio.create_task(_hostile_client(port, f"127.0.1.{1 + i}", until, tally,
                                                   random.Random(i)))
               for i in range(32)]
    prober = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--probe", str(port), str(seconds),
        stdout=asyncio.subprocess.PIPE)
    out, _ = await prober.communicate()
    tally.probes = [(int(s), float(t)) for s, t in json.loads(out)]
    await asyncio.wait(clients, timeout=60)
    await sampler
    return tally


def hostile_main(src: Path, seconds: float, write: bool) -> None:
    log = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench_attacks_{os.getpid()}.log"
    server, port = _serve(src, log)
    try:
        start_rss = _tree_rss_mb(server.pid)
        tally = asyncio.run(_hostile(port, server.pid, seconds))
    finally:
        server.terminate()
        server.wait(timeout=20)
    text = log.read_text(encoding="utf-8", errors="replace")
    log.unlink()
    mb = [m for _, m in tally.rss]
    half = [m for t, m in tally.rss if t >= seconds / 2]
    served = sum(1 for status, t in tally.probes if status == 200 and t <= 1.0)
    sent = sum(tally.ends.values())
    block = "\n".join([
        f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs "
        f"shared with other jobs (load average {os.getloadavg()[0]:.1f} at the end); "
        f"{seconds:g} s, 32 hostile clients; `python benchmarks/bench_attacks.py "
        f"--hostile {seconds:g}`.", "",
        "| hostile requests | answers | probes served (200 within 1 s) | longest held s | "
        "server + workers RSS MB: loaded, peak, end | growth over the second half MB | log lines "
        "(tracebacks) |", "|---:|---|---|---:|---|---:|---|",
        f"| {sent:,} | " + ", ".join(f"{h} {n:,}" for h, n in tally.ends.most_common())
        + f" | {served}/{len(tally.probes)} | {tally.longest:.1f} | {start_rss:.0f}, "
        f"{max(mb, default=0):.0f}, {mb[-1] if mb else 0:.0f} | "
        f"{(half[-1] - half[0]) if half else 0:+.0f} | {len(text.splitlines())} "
        f"({text.count('Traceback')}) |"])
    print(block)
    if write:
        write_section("hostile", block, appended="## Web server under a long hostile run "
                      "(bench_attacks --hostile)\n\n")


def row(name: str, spread: int, tally: Tally) -> str:
    served = sum(1 for status, t in tally.probes if status == 200 and t <= 1.0)
    worst = max((t for _, t in tally.probes), default=0.0)
    ends = ", ".join(f"{how} {n}" for how, n in tally.ends.most_common())
    where = "one address" if spread == 1 else f"{spread} addresses"
    return (f"| {name} | {where} | {served}/{len(tally.probes)} "
            f"({100 * served / max(len(tally.probes), 1):.0f}%) | {worst:.2f} | {ends} | "
            f"{tally.longest:.1f} |")


def probe_main(port: int, seconds: float) -> None:
    """The probes, in a process of their own (the attack's event loop does not delay
    them): their statuses and times as JSON on stdout."""
    tally = Tally()
    asyncio.run(_probes(port, time.monotonic() + seconds, tally))
    print(json.dumps(tally.probes))


def main() -> None:
    if sys.argv[1:2] == ["--probe"]:
        probe_main(int(sys.argv[2]), float(sys.argv[3]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=45.0)
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    parser.add_argument("--only", help="one attack by name (e.g. '300 slow-loris')")
    parser.add_argument("--spread", default="1,50", help="attacking addresses per run")
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--hostile", type=float, metavar="SECONDS",
                        help="the long hostile run instead (the module text)")
    args = parser.parse_args()
    if args.hostile:
        hostile_main(args.src, args.hostile, not args.no_write)
        return
    rows = []
    for name in [args.only] if args.only else list(ATTACKS):
        for spread in (int(x) for x in args.spread.split(",")):
            server, port = _serve(args.src)
            try:
                tally = asyncio.run(_attack(port, name, spread, args.seconds))
            finally:
                server.terminate()
                server.wait(timeout=20)
            rows.append(row(name, spread, tally))
            print(rows[-1], flush=True)
    block = "\n".join([
        f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs "
        f"shared with other jobs (load average {os.getloadavg()[0]:.1f} at the end); "
        f"{args.seconds:g} s per attack; `python benchmarks/bench_attacks.py`.", "",
        "| attack | from | probes served (200 within 1 s) | slowest probe s | attacking "
        "connections ended | longest held s |", "|---|---|---|---:|---|---:|", *rows])
    print(block)
    if not args.no_write:
        write_section("attacks", block,
                      appended="## Web server under slow clients (bench_attacks)\n\n")


if __name__ == "__main__":
    main()
