"""What each Dask worker of a meta run does once: load the library and field the
selection's targets (``prepare_worker``), so that every partition it computes finds them
fielded. A worker plugin (``Prepare``) does it on each worker present when the run
starts and on each that joins later, on a thread of its own (the worker keeps talking
to the scheduler meanwhile); a partition that arrives meanwhile waits for it
(``compute.PREPARING``) rather than fielding the same targets beside it.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin

from .compute import PREPARING, field_targets
from .tasks import Selection

__all__ = ["Prepare", "prepare_worker"]

_log = logging.getLogger(__name__)


def prepare_worker(selection: Selection) -> int:
    """What a Dask worker runs as it joins: the library loaded and the targets fielded
    (``field_targets``), then what that loaded is frozen out of the garbage collector's
    way (``gc.freeze``): it lives as long as the worker, and without the freeze every
    full collection during the partitions walks the whole library again. Returns how
    many targets were fielded."""
    with PREPARING:
        fielded = field_targets(selection)
        gc.collect()
        gc.freeze()
    return fielded


class Prepare(WorkerPlugin):
    """The worker plugin of one selection (registered by ``run`` under ``name``)."""

    def __init__(self, selection: Selection) -> None:
        self.selection = selection
        self.name = f"tactica-meta-{selection.fingerprint()}"

    async def setup(self, worker: Any) -> None:
        """Prepare on a thread: the worker's event loop stays free. A failure is logged
        and left to the partitions, which field what they need and fail with why."""
        try:
            await asyncio.get_running_loop().run_in_executor(
                None, prepare_worker, self.selection)
        except Exception as exc:  # reported by the partitions instead
            _log.warning("tactica meta: preparing the worker failed: %s", exc)
