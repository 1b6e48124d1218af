"""The meta table on a real Dask cluster (a scheduler and two workers on localhost over
TCP, started as ``dask scheduler`` / ``dask worker`` processes): the same bytes as the
in-process run, and a worker killed mid-run loses nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tactica.cli import commands
from tactica.library import Library
from tactica.meta import Selection, run
from tactica.meta.run import Silent
from tactica.meta.tasks import Partition

from .conftest import LocalDask

pytestmark = pytest.mark.cluster


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("part-*.parquet"))}


def test_cluster_gives_the_in_process_bytes(local_dask: LocalDask, seed_selection: Selection,
                                            seed_lib: Library, tmp_path: Path) -> None:
    here = run(seed_selection, tmp_path / "here", mode="in-process", lib=seed_lib)
    # the command a user types, pointed at the running scheduler
    result = CliRunner().invoke(commands.app, [
        "--no-dataset", "meta", "-o", str(tmp_path / "there"), "--targets", "both",
        "--partition-size", "1", "--scheduler", local_dask.address])
    assert result.exit_code == 0, result.output
    assert "dask tcp://127.0.0.1" in result.output
    assert here.mode == "in-process" and len(here.written) == 5
    expected = _files(tmp_path / "here")
    assert len(expected) == 5
    assert _files(tmp_path / "there") == expected  # byte for byte


class _KillOnFirst(Silent):
    """Kills one worker (SIGKILL) when the first partition is written."""

    def __init__(self, cluster: LocalDask) -> None:
        self.cluster = cluster
        self.written: list[str] = []
        self.messages: list[str] = []

    def advance(self, part: Partition) -> None:
        self.written.append(part.id)
        if len(self.written) == 1:
            self.cluster.kill(self.cluster.workers[0])

    def message(self, text: str) -> None:
        self.messages.append(text)


def test_killed_worker_then_rerun_leaves_the_whole_table(
        local_dask: LocalDask, seed_selection: Selection, seed_lib: Library,
        tmp_path: Path) -> None:
    killer = _KillOnFirst(local_dask)
    first = run(seed_selection, tmp_path / "t", scheduler=local_dask.address,
                progress=killer)
    assert local_dask.workers[0].poll() is not None  # the worker is dead
    # the partitions still running or held by the dead worker were redone by the other
    # (or reported as not done); the rerun computes whatever is missing
    again = run(seed_selection, tmp_path / "t", scheduler=local_dask.address)
    assert sorted(first.written + again.written) == sorted(
        {*first.written, *again.written})  # nothing written twice
    assert set(again.skipped) == set(first.written)
    run(seed_selection, tmp_path / "clean", mode="in-process", lib=seed_lib)
    assert _files(tmp_path / "t") == _files(tmp_path / "clean")
    assert not list((tmp_path / "t").glob(".*tmp"))  # no temporary file left
    for text in killer.messages:  # what the player is told names the worker
        assert "worker tcp://" in text or "run the same command again" in text
    local_dask.workers.pop(0)
    local_dask.start_worker()
    local_dask.wait_for_workers(2)
