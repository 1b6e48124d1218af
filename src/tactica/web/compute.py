"""Calculations off the web server: a few worker processes, each calculation bounded by
a timeout.

The exact engine is fast at table-top sizes, but a scenario at the contract's limits
(200 models with D6 attacks into 60-wound models, say) can take minutes. A thread cannot
be stopped, so calculations run in worker processes (``python -m tactica.web.compute``):
a worker that runs past the timeout is killed and replaced, and the request gets a clear
refusal.

Bounds: a request waits at most ``wait`` seconds for a ready worker (else it is refused
as busy, 503) and its calculation runs at most ``timeout`` seconds, so no request holds
the server longer than ``wait + timeout`` seconds once the pool has started. A worker
joins the pool only when it has loaded (its ``ready`` line): the start-up of a worker
that replaces a stopped one is spent in the background, inside other requests' ``wait``,
never added to a request's time. The pool's first start-up (a few seconds: imports and
every faction's rules) is awaited by ``started()`` (``tactica serve`` awaits it before
it accepts connections); a request made before that waits for it.

The pool is asyncio-native and bound to no event loop: a request awaits its answer
without a thread of its own (a reader thread per worker hands each answer line to the
waiting request's loop), so a calculation costs the server one pipe write and one
wake-up, not a thread hand-off each way.

The protocol is one line each way, after the worker's ``ready`` line: the scenario's JSON
in; ``ok <result JSON>``, ``invalid <message as JSON>`` (the engine refused it; the
message names the field) or ``error <message as JSON>`` (a bug) out. The web layer
validates the scenario before it gets here; a worker only runs ``tactica.calculate``.
"""

from __future__ import annotations

import asyncio
import collections
import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

__all__ = ["CalcBusy", "CalcCrashed", "CalcInvalid", "CalcPool", "CalcTimeout", "main"]


class CalcTimeout(Exception):
    """The calculation ran past the timeout (its worker was stopped)."""


class CalcBusy(Exception):
    """Every worker stayed busy while the request waited."""


class CalcInvalid(ValueError):
    """The engine refused the scenario (``ScenarioError``, a named effect's conditions,
    ...); the message names the field."""


class CalcCrashed(RuntimeError):
    """The worker failed in an unexpected way (a bug, or it was killed from outside)."""


#: How long the pool's first workers may take to load (imports, every faction's rules);
#: never counted in a calculation's timeout.
STARTUP_TIMEOUT = 120.0


def main() -> None:
    """A worker's loop: "ready" once loaded, then one scenario per line on stdin, one
    answer per line on stdout. Loading includes every faction's rules (the bundled
    dataset's named effects), so no calculation pays for it."""
    from ..combat import calculate
    from ..effects import dataset_effects

    out = sys.stdout
    dataset_effects()
    out.write("ready\n")
    out.flush()
    for line in sys.stdin:
        try:
            answer = "ok " + calculate(line).model_dump_json()
        except ValueError as exc:  # ScenarioError, NamedEffectError, pydantic errors
            answer = "invalid " + json.dumps(str(exc))
        except Exception as exc:  # a bug: reported, the worker lives on
            answer = "error " + json.dumps(f"{type(exc).__name__}: {exc}")
        out.write(answer + "\n")
        out.flush()


def _environment() -> dict[str, str]:
    """The worker finds this very ``tactica`` first, however the server was started."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    env["PYTHONUNBUFFERED"] = "1"
    env["PYTHONIOENCODING"] = "utf-8"
    return env


_Answer = Callable[[str | None], None]
_ONE_LINE = re.compile("[\r\n]")


class _Worker:
    """One worker process. Its reader thread announces it ready (``on_ready``) or gone
    (``on_gone``) after its first line, then hands each answer line to the request
    waiting for it (``None``: the worker died)."""

    def __init__(self, on_ready: Callable[[_Worker], None],
                 on_gone: Callable[[_Worker], None]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tactica.web.compute"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, env=_environment(), text=True, encoding="utf-8",
            bufsize=1)
        self._waiting: _Answer | None = None
        self._lock = threading.Lock()
        self._on_ready = on_ready
        self._on_gone = on_gone
        assert self.process.stdout is not None
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True,
                         name="tactica-calc-reader").start()

    def _read(self, stream: IO[str]) -> None:
        first = stream.readline()
        if first.strip() != "ready":
            self._on_gone(self)
            return
        self._on_ready(self)
        for line in stream:
            self._hand(line)
        self._hand(None)  # the worker is gone

    def _hand(self, line: str | None) -> None:
        with self._lock:
            waiting, self._waiting = self._waiting, None
        if waiting is not None:
            waiting(line)

    async def ask(self, scenario_json: str, timeout: float) -> str | None:
        """Send a scenario; its answer line, or ``None`` if the worker died. Raises
        ``TimeoutError`` after ``timeout`` seconds, ``OSError`` if its pipe is gone."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[str | None] = loop.create_future()

        def deliver(line: str | None) -> None:
            loop.call_soon_threadsafe(_settle, answer, line)

        with self._lock:
            self._waiting = deliver
        assert self.process.stdin is not None
        # one line: JSON has line breaks only as white space (the pipe reads \r as one)
        self.process.stdin.write(_ONE_LINE.sub(" ", scenario_json) + "\n")
        self.process.stdin.flush()
        return await asyncio.wait_for(answer, timeout)

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(timeout=5)
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()


def _settle(future: asyncio.Future[Any], value: Any) -> None:
    if not future.done():
        future.set_result(value)


class CalcPool:
    """``workers`` calculation processes, started by ``start()`` (or on first use).

    ``await compute(scenario_json)`` returns the result's JSON, or raises
    ``CalcTimeout``, ``CalcBusy``, ``CalcInvalid`` or ``CalcCrashed``. It may be awaited
    from any event loop (and from several at once): the pool's state is guarded by a
    lock, and answers reach the waiting loop through ``call_soon_threadsafe``.
    """

    def __init__(self, workers: int = 2, timeout: float = 4.0, wait: float = 2.0) -> None:
        if workers < 1:
            raise ValueError("a calculation pool needs at least one worker")
        self.workers = workers
        self.timeout = timeout
        self.wait = wait
        self._idle: collections.deque[_Worker] = collections.deque()
        self._waiters: collections.deque[tuple[asyncio.AbstractEventLoop,
                                               asyncio.Future[_Worker]]] = collections.deque()
        self._lock = threading.Lock()
        self._starting = 0  # first workers not yet ready (or gone)
        self._live = 0  # workers running or loading
        self._started = False
        self._closed = False

    def start(self) -> None:
        """Start the workers now; they join the pool as each has loaded."""
        with self._lock:
            if self._closed:
                raise CalcBusy("the calculator is shutting down")
            if self._started:
                return
            self._started = True
            self._starting = self._live = self.workers
        for _ in range(self.workers):
            _Worker(self._first_ready, self._first_gone)

    async def started(self, limit: float = STARTUP_TIMEOUT) -> None:
        """Start the workers and wait until each has loaded (or failed to), at most
        ``limit`` seconds."""
        self.start()
        end = time.monotonic() + limit
        while self._starting and time.monotonic() < end:
            await asyncio.sleep(0.02)

    def _first_ready(self, worker: _Worker) -> None:
        with self._lock:
            self._starting -= 1
        self.release(worker)

    def _first_gone(self, worker: _Worker) -> None:
        with self._lock:
            self._starting -= 1
        self._gone(worker)

    def _gone(self, worker: _Worker) -> None:
        """A worker that failed to load is not replaced (it would fail again): once
        none is left, requests are refused as crashed."""
        worker.stop()
        with self._lock:
            self._live -= 1

    async def acquire(self) -> _Worker:
        """A ready worker, waiting at most ``wait`` seconds (``CalcBusy``). While the
        pool's first workers are loading, that start-up is awaited first."""
        await self.started()
        loop = asyncio.get_running_loop()
        with self._lock:
            if self._closed:
                raise CalcBusy("the calculator is shutting down")
            if self._idle:
                return self._idle.pop()
            if self._live <= 0:
                raise CalcCrashed("the calculator could not start")
            handed: asyncio.Future[_Worker] = loop.create_future()
            entry = (loop, handed)
            self._waiters.append(entry)
        try:
            return await asyncio.wait_for(handed, self.wait)
        except TimeoutError:
            with self._lock:
                if entry in self._waiters:
                    self._waiters.remove(entry)
            raise CalcBusy("every calculator is busy; try again in a moment") from None

    def release(self, worker: _Worker) -> None:
        """Hand a ready worker to the longest waiting request, or keep it idle."""
        with self._lock:
            if self._closed:
                worker.stop()
                return
            if not self._waiters:
                self._idle.append(worker)
                return
            loop, handed = self._waiters.popleft()
        loop.call_soon_threadsafe(self._give, handed, worker)

    def _give(self, handed: asyncio.Future[_Worker], worker: _Worker) -> None:
        if handed.done():  # the request stopped waiting meanwhile
            self.release(worker)
        else:
            handed.set_result(worker)

    async def compute(self, scenario_json: str) -> str:
        worker = await self.acquire()
        try:
            answer = await worker.ask(scenario_json, self.timeout)
        except TimeoutError:
            self._replace(worker)
            raise CalcTimeout(f"no result within {self.timeout:g} s") from None
        except OSError as exc:  # the worker's pipe is gone
            self._replace(worker)
            raise CalcCrashed(f"the calculator stopped unexpectedly ({exc})") from None
        except BaseException:  # the request was cancelled (client gone): answer unread
            self._replace(worker)
            raise
        if answer is None:
            self._replace(worker)
            raise CalcCrashed("the calculator stopped unexpectedly")
        self.release(worker)
        kind, _, payload = answer.rstrip("\n").partition(" ")
        if kind == "ok":
            return payload
        message = str(json.loads(payload))
        if kind == "invalid":
            raise CalcInvalid(message)
        raise CalcCrashed(message)

    def _replace(self, worker: _Worker) -> None:
        """Stop ``worker`` and start another, which joins the pool once it has loaded."""
        worker.stop()
        with self._lock:
            if self._closed:
                return
        _Worker(self.release, self._gone)

    def close(self) -> None:
        """Stop the idle workers (busy ones stop when they hand back their answer)."""
        with self._lock:
            self._closed = True
            idle = list(self._idle)
            self._idle.clear()
        for worker in idle:
            worker.stop()


if __name__ == "__main__":
    main()
