"""``python -m tactica.assistant``: the server over stdin/stdout, without the command
line around it (``tactica mcp`` is the same server with its options)."""

from tactica.assistant.transport import run_stdio

run_stdio()
