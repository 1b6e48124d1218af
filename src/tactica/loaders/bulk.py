"""Building many long-lived objects at once (the dataset's units, converted or read from
the cache; every faction's rules) with Python's cyclic garbage collector paused.

The collector runs after every few hundred new objects and, every so often, walks every
object alive. While a loader builds tens of thousands of records that are all kept, each
walk finds nothing to free and costs more as the heap grows: about a third of the time of
building every faction's rules. Reference counting still frees whatever is dropped; the
collector runs again, as before, when the block ends.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collector_paused"]


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
