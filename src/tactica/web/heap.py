"""The server's heap out of the garbage collector's way.

A full collection walks every object the process holds that is not frozen: in the
server, the library (about 320,000 objects with the bundled dataset, about 1 s to walk),
every faction's rules once a calculator page has asked for them (280,000 more), the
index of rules. It runs every few seconds under load, and every request in flight waits
for it: that, not the request's work, was the server's p99 at 16 clients (issue 45,
``benchmarks/README.md``: 0.15-0.27 s pauses with the seed pages alone). The calculation
workers freeze what they load for the same reason (``tactica.web.compute.main``).

``freeze_loaded()`` runs once the app has loaded (``tactica.web.app``'s start-up, when
``tactica.web.serve.run`` serves it: the process is the server's): the modules the API
imports on first use are imported, a full collection is made and what survives it is
frozen (``gc.freeze``). What the server builds later and keeps (the faction rules, the
rule index, on a page's first ask) is frozen after the first full collection that takes
longer than ``SLOW`` seconds: such a collection means a large new set of long-lived
objects. A frozen object that later becomes part of a garbage cycle is not collected:
freezing only after a slow collection keeps that to the few times a large cache is built.
"""

from __future__ import annotations

import gc
import time
from typing import Any

from ..service import load_answer_modules

__all__ = ["SLOW", "freeze_loaded"]

#: A full collection longer than this (seconds) freezes what survived it.
SLOW = 0.02

#: Modules the API imports on its first request.

_started: list[float] = []


def _after_slow_collections(phase: str, info: dict[str, Any]) -> None:
    """A ``gc.callbacks`` entry: freeze after a full collection that took long."""
    if info.get("generation") != 2:
        return
    if phase == "start":
        _started[:] = [time.perf_counter()]
    elif _started and time.perf_counter() - _started[0] > SLOW:
        _started.clear()
        gc.freeze()


def freeze_loaded() -> None:
    """Freeze what the server has loaded, and later what it keeps (module text)."""
    load_answer_modules()
    gc.collect()
    gc.freeze()
    if _after_slow_collections not in gc.callbacks:
        gc.callbacks.append(_after_slow_collections)
