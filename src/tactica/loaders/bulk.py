"""Building many long-lived objects at once (the dataset's units, converted or read from
the cache; every faction's rules) with Python's cyclic garbage collector paused.

The collector runs after every few hundred new objects and, every so often, walks every
object alive. While a loader builds tens of thousands of records that are all kept, each
walk finds nothing to free and costs more as the heap grows: about a third of the time of
building every faction's rules. Reference counting still frees whatever is dropped; the
collector runs again, as before, when the block ends.

A command line starts the same way (``pause_start_up``, ``start_up_done``): the modules it
imports are all kept, so the collector is paused until the command's code is imported.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collector_paused", "pause_start_up", "start_up_done"]


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
