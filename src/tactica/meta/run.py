"""Running the meta table: every partition not yet on disk, in-process or on Dask
distributed, each written (atomically) as its result arrives.

One task is one partition: ``partition_task(selection, partition)`` computes its rows and
returns the Parquet file's bytes; the same function runs in this process
(``mode="in-process"``), on a ``LocalCluster`` of worker processes started here
(``mode="local"``) or on an existing Dask cluster (``scheduler="tcp://host:8786"``; its
workers need tactica and the same data installed). ``mode="auto"`` starts a local
cluster only when the size model says it pays (``sizing.Estimate.cluster_pays``). On
Dask each worker loads the library and fields the targets once, as it joins (a worker
plugin, ``workers.Prepare``), and the partitions it computes share them; the scheduler
hands the partitions out largest first.
Only this process writes files, once per partition, from a finished task's bytes: a
worker that dies loses nothing but its running task, which the scheduler gives to
another worker (up to Dask's ``allowed-failures``, then the partition is reported as not
done and the next run computes it); nothing is written twice. A rerun skips the
partitions whose files exist.
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import re
import socket
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from ..library import Library
from .compute import PREPARING, compute_partition
from .sizing import cores, estimate
from .table import done_partitions, parquet_bytes, write_partition, write_selection
from .tasks import Partition, Selection, library_of, plan

__all__ = ["Mode", "Progress", "RunReport", "SchedulerError", "Silent", "check_address",
           "partition_task", "run"]

Mode = Literal["auto", "in-process", "local"]


def partition_task(selection: Selection, part: Partition) -> bytes:
    """One task: the partition's Parquet bytes (what a Dask worker runs; on a worker
    still preparing, once it is ready)."""
    with PREPARING:
        pass
    return parquet_bytes(compute_partition(selection, part), selection, part)


class Progress(Protocol):
    """What ``run`` tells as it goes (the command line shows a bar and messages)."""

    def start(self, total: int, done: int) -> None:
        """``total`` partitions, ``done`` of them on disk already."""

    def advance(self, part: Partition) -> None:
        """One more partition written."""

    def message(self, text: str) -> None:
        """A worker left, a partition failed."""


class Silent:
    """``Progress`` that tells nothing."""

    def start(self, total: int, done: int) -> None:
        pass

    def advance(self, part: Partition) -> None:
        pass

    def message(self, text: str) -> None:
        pass


@dataclass
class RunReport:
    """What a run did: partitions written now, skipped (on disk), failed (with why)."""

    folder: Path
    partitions: int
    written: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    workers_lost: list[str] = field(default_factory=list)
    mode: str = "in-process"
    seconds: float = 0.0
    startup: float = 0.0  # of ``seconds``: starting or reaching the Dask cluster

    @property
    def complete(self) -> bool:
        return not self.failed


def run(selection: Selection, folder: str | Path, *, mode: Mode = "auto",
        scheduler: str | None = None, workers: int = 2,
        progress: Progress | None = None, lib: Library | None = None,
        performance_report: str | Path | None = None) -> RunReport:
    """Compute and write every partition of ``selection`` not yet in ``folder``; on
    Dask, ``performance_report`` names an HTML file for Dask's performance report (the
    task stream, each task's time)."""
    out = Path(folder)
    if performance_report is not None and importlib.util.find_spec("bokeh") is None:
        raise ValueError("a performance report is drawn by Dask with bokeh, which is not "
                         "installed (pip install bokeh)")
    client = _connect(scheduler) if scheduler else None  # before anything is written
    try:
        return _run(selection, out, _Where(mode, scheduler, workers, performance_report),
                    progress, lib, client)
    finally:
        if client is not None:
            client.close()


@dataclass(frozen=True)
class _Where:
    mode: Mode
    scheduler: str | None
    workers: int
    performance_report: str | Path | None = None


def _run(selection: Selection, out: Path, where: _Where, progress: Progress | None,
         lib: Library | None, client: Any) -> RunReport:
    write_selection(out, selection)
    lib = library_of(selection) if lib is None else lib
    parts = plan(selection, lib)
    done = done_partitions(out, parts)
    todo = [p for p in parts if p.id not in done]
    report = RunReport(out, len(parts), skipped=sorted(done))
    progress = progress or Silent()
    progress.start(len(parts), len(done))
    scheduler, workers = where.scheduler, where.workers
    if scheduler is None and (where.mode == "in-process" or (
            where.mode == "auto" and not estimate(selection, lib, todo).cluster_pays(
                workers, cores()))):
        report.mode = "in-process"
    else:
        report.mode = f"dask {scheduler}" if scheduler else f"dask local cluster ({workers})"
    t0 = time.perf_counter()
    if not todo:
        pass
    elif report.mode == "in-process":
        for part in todo:
            write_partition(out, part, partition_task(selection, part))
            report.written.append(part.id)
            progress.advance(part)
    else:
        _on_dask(selection, todo, out, report, progress, where, client)
    report.seconds = time.perf_counter() - t0
    return report


class SchedulerError(ValueError):
    """A Dask scheduler's address that is malformed or where no scheduler answers; the
    message starts with the address as given."""


#: A scheduler's address: ``[tcp|tls|ws|wss://]HOST:PORT`` (an IPv6 host in brackets).
_ADDRESS = re.compile(r"(?:(tcp|tls|ws|wss)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)"
                      r":(\d{1,5})")
#: Seconds to reach the scheduler's port, then for Dask's handshake: refused within 10 s.
_PROBE, _HANDSHAKE = 3.0, 5.0


def check_address(address: str) -> tuple[str, int]:
    """The host and port of a scheduler's ``address``, or ``SchedulerError``.

    >>> check_address("tcp://127.0.0.1:8786")
    ('127.0.0.1', 8786)
    >>> try:
    ...     check_address("nonsense")
    ... except SchedulerError as exc:
    ...     print(exc)
    'nonsense': not a Dask scheduler's address; write tcp://HOST:PORT
    """
    m = _ADDRESS.fullmatch(address)
    if m is None or not 0 < int(m.group(3)) < 65536:
        raise SchedulerError(f"{address!r}: not a Dask scheduler's address; write "
                             "tcp://HOST:PORT")
    return m.group(2).strip("[]"), int(m.group(3))


def _connect(scheduler: str) -> Any:
    """A client of the scheduler at ``scheduler``; ``SchedulerError`` within 10 s when
    the address is malformed or nothing answers (Dask alone retries for its whole
    timeout, 30 s, even when the connection is refused at once)."""
    host, port = check_address(scheduler)
    try:
        socket.create_connection((host, port), timeout=_PROBE).close()
    except OSError as exc:
        why = ("connection refused" if isinstance(exc, ConnectionRefusedError) else
               f"no answer within {_PROBE:g} s" if isinstance(exc, TimeoutError) else
               "unknown host" if isinstance(exc, socket.gaierror) else
               exc.strerror or type(exc).__name__)
        raise SchedulerError(f"{scheduler!r}: no Dask scheduler answers there ({why})"
                             ) from None
    import distributed

    dist: Any = distributed  # untyped calls
    made: dict[str, Any] = {}

    def handshake() -> None:
        try:
            # not the process's default client until it answers: one given up on at
            # the deadline is no one's (``run`` makes it current while it computes)
            made["client"] = dist.Client(scheduler, timeout=f"{_HANDSHAKE:g}s",
                                         set_as_default=False)
        except Exception as exc:  # a timeout, or another server's bytes read as Dask's
            made["error"] = f"{type(exc).__name__}: {' '.join(str(exc).split())[:160]}"

    # on a daemon thread with a deadline of its own: Dask's timeout does not cover every
    # wait (another kind of server that answers, then says nothing, holds it for ever)
    waiting = threading.Thread(target=handshake, name="tactica-meta-connect", daemon=True)
    waiting.start()
    waiting.join(_HANDSHAKE + 0.5)
    if "client" in made:
        return made["client"]
    raise SchedulerError(f"{scheduler!r}: no Dask scheduler answered there within "
                         f"{_HANDSHAKE:g} s" + (f" ({made['error']})" if "error" in made
                                                else ""))


def _client(scheduler: str | None, workers: int) -> Any:
    import distributed

    dist: Any = distributed  # untyped calls
    if scheduler:
        return _connect(scheduler)
    cluster = dist.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                dashboard_address=None, silence_logs=logging.ERROR)
    return dist.Client(cluster)


def _on_dask(selection: Selection, todo: Sequence[Partition], out: Path, report: RunReport,
             progress: Progress, where: _Where, client: Any = None) -> None:
    import distributed

    from .workers import Prepare

    dist: Any = distributed
    t0 = time.perf_counter()
    client = client if client is not None else _client(where.scheduler, where.workers)
    plugin = Prepare(selection)
    try:
        if not where.scheduler:
            client.wait_for_workers(where.workers)
        # each worker there now loads the library and fields the targets (in parallel);
        # one that joins later does it as it joins
        client.register_plugin(plugin, name=plugin.name)
        report.startup = time.perf_counter() - t0
        with client.as_current(), (
                dist.performance_report(filename=str(where.performance_report))
                if where.performance_report else contextlib.nullcontext()):
            _compute_all(client, selection, todo, out, report, progress)
    finally:
        _close(client, plugin.name, where.scheduler)


def _compute_all(client: Any, selection: Selection, todo: Sequence[Partition], out: Path,
                 report: RunReport, progress: Progress) -> None:
    """Submit every partition (the largest first: the scheduler runs them in order of
    priority) and write each as it arrives."""
    import distributed

    wait: Any = distributed.wait
    key = selection.fingerprint()
    futures = {client.submit(partition_task, selection, p, key=f"meta-{key}-{p.id}",
                             pure=False, priority=len(p.attackers)): p for p in todo}
    pending = set(futures)
    seen = _departures(client) or set()  # the workers gone before this run
    while pending:
        try:
            finished, pending = wait(pending, timeout=1.0, return_when="FIRST_COMPLETED")
        except TimeoutError:  # none finished within the second: look at the workers
            finished = set()
        for fut in finished:
            _collect(fut, futures[fut], out, report, progress)
        seen = _watch_workers(client, seen, report, progress, len(pending))
    _watch_workers(client, seen, report, progress, 0)


def _close(client: Any, plugin: str, scheduler: str | None) -> None:
    """The plugin off a cluster that lives on; a local cluster closed."""
    cluster = getattr(client, "cluster", None)
    if scheduler:
        with contextlib.suppress(Exception):  # a scheduler gone, or the plugin never added
            client.unregister_worker_plugin(plugin)
    client.close()
    if cluster is not None and not scheduler:
        cluster.close()


def _collect(fut: Any, part: Partition, out: Path, report: RunReport,
             progress: Progress) -> None:
    if fut.status == "finished":
        write_partition(out, part, fut.result())
        report.written.append(part.id)
        progress.advance(part)
        return
    exc = fut.exception()
    why = ("the workers running it died, one after another (Dask's allowed failures)"
           if type(exc).__name__ == "KilledWorker" else f"{type(exc).__name__}: {exc}")
    report.failed[part.id] = why
    progress.message(f"partition {part.id} not done ({why}); run the same command again "
                     "to compute it")


#: A worker's departure as the scheduler logs it: (the scheduler's time, its address).
Departure = tuple[float, str]


def _departures(client: Any) -> set[Departure] | None:
    """The workers the scheduler has removed (its ``remove-worker`` events on the topic
    ``all``), or ``None`` when it cannot be asked now."""
    try:
        events = client.get_events("all")
    except (OSError, TimeoutError):
        return None
    return {(float(t), str(m["worker"])) for t, m in events
            if isinstance(m, dict) and m.get("action") == "remove-worker" and "worker" in m}


def _watch_workers(client: Any, seen: set[Departure], report: RunReport, progress: Progress,
                   pending: int) -> set[Departure]:
    """Report each worker the scheduler removed since ``seen`` (the departures known
    before): only the scheduler's own event says a worker is gone. A reply of
    ``scheduler_info`` without its worker list (it happens under load) says nothing of
    the kind, and a scheduler that does not answer now is asked again next time."""
    now = _departures(client)
    if now is None:
        return seen
    for _, address in sorted(now - seen):
        report.workers_lost.append(address)
        progress.message(f"worker {address} left the cluster; a partition it was computing "
                         f"or holding goes to another worker ({pending} partitions to go)")
    return seen | now
