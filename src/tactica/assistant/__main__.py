"""``python -m tactica.assistant``: the server over stdin/stdout, without the command
line around it (``tactica mcp`` is the same server with its options). The assistant's
``initialize`` is answered before the SDK is imported (``tactica.assistant.early``)."""

from tactica.assistant.early import answer_early

answer_early()

from tactica.assistant.transport import run_stdio  # noqa: E402  (after the answer)

run_stdio()
