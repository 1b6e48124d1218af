"""Calculations off the web server: a few worker processes, each calculation bounded by
a timeout.

The exact engine is fast at table-top sizes, but a scenario at the contract's limits
(200 models with D6 attacks into 60-wound models, say) can take minutes. A thread cannot
be stopped, so calculations run in worker processes (``python -m tactica.web.compute``):
a worker that runs past the timeout is killed and replaced, and the request gets a clear
refusal. When every worker stays busy for ``wait`` seconds the request is refused as
busy; so no request holds the server longer than ``wait + timeout`` seconds.

The protocol is one line each way, after the worker's ``ready`` line (a calculation's
timeout starts once the worker has started, not while it imports): the scenario's JSON
in; ``ok <result JSON>``, ``invalid <message as JSON>`` (the engine refused it; the
message names the field) or ``error <message as JSON>`` (a bug) out. The web layer
validates the scenario before it gets here; a worker only runs ``tactica.calculate``.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO

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


#: How long a new worker may take to load (imports, every faction's rules) before its
#: first calculation; not counted in a calculation's timeout.
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


class _Worker:
    """One worker process; a thread moves its answers into a queue so that waiting for
    one can time out."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tactica.web.compute"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, env=_environment(), text=True, encoding="utf-8",
            bufsize=1)
        self.answers: queue.Queue[str | None] = queue.Queue()
        self.ready = False
        assert self.process.stdout is not None
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True,
                         name="tactica-calc-reader").start()
        self.ready = False

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self.answers.put(line)
        self.answers.put(None)  # the worker is gone

    def ask(self, scenario_json: str, timeout: float) -> str | None:
        """Send a scenario; its answer line, or ``None`` if the worker died. Raises
        ``queue.Empty`` on timeout."""
        assert self.process.stdin is not None
        if not self.ready:  # loading is not part of the calculation's time
            try:
                first = self.answers.get(timeout=STARTUP_TIMEOUT)
            except queue.Empty:
                return None
            if first is None or first.strip() != "ready":
                return None
            self.ready = True
        self.process.stdin.write(scenario_json.replace("\n", " ") + "\n")
        self.process.stdin.flush()
        return self.answers.get(timeout=timeout)

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(timeout=5)
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()


class CalcPool:
    """``workers`` calculation processes, started on first use.

    ``compute(scenario_json)`` returns the result's JSON, or raises ``CalcTimeout``,
    ``CalcBusy``, ``CalcInvalid`` or ``CalcCrashed``. Thread-safe: the web server calls it
    from its thread pool.
    """

    def __init__(self, workers: int = 2, timeout: float = 4.0, wait: float = 2.0) -> None:
        if workers < 1:
            raise ValueError("a calculation pool needs at least one worker")
        self.workers = workers
        self.timeout = timeout
        self.wait = wait
        self._idle: queue.Queue[_Worker] = queue.Queue()
        self._lock = threading.Lock()
        self._started = False
        self._closed = False

    def start(self) -> None:
        """Start the workers now (the first calculation need not wait for them)."""
        self._start()

    def _start(self) -> None:
        with self._lock:
            if self._closed:
                raise CalcBusy("the calculator is shutting down")
            if not self._started:
                for _ in range(self.workers):
                    self._idle.put(_Worker())
                self._started = True

    def compute(self, scenario_json: str) -> str:
        self._start()
        try:
            worker = self._idle.get(timeout=self.wait)
        except queue.Empty:
            raise CalcBusy("every calculator is busy; try again in a moment") from None
        try:
            answer = worker.ask(scenario_json, self.timeout)
        except queue.Empty:
            self._replace(worker)
            raise CalcTimeout(f"no result within {self.timeout:g} s") from None
        except OSError as exc:  # the worker's pipe is gone
            self._replace(worker)
            raise CalcCrashed(f"the calculator stopped unexpectedly ({exc})") from None
        if answer is None:
            self._replace(worker)
            raise CalcCrashed("the calculator stopped unexpectedly")
        self._release(worker)
        kind, _, payload = answer.rstrip("\n").partition(" ")
        if kind == "ok":
            return payload
        message = str(json.loads(payload))
        if kind == "invalid":
            raise CalcInvalid(message)
        raise CalcCrashed(message)

    def _release(self, worker: _Worker) -> None:
        if self._closed:
            worker.stop()
        else:
            self._idle.put(worker)

    def _replace(self, worker: _Worker) -> None:
        worker.stop()
        if not self._closed:
            self._idle.put(_Worker())

    def close(self) -> None:
        """Stop the idle workers (busy ones stop when they hand back their answer)."""
        with self._lock:
            self._closed = True
        while True:
            try:
                self._idle.get_nowait().stop()
            except queue.Empty:
                return


if __name__ == "__main__":
    main()
