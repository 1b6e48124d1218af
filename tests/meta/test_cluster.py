"""The meta table on a real Dask cluster (a scheduler and two workers on localhost over
TCP, started as ``dask scheduler`` / ``dask worker`` processes): the same bytes as the
in-process run, and a worker killed mid-run loses nothing."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

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


def _address_of(cluster: LocalDask, proc: Any) -> str:
    """The worker address of a ``dask worker`` process (no nanny: its own pid)."""
    from distributed import Client

    with Client(cluster.address, timeout="60s") as client:
        pids = client.run(os.getpid)  # each worker's address -> its process id
    (address,) = [a for a, pid in pids.items() if pid == proc.pid]
    return str(address)


class _KillAndName(_KillOnFirst):
    def __init__(self, cluster: LocalDask) -> None:
        super().__init__(cluster)
        self.killed = _address_of(cluster, cluster.workers[0])


def test_the_worker_lost_is_the_one_killed_and_no_other(
        local_dask: LocalDask, seed_selection: Selection, tmp_path: Path) -> None:
    """The report names the killed worker (the scheduler's remove-worker event), once;
    a run where no worker dies reports none."""
    calm = run(seed_selection, tmp_path / "calm", scheduler=local_dask.address)
    assert calm.workers_lost == [] and calm.complete
    killer = _KillAndName(local_dask)
    hit = run(seed_selection, tmp_path / "hit", scheduler=local_dask.address,
              progress=killer)
    assert hit.workers_lost == [killer.killed]
    local_dask.workers.pop(0)
    local_dask.start_worker()
    local_dask.wait_for_workers(2)


def test_a_killed_client_then_rerun_leaves_the_whole_table(
        local_dask: LocalDask, tmp_path: Path) -> None:
    """The ``tactica meta`` process killed (SIGKILL) once its first file is written: the
    rerun skips what was written and completes the table, the in-process run's bytes."""
    import signal
    import subprocess
    import sys
    import time

    from tactica.library import load_library

    args = ["--unit", "Intercessor Squad", "--unit", "Hellblaster Squad", "--unit",
            "Necron Warriors", "--unit", "Immortals", "--unit", "Lokhust Heavy Destroyers",
            "--target", "meq", "--target", "teq", "--rules", "11th", "--partition-size", "1"]
    folder = tmp_path / "t"
    proc = subprocess.Popen([sys.executable, "-m", "tactica", "meta", "-o", str(folder),
                             *args, "--scheduler", local_dask.address],
                            env=local_dask.env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while not list(folder.glob("part-*.parquet")) and proc.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    result = CliRunner().invoke(commands.app, ["meta", "-o", str(folder), *args,
                                               "--scheduler", local_dask.address])
    assert result.exit_code == 0, result.output
    clean = CliRunner().invoke(commands.app, ["meta", "-o", str(tmp_path / "clean"), *args,
                                              "--in-process"])
    assert clean.exit_code == 0, clean.output
    assert _files(folder) == _files(tmp_path / "clean") and len(_files(folder)) == 5
    assert load_library() is not None
