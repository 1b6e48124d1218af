"""Building many long-lived objects at once (the dataset's units, converted or read from
the cache; every faction's rules) with Python's cyclic garbage collector paused.

The collector runs after every few hundred new objects and, every so often, walks every
object alive. While a loader builds tens of thousands of records that are all kept, each
walk finds nothing to free and costs more as the heap grows: about a third of the time of
building every faction's rules. Reference counting still frees whatever is dropped; the
collector runs again, as before, when the block ends.

A command line starts the same way (``pause_start_up``, ``start_up_done``): the modules it
imports are all kept, so the collector is paused until the command's code is imported.
Work that makes many short-lived objects and almost no cycles (a meta-table partition)
runs with the collector's first generation waiting longer (``rare_collections``).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["GEN0_RARE", "collector_paused", "loaded_for_good", "pause_start_up",
           "rare_collections", "start_up_done"]


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for the block (if it was running).

    >>> import gc
    >>> with collector_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()


@contextmanager
def loaded_for_good() -> Iterator[None]:
    """The collector paused while the block loads what the process keeps for its life
    (a library's datasheets, converted as they are first read), then all of it frozen
    out of the collector's way (``gc.freeze``): no collection walks it, at the end of
    the block or later. Reading every unit of the library for ``tactica meta`` made three
    full collections (0.24 s); paused alone, the first collection after it walked it all
    once more (0.09 s).

    >>> with loaded_for_good():
    ...     gc.isenabled()
    False
    >>> gc.isenabled(), gc.get_count()[0] < 100
    (True, True)
    """
    with collector_paused():
        try:
            yield
        finally:
            gc.freeze()  # before the collector resumes: nothing of it is walked


#: The first-generation threshold of ``rare_collections`` (Python's default: 700).
GEN0_RARE = 100_000


@contextmanager
def rare_collections() -> Iterator[None]:
    """Raise the collector's first-generation threshold to ``GEN0_RARE`` for the block,
    then put the caller's back (left as it is when another block, in another thread,
    raised it already): the collector runs a hundred times less often meanwhile.

    >>> old = gc.get_threshold()
    >>> with rare_collections():
    ...     gc.get_threshold()[0]
    100000
    >>> gc.get_threshold() == old
    True
    """
    old = gc.get_threshold()
    if old[0] >= GEN0_RARE:
        yield
        return
    gc.set_threshold(GEN0_RARE, *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


#: Whether ``pause_start_up`` paused the collector (and ``start_up_done`` should resume it).
_start_up = {"paused": False}


def pause_start_up() -> None:
    """Pause the collector while a command starts (the ``tactica`` console script).

    Starting a command builds only objects kept for the process's life (its modules,
    their classes, pydantic's validators, typer's option parsers); the collector, run
    every few hundred new objects, walked them all about 150 times in a warm ``tactica
    calc``, a fifth of its time, and found nothing to free. ``start_up_done`` resumes it.
    """
    if gc.isenabled():
        gc.disable()
        _start_up["paused"] = True


def start_up_done() -> None:
    """The command's code is imported: what start-up built is moved out of the
    collector's way (``gc.freeze``: never walked again, as it is never freed) and the
    collector resumes, for whatever the command builds from now on. Does nothing unless
    ``pause_start_up`` paused the collector (a test runner, the Python API).

    >>> start_up_done()  # nothing paused here
    >>> gc.isenabled()
    True
    """
    if _start_up["paused"]:
        _start_up["paused"] = False
        gc.freeze()
        gc.enable()
