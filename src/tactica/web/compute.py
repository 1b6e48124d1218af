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
A list check is the line ``list <library recipe>\t<request JSON>`` (``check_list``;
``tactica.web.lists``), answered ``ok <status> <JSON body>``: the worker checks lists
against the library the recipe names, loaded before its ``ready`` line when the pool
is given one (``library``; a pool given none, such as the tests' shared one, loads it
at its first list, inside that check's bound), so lists and calculations share the
workers and neither runs on the server's interpreter.
"""

from __future__ import annotations

import asyncio
import collections
import gc
import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

__all__ = ["CalcBusy", "CalcCrashed", "CalcInvalid", "CalcPool", "CalcTimeout", "PoolStatus",
           "main"]


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

#: The environment variable that tells a worker which library to load before it is
#: ready (a ``tactica.web.lists.library_recipe`` line).
LIBRARY_ENV = "TACTICA_WORKER_LIBRARY"

#: A request line that is a list check, not a scenario.
LIST_PREFIX = "list "
#: A request line that is the army page's matrix and plan (``tactica.web.plan``).
PLAN_PREFIX = "plan "


#: A calculation a worker makes before it says it is ready: the exact engine's modules are
#: imported on a first calculation, and no player's request should pay for that.
WARM_UP = json.dumps({
    "attacker": {"weapons": [{"name": "warm-up", "count": 2, "A": "D3", "skill": 3, "S": 4,
                              "AP": -1, "D": "D3", "abilities": ["Sustained Hits 1"]}]},
    "target": {"models": [{"count": 2, "T": 4, "Sv": 3, "W": 2, "fnp": 5}]}})


def main() -> None:
    """A worker's loop: "ready" once loaded, then one document per line on stdin, one
    answer per line on stdout. Loading includes every faction's rules (the bundled
    dataset's named effects) and, when ``LIBRARY_ENV`` names one, the library the lists
    are checked against, so no request pays for them."""
    from ..service import dataset_effects

    out = sys.stdout
    dataset_effects()
    recipe = os.environ.get(LIBRARY_ENV)
    if recipe:
        from .lists import recipe_library

        recipe_library(recipe)
    _answer(WARM_UP)  # the engine's modules imported now, and frozen below with the rest
    # what was loaded lives as long as the worker: out of the collector's way, so that
    # no request pays for a full collection walking the library (``gc.freeze``)
    gc.collect()
    gc.freeze()
    out.write("ready\n")
    out.flush()
    for line in sys.stdin:
        out.write(_answer(line) + "\n")
        out.flush()


def _answer(line: str) -> str:
    """The answer line to one request line: a scenario (or sequence) as JSON,
    ``list <library recipe>\\t<list request JSON>`` or ``plan <library recipe>\\t<the
    army page's request JSON>``."""
    from ..service import calculate

    try:
        if line.startswith(LIST_PREFIX):
            from .lists import check_line

            recipe, _, request = line[len(LIST_PREFIX):].partition("\t")
            status, body = check_line(recipe, request)
            return f"ok {status} {body}"
        if line.startswith(PLAN_PREFIX):
            from .plan_answer import plan_line

            recipe, _, request = line[len(PLAN_PREFIX):].partition("\t")
            return "ok " + plan_line(recipe, request)
        return "ok " + calculate(line).model_dump_json()
    except ValueError as exc:  # ScenarioError, NamedEffectError, pydantic errors
        return "invalid " + json.dumps(str(exc))
    except Exception as exc:  # a bug: reported, the worker lives on
        return "error " + json.dumps(f"{type(exc).__name__}: {exc}")


def _environment(library: str | None) -> dict[str, str]:
    """The worker finds this very ``tactica`` first, however the server was started, and
    loads ``library`` (a recipe) before it is ready."""
    env = dict(os.environ)
    env.pop(LIBRARY_ENV, None)
    if library is not None:
        env[LIBRARY_ENV] = library
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    env["PYTHONUNBUFFERED"] = "1"
    env["PYTHONIOENCODING"] = "utf-8"
    return env


_ONE_LINE = re.compile("[\r\n]")


class _Job:
    """A request line waiting for a worker, then for its answer (``line`` ``None``: a
    worker held by ``CalcPool.acquire``). Both futures belong to the requesting loop;
    ``worker`` is set, under the pool's lock, when the job leaves the queue."""

    def __init__(self, line: str | None, loop: asyncio.AbstractEventLoop) -> None:
        self.line = line
        self.loop = loop
        self.started: asyncio.Future[None] = loop.create_future()
        self.answer: asyncio.Future[str | None] = loop.create_future()
        self.worker: _Worker | None = None


class _Worker:
    """One worker process and its dispatcher thread. The thread announces the worker
    ready (``on_ready``) or gone (``on_gone``) after its first line; then, for each
    answer line, it frees the worker (``on_free``: the pool writes the longest waiting
    job to it at once, from this thread, so a worker never waits for the server's event
    loop to be handed its next job) and hands the answer to the job that asked
    (``None``: the worker died)."""

    def __init__(self, on_ready: Callable[[_Worker], None],
                 on_gone: Callable[[_Worker], None], on_free: Callable[[_Worker], None],
                 library: str | None = None) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tactica.web.compute"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, env=_environment(library), text=True, encoding="utf-8",
            bufsize=1)
        self.job: _Job | None = None
        self.stopped = False
        self._lock = threading.Lock()
        self._on_ready = on_ready
        self._on_gone = on_gone
        self._on_free = on_free
        assert self.process.stdout is not None
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True,
                         name="tactica-calc-dispatcher").start()

    def _read(self, stream: IO[str]) -> None:
        first = stream.readline()
        if first.strip() != "ready":
            self._on_gone(self)
            return
        self._on_ready(self)
        try:
            for line in stream:
                job = self.take()
                if job is None:  # abandoned (past its timeout): the worker is stopping
                    continue
                if not self.stopped:
                    self._on_free(self)
                job.loop.call_soon_threadsafe(_settle, job.answer, line)
        except ValueError:  # the stream was closed: the worker was stopped
            pass
        job = self.take()
        if job is not None:  # the worker is gone
            job.loop.call_soon_threadsafe(_settle, job.answer, None)

    def take(self, job: _Job | None = None) -> _Job | None:
        """The running job, no longer running (only if it is ``job``, when given)."""
        with self._lock:
            running = self.job
            if running is None or (job is not None and running is not job):
                return None
            self.job = None
        return running

    def run(self, job: _Job) -> None:
        """Write ``job``'s line to the worker (a held worker gets none), then tell the
        job's loop: the worker has its work before the loop is woken."""
        if job.line is not None:
            with self._lock:
                self.job = job
            assert self.process.stdin is not None
            try:  # one line: JSON has line breaks only as white space (\r reads as one)
                self.process.stdin.write(_ONE_LINE.sub(" ", job.line) + "\n")
                self.process.stdin.flush()
            except (OSError, ValueError):  # the pipe is gone (the worker died) or closed
                if self.take(job) is not None:
                    job.loop.call_soon_threadsafe(_settle, job.answer, None)
        job.loop.call_soon_threadsafe(_settle, job.started, None)

    def stop(self) -> None:
        with self._lock:
            if self.stopped:
                return
            self.stopped = True
        self.process.kill()
        self.process.wait(timeout=5)
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()


def _settle(future: asyncio.Future[Any], value: Any) -> None:
    if not future.done():
        future.set_result(value)


@dataclass(frozen=True, slots=True)
class PoolStatus:
    """A pool's workers: as configured, running or loading (``live``), free, still loading
    their first library (``starting``); the requests waiting for one (``queued``)."""

    workers: int
    live: int
    idle: int
    queued: int
    starting: int
    closed: bool


class CalcPool:
    """``workers`` calculation processes, started by ``start()`` (or on first use).

    ``await compute(scenario_json)`` returns the result's JSON, or raises
    ``CalcTimeout``, ``CalcBusy``, ``CalcInvalid`` or ``CalcCrashed``. It may be awaited
    from any event loop (and from several at once): the pool's state is guarded by a
    lock, and answers reach the waiting loop through ``call_soon_threadsafe``. Requests
    wait in one queue, longest first; a worker that answers takes the next one itself.
    """

    def __init__(self, workers: int = 2, timeout: float = 4.0, wait: float = 2.0,
                 library: str | None = None) -> None:
        if workers < 1:
            raise ValueError("a calculation pool needs at least one worker")
        self.workers = workers
        self.library = library
        self.timeout = timeout
        self.wait = wait
        self._idle: collections.deque[_Worker] = collections.deque()
        self._jobs: collections.deque[_Job] = collections.deque()
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
            _Worker(self._first_ready, self._first_gone, self.release, self.library)

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

    async def _queued(self, line: str | None) -> _Job:
        """``line`` given to a worker (``None``: a worker held), after waiting at most
        ``wait`` seconds in the queue (``CalcBusy``). While the pool's first workers are
        loading, that start-up is awaited first."""
        await self.started()
        job = _Job(line, asyncio.get_running_loop())
        with self._lock:
            if self._closed:
                raise CalcBusy("the calculator is shutting down")
            if self._idle:
                job.worker = self._idle.pop()
            elif self._live <= 0:
                raise CalcCrashed("the calculator could not start")
            else:
                self._jobs.append(job)
        if job.worker is not None:
            job.worker.run(job)
            return job
        try:
            await asyncio.wait_for(job.started, self.wait)
        except BaseException as exc:  # the wait ended, or the request was cancelled
            with self._lock:
                queued = job in self._jobs
                if queued:
                    self._jobs.remove(job)
            if queued and isinstance(exc, TimeoutError):
                raise CalcBusy("every calculator is busy; try again in a moment") from None
            if queued or not isinstance(exc, TimeoutError):
                if not queued and job.worker is not None:
                    self._abandon(job)
                raise
            # a worker took the job just as the wait ended: go on
        return job

    def status(self) -> PoolStatus:
        """How the pool stands now (``/healthz``)."""
        with self._lock:
            return PoolStatus(workers=self.workers, live=self._live, idle=len(self._idle),
                              queued=len(self._jobs), starting=self._starting,
                              closed=self._closed)

    async def acquire(self) -> _Worker:
        """A ready worker, held until ``release``; waits at most ``wait`` seconds."""
        job = await self._queued(None)
        assert job.worker is not None
        return job.worker

    def release(self, worker: _Worker) -> None:
        """Give a free worker the longest waiting job, or keep it idle."""
        with self._lock:
            closed = self._closed
            job = self._jobs.popleft() if self._jobs and not closed else None
            if job is not None:
                job.worker = worker
            elif not closed:
                self._idle.append(worker)
        if closed:
            worker.stop()
        elif job is not None:
            worker.run(job)

    def _abandon(self, job: _Job) -> None:
        """Stop the worker still running ``job`` (its answer will not be read) and start
        another; nothing if the worker has answered it meanwhile."""
        worker = job.worker
        if job.line is None or worker is None:
            if worker is not None:
                self.release(worker)
            return
        if worker.take(job) is not None:
            self._replace(worker)

    async def _ask(self, line: str, timeout: float) -> tuple[str, str]:
        """A worker's answer to ``line``: its kind (``ok``, ``invalid``, ``error``) and
        payload; ``CalcTimeout`` after ``timeout`` seconds (the worker is replaced)."""
        job = await self._queued(line)
        try:
            answer = await asyncio.wait_for(job.answer, timeout)
        except TimeoutError:
            self._abandon(job)
            raise CalcTimeout(f"no result within {timeout:g} s") from None
        except BaseException:  # the request was cancelled (client gone): answer unread
            self._abandon(job)
            raise
        if answer is None:
            assert job.worker is not None
            self._replace(job.worker)
            raise CalcCrashed("the calculator stopped unexpectedly")
        kind, _, payload = answer.rstrip("\n").partition(" ")
        if kind == "error":
            raise CalcCrashed(str(json.loads(payload)))
        return kind, payload

    async def compute(self, scenario_json: str) -> str:
        kind, payload = await self._ask(scenario_json, self.timeout)
        if kind == "ok":
            return payload
        raise CalcInvalid(str(json.loads(payload)))

    async def check_list(self, library: str, request_json: str,
                         timeout: float) -> tuple[int, str]:
        """A list check (``tactica.web.lists.check_line``) in a worker, over the library
        of the recipe ``library``, stopped after ``timeout`` seconds (``CalcTimeout``):
        the answer's status and JSON body."""
        line = f"{LIST_PREFIX}{library}\t{request_json}"
        kind, payload = await self._ask(line, timeout)
        if kind != "ok":  # the request was validated by the server: a bug
            raise CalcCrashed(str(json.loads(payload)))
        status, _, body = payload.partition(" ")
        return int(status), body

    async def plan(self, library: str, request_json: str, timeout: float) -> str:
        """The army page's answer (``tactica.web.plan_answer.plan_line``) in a worker, over the
        library of the recipe ``library``, stopped after ``timeout`` seconds
        (``CalcTimeout``): its JSON."""
        kind, payload = await self._ask(f"{PLAN_PREFIX}{library}\t{request_json}", timeout)
        if kind != "ok":  # the request was validated by the server: a bug
            raise CalcCrashed(str(json.loads(payload)))
        return payload

    def _replace(self, worker: _Worker) -> None:
        """Stop ``worker`` and start another, which joins the pool once it has loaded."""
        if worker.stopped:
            return
        worker.stop()
        with self._lock:
            if self._closed:
                return
        _Worker(self.release, self._gone, self.release, self.library)

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
