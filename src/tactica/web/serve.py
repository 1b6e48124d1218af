"""Serving the app: ``run(app, host, port)`` is uvicorn with the connection guard
(``tactica.web.connections``) and the server limits below, as ``tactica serve`` runs it.

``server_options(limits)`` gives the same as ``uvicorn.Config`` keywords, for a program
that starts uvicorn itself.
"""

from __future__ import annotations

from typing import Any

from .connections import Limits, guarded_protocol
from .guard import MAX_HEADER_BYTES

__all__ = ["Limits", "default_limits", "run", "server_options"]

#: Seconds an idle kept-alive connection stays open.
KEEP_ALIVE = 5


def default_limits() -> Limits:
    """``Limits()``, with the cap on all connections lowered to what the process may open
    (its file limit, less room for the workers' pipes and the app's files): past that,
    accepting fails and no connection could be made room for.

    >>> default_limits().max_connections <= Limits().max_connections
    True
    """
    cap = Limits().max_connections
    try:
        import resource

        files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, OSError, ValueError):  # no such limit on this system
        return Limits()
    if files != resource.RLIM_INFINITY:
        cap = max(16, min(cap, files - 100))
    return Limits(max_connections=cap)


def server_options(limits: Limits | None = None) -> dict[str, Any]:
    """uvicorn's settings: the guarded protocol (a fresh connection registry; ``limits``
    by default ``default_limits()``), the idle keep-alive timeout and the largest
    incomplete request head h11 buffers (a longer header block is refused with 400).
    uvicorn's ``limit_concurrency`` stays off: it counts open connections, slow ones
    included (``tactica.web.connections``).

    >>> options = server_options(Limits(per_client=8))
    >>> options["http"].registry.limits.per_client, options["limit_concurrency"]
    (8, None)
    """
    return {"http": guarded_protocol(limits or default_limits()),
            "timeout_keep_alive": KEEP_ALIVE,
            "h11_max_incomplete_event_size": MAX_HEADER_BYTES, "limit_concurrency": None}


def run(app: Any, host: str = "127.0.0.1", port: int = 8000, *,
        limits: Limits | None = None, log_level: str = "info") -> None:
    """Serve ``app`` until interrupted."""
    import uvicorn

    uvicorn.run(app, host=host, port=port, log_level=log_level, **server_options(limits))
