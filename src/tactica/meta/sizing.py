"""The size model of a meta run: the work a selection is, before it is done, and whether
a local Dask cluster pays for its start.

The table's time follows its matchups (``tasks.matchups``): fielding each target once
per edition and phase, then a nearly even cost a row (``ROW_SECONDS``: the full unit x
unit table, 2,402,432 rows, took 1.56 CPU-minutes a million, ``benchmarks/README.md``,
stop 38). A local cluster adds each worker's start (a process, its imports, the
library: ``WORKER_START``) and fields the targets in every worker, in parallel; it
divides the rows among the workers that have a core. ``mode="auto"`` starts one only
when that is predicted to save at least a fifth of the wall time (``MARGIN``): on two
cores that is a table of some 170,000 rows or more (every unit against the ten
presets, 21,980 rows, stays in-process; one faction against every unit, Necrons' 124,944
rows, is about even, and stays too).

>>> small = Estimate(matchups=21_980, fielded=40)
>>> small.cluster_pays(workers=2, cores=2)
False
>>> Estimate(matchups=2_402_432, fielded=2_192).cluster_pays(workers=2, cores=2)
True
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from ..library import Library
from .tasks import Partition, Selection, matchups, targets_in

__all__ = ["FIELD_SECONDS", "MARGIN", "ROW_SECONDS", "WORKER_START", "Estimate", "cores",
           "estimate"]

#: CPU seconds a matchup, fielding the attacker, the engine and the file included
#: (1.56 CPU-minutes per million rows on the full table, quiet, rounded up).
ROW_SECONDS = 1.0e-4
#: CPU seconds to field one target in one edition and phase (2,192 in 0.83 s here).
FIELD_SECONDS = 4.0e-4
#: Seconds for a local worker to start: its process, imports and the library (issue 43:
#: Necrons against every unit took 26.5 CPU-s on two workers against 16.7 in-process,
#: about 5 s more a worker; ``bench_cluster.py``: 14-15 s at a load average of 8).
WORKER_START = 5.0
#: A local cluster must be predicted to take at most this share of the in-process time.
MARGIN = 0.8


@dataclass(frozen=True)
class Estimate:
    """The work of a run: its ``matchups`` (rows) and the targets it fields (``fielded``:
    one per target, edition and phase)."""

    matchups: int
    fielded: int

    def in_process(self) -> float:
        """Predicted seconds in this process (the library already loaded)."""
        return self.fielded * FIELD_SECONDS + self.matchups * ROW_SECONDS

    def cluster(self, workers: int, cores: int) -> float:
        """Predicted wall seconds on a local cluster of ``workers`` on ``cores`` cores."""
        busy = max(1, min(workers, cores))
        return WORKER_START + self.fielded * FIELD_SECONDS + self.matchups * ROW_SECONDS / busy

    def cluster_pays(self, workers: int, cores: int) -> bool:
        """Whether a local cluster saves at least ``1 - MARGIN`` of the time."""
        return self.cluster(workers, cores) <= MARGIN * self.in_process()


def estimate(selection: Selection, lib: Library, parts: Sequence[Partition]) -> Estimate:
    """The work of computing ``parts`` of ``selection`` (module text)."""
    per = {(p.edition, p.faction): 0 for p in parts}
    for edition, faction in per:
        per[edition, faction] = matchups(selection, lib, edition, faction)
    rows = sum(len(p.attackers) * per[p.edition, p.faction] for p in parts)
    editions = dict.fromkeys(p.edition for p in parts)
    fielded = sum(len(targets_in(selection, lib, e)) for e in editions) * len(selection.phases)
    return Estimate(rows, fielded)


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
