"""The runner's messages when a worker leaves or a partition fails (the cluster tests
kill real workers; these check what the player is told, with stand-ins for Dask)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tactica.meta.run import RunReport, Silent, _collect, _watch_workers
from tactica.meta.tasks import Partition

PART = Partition(id="11th-necrons-000", edition="11th", faction="Necrons",
                 attackers=("Warriors",))


class _Told(Silent):
    def __init__(self) -> None:
        self.messages: list[str] = []
        self.written: list[str] = []

    def message(self, text: str) -> None:
        self.messages.append(text)

    def advance(self, part: Partition) -> None:
        self.written.append(part.id)


class _Client:
    """A Dask client's replies: the scheduler's events (``remove-worker`` for each gone
    worker, at a time of its own) and ``scheduler_info``, with or without its list."""

    def __init__(self, workers: list[str], gone: list[str] = (),  # type: ignore[assignment]
                 info: dict[str, Any] | None = None) -> None:
        self.workers = workers
        self.gone = list(gone)
        self.info = info

    def scheduler_info(self) -> dict[str, Any]:
        return {"workers": {w: {} for w in self.workers}} if self.info is None else self.info

    def get_events(self, topic: str) -> tuple[tuple[float, dict[str, Any]], ...]:
        assert topic == "all"
        added = tuple((float(i), {"action": "add-worker", "worker": w})
                      for i, w in enumerate(self.workers))
        return added + tuple((100.0 + i, {"action": "remove-worker", "worker": w,
                                          "processing-tasks": set()})
                             for i, w in enumerate(self.gone))


class KilledWorker(Exception):  # Dask's exception, recognised by its name
    pass


class _Future:
    def __init__(self, status: str, value: Any) -> None:
        self.status = status
        self.value = value

    def result(self) -> Any:
        return self.value

    def exception(self) -> Any:
        return self.value


def test_a_worker_that_leaves_is_named(tmp_path: Path) -> None:
    """The scheduler's ``remove-worker`` event names the worker, once."""
    report, told = RunReport(tmp_path, 3), _Told()
    before = _Client(["tcp://127.0.0.1:1", "tcp://127.0.0.1:2"], gone=[])
    seen = _watch_workers(before, set(), report, told, 3)
    assert seen == set() and not told.messages
    after = _Client(["tcp://127.0.0.1:2"], gone=["tcp://127.0.0.1:1"])
    now = _watch_workers(after, seen, report, told, 2)
    assert report.workers_lost == ["tcp://127.0.0.1:1"]
    (text,) = told.messages
    assert text.startswith("worker tcp://127.0.0.1:1 left the cluster") and "2 partitions" in text
    # a worker that joins is no news; one already reported is not reported again
    joined = _Client(["tcp://127.0.0.1:2", "tcp://127.0.0.1:3"], gone=["tcp://127.0.0.1:1"])
    assert _watch_workers(joined, now, report, told, 1) == now
    assert len(told.messages) == 1 and report.workers_lost == ["tcp://127.0.0.1:1"]


def test_a_reply_without_the_worker_list_loses_no_worker(tmp_path: Path) -> None:
    """Under load ``scheduler_info()`` may answer without its ``workers`` list (issue
    43: both workers of a full run were reported gone, alive throughout): only the
    scheduler's event counts, so such replies report nothing, nor does a scheduler that
    cannot be asked for a moment."""
    report, told = RunReport(tmp_path, 3), _Told()
    workers = ["tcp://127.0.0.1:1", "tcp://127.0.0.1:2"]
    seen: set[tuple[float, str]] = set()
    for info in ({}, {"type": "Scheduler"}, {"workers": {}}):
        seen = _watch_workers(_Client(workers, info=info), seen, report, told, 2)
    assert _Client(workers, info={}).scheduler_info().get("workers") is None  # the stand-in

    class _Busy(_Client):
        def get_events(self, topic: str) -> Any:
            raise TimeoutError("busy")

    assert _watch_workers(_Busy(workers), seen, report, told, 2) == seen
    assert report.workers_lost == [] and told.messages == []


def test_a_partition_whose_workers_died_is_left_for_the_rerun(tmp_path: Path) -> None:
    report, told = RunReport(tmp_path, 1), _Told()
    _collect(_Future("error", KilledWorker("x")), PART, tmp_path, report, told)
    assert list(report.failed) == [PART.id] and not report.complete
    assert "run the same command again" in told.messages[0]
    assert not list(tmp_path.iterdir())  # nothing written for it


def test_a_finished_partition_is_written_once(tmp_path: Path) -> None:
    report, told = RunReport(tmp_path, 1), _Told()
    _collect(_Future("finished", b"bytes"), PART, tmp_path, report, told)
    assert (tmp_path / f"part-{PART.id}.parquet").read_bytes() == b"bytes"
    assert report.written == told.written == [PART.id]


def test_a_worker_fields_every_target_of_each_edition_and_phase_once(
        seed_lib: Any, seed_selection: Any) -> None:
    """``field_targets`` (what each Dask worker runs as it joins) fields every target the
    partitions will meet: each of the selection's targets that exists in an edition of
    the plan (presets in every edition, a seed unit in its own), in both phases; the
    partitions computed after it give the rows computed without it."""
    from tactica.meta.compute import _target, compute_partition, field_targets
    from tactica.meta.tasks import plan, target_kind

    parts = plan(seed_selection, seed_lib)
    editions = {p.edition for p in parts}
    expected = sum(
        1 for e in editions for t in seed_selection.targets
        if target_kind(seed_lib, t) == "preset"
        or any(s.rules == e for s in seed_lib.datasheet_versions(t))) * 2
    cold = [compute_partition(seed_selection, p, seed_lib) for p in parts]
    _target.cache_clear()
    assert field_targets(seed_selection, seed_lib) == expected
    hits = _target.cache_info().hits
    warm = [compute_partition(seed_selection, p, seed_lib) for p in parts]
    assert _target.cache_info().hits > hits  # the partitions found them fielded
    assert _target.cache_info().currsize == expected
    assert warm == cold


def test_a_worker_joining_fields_the_targets_and_freezes_what_it_loaded(
        seed_selection: Any) -> None:
    """``prepare_worker`` (what each Dask worker runs as it joins): the targets fielded as
    ``field_targets`` fields them, then everything alive frozen out of the collector's
    way, so that the partitions' full collections do not walk the library again."""
    import gc

    from tactica.meta.compute import _target, field_targets
    from tactica.meta.workers import prepare_worker

    _target.cache_clear()
    gc.unfreeze()
    try:
        fielded = prepare_worker(seed_selection)
        assert gc.get_freeze_count() > 0
        assert fielded == field_targets(seed_selection) == _target.cache_info().currsize
    finally:
        gc.freeze()  # the run's own rule (tests/conftest.py): never leave it unfrozen


def test_a_performance_report_without_bokeh_is_refused_first(
        tmp_path: Path, monkeypatch: Any) -> None:
    """Dask draws its performance report with bokeh: without it the run is refused in
    one line before anything is written (not after the whole run, by Dask)."""
    import importlib.util

    from tactica.meta import Selection, run

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "bokeh" else real(name, *a))
    sel = Selection(attackers=("Primus",), targets=("meq",), dataset=False)
    try:
        run(sel, tmp_path / "t", mode="local", performance_report=tmp_path / "r.html")
    except ValueError as exc:
        assert "bokeh" in str(exc) and "\n" not in str(exc)
    else:
        raise AssertionError("not refused")
    assert not (tmp_path / "t").exists()
