"""``tactica mcp``: the Model Context Protocol server for AI assistants
(``tactica.assistant``), over stdin/stdout by default or streamable HTTP with ``--http``.
"""

from __future__ import annotations

from typing import Annotated

import typer

__all__ = ["mcp"]


def mcp(
    http: Annotated[bool, typer.Option(
        "--http", help="serve streamable HTTP at http://HOST:PORT/mcp instead of stdio")
    ] = False,
    host: Annotated[str, typer.Option(help="address to listen on (--http)")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="port (--http)")] = 8765,
    timeout: Annotated[float, typer.Option(
        min=0.5, max=60, help="seconds a tool call may run")] = 5.0,
    workers: Annotated[int, typer.Option(
        min=1, max=16, help="tool calls computed at once")] = 2,
    army_timeout: Annotated[float, typer.Option(
        min=1, max=600, help="seconds a matchup or plan call may run")] = 60.0,
) -> None:
    """Serve tactica's tools to an AI assistant (Model Context Protocol): simulate_combat,
    calculate, find_units, lookup_unit, lookup_rule, list_units, validate_list, matchup,
    plan. Read-only."""
    if not http:  # initialize answered before the SDK is imported (assistant.early)
        from ..assistant.early import answer_early

        answer_early()
    from ..assistant import Limits, run_http, run_stdio

    limits = Limits(timeout=timeout, workers=workers, army_timeout=army_timeout)
    if http:
        typer.echo(f"tactica MCP server: http://{host}:{port}/mcp; Ctrl+C stops it",
                   err=True)
        run_http(host, port, limits)
    else:
        run_stdio(limits)
