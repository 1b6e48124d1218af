"""Fixtures of the meta-table tests: small selections of the seed library (five units,
fast to load in every process) and a real Dask cluster on localhost, started as a user
would (``dask scheduler`` and ``dask worker`` processes talking TCP).

The cluster tests (marker ``cluster``: ``-m "not cluster"`` leaves them out) need the
``dask`` command (dask[distributed], a dependency); without it they are skipped, or fail
when ``CI`` / ``TACTICA_STRICT_TESTS`` is set (the rule of tests/conftest.py, restated
here: this package's modules cannot import that conftest by name beside tests/web's).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from local_ports import free_port, listening
from tactica.library import Library, load_seed_library
from tactica.meta import Selection, select_units

SRC = Path(__file__).resolve().parents[2] / "src"
STRICT_ENVS = ("CI", "TACTICA_STRICT_TESTS")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "cluster: starts a Dask scheduler and workers on "
                            "localhost (needs the `dask` command)")


def _strict() -> bool:
    return any(os.environ.get(n, "").strip().lower() not in ("", "0", "false")
               for n in STRICT_ENVS)


@pytest.fixture(scope="session")
def seed_lib() -> Library:
    return load_seed_library()


@pytest.fixture(scope="session")
def seed_selection(seed_lib: Library) -> Selection:
    """The five seed units against every preset and each other, one unit a partition:
    the selection ``tactica --no-dataset meta --targets both --partition-size 1`` makes."""
    units = select_units(seed_lib)
    return Selection(attackers=units, targets=(*(p.name for p in seed_lib.presets()), *units),
                     dataset=False, partition_size=1)


@dataclass
class LocalDask:
    """A scheduler and its workers, each a ``dask`` process of its own."""

    address: str
    folder: Path
    env: dict[str, str]
    scheduler: subprocess.Popen[bytes]
    workers: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def start_worker(self) -> subprocess.Popen[bytes]:
        log = (self.folder / f"worker-{len(self.workers)}.log").open("wb")
        proc = subprocess.Popen(
            [_dask(), "worker", self.address, "--nthreads", "1", "--no-nanny",
             "--no-dashboard", "--local-directory", str(self.folder)],
            env=self.env, stdout=log, stderr=subprocess.STDOUT)
        self.workers.append(proc)
        return proc

    def wait_for_workers(self, n: int, seconds: float = 120.0) -> None:
        from distributed import Client

        with Client(self.address, timeout="60s") as client:
            client.wait_for_workers(n, timeout=seconds)

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        proc.send_signal(signal.SIGKILL)
        proc.wait()

    def close(self) -> None:
        for proc in [*self.workers, self.scheduler]:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()


def _dask() -> str:
    here = Path(sys.executable).parent / "dask"
    return str(here) if here.is_file() else (shutil.which("dask") or "")


@pytest.fixture(scope="module")
def local_dask(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalDask]:
    """A scheduler and two workers on localhost over TCP (``dask scheduler``, ``dask
    worker``), the workers importing this tactica."""
    if not _dask():
        reason = "cluster test: the `dask` command (dask[distributed]) is not installed"
        if _strict():
            pytest.fail(f"{reason} (required: {' or '.join(STRICT_ENVS)} is set)",
                        pytrace=False)
        pytest.skip(reason)
    folder = tmp_path_factory.mktemp("dask")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(SRC), *filter(None, [os.environ.get("PYTHONPATH")])])}
    port = free_port()
    log = (folder / "scheduler.log").open("wb")
    scheduler = subprocess.Popen(
        [_dask(), "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
        env=env, stdout=log, stderr=subprocess.STDOUT)
    cluster = LocalDask(f"tcp://127.0.0.1:{port}", folder, env, scheduler)
    try:
        deadline = time.monotonic() + 120
        while not listening(port):
            if scheduler.poll() is not None or time.monotonic() > deadline:
                pytest.fail("the dask scheduler did not start: "
                            + (folder / "scheduler.log").read_text(errors="replace")[-500:])
            time.sleep(0.2)
        cluster.start_worker()
        cluster.start_worker()
        cluster.wait_for_workers(2)
        yield cluster
    finally:
        cluster.close()


