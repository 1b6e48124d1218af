"""``python -m tactica.mcp_server``: the server over stdin/stdout, without the command
line around it (``tactica mcp`` is the same server with its options)."""

from tactica.mcp_server.transport import run_stdio

run_stdio()
