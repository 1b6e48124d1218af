"""The MCP server driven through the SDK's own client: in-process over memory streams
(``Client(server, mode="legacy")``: the initialize handshake and JSON-RPC framing over an
in-memory transport) and, in ``test_stdio.py``, ``tactica mcp`` as a subprocess."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from mcp.server.lowlevel import Server

from tactica.assistant import create_server


@pytest.fixture(scope="session")
def server() -> Iterator[Server[Any]]:
    yield create_server()
