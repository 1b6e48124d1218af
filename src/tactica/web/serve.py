"""Serving the app: ``run(app, host, port)`` is uvicorn with the connection guard
(``tactica.web.connections``) and the server limits below, as ``tactica serve`` runs it.

``take_address(host, port)`` takes the address first: a port in use or a host that is not
an address of this machine is refused at once, in one line (``AddressError``), before the
app or its workers are started (``tactica serve`` says so and exits with code 2, before
it prints the address). uvicorn listens on it once the app has started, so a connection
is refused until then, as when uvicorn took the address itself.
``server_options(limits)`` gives the same as ``uvicorn.Config`` keywords, for a program
that starts uvicorn itself.
"""

from __future__ import annotations

import errno
import socket
from typing import Any

from .connections import Limits, guarded_protocol
from .guard import MAX_HEADER_BYTES

__all__ = ["AddressError", "Limits", "default_limits", "run", "server_options", "take_address"]


class AddressError(ValueError):
    """The address cannot be served on: its message is one line naming the option."""


def _refusal(host: str, port: int, exc: OSError) -> str:
    where = f"{host}:{port}" if ":" not in host else f"[{host}]:{port}"
    if exc.errno == errno.EADDRINUSE:
        return (f"--port {port}: {where} is already in use (another server is listening "
                "there); stop it or choose another --port")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return (f"--port {port}: not allowed to listen on {where} (ports below 1024 need "
                "administrator rights); choose another --port")
    if exc.errno == errno.EADDRNOTAVAIL:
        return (f"--host {host!r}: not an address of this machine (use 127.0.0.1 for this "
                "machine only, 0.0.0.0 for every network)")
    return f"--host {host!r} --port {port}: cannot listen there ({exc.strerror or exc})"


def take_address(host: str = "127.0.0.1", port: int = 8000) -> socket.socket:
    """A socket bound to ``host``:``port`` as uvicorn binds one (address reuse on, so a
    restart does not wait for old connections to time out), not listening yet;
    ``AddressError`` when the address cannot be had.

    >>> server = socket.create_server(("127.0.0.1", 0))  # another server, listening
    >>> try:
    ...     take_address("127.0.0.1", server.getsockname()[1])
    ... except AddressError as exc:
    ...     print(str(exc).startswith("--port"), "already in use" in str(exc))
    True True
    >>> mine = take_address("127.0.0.1", 0)
    >>> mine.getsockname()[0]
    '127.0.0.1'
    >>> mine.close(), server.close()
    (None, None)
    """
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        reason = exc.strerror if isinstance(exc, socket.gaierror) else str(exc)
        raise AddressError(f"--host {host!r}: not a host name or address this machine can "
                           f"find ({reason})") from None
    family, kind, proto, _, address = found[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise AddressError(_refusal(host, port, exc)) from None
    return sock


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
        limits: Limits | None = None, log_level: str = "info",
        sock: socket.socket | None = None) -> None:
    """Serve ``app`` until interrupted, on ``sock`` (``take_address``'s) or else on
    ``host``:``port`` (``AddressError`` when it cannot be listened on). The process is
    the server's: once the app has loaded, what it loaded is frozen out of the garbage
    collector's way (``tactica.web.app._freeze_heap``)."""
    import uvicorn

    sock = sock if sock is not None else take_address(host, port)
    state = getattr(app, "state", None)
    if state is not None:  # this process is the server's: its heap frozen once loaded
        state.freeze_heap = True
    bound = sock.getsockname()
    config = uvicorn.Config(app, host=str(bound[0]), port=int(bound[1]), log_level=log_level,
                            **server_options(limits))
    uvicorn.Server(config).run(sockets=[sock])
