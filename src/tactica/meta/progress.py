"""How a meta run tells its progress (``run.Progress``), wherever it runs: a bar with the
time left on a terminal (``Bar``), one line each ``every`` percent where nobody watches a
bar (``Lines``: a batch job, ``nohup``, a log file), a display that updates itself in a
notebook (``Notebook``: IPython's own, no widget library needed). ``progress_for`` picks
one.

The time left is the time so far over the partitions written in this run, times those
still to go (the partitions are cut to about equal work, ``tasks.plan``):

>>> remaining(elapsed=30.0, done_now=10, left=20)
60.0
>>> remaining(elapsed=30.0, done_now=0, left=20) is None
True
"""

from __future__ import annotations

import html
import sys
import time
from typing import Any, TextIO

from .tasks import Partition

__all__ = ["Bar", "Lines", "Notebook", "in_notebook", "progress_for", "remaining",
           "say_time"]


def remaining(elapsed: float, done_now: int, left: int) -> float | None:
    """Seconds still to go, from the pace so far (``None`` before the first partition)."""
    return None if done_now <= 0 else elapsed / done_now * left


def say_time(seconds: float | None) -> str:
    """``1:05:09``, ``4:07``, ``0:12``; ``?`` when not known yet.

    >>> say_time(3909), say_time(247), say_time(None)
    ('1:05:09', '4:07', '?')
    """
    if seconds is None:
        return "?"
    s = round(seconds)
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class _Count:
    """The counts every display shows: written before, written now, in all."""

    def __init__(self) -> None:
        self.total = 0
        self.before = 0
        self.now = 0
        self.t0 = time.monotonic()

    def start(self, total: int, done: int) -> None:
        self.total, self.before, self.now, self.t0 = total, done, 0, time.monotonic()

    def text(self) -> str:
        done = self.before + self.now
        elapsed = time.monotonic() - self.t0
        left = remaining(elapsed, self.now, self.total - done)
        pct = 100 * done / self.total if self.total else 100.0
        return (f"{done} of {self.total} partitions ({pct:.0f}%), {say_time(elapsed)} "
                f"elapsed, about {say_time(left)} to go")


class Lines(_Count):
    """One line on ``stream`` each ``every`` percent of the partitions, and each
    message: for a run nobody watches (a batch job's log)."""

    def __init__(self, stream: TextIO, every: float = 10.0) -> None:
        super().__init__()
        self.stream = stream
        self.every = every
        self.next = every

    def _say(self, text: str) -> None:
        print(f"tactica meta: {text}", file=self.stream, flush=True)

    def start(self, total: int, done: int) -> None:
        super().start(total, done)
        pct = 100 * done / total if total else 100.0
        self.next = (pct // self.every + 1) * self.every
        self._say(f"{done} of {total} partitions already written: skipped" if done else
                  f"{total} partitions to write")

    def advance(self, part: Partition) -> None:
        self.now += 1
        done = self.before + self.now
        pct = 100 * done / self.total if self.total else 100.0
        if pct + 1e-9 >= self.next or done == self.total:
            self._say(self.text())
            while self.next <= pct + 1e-9:
                self.next += self.every

    def message(self, text: str) -> None:
        self._say(f"note: {text}")

    def close(self, failed: bool = False) -> None:
        pass


class Bar:
    """A rich progress bar on a terminal: partitions written, elapsed, time left."""

    def __init__(self, console: Any) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.console = console
        self.bar = Progress("{task.description}", BarColumn(), MofNCompleteColumn(),
                            TimeElapsedColumn(), "left", TimeRemainingColumn(),
                            console=console, transient=False)
        self.task = self.bar.add_task("partitions", total=None)

    def start(self, total: int, done: int) -> None:
        if done:
            self.console.print(f"{done} of {total} partitions already written: skipped",
                               markup=False)
        self.bar.update(self.task, total=total, completed=done)
        self.bar.reset(self.task, total=total, completed=done)  # the pace: this run's
        self.bar.start()

    def advance(self, part: Partition) -> None:
        self.bar.advance(self.task)

    def message(self, text: str) -> None:
        self.bar.console.print(f"note: {text}", markup=False)

    def close(self, failed: bool = False) -> None:
        """Stop the bar; after a refusal, leave no bar above its one line."""
        if failed:
            self.bar.live.transient = True
        self.bar.stop()


class Notebook(_Count):
    """A notebook's display of the run, updated in place (IPython's ``display``)."""

    def __init__(self) -> None:
        super().__init__()
        from IPython.display import HTML, display  # type: ignore[import-not-found]

        self._html = HTML
        self.handle = display(HTML(self._body("starting")), display_id=True)
        self.notes: list[str] = []

    def _body(self, text: str) -> str:
        value = self.before + self.now
        notes = "".join(f"<div>note: {html.escape(n)}</div>" for n in getattr(
            self, "notes", []))
        return (f'<progress value="{value}" max="{max(self.total, 1)}" style="width:40em">'
                f"</progress><div>tactica meta: {html.escape(text)}</div>{notes}")

    def _show(self) -> None:
        self.handle.update(self._html(self._body(self.text())))

    def start(self, total: int, done: int) -> None:
        super().start(total, done)
        self._show()

    def advance(self, part: Partition) -> None:
        self.now += 1
        self._show()

    def message(self, text: str) -> None:
        self.notes.append(text)
        self._show()

    def close(self, failed: bool = False) -> None:
        pass


def in_notebook() -> bool:
    """Whether this process is a notebook's kernel (IPython's ZMQ shell)."""
    ipython = sys.modules.get("IPython")
    shell = getattr(ipython, "get_ipython", lambda: None)() if ipython else None
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


def progress_for(stream: TextIO | None = None, every: float = 10.0) -> Bar | Lines | Notebook:
    """The display for where this runs: a notebook's, a bar on a terminal ``stream``
    (stderr by default), else a line each ``every`` percent on it."""
    if in_notebook():
        return Notebook()
    out = sys.stderr if stream is None else stream
    if out.isatty():
        from rich.console import Console

        return Bar(Console(file=out, highlight=False))
    return Lines(out, every)
