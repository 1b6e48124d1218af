"""BLAS pinned to one thread while the exact engine runs.

The engine's matrix products are small to mid-sized (tens to a few hundred rows); on a
shared 2-core machine OpenBLAS's default of one thread per core makes them 2-14x slower
(threads spin and wait on each other, and on every other process). ``one_blas_thread``
limits the BLAS pool to one thread for the duration of a call and restores it after,
through ``threadpoolctl`` (the library that knows every BLAS numpy may be linked with),
its controllers found once for each set of BLAS libraries that can be loaded (numpy's;
scipy's own, once ``scipy.linalg`` is imported, by the plan's integer programme for one),
and OpenBLAS's own two functions with them (``_pool``):
entering the limit then costs about a microsecond per BLAS library, and once per batch
(``batch.calculate_many``), not per calculation in it.

>>> @one_blas_thread
... def f() -> int:
...     return 1
>>> f()
1
"""

from __future__ import annotations

import functools
import sys
import threading
from collections.abc import Callable
from typing import Any, NamedTuple, ParamSpec, TypeVar

__all__ = ["one_blas_thread"]

P = ParamSpec("P")
R = TypeVar("R")


class _Pool(NamedTuple):
    """One BLAS library's thread count: read it, set it."""

    get: Callable[[], int | None]
    set: Callable[[int], object]


def _pool(lib: Any) -> _Pool:
    """OpenBLAS's own two functions, found once (``threadpoolctl``'s controller looks
    each one up by name at every call, which a small calculation's share of noticed,
    tenfold after another library's work: its Python code no longer in the CPU's
    caches); another BLAS through its controller. OpenBLAS's functions set its one
    thread pool: each call puts back what it found."""
    if type(lib).__name__ == "OpenBLASController" and getattr(
            lib, "threading_layer", None) != "openmp":
        symbol = getattr(lib, "_get_symbol", None)
        get = symbol("openblas_get_num_threads") if callable(symbol) else None
        put = symbol("openblas_set_num_threads") if callable(symbol) else None
        if get is not None and put is not None:
            return _Pool(get, put)
    return _Pool(lib.get_num_threads, lib.set_num_threads)


@functools.cache
def _blas(with_scipy: bool) -> tuple[_Pool, ...]:
    """The thread pools of the BLAS libraries loaded (``threadpoolctl``'s controllers):
    numpy's, and scipy's when ``with_scipy`` (the key: the libraries found depend on it,
    nothing else)."""
    import numpy as np
    from threadpoolctl import ThreadpoolController

    np.ones((2, 2)) @ np.ones((2, 2))  # BLAS is loaded (lazily on some builds)
    return tuple(_pool(lib) for lib in
                 ThreadpoolController().select(user_api="blas").lib_controllers)


_depth = threading.local()  # calls under way in this thread (nested ones: one limit)


def one_blas_thread(fn: Callable[P, R]) -> Callable[P, R]:
    """Run ``fn`` with the BLAS thread pool limited to one thread (a call made inside
    another limited call, e.g. each calculation of a batch, keeps the outer limit). What
    ``ThreadpoolController.limit`` does, on the BLAS controllers found once: each one's
    thread count is read, set to 1 where it is not, and set back after."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        if getattr(_depth, "n", 0):
            return fn(*args, **kwargs)
        _depth.n = 1
        pools = _blas("scipy.linalg" in sys.modules)
        before = [pool.get() for pool in pools]
        try:
            for pool, n in zip(pools, before, strict=True):
                if n is not None and n != 1:
                    pool.set(1)
            return fn(*args, **kwargs)
        finally:
            for pool, n in zip(pools, before, strict=True):
                if n is not None and n != 1:
                    pool.set(n)
            _depth.n = 0

    return wrapper
