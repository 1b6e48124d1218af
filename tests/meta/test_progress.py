"""What a meta run tells as it goes (issue 43: no time left was shown, and nothing at all
when stderr is not a terminal): a bar with the time left on a terminal, one line each
10% in a log, a display that updates itself in a notebook."""

from __future__ import annotations

import io
import re
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from tactica.library import Library
from tactica.meta import Selection, run
from tactica.meta.progress import Bar, Lines, Notebook, progress_for
from tactica.meta.tasks import Partition

PART = Partition(id="11th-x-000", edition="11th", faction="X", attackers=("A",))


def test_a_log_gets_one_line_each_ten_percent() -> None:
    out = io.StringIO()
    lines = Lines(out, every=10)
    lines.start(40, 0)
    for _ in range(40):
        lines.advance(PART)
    said = out.getvalue().splitlines()
    assert said[0] == "tactica meta: 40 partitions to write"
    steps = said[1:]
    assert [int(re.search(r"\((\d+)%\)", s).group(1)) for s in steps] == list(  # type: ignore[union-attr]
        range(10, 101, 10))
    assert all("elapsed, about" in s and "to go" in s for s in steps)
    assert steps[-1].startswith("tactica meta: 40 of 40 partitions (100%)")
    assert steps[-1].endswith("about 0:00 to go")


def test_a_resumed_log_counts_from_what_was_there() -> None:
    out = io.StringIO()
    lines = Lines(out, every=25)
    lines.start(8, 3)  # 37.5% there already: the next line at 50%
    lines.message("worker tcp://x left the cluster")
    for _ in range(5):
        lines.advance(PART)
    said = out.getvalue().splitlines()
    assert said[0] == "tactica meta: 3 of 8 partitions already written: skipped"
    assert said[1] == "tactica meta: note: worker tcp://x left the cluster"
    assert [re.search(r"\((\d+)%\)", s).group(1) for s in said[2:]] == [  # type: ignore[union-attr]
        "50", "75", "100"]


def test_a_terminal_gets_a_bar_with_the_time_left(seed_selection: Selection,
                                                  seed_lib: Library, tmp_path: Path) -> None:
    from rich.console import Console

    out = io.StringIO()
    bar = Bar(Console(file=out, force_terminal=True, width=100))
    run(seed_selection, tmp_path, lib=seed_lib, progress=bar)
    bar.close()
    text = out.getvalue()
    assert "partitions" in text and "5/5" in text and "left" in text


class _Handle:
    def __init__(self) -> None:
        self.shown: list[str] = []

    def update(self, obj: Any) -> None:
        self.shown.append(obj.data)


def _fake_notebook(monkeypatch: pytest.MonkeyPatch) -> _Handle:
    """IPython's modules as a notebook kernel shows them: ``get_ipython()`` a
    ``ZMQInteractiveShell``, ``display(..., display_id=True)`` a handle."""
    handle = _Handle()

    class ZMQInteractiveShell:
        pass

    class HTML:
        def __init__(self, data: str) -> None:
            self.data = data

    def display(obj: Any, display_id: bool = False) -> _Handle:
        assert display_id
        handle.shown.append(obj.data)
        return handle

    ipython = types.ModuleType("IPython")
    ipython.get_ipython = ZMQInteractiveShell  # type: ignore[attr-defined]
    shown = types.ModuleType("IPython.display")
    shown.HTML, shown.display = HTML, display  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "IPython", ipython)
    monkeypatch.setitem(sys.modules, "IPython.display", shown)
    return handle


def test_a_notebook_gets_a_display_that_updates(monkeypatch: pytest.MonkeyPatch,
                                                seed_selection: Selection,
                                                seed_lib: Library, tmp_path: Path) -> None:
    handle = _fake_notebook(monkeypatch)
    shown = progress_for(io.StringIO())
    assert isinstance(shown, Notebook)
    run(seed_selection, tmp_path, lib=seed_lib, progress=shown)
    assert len(handle.shown) == 1 + 1 + 5  # made, started, each partition
    assert '<progress value="5" max="5"' in handle.shown[-1]
    assert "5 of 5 partitions (100%)" in handle.shown[-1]


def test_not_a_terminal_nor_a_notebook_gets_lines() -> None:
    assert isinstance(progress_for(io.StringIO()), Lines)
