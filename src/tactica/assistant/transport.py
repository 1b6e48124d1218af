"""How the server is reached: over stdin/stdout (an assistant starts ``tactica mcp`` as
a subprocess; the default: ``tactica.assistant.stdio``, which answers every line) or over
streamable HTTP (``tactica mcp --http``, the SDK's).

Over HTTP every posted body is checked first (``http_guard``: one line for a body that
is no JSON-RPC message, as over stdio), then the SDK's own guards apply: requests whose
Host or Origin is not localhost are refused when listening on a loopback address (DNS
rebinding), a request body is at most
``MAX_ARGUMENT_BYTES`` plus the protocol's envelope, idle sessions expire; uvicorn caps
connections and idle keep-alives as ``tactica serve`` does.
"""

from __future__ import annotations

from .server import MAX_ARGUMENT_BYTES, Limits, create_server

__all__ = ["run_http", "run_stdio"]

#: The protocol's envelope around a tool call's arguments.
_ENVELOPE = 16 * 1024


def run_stdio(limits: Limits | None = None) -> None:
    """Serve one assistant over stdin/stdout until it closes them."""
    from .stdio import serve_stdio

    serve_stdio(create_server(limits))


def run_http(host: str = "127.0.0.1", port: int = 8765,
             limits: Limits | None = None) -> None:
    """Serve over streamable HTTP at ``http://HOST:PORT/mcp``."""
    import uvicorn

    from .http_guard import OneLineBodies

    server = create_server(limits)
    app = server.streamable_http_app(host=host,
                                     max_request_body_size=MAX_ARGUMENT_BYTES + _ENVELOPE)
    guarded = OneLineBodies(app, MAX_ARGUMENT_BYTES + _ENVELOPE)
    uvicorn.run(guarded, host=host, port=port, log_level="warning", limit_concurrency=256,
                timeout_keep_alive=5)
