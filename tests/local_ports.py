"""Local servers the tests start in a process of their own (the MCP server over HTTP, a
Dask scheduler): a free port to give one, and whether it is listening yet."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on now (the system's pick)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def listening(port: int) -> bool:
    """Whether a server accepts connections on 127.0.0.1 ``port``."""
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0
